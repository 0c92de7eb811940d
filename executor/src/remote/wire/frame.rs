//! Reading an incoming frame: an answer (`resolve` or `reject`) is evaluated straight from the
//! frame's text into a [`WireValue`], with no JSON tree built in between; any other message
//! is parsed as a [`Message`].
//!
//! An answer can be large (an outcome of two hundred thousand log lines is several megabytes
//! of text): parsed into a JSON tree first, it would be held as text, as a tree and as a
//! value at once. Read here, the text and the value are the only forms: each string is
//! copied once from the text into the value, each escaped array is filled item by item.
//!
//! The evaluation is [`decode`]'s, form for form. An answer that does not read (malformed
//! JSON, an unknown or malformed expression) is read again through [`Message::parse`] and
//! [`decode`], so its refusal says exactly what theirs says.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::codec::{ExpressionError, MAX_DEPTH, Tables, decode, decode_tagged};
use super::message::Message;
use super::value::WireValue;

/// An incoming message, its answer already evaluated.
#[derive(Debug)]
pub enum Incoming {
    /// `["resolve", id, expr]` (`rejected: false`) or `["reject", id, expr]`, with `expr`
    /// evaluated against the session's tables.
    Answer {
        /// The import the answer settles.
        id: i64,
        /// Whether it is a rejection.
        rejected: bool,
        /// The evaluated expression.
        value: WireValue,
    },
    /// Any other message, its expressions in their JSON form.
    Message(Message),
}

/// Reads one frame's text. Stubs and promises in an answer are imported through `tables`.
/// The error is the abort reason: the text [`Message::parse`] or [`decode`] gives.
pub fn read(text: &str, tables: &mut dyn Tables) -> Result<Incoming, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let streamed = FrameSeed {
        tables: &mut *tables,
    }
    .deserialize(&mut deserializer)
    .and_then(|answer| deserializer.end().map(|()| answer));
    match streamed {
        Ok(Some((id, rejected, value))) => Ok(Incoming::Answer {
            id,
            rejected,
            value,
        }),
        // Not an answer: parsed whole, as every other message is.
        Ok(None) => Message::parse(text).map(Incoming::Message),
        Err(streamed) => Err(refusal(text, tables, streamed)),
    }
}

/// Why a frame that did not read as an answer is refused, in the words of the tree reader
/// (which reads it again); the streamed reader's own text if the tree reader accepts it.
fn refusal(text: &str, tables: &mut dyn Tables, streamed: serde_json::Error) -> String {
    match Message::parse(text) {
        Err(text) => text,
        Ok(Message::Resolve(_, expr) | Message::Reject(_, expr)) => match decode(&expr, tables) {
            Err(ExpressionError(text)) => text,
            Ok(_) => format!("An answer could not be read: {streamed}."),
        },
        Ok(_) => format!("A message could not be read: {streamed}."),
    }
}

/// The whole frame: `Some((id, rejected, value))` for an answer, `None` (read no further) for
/// any other message.
struct FrameSeed<'t> {
    tables: &'t mut dyn Tables,
}

type Answer = Option<(i64, bool, WireValue)>;

impl<'de> DeserializeSeed<'de> for FrameSeed<'_> {
    type Value = Answer;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Answer, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FrameSeed<'_> {
    type Value = Answer;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a message")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Answer, A::Error> {
        let kind: Option<String> = seq.next_element()?;
        let rejected = match kind.as_deref() {
            Some("resolve") => false,
            Some("reject") => true,
            _ => {
                // The rest is skipped, not kept: the tree reader reads the message.
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                return Ok(None);
            }
        };
        let id: i64 = seq
            .next_element()?
            .ok_or_else(|| de::Error::custom("an answer has no id"))?;
        let value = seq
            .next_element_seed(ExprSeed {
                tables: self.tables,
                depth: 0,
            })?
            .ok_or_else(|| de::Error::custom("an answer has no expression"))?;
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom("an answer has more than three parts"));
        }
        Ok(Some((id, rejected, value)))
    }

    // Anything but an array is not an answer: the tree reader refuses it.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Answer, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Answer, E> {
        Ok(None)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Answer, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Answer, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Answer, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Answer, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Answer, E> {
        Ok(None)
    }
}

/// One expression, evaluated as [`decode`] evaluates it.
struct ExprSeed<'t> {
    tables: &'t mut dyn Tables,
    depth: usize,
}

