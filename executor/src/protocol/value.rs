//! The values that cross out of the sandbox: a structured clone, kept whole until a host
//! chooses how to project it.
//!
//! Strings: a [`JsValue::String`] and an object key are [`JsString`]s, which keep every
//! UTF-16 code unit a JavaScript string can hold, a lone surrogate included, so a value
//! crosses out and back unchanged. Where a value becomes text (its JSON projection,
//! [`JsValue::to_js_string`], an error's name and message, a regular expression's source),
//! a lone surrogate is written as the escape `JSON.stringify` writes for it, `\ud83d`; see
//! [`super::js_string`] for both forms and why texts may use the escape.

use serde_json::{Map, Number, Value};

use super::JsString;

/// A JavaScript value after it has crossed out of the sandbox, as a structured clone keeps
/// it: `undefined` distinct from `null`, and `Map`, `Set`, `Date`, binary data and errors kept
/// as such.
#[derive(Debug, Clone, PartialEq)]
pub enum JsValue {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number (`NaN`, the infinities and `-0` included).
    Number(f64),
    /// A BigInt, by its decimal digits (with a leading `-` when negative).
    BigInt(String),
    /// A string, every code unit kept (see the module docs).
    String(JsString),
    /// An array; holes read as [`JsValue::Undefined`].
    Array(Vec<JsValue>),
    /// A plain object (or a class instance, reduced to its own enumerable string keys), in
    /// property order.
    Object(Vec<(JsString, JsValue)>),
    /// A `Map`, by its entries in insertion order.
    Map(Vec<(JsValue, JsValue)>),
    /// A `Set`, by its values in insertion order.
    Set(Vec<JsValue>),
    /// A `Date`, by its time value in milliseconds (`NaN` for an invalid date).
    Date(f64),
    /// An `ArrayBuffer`, a `DataView` or a typed array.
    Binary(Binary),
    /// A regular expression; its source in the text form of [`super::js_string`].
    RegExp {
        /// Its `source`.
        source: String,
        /// Its `flags`.
        flags: String,
    },
    /// An error, by its name and message in the text form of [`super::js_string`].
    Error {
        /// Its `name` (`TypeError`).
        name: String,
        /// Its `message`.
        message: String,
    },
    /// A function, where the runtime passes functions by reference (a stub). It projects as
    /// `JSON.stringify` projects a function.
    Function,
}

/// Binary data: an `ArrayBuffer`, a `DataView` or a typed array, by its viewed bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binary {
    /// Which binary type it is.
    pub kind: BinaryKind,
    /// The bytes the value views, in the platform's (little-endian) order.
    pub bytes: Vec<u8>,
}

/// Which binary type a [`Binary`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryKind {
    /// `ArrayBuffer`.
    ArrayBuffer,
    /// `DataView`.
    DataView,
    /// `Int8Array`.
    Int8Array,
    /// `Uint8Array`.
    Uint8Array,
    /// `Uint8ClampedArray`.
    Uint8ClampedArray,
    /// `Int16Array`.
    Int16Array,
    /// `Uint16Array`.
    Uint16Array,
    /// `Int32Array`.
    Int32Array,
    /// `Uint32Array`.
    Uint32Array,
    /// `Float16Array`.
    Float16Array,
    /// `Float32Array`.
    Float32Array,
    /// `Float64Array`.
    Float64Array,
    /// `BigInt64Array`.
    BigInt64Array,
    /// `BigUint64Array`.
    BigUint64Array,
}

impl BinaryKind {
    /// Every kind, in a stable order.
    pub const ALL: [BinaryKind; 14] = [
        BinaryKind::ArrayBuffer,
        BinaryKind::DataView,
        BinaryKind::Int8Array,
        BinaryKind::Uint8Array,
        BinaryKind::Uint8ClampedArray,
        BinaryKind::Int16Array,
        BinaryKind::Uint16Array,
        BinaryKind::Int32Array,
        BinaryKind::Uint32Array,
        BinaryKind::Float16Array,
        BinaryKind::Float32Array,
        BinaryKind::Float64Array,
        BinaryKind::BigInt64Array,
        BinaryKind::BigUint64Array,
    ];

