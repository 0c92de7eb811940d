//! An outcome as a run keeps it once it has been compared: its digest, its size and the form
//! reports show ([`Stored`]); and our outcome as a run holds it while other columns are still
//! compared with it ([`Whole`]).
//!
//! Comparison is always of whole outcomes. What is written is [`Stored::shown`]: the outcome
//! itself when its compact JSON is at most [`WHOLE_BYTES`]; otherwise its elided form, in
//! which strings keep their first [`STRING_BYTES`] bytes, arrays (logs and calls included)
//! and objects their first [`ITEMS`] entries, and the whole keeps about [`KEPT_BYTES`] bytes
//! of string text (past that, an array keeps no more items and a string its first 64 bytes); everything cut is replaced by a marker saying how much was cut and its digest:
//!
//! - a string: `{"$elided": {"head": "<its first bytes>", "bytes": <its UTF-8 length>, "digest": "<of the whole string>"}}`
//! - the items of an array past the kept ones: one last item `{"$elided": {"items": <how many>, "bytes": <their JSON length>, "digest": "<of the cut items as an array>"}}`
//! - the entries of an object past the kept ones: the key `"$elided"` with `{"entries": <how many>, "bytes": …, "digest": "<of the cut entries as an object>"}`
//!
//! Every digest is `fnv1a64:<16 hex digits>`, 64-bit FNV-1a of the value's compact JSON, the
//! digest the baseline already gives a large outcome; an outcome's own digest names it in the
//! report's `outcomes` table.

use std::io::Write;
use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value, json};

/// Outcomes whose compact JSON is at most this many bytes are written whole.
pub const WHOLE_BYTES: usize = 16 * 1024;
/// About how many bytes of strings an elided outcome keeps in all.
pub const KEPT_BYTES: usize = 8 * 1024;
/// How many bytes a string of an elided outcome keeps at most.
pub const STRING_BYTES: usize = 1024;
/// How many items (of an array) or entries (of an object) an elided outcome keeps at most.
pub const ITEMS: usize = 64;
/// How many bytes a string keeps once the outcome's budget is spent.
const MIN_HEAD: usize = 64;

/// An outcome reduced to what a report writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    /// `fnv1a64:<hex>` of the whole outcome's compact JSON.
    pub digest: String,
    /// The length of the whole outcome's compact JSON.
    pub bytes: usize,
    /// The outcome whole, or elided when it is longer than [`WHOLE_BYTES`].
    pub shown: Arc<Value>,
}

impl Stored {
    /// The outcome reduced.
    pub fn of(outcome: &Value) -> Stored {
        let (digest, bytes) = digest_of(outcome);
        Stored::from_digest(outcome, digest, bytes)
    }

    fn from_digest(outcome: &Value, digest: String, bytes: usize) -> Stored {
        let shown = if bytes <= WHOLE_BYTES {
            outcome.clone()
        } else {
            let mut budget = KEPT_BYTES;
            elide(outcome, &mut budget)
        };
        Stored {
            digest,
            bytes,
            shown: Arc::new(shown),
        }
    }

    /// Whether [`Stored::shown`] is the elided form.
    pub fn elided(&self) -> bool {
        self.bytes > WHOLE_BYTES
    }

    /// The entry of the report's `outcomes` table: `{"bytes", "elided"?, "outcome"}`.
    pub fn entry(&self) -> Value {
        let mut entry = Map::new();
        entry.insert("bytes".into(), json!(self.bytes));
        if self.elided() {
            entry.insert("elided".into(), json!(true));
        }
        entry.insert("outcome".into(), (*self.shown).clone());
        Value::Object(entry)
    }

