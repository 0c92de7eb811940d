//! Cap'n Web expressions: the JSON forms of [`WireValue`]s, both ways.
//!
//! Plain JSON passes through, except arrays, which are escaped as `[[…]]`. Everything else
//! is a tagged array: `["undefined"]`, `["inf"]`, `["-inf"]`, `["nan"]`, `["bigint", "…"]`,
//! `["date", ms]` (`null` for an invalid date), `["bytes", base64, type?]`,
//! `["error", name, message, stack?, props?]`, and the stub forms `["export", id]`,
//! `["promise", id]`, `["import", id]` and `["pipeline", id]`. Any other tagged array is an
//! error naming it, which aborts the session.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use base64::Engine;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Number, Value};

use super::value::{RemoteStub, Stub, Target, WireValue};

/// Base64 as Cap'n Web writes it: the standard alphabet, padding omitted (npm `capnweb`
/// strips it); read with or without padding.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The deepest nesting an incoming expression may have.
pub const MAX_DEPTH: usize = 256;

/// What encoding and decoding need from a session's tables.
pub trait Tables {
    /// Exports a local target under a fresh negative ID.
    fn export(&mut self, target: Arc<dyn Target>) -> i64;
    /// Records one more introduction of the peer's export `id` (an `["export", id]`), and
    /// answers the stub.
    fn import_stub(&mut self, id: i64) -> RemoteStub;
    /// Records the peer's promise `id`, to be resolved by the peer.
    fn import_promise(&mut self, id: i64) -> Result<(), String>;
    /// Our own export `id`, which the peer referred back to.
    fn local(&self, id: i64) -> Option<Arc<dyn Target>>;
}
/// Encodes a value as an expression. Stubs of ours are exported through `tables`.
pub fn encode(value: &WireValue, tables: &mut dyn Tables) -> Value {
    match value {
        WireValue::Undefined => tag("undefined", []),
        WireValue::Null => Value::Null,
        WireValue::Bool(b) => Value::Bool(*b),
        WireValue::Number(n) => encode_number(*n),
        WireValue::BigInt(digits) => tag("bigint", [Value::String(digits.clone())]),
        WireValue::String(s) => Value::String(s.clone()),
        WireValue::Array(items) => Value::Array(vec![Value::Array(
            items.iter().map(|item| encode(item, tables)).collect(),
        )]),
        WireValue::Object(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), encode(v, tables)))
                .collect::<Map<_, _>>(),
        ),
        WireValue::Date(time) => tag(
            "date",
            [if time.is_finite() {
                encode_number(*time)
            } else {
                Value::Null
            }],
        ),
        WireValue::Bytes { bytes, kind } => {
            let mut parts = vec![Value::String(BASE64.encode(bytes))];
            if let Some(kind) = kind {
                parts.push(Value::String(kind.clone()));
            }
            tag_vec("bytes", parts)
        }
        WireValue::Error {
            name,
            message,
            stack,
            props,
        } => {
            let mut parts = vec![Value::String(name.clone()), Value::String(message.clone())];
            if !props.is_empty() {
                parts.push(stack.clone().map(Value::String).unwrap_or(Value::Null));
                parts.push(Value::Object(
                    props
                        .iter()
                        .map(|(k, v)| (k.clone(), encode(v, tables)))
                        .collect(),
                ));
            } else if let Some(stack) = stack {
                parts.push(Value::String(stack.clone()));
            }
            tag_vec("error", parts)
        }
        WireValue::Stub(Stub::Local(target)) => {
            tag("export", [Value::from(tables.export(target.clone()))])
        }
        WireValue::Stub(Stub::Remote(stub)) => tag("import", [Value::from(stub.id())]),
        // A promise of the peer's that was never settled goes back as a pipeline on it.
        WireValue::Promise(id) => tag("pipeline", [Value::from(*id)]),
    }
}

/// Encodes a value straight to its expression's JSON text, the text of
/// `encode(value, tables).to_string()` (an object's repeated key, which no value of ours
/// has, is written twice), with no JSON tree built in between: a large answer is held as its
/// value and its text, not also as a tree.
pub fn encode_text(value: &WireValue, tables: &mut dyn Tables) -> String {
    let mut text = Vec::new();
    write_expression(&mut text, value, tables);
    String::from_utf8(text).expect("JSON text is UTF-8")
}