    /// The JavaScript constructor name.
    pub fn name(self) -> &'static str {
        match self {
            BinaryKind::ArrayBuffer => "ArrayBuffer",
            BinaryKind::DataView => "DataView",
            BinaryKind::Int8Array => "Int8Array",
            BinaryKind::Uint8Array => "Uint8Array",
            BinaryKind::Uint8ClampedArray => "Uint8ClampedArray",
            BinaryKind::Int16Array => "Int16Array",
            BinaryKind::Uint16Array => "Uint16Array",
            BinaryKind::Int32Array => "Int32Array",
            BinaryKind::Uint32Array => "Uint32Array",
            BinaryKind::Float16Array => "Float16Array",
            BinaryKind::Float32Array => "Float32Array",
            BinaryKind::Float64Array => "Float64Array",
            BinaryKind::BigInt64Array => "BigInt64Array",
            BinaryKind::BigUint64Array => "BigUint64Array",
        }
    }

    /// The kind whose constructor has this name.
    pub fn from_name(name: &str) -> Option<BinaryKind> {
        BinaryKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Bytes per element; 1 for `ArrayBuffer` and `DataView`.
    pub fn element_size(self) -> usize {
        match self {
            BinaryKind::ArrayBuffer
            | BinaryKind::DataView
            | BinaryKind::Int8Array
            | BinaryKind::Uint8Array
            | BinaryKind::Uint8ClampedArray => 1,
            BinaryKind::Int16Array | BinaryKind::Uint16Array | BinaryKind::Float16Array => 2,
            BinaryKind::Int32Array | BinaryKind::Uint32Array | BinaryKind::Float32Array => 4,
            BinaryKind::Float64Array | BinaryKind::BigInt64Array | BinaryKind::BigUint64Array => 8,
        }
    }

    /// `true` for the typed arrays, `false` for `ArrayBuffer` and `DataView`.
    pub fn is_typed_array(self) -> bool {
        !matches!(self, BinaryKind::ArrayBuffer | BinaryKind::DataView)
    }
}

impl Binary {
    /// The elements of a typed array as JSON numbers (BigInt elements as decimal strings);
    /// for `ArrayBuffer` and `DataView`, the bytes.
    pub fn elements_json(&self) -> Vec<Value> {
        let size = self.kind.element_size();
        self.bytes
            .chunks_exact(size)
            .map(|chunk| match self.kind {
                BinaryKind::ArrayBuffer
                | BinaryKind::DataView
                | BinaryKind::Uint8Array
                | BinaryKind::Uint8ClampedArray => Value::from(chunk[0]),
                BinaryKind::Int8Array => Value::from(chunk[0] as i8),
                BinaryKind::Int16Array => Value::from(i16::from_le_bytes([chunk[0], chunk[1]])),
                BinaryKind::Uint16Array => Value::from(u16::from_le_bytes([chunk[0], chunk[1]])),
                BinaryKind::Int32Array => {
                    Value::from(i32::from_le_bytes(chunk.try_into().unwrap()))
                }
                BinaryKind::Uint32Array => {
                    Value::from(u32::from_le_bytes(chunk.try_into().unwrap()))
                }
                BinaryKind::Float16Array => {
                    number_json(f16_to_f64(u16::from_le_bytes([chunk[0], chunk[1]])))
                }
                BinaryKind::Float32Array => {
                    number_json(f32::from_le_bytes(chunk.try_into().unwrap()) as f64)
                }
                BinaryKind::Float64Array => {
                    number_json(f64::from_le_bytes(chunk.try_into().unwrap()))
                }
                BinaryKind::BigInt64Array => {
                    Value::from(i64::from_le_bytes(chunk.try_into().unwrap()).to_string())
                }
                BinaryKind::BigUint64Array => {
                    Value::from(u64::from_le_bytes(chunk.try_into().unwrap()).to_string())
                }
            })
            .collect()
    }
}