impl ExprSeed<'_> {
    fn nested(&mut self) -> ExprSeed<'_> {
        ExprSeed {
            tables: &mut *self.tables,
            depth: self.depth + 1,
        }
    }
}

impl<'de> DeserializeSeed<'de> for ExprSeed<'_> {
    type Value = WireValue;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<WireValue, D::Error> {
        if self.depth > MAX_DEPTH {
            return Err(de::Error::custom("an expression nests too deep"));
        }
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ExprSeed<'_> {
    type Value = WireValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an expression")
    }

    fn visit_unit<E: de::Error>(self) -> Result<WireValue, E> {
        Ok(WireValue::Null)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<WireValue, E> {
        Ok(WireValue::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<WireValue, E> {
        Ok(WireValue::Number(n as f64))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<WireValue, E> {
        Ok(WireValue::Number(n as f64))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<WireValue, E> {
        Ok(WireValue::Number(n))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<WireValue, E> {
        Ok(WireValue::String(s.to_string()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<WireValue, E> {
        Ok(WireValue::String(s))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<WireValue, A::Error> {
        let mut entries: Vec<(String, WireValue)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self.nested())?;
            entries.push((key, value));
        }
        merge_repeated_keys(&mut entries);
        // A vector grows by doubling from four: an object of two keys would hold twice its
        // entries (the tree reader sizes each object exactly).
        entries.shrink_to_fit();
        Ok(WireValue::Object(entries))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<WireValue, A::Error> {
        let head = HeadSeed(ExprSeed {
            tables: &mut *self.tables,
            depth: self.depth,
        });
        match seq.next_element_seed(head)? {
            Some(Head::Escaped(items)) => {
                if seq.next_element::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom("an escaped array has a second part"));
                }
                Ok(WireValue::Array(items))
            }
            Some(Head::Tag(name)) => {
                // A tagged form is small (an ID, digits, base64, an error): its parts are
                // read as JSON and evaluated by the tree reader's own rules.
                let mut parts = vec![Value::String(name)];
                while let Some(part) = seq.next_element::<Value>()? {
                    parts.push(part);
                }
                decode_tagged(&parts, self.tables, self.depth)
                    .map_err(|ExpressionError(text)| de::Error::custom(text))
            }
            None => Err(de::Error::custom("an empty array is no expression")),
        }
    }
}

/// The first part of an array expression: the escaped array itself, or a tag.
enum Head {
    Escaped(Vec<WireValue>),
    Tag(String),
}

struct HeadSeed<'t>(ExprSeed<'t>);

impl<'de> DeserializeSeed<'de> for HeadSeed<'_> {
    type Value = Head;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Head, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for HeadSeed<'_> {
    type Value = Head;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an escaped array or a tag")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Head, E> {
        Ok(Head::Tag(s.to_string()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Head, E> {
        Ok(Head::Tag(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Head, A::Error> {
        // The items are one level below the array, as the tree reader counts.
        let mut outer = self.0;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(outer.nested())? {
            items.push(item);
        }
        items.shrink_to_fit();
        Ok(Head::Escaped(items))
    }
}

/// A repeated key keeps its first place and takes the last value, as a JSON object read into
/// a tree does.
fn merge_repeated_keys(entries: &mut Vec<(String, WireValue)>) {
    let mut repeats = Vec::new();
    if entries.len() <= 8 {
        for later in 1..entries.len() {
            if let Some(first) = (0..later).find(|&i| entries[i].0 == entries[later].0) {
                repeats.push((first, later));
            }
        }
    } else {
        let mut first = HashMap::with_capacity(entries.len());
        for (index, (key, _)) in entries.iter().enumerate() {
            match first.entry(key.as_str()) {
                Entry::Occupied(seen) => repeats.push((*seen.get(), index)),
                Entry::Vacant(slot) => {
                    slot.insert(index);
                }
            }
        }
    }
    if repeats.is_empty() {
        return;
    }
    let mut dropped = HashSet::new();
    for (first, later) in repeats {
        let value = std::mem::replace(&mut entries[later].1, WireValue::Undefined);
        // Each repeat names the key's first place, so the latest value lands there.
        entries[first].1 = value;
        dropped.insert(later);
    }
    let mut index = 0;
    entries.retain(|_| {
        let kept = !dropped.contains(&index);
        index += 1;
        kept
    });
}