/// Appends [`encode_text`]'s text to `out`.
pub(super) fn write_expression(out: &mut Vec<u8>, value: &WireValue, tables: &mut dyn Tables) {
    let tables = RefCell::new(tables);
    serde_json::to_writer(
        out,
        &Encoding {
            value,
            tables: &tables,
        },
    )
    .expect("an expression always serializes")
}

/// A value being written as its expression.
struct Encoding<'v, 't, 'x> {
    value: &'v WireValue,
    tables: &'x RefCell<&'t mut dyn Tables>,
}

impl<'t, 'x> Encoding<'_, 't, 'x> {
    fn of<'w>(&self, value: &'w WireValue) -> Encoding<'w, 't, 'x> {
        Encoding {
            value,
            tables: self.tables,
        }
    }
}

impl Serialize for Encoding<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.value {
            WireValue::Null => serializer.serialize_unit(),
            WireValue::Bool(b) => serializer.serialize_bool(*b),
            WireValue::String(s) => serializer.serialize_str(s),
            WireValue::Array(items) => {
                let mut outer = serializer.serialize_seq(Some(1))?;
                outer.serialize_element(&EncodedItems {
                    items,
                    encoding: self,
                })?;
                outer.end()
            }
            WireValue::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, &self.of(value))?;
                }
                map.end()
            }
            WireValue::Error {
                name,
                message,
                stack,
                props,
            } if !props.is_empty() => {
                let mut parts = serializer.serialize_seq(Some(5))?;
                parts.serialize_element("error")?;
                parts.serialize_element(name)?;
                parts.serialize_element(message)?;
                parts.serialize_element(stack)?;
                parts.serialize_element(&EncodedEntries {
                    entries: props,
                    encoding: self,
                })?;
                parts.end()
            }
            // The other forms are small: their tree is written.
            other => {
                let mut tables = self.tables.borrow_mut();
                encode(other, &mut **tables).serialize(serializer)
            }
        }
    }
}

/// An escaped array's items.
struct EncodedItems<'a, 'v, 't, 'x> {
    items: &'v [WireValue],
    encoding: &'a Encoding<'v, 't, 'x>,
}

impl Serialize for EncodedItems<'_, '_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.items.len()))?;
        for item in self.items {
            seq.serialize_element(&self.encoding.of(item))?;
        }
        seq.end()
    }
}

/// An error's properties.
struct EncodedEntries<'a, 'v, 't, 'x> {
    entries: &'v [(String, WireValue)],
    encoding: &'a Encoding<'v, 't, 'x>,
}

impl Serialize for EncodedEntries<'_, '_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (key, value) in self.entries {
            map.serialize_entry(key, &self.encoding.of(value))?;
        }
        map.end()
    }
}

/// A number's expression: JSON for finite numbers (integral ones as integers, `-0` kept),
/// the tagged forms otherwise.
pub fn encode_number(n: f64) -> Value {
    if n.is_nan() {
        tag("nan", [])
    } else if n == f64::INFINITY {
        tag("inf", [])
    } else if n == f64::NEG_INFINITY {
        tag("-inf", [])
    } else if n == n.trunc()
        && n.abs() <= 9_007_199_254_740_991.0
        && !(n == 0.0 && n.is_sign_negative())
    {
        Value::from(n as i64)
    } else {
        Value::Number(Number::from_f64(n).expect("finite"))
    }
}

fn tag<const N: usize>(name: &str, parts: [Value; N]) -> Value {
    tag_vec(name, parts.into())
}

fn tag_vec(name: &str, parts: Vec<Value>) -> Value {
    let mut array = Vec::with_capacity(parts.len() + 1);
    array.push(Value::String(name.into()));
    array.extend(parts);
    Value::Array(array)
}

/// Why an expression could not be evaluated. The session aborts with this text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpressionError(pub String);

impl fmt::Display for ExpressionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Evaluates an expression. Stubs the peer exported are imported through `tables`.
pub fn decode(json: &Value, tables: &mut dyn Tables) -> Result<WireValue, ExpressionError> {
    decode_at(json, tables, 0)
}