fn f16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = ((bits >> 10) & 0x1f) as i32;
    let fraction = (bits & 0x3ff) as f64;
    match exponent {
        0 => sign * fraction * 2f64.powi(-24),
        0x1f if fraction == 0.0 => sign * f64::INFINITY,
        0x1f => f64::NAN,
        _ => sign * (1.0 + fraction / 1024.0) * 2f64.powi(exponent - 15),
    }
}

/// A number as `JSON.stringify` writes it: non-finite numbers become `null`, `-0` becomes
/// `0`, and integral values within the safe range are integers, so that a number parsed
/// from JSON text and the same number computed here compare equal.
pub fn number_json(n: f64) -> Value {
    if !n.is_finite() {
        return Value::Null;
    }
    if n == n.trunc() && n.abs() <= 9_007_199_254_740_991.0 {
        return Value::from(n as i64);
    }
    Number::from_f64(n)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

impl JsValue {
    /// `true` where JavaScript's `Boolean(value)` is `true`.
    pub fn is_truthy(&self) -> bool {
        match self {
            JsValue::Undefined | JsValue::Null => false,
            JsValue::Bool(b) => *b,
            JsValue::Number(n) => *n != 0.0 && !n.is_nan(),
            JsValue::BigInt(digits) => digits.trim_start_matches('-') != "0",
            JsValue::String(s) => !s.is_empty(),
            _ => true,
        }
    }

    /// What JavaScript's `String(value)` gives, for the values a host renders that way (a
    /// thrown non-Error, a log argument).
    pub fn to_js_string(&self) -> String {
        match self {
            JsValue::Undefined => "undefined".into(),
            JsValue::Null => "null".into(),
            JsValue::Bool(b) => b.to_string(),
            JsValue::Number(n) => number_to_js_string(*n),
            JsValue::BigInt(digits) => digits.clone(),
            JsValue::String(s) => s.to_text().into_owned(),
            JsValue::Array(items) => items
                .iter()
                .map(|item| match item {
                    JsValue::Undefined | JsValue::Null => String::new(),
                    other => other.to_js_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            JsValue::Object(_) => "[object Object]".into(),
            JsValue::Map(_) => "[object Map]".into(),
            JsValue::Set(_) => "[object Set]".into(),
            JsValue::Date(_) => "[object Date]".into(),
            JsValue::Binary(binary) if binary.kind.is_typed_array() => binary
                .elements_json()
                .iter()
                .map(|v| v.to_string().trim_matches('"').to_string())
                .collect::<Vec<_>>()
                .join(","),
            JsValue::Binary(binary) => format!("[object {}]", binary.kind.name()),
            JsValue::RegExp { source, flags } => format!("/{source}/{flags}"),
            JsValue::Error { name, message } if message.is_empty() => name.clone(),
            JsValue::Error { name, message } => format!("{name}: {message}"),
            JsValue::Function => "function () { [native code] }".into(),
        }
    }

    /// The value's JSON projection, following `JSON.stringify`, with `binary` deciding what
    /// binary data becomes. `None` where `JSON.stringify` gives `undefined` (for `undefined`
    /// itself and for a function).
    ///
    /// `Date` projects as its ISO string (what its `toJSON` gives), `Map`, `Set`, `RegExp` and
    /// errors as `{}`, `undefined` and functions inside arrays as `null` and inside objects not
    /// at all. A BigInt, which `JSON.stringify` refuses, projects as its decimal string.
    pub fn to_json_with(&self, binary: &dyn Fn(&Binary) -> Value) -> Option<Value> {
        Some(match self {
            JsValue::Undefined | JsValue::Function => return None,
            JsValue::Null => Value::Null,
            JsValue::Bool(b) => Value::Bool(*b),
            JsValue::Number(n) => number_json(*n),
            JsValue::BigInt(digits) => Value::String(digits.clone()),
            JsValue::String(s) => Value::String(s.to_text().into_owned()),
            JsValue::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| item.to_json_with(binary).unwrap_or(Value::Null))
                    .collect(),
            ),
            JsValue::Object(entries) => {
                let mut map = Map::new();
                for (key, value) in entries {
                    if let Some(json) = value.to_json_with(binary) {
                        map.insert(key.to_text().into_owned(), json);
                    }
                }
                Value::Object(map)
            }
            JsValue::Map(_) | JsValue::Set(_) | JsValue::RegExp { .. } | JsValue::Error { .. } => {
                Value::Object(Map::new())
            }
            JsValue::Date(time) => match iso_string(*time) {
                Some(iso) => Value::String(iso),
                None => Value::Null,
            },
            JsValue::Binary(data) => binary(data),
        })
    }

    /// Builds a value from parsed JSON (no binary, no `undefined`).
    pub fn from_json(value: &Value) -> JsValue {
        match value {
            Value::Null => JsValue::Null,
            Value::Bool(b) => JsValue::Bool(*b),
            Value::Number(n) => JsValue::Number(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => JsValue::String(s.into()),
            Value::Array(items) => JsValue::Array(items.iter().map(JsValue::from_json).collect()),
            Value::Object(map) => JsValue::Object(
                map.iter()
                    .map(|(k, v)| (k.into(), JsValue::from_json(v)))
                    .collect(),
            ),
        }
    }
}

/// `Number.prototype.toString()` for the common cases: integers without a fraction,
/// `NaN`, `Infinity`, and the shortest round-trip form otherwise (with JavaScript's
/// exponent spelling).
pub fn number_to_js_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    if n == 0.0 {
        return "0".into();
    }
    let abs = n.abs();
    if (1e-6..1e21).contains(&abs) {
        if n == n.trunc() {
            return format!("{}", n as i128);
        }
        return format!("{n}");
    }
    // Exponent form: Rust writes 1e21 as "1e21", JavaScript as "1e+21".
    let formatted = format!("{n:e}");
    match formatted.split_once('e') {
        Some((mantissa, exponent)) if !exponent.starts_with('-') => {
            format!("{mantissa}e+{exponent}")
        }
        _ => formatted,
    }
}

/// `Date.prototype.toISOString()`; `None` for an invalid date (where it throws).
pub fn iso_string(time: f64) -> Option<String> {
    if !time.is_finite() || time.abs() > 8.64e15 {
        return None;
    }
    let ms = time as i64;
    let days = ms.div_euclid(86_400_000);
    let ms_of_day = ms.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (h, m, s, milli) = (
        ms_of_day / 3_600_000,
        (ms_of_day / 60_000) % 60,
        (ms_of_day / 1000) % 60,
        ms_of_day % 1000,
    );
    let year_text = if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else if year < 0 {
        format!("-{:06}", -year)
    } else {
        format!("+{year:06}")
    };
    Some(format!(
        "{year_text}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z"
    ))
}

fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Howard Hinnant's algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_strings_match_javascript() {
        assert_eq!(iso_string(0.0).unwrap(), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            iso_string(1_700_000_000_123.0).unwrap(),
            "2023-11-14T22:13:20.123Z"
        );
        assert_eq!(iso_string(-1.0).unwrap(), "1969-12-31T23:59:59.999Z");
        assert_eq!(iso_string(f64::NAN), None);
    }

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        assert_eq!(number_to_js_string(42.0), "42");
        assert_eq!(number_to_js_string(0.5), "0.5");
        assert_eq!(number_to_js_string(-0.0), "0");
        assert_eq!(number_to_js_string(1e21), "1e+21");
        assert_eq!(number_to_js_string(f64::NAN), "NaN");
    }

    #[test]
    fn json_projection_follows_json_stringify() {
        let value = JsValue::Object(vec![
            ("a".into(), JsValue::Undefined),
            (
                "b".into(),
                JsValue::Array(vec![JsValue::Undefined, JsValue::Number(-0.0)]),
            ),
            ("c".into(), JsValue::Map(vec![])),
            ("d".into(), JsValue::Number(f64::NAN)),
        ]);
        let json = value.to_json_with(&|_| Value::Null).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"b": [null, 0], "c": {}, "d": null})
        );
    }
}