    /// A cell's outcome as a report holds it: a digest naming an entry of `outcomes` (reports
    /// that share outcomes), or the outcome itself (reports written before).
    pub fn read(value: &Value, outcomes: Option<&Value>) -> Result<Stored, String> {
        let Value::String(digest) = value else {
            return Ok(Stored::of(value));
        };
        let entry = outcomes
            .and_then(|table| table.get(digest))
            .ok_or_else(|| format!("the outcome {digest} is not in the report's \"outcomes\""))?;
        let shown = entry
            .get("outcome")
            .ok_or_else(|| format!("the report's outcome {digest} has no \"outcome\""))?;
        let bytes = entry
            .get("bytes")
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("the report's outcome {digest} has no \"bytes\""))?;
        Ok(Stored {
            digest: digest.clone(),
            bytes: bytes as usize,
            shown: Arc::new(shown.clone()),
        })
    }
}

/// Written as its digest; the report's `outcomes` table holds the outcome.
impl Serialize for Stored {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.digest)
    }
}

/// Our outcome while other columns are compared with it: its compact JSON text (a fraction
/// of the memory of the parsed value), deflated when it is large, and its reduced form. A run
/// holds every case's until the last column is done, so a few hostile outcomes of megabytes
/// of repeated log lines would otherwise cost the harness tens of megabytes for its whole run.
#[derive(Debug, Clone)]
pub struct Whole {
    text: Held,
    /// The reduced form, as reports store it.
    pub stored: Stored,
}

/// An outcome's text as a [`Whole`] holds it.
#[derive(Debug, Clone, PartialEq)]
enum Held {
    Plain(Box<str>),
    /// Deflated (the same text always deflates to the same bytes, so equal bytes are equal
    /// texts).
    Deflated(Box<[u8]>),
}

/// From this many bytes of text on, a [`Whole`] holds its text deflated.
pub const DEFLATED_FROM: usize = 64 * 1024;

impl Whole {
    /// The outcome as text and reduced.
    pub fn of(outcome: &Value) -> Whole {
        let (text, stored) = Whole::text_and_stored(outcome);
        let text = if text.len() < DEFLATED_FROM {
            Held::Plain(text.into_boxed_str())
        } else {
            use std::io::Write;
            let mut encoder = flate2::write::ZlibEncoder::new(
                Vec::with_capacity(text.len() / 16),
                flate2::Compression::fast(),
            );
            encoder
                .write_all(text.as_bytes())
                .expect("deflating into memory does not fail");
            Held::Deflated(
                encoder
                    .finish()
                    .expect("deflating into memory does not fail")
                    .into_boxed_slice(),
            )
        };
        Whole { text, stored }
    }

    /// An outcome compared once with ours and then reduced (another column's): its text is
    /// kept plain whatever its size, since deflating it would cost more than the comparison,
    /// which reads ours inflated as it goes.
    pub fn compared_once(outcome: &Value) -> Whole {
        let (text, stored) = Whole::text_and_stored(outcome);
        Whole {
            text: Held::Plain(text.into_boxed_str()),
            stored,
        }
    }

    fn text_and_stored(outcome: &Value) -> (String, Stored) {
        let text = serde_json::to_string(outcome).expect("outcomes always serialize");
        let digest = fnv1a64(text.as_bytes());
        let stored = Stored::from_digest(outcome, digest, text.len());
        (text, stored)
    }

    /// Just the reduced form, when nothing will be compared with the outcome.
    pub fn into_stored(self) -> Stored {
        self.stored
    }

    /// The outcome, parsed again.
    pub fn value(&self) -> Value {
        match &self.text {
            Held::Plain(text) => serde_json::from_str(text),
            Held::Deflated(bytes) => {
                serde_json::from_reader(flate2::read::ZlibDecoder::new(&bytes[..]))
            }
        }
        .expect("the text was written from a value")
    }

    /// How many bytes the text takes as held.
    pub fn held_bytes(&self) -> usize {
        match &self.text {
            Held::Plain(text) => text.len(),
            Held::Deflated(bytes) => bytes.len(),
        }
    }

    /// Whether `other` (whose text is `other_whole`) is the same outcome, compared whole: the
    /// same text (byte for byte, a deflated text inflated as it is read), or, when the texts
    /// differ, equal values.
    pub fn same(&self, other_whole: &Whole, other: &Value) -> bool {
        self.text.same_text(&other_whole.text) || self.value() == *other
    }
}