fn decode_at(
    json: &Value,
    tables: &mut dyn Tables,
    depth: usize,
) -> Result<WireValue, ExpressionError> {
    if depth > MAX_DEPTH {
        return Err(ExpressionError(format!(
            "An expression nests deeper than {MAX_DEPTH} levels."
        )));
    }
    Ok(match json {
        Value::Null => WireValue::Null,
        Value::Bool(b) => WireValue::Bool(*b),
        Value::Number(n) => WireValue::Number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => WireValue::String(s.clone()),
        Value::Object(map) => {
            let mut entries = Vec::with_capacity(map.len());
            for (k, v) in map {
                entries.push((k.clone(), decode_at(v, tables, depth + 1)?));
            }
            WireValue::Object(entries)
        }
        Value::Array(array) => decode_array(array, tables, depth)?,
    })
}

fn decode_array(
    array: &[Value],
    tables: &mut dyn Tables,
    depth: usize,
) -> Result<WireValue, ExpressionError> {
    if let [Value::Array(items)] = array {
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            values.push(decode_at(item, tables, depth + 1)?);
        }
        return Ok(WireValue::Array(values));
    }
    decode_tagged(array, tables, depth)
}

/// A tagged form (`["undefined"]`, `["bigint", …]`, `["error", …]`, a stub…): `array` is the
/// whole expression, its tag first.
pub(super) fn decode_tagged(
    array: &[Value],
    tables: &mut dyn Tables,
    depth: usize,
) -> Result<WireValue, ExpressionError> {
    let bad = || {
        let mut text = Value::Array(array.to_vec()).to_string();
        if text.len() > 120 {
            let mut end = 120;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            text.push('…');
        }
        ExpressionError(format!("Unknown or malformed expression {text}."))
    };
    let Some(Value::String(name)) = array.first() else {
        return Err(bad());
    };
    let id = |index: usize| array.get(index).and_then(Value::as_i64);
    Ok(match (name.as_str(), array.len()) {
        ("undefined", 1) => WireValue::Undefined,
        ("inf", 1) => WireValue::Number(f64::INFINITY),
        ("-inf", 1) => WireValue::Number(f64::NEG_INFINITY),
        ("nan", 1) => WireValue::Number(f64::NAN),
        ("bigint", 2) => {
            let digits = array[1].as_str().ok_or_else(bad)?;
            let body = digits.strip_prefix('-').unwrap_or(digits);
            if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            WireValue::BigInt(digits.into())
        }
        ("date", 2) => match &array[1] {
            Value::Null => WireValue::Date(f64::NAN),
            Value::Number(n) => WireValue::Date(n.as_f64().unwrap_or(f64::NAN)),
            _ => return Err(bad()),
        },
        ("bytes", 2 | 3) => {
            let data = array[1].as_str().ok_or_else(bad)?;
            let bytes = BASE64
                .decode(data)
                .map_err(|_| ExpressionError("A bytes expression's data is not base64.".into()))?;
            let kind = match array.get(2) {
                None => None,
                Some(Value::String(kind)) => Some(kind.clone()),
                Some(_) => return Err(bad()),
            };
            WireValue::Bytes { bytes, kind }
        }
        ("error", 3..=5) => {
            let (Some(name), Some(message)) = (array[1].as_str(), array[2].as_str()) else {
                return Err(bad());
            };
            let stack = match array.get(3) {
                None | Some(Value::Null) => None,
                Some(Value::String(stack)) => Some(stack.clone()),
                Some(_) => return Err(bad()),
            };
            let mut props = Vec::new();
            match array.get(4) {
                None => {}
                Some(Value::Object(map)) => {
                    for (k, v) in map {
                        props.push((k.clone(), decode_at(v, tables, depth + 1)?));
                    }
                }
                Some(_) => return Err(bad()),
            }
            WireValue::Error {
                name: name.into(),
                message: message.into(),
                stack,
                props,
            }
        }
        ("export", 2) => WireValue::Stub(Stub::Remote(tables.import_stub(id(1).ok_or_else(bad)?))),
        ("promise", 2) => {
            let id = id(1).ok_or_else(bad)?;
            tables.import_promise(id).map_err(ExpressionError)?;
            WireValue::Promise(id)
        }
        ("import" | "pipeline", 2) => {
            let id = id(1).ok_or_else(bad)?;
            let target = tables.local(id).ok_or_else(|| {
                ExpressionError(format!(
                    "An expression refers to export {id}, which does not exist."
                ))
            })?;
            WireValue::Stub(Stub::Local(target))
        }
        ("import" | "pipeline", 3 | 4) => {
            return Err(ExpressionError(format!(
                "A {name} expression with a property path or call arguments inside a value is not supported by this peer."
            )));
        }
        _ => return Err(bad()),
    })
}