impl Held {
    /// Whether the two hold the same text.
    fn same_text(&self, other: &Held) -> bool {
        match (self, other) {
            (Held::Plain(a), Held::Plain(b)) => a == b,
            (Held::Deflated(a), Held::Deflated(b)) => a == b,
            (Held::Deflated(deflated), Held::Plain(plain))
            | (Held::Plain(plain), Held::Deflated(deflated)) => {
                inflates_to(deflated, plain.as_bytes())
            }
        }
    }
}

/// Whether `deflated` inflates to exactly `text`, read a block at a time.
fn inflates_to(deflated: &[u8], text: &[u8]) -> bool {
    use std::io::Read;
    let mut decoder = flate2::read::ZlibDecoder::new(deflated);
    let mut block = vec![0u8; 64 * 1024];
    let mut at = 0;
    loop {
        match decoder.read(&mut block) {
            Ok(0) => return at == text.len(),
            Ok(n) => {
                if text.get(at..at + n) != Some(&block[..n]) {
                    return false;
                }
                at += n;
            }
            Err(_) => return false,
        }
    }
}

/// `fnv1a64:<hex>` of a value's compact JSON, and that JSON's length.
pub fn digest_of<T: Serialize + ?Sized>(value: &T) -> (String, usize) {
    let mut hasher = Hasher {
        hash: FNV_OFFSET,
        bytes: 0,
    };
    serde_json::to_writer(&mut hasher, value).expect("values always serialize");
    (format!("fnv1a64:{:016x}", hasher.hash), hasher.bytes)
}

/// `fnv1a64:<hex>` of some bytes.
pub fn fnv1a64(bytes: &[u8]) -> String {
    format!("fnv1a64:{:016x}", fnv1a(bytes))
}

/// 64-bit FNV-1a of some bytes: tiny, and fixed by its definition (unlike `std`'s hashers,
/// which may change), so what it decides (a digest, a case's shard) is the same everywhere.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hasher = Hasher {
        hash: FNV_OFFSET,
        bytes: 0,
    };
    hasher.feed(bytes);
    hasher.hash
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a over what is written to it, counting the bytes.
struct Hasher {
    hash: u64,
    bytes: usize,
}

impl Hasher {
    fn feed(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.hash = (self.hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.bytes += bytes.len();
    }
}

impl Write for Hasher {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.feed(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An object's entries from `.1` on, serialized as an object.
struct CutEntries<'a>(&'a Map<String, Value>, usize);

impl Serialize for CutEntries<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().skip(self.1))
    }
}

/// The elided form of a value, spending `budget` bytes of strings.
fn elide(value: &Value, budget: &mut usize) -> Value {
    match value {
        Value::String(text) => {
            // Once the budget is spent a string still shows its start.
            let keep = STRING_BYTES.min((*budget).max(MIN_HEAD));
            if text.len() <= keep {
                *budget = budget.saturating_sub(text.len());
                return value.clone();
            }
            let mut head = keep;
            while !text.is_char_boundary(head) {
                head -= 1;
            }
            *budget = budget.saturating_sub(head);
            let (digest, _) = digest_of(value);
            json!({"$elided": {"head": &text[..head], "bytes": text.len(), "digest": digest}})
        }
        Value::Array(items) => {
            let mut kept = Vec::new();
            for (index, item) in items.iter().enumerate() {
                if index >= ITEMS || *budget == 0 {
                    let (digest, bytes) = digest_of(&items[index..]);
                    kept.push(json!({"$elided": {"items": items.len() - index, "bytes": bytes, "digest": digest}}));
                    break;
                }
                kept.push(elide(item, budget));
            }
            Value::Array(kept)
        }
        Value::Object(entries) => {
            let mut kept = Map::new();
            for (index, (key, item)) in entries.iter().enumerate() {
                if index >= ITEMS {
                    let count = entries.len() - index;
                    let (digest, bytes) = digest_of(&CutEntries(entries, index));
                    kept.insert(
                        "$elided".into(),
                        json!({"entries": count, "bytes": bytes, "digest": digest}),
                    );
                    break;
                }
                *budget = budget.saturating_sub(key.len());
                kept.insert(key.clone(), elide(item, budget));
            }
            Value::Object(kept)
        }
        other => {
            *budget = budget.saturating_sub(8);
            other.clone()
        }
    }
}

/// Where two values first differ, with a little of each side around it: `$.logs[2], byte
/// 1048576: "…abc…" ≠ "…abd…"`. `None` when they are equal.
pub fn first_difference(left: &Value, right: &Value) -> Option<String> {
    difference_at("$".to_string(), left, right)
}

const CONTEXT: usize = 60;

fn difference_at(path: String, left: &Value, right: &Value) -> Option<String> {
    match (left, right) {
        (Value::Array(l), Value::Array(r)) => {
            for (index, (a, b)) in l.iter().zip(r).enumerate() {
                if let Some(found) = difference_at(format!("{path}[{index}]"), a, b) {
                    return Some(found);
                }
            }
            (l.len() != r.len()).then(|| format!("{path}: {} items ≠ {} items", l.len(), r.len()))
        }
        (Value::Object(l), Value::Object(r)) => {
            for (key, a) in l {
                match r.get(key) {
                    Some(b) => {
                        if let Some(found) = difference_at(format!("{path}.{key}"), a, b) {
                            return Some(found);
                        }
                    }
                    None => return Some(format!("{path}.{key}: present ≠ absent")),
                }
            }
            r.keys()
                .find(|key| !l.contains_key(*key))
                .map(|key| format!("{path}.{key}: absent ≠ present"))
        }
        (Value::String(l), Value::String(r)) if l != r => {
            let at = l
                .bytes()
                .zip(r.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(l.len().min(r.len()));
            Some(format!(
                "{path}, byte {at} of {} and {}: {} ≠ {}",
                l.len(),
                r.len(),
                excerpt(l, at),
                excerpt(r, at)
            ))
        }
        (l, r) if l != r => Some(format!(
            "{path}: {} ≠ {}",
            excerpt(&l.to_string(), 0),
            excerpt(&r.to_string(), 0)
        )),
        _ => None,
    }
}

/// Up to [`CONTEXT`] bytes of `text` on either side of byte `at`, quoted, with `…` where cut.
fn excerpt(text: &str, at: usize) -> String {
    let mut start = at.saturating_sub(CONTEXT);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + CONTEXT).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    format!(
        "{}{:?}{}",
        if start > 0 { "…" } else { "" },
        &text[start..end],
        if end < text.len() { "…" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_outcome_is_held_deflated_and_compares_whole() {
        let line = "[log] the same long line of a flood, again and again ".repeat(4);
        let flood = |last: &str| {
            let mut logs: Vec<Value> = (0..4000).map(|_| Value::from(line.clone())).collect();
            logs.push(Value::from(last));
            serde_json::json!({"result": null, "logs": logs, "calls": []})
        };
        let (a, b) = (flood("end"), flood("End"));
        let (whole_a, whole_b) = (Whole::of(&a), Whole::of(&b));
        let text = serde_json::to_string(&a).unwrap().len();
        assert!(text > DEFLATED_FROM, "{text}");
        assert!(
            whole_a.held_bytes() * 50 < text,
            "held {} bytes of a {text}-byte text",
            whole_a.held_bytes()
        );
        assert_eq!(whole_a.value(), a);
        assert!(whole_a.same(&Whole::of(&a), &a));
        assert!(
            !whole_a.same(&whole_b, &b),
            "one letter differs at the very end"
        );
        let small = serde_json::json!({"result": 1, "logs": [], "calls": []});
        assert_eq!(Whole::of(&small).held_bytes(), small.to_string().len());
        assert_eq!(Whole::of(&small).value(), small);

        // Another column's outcome, compared once, stays plain and compares the same way.
        let (once_a, once_b) = (Whole::compared_once(&a), Whole::compared_once(&b));
        assert_eq!(once_a.held_bytes(), text, "kept plain");
        assert_eq!(once_a.stored, whole_a.stored);
        assert!(whole_a.same(&once_a, &a));
        assert!(once_a.same(&whole_a, &a));
        assert!(
            !whole_a.same(&once_b, &b),
            "one letter differs at the very end"
        );
        let mut shorter = a.clone();
        shorter["logs"].as_array_mut().unwrap().pop();
        assert!(
            !whole_a.same(&Whole::compared_once(&shorter), &shorter),
            "ours' text goes on past the other's"
        );
        assert!(
            !inflates_to(b"not zlib", b"x"),
            "a broken stream is no match"
        );
    }

    fn flood(lines: usize, line: &str) -> Value {
        json!({"result": "x".repeat(40_000), "logs": vec![line; lines], "calls": []})
    }

    #[test]
    fn a_small_outcome_is_kept_whole_and_named_by_its_digest() {
        let outcome = json!({"result": 1, "logs": [], "calls": []});
        let stored = Stored::of(&outcome);
        assert!(!stored.elided());
        assert_eq!(*stored.shown, outcome);
        assert_eq!(stored.bytes, outcome.to_string().len());
        assert_eq!(
            stored.digest,
            fnv1a64(serde_json::to_string(&outcome).unwrap().as_bytes())
        );
        assert_eq!(serde_json::to_value(&stored).unwrap(), json!(stored.digest));
    }

    #[test]
    fn a_large_outcome_is_elided_with_markers_saying_what_was_cut() {
        let outcome = flood(10_000, "a log line");
        let stored = Stored::of(&outcome);
        assert!(stored.elided());
        let shown = serde_json::to_string(&*stored.shown).unwrap();
        assert!(shown.len() < 2 * KEPT_BYTES, "{} bytes", shown.len());
        let result = &stored.shown["result"]["$elided"];
        assert_eq!(result["bytes"], json!(40_000));
        assert_eq!(result["head"].as_str().unwrap().len(), STRING_BYTES);
        assert_eq!(result["digest"], json!(digest_of(&outcome["result"]).0));
        let logs = stored.shown["logs"].as_array().unwrap();
        let marker = &logs.last().unwrap()["$elided"];
        assert_eq!(marker["items"], json!(10_000 - (logs.len() - 1)));
        // Another large outcome differing past the kept part has another digest.
        let other = Stored::of(&flood(10_001, "a log line"));
        assert_ne!(other.digest, stored.digest);
    }

    #[test]
    fn a_report_entry_reads_back_and_an_old_whole_outcome_too() {
        let outcome = flood(3_000, "line");
        let stored = Stored::of(&outcome);
        let table = json!({ stored.digest.clone(): stored.entry() });
        let back = Stored::read(&json!(stored.digest), Some(&table)).unwrap();
        assert_eq!(back, stored);
        assert_eq!(Stored::read(&outcome, None).unwrap(), stored);
        let error = Stored::read(&json!("fnv1a64:0"), Some(&table)).unwrap_err();
        assert_eq!(
            error,
            "the outcome fnv1a64:0 is not in the report's \"outcomes\""
        );
    }

    #[test]
    fn the_first_difference_names_the_path_and_shows_context() {
        let mut long = "y".repeat(100_000);
        let left = json!({"logs": ["same", long.clone()]});
        long.replace_range(70_000..70_001, "z");
        let right = json!({"logs": ["same", long]});
        let found = first_difference(&left, &right).unwrap();
        assert!(
            found.starts_with("$.logs[1], byte 70000 of 100000 and 100000: …\"yyy"),
            "{found}"
        );
        assert!(found.contains("z"), "{found}");
        assert!(found.len() < 400, "{found}");
        assert_eq!(first_difference(&left, &left), None);
        assert_eq!(
            first_difference(&json!([1, 2]), &json!([1])).unwrap(),
            "$: 2 items ≠ 1 items"
        );
    }

    #[test]
    fn whole_outcomes_compare_exactly() {
        let a = flood(100, "x");
        let b = flood(100, "y");
        let whole = Whole::of(&a);
        assert!(whole.same(&Whole::of(&a), &a));
        assert!(!whole.same(&Whole::of(&b), &b));
        assert_eq!(whole.value(), a);
    }
}
