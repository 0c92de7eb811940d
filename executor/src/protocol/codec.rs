//! The dialect's binary codec at the tool-call boundary: JSON, with binary values as a tagged
//! base64 object, exactly as the reference's sandbox and host encode them.
//!
//! Encoding follows `JSON.stringify(value, replacer)` where the replacer turns a `Uint8Array`
//! into `{"__codemode_binary_v1__": "Uint8Array", "data": <base64>}`, an `ArrayBuffer` into
//! the same with `"ArrayBuffer"`, and any other view into `"ArrayBufferView"` over its viewed
//! bytes. Decoding turns a tagged object back into an `ArrayBuffer` (for `"ArrayBuffer"`) or
//! a `Uint8Array` (for every other tag), wherever it is nested.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};

use super::{Binary, BinaryKind, JsString, JsValue};

/// The tag key of an encoded binary value.
pub const BINARY_TAG: &str = "__codemode_binary_v1__";

/// Why codec JSON could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError(pub String);

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CodecError {}

/// How deep codec JSON may nest, the same bound a result's crossing has.
pub const MAX_DEPTH: usize = 2_000;

/// Encodes a value as the sandbox's `__stringifyForCodemode` would. `None` where
/// `JSON.stringify` gives `undefined`; an error where it throws (a BigInt). Strings keep
/// every code unit: a lone surrogate is written `\udXXX`, as `JSON.stringify` writes it.
pub fn encode_codec_json(value: &JsValue) -> Result<Option<String>, CodecError> {
    if contains_bigint(value) {
        return Err(CodecError("Do not know how to serialize a BigInt".into()));
    }
    let mut out = String::new();
    Ok(write_value(value, &mut out).then_some(out))
}

fn contains_bigint(value: &JsValue) -> bool {
    match value {
        JsValue::BigInt(_) => true,
        JsValue::Array(items) => items.iter().any(contains_bigint),
        JsValue::Object(entries) => entries.iter().any(|(_, v)| contains_bigint(v)),
        _ => false,
    }
}

/// Writes `value` as `JSON.stringify` does; `false` (nothing written) where it gives
/// `undefined`.
fn write_value(value: &JsValue, out: &mut String) -> bool {
    match value {
        JsValue::Undefined | JsValue::Function => return false,
        JsValue::String(text) => text.write_json(out),
        JsValue::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                if !write_value(item, out) {
                    out.push_str("null");
                }
            }
            out.push(']');
        }
        JsValue::Object(entries) => {
            out.push('{');
            let mut first = true;
            for (key, item) in entries {
                if matches!(item, JsValue::Undefined | JsValue::Function) {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                key.write_json(out);
                out.push(':');
                write_value(item, out);
            }
            out.push('}');
        }
        JsValue::Binary(binary) => out.push_str(&encode_binary(binary).to_string()),
        other => match other.to_json_with(&encode_binary) {
            Some(json) => out.push_str(&json.to_string()),
            None => return false,
        },
    }
    true
}

fn encode_binary(binary: &Binary) -> Value {
    let tag = match binary.kind {
        BinaryKind::ArrayBuffer => "ArrayBuffer",
        BinaryKind::Uint8Array => "Uint8Array",
        _ => "ArrayBufferView",
    };
    let mut map = Map::new();
    map.insert(BINARY_TAG.into(), Value::String(tag.into()));
    map.insert("data".into(), Value::String(STANDARD.encode(&binary.bytes)));
    Value::Object(map)
}

/// Decodes codec JSON as `__parseForCodemode` would. Strings keep every code unit: a lone
/// surrogate escape (`\ud83d`) reads as that code unit, as `JSON.parse` reads it.
pub fn decode_codec_json(text: &str) -> Result<JsValue, CodecError> {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
    };
    let value = reader.value(0)?;
    reader.whitespace();
    if reader.at < reader.text.len() {
        return Err(reader.error("Unexpected data after the JSON value"));
    }
    Ok(value)
}

/// A JSON reader that keeps lone surrogates (`serde_json` refuses them).
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> CodecError {
        CodecError(format!("{what} at position {} of the codec JSON.", self.at))
    }

    fn whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    fn literal(&mut self, word: &str, value: JsValue) -> Result<JsValue, CodecError> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("Unexpected token"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<JsValue, CodecError> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("Nesting deeper than {MAX_DEPTH} levels")));
        }
        self.whitespace();
        match self.text.get(self.at) {
            None => Err(self.error("Unexpected end of JSON input")),
            Some(b'n') => self.literal("null", JsValue::Null),
            Some(b't') => self.literal("true", JsValue::Bool(true)),
            Some(b'f') => self.literal("false", JsValue::Bool(false)),
            Some(b'"') => Ok(JsValue::String(self.string()?)),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.whitespace();
                if self.text.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(JsValue::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.whitespace();
                    match self.text.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(JsValue::Array(items));
                        }
                        _ => return Err(self.error("Expected ',' or ']' after an array element")),
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut entries: Vec<(JsString, JsValue)> = Vec::new();
                self.whitespace();
                if self.text.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Ok(self.object(entries));
                }
                loop {
                    self.whitespace();
                    if self.text.get(self.at) != Some(&b'"') {
                        return Err(self.error("Expected a double-quoted property name"));
                    }
                    let key = self.string()?;
                    self.whitespace();
                    if self.text.get(self.at) != Some(&b':') {
                        return Err(self.error("Expected ':' after a property name"));
                    }
                    self.at += 1;
                    let item = self.value(depth + 1)?;
                    // A repeated key keeps its first place and its last value, as JSON.parse.
                    match entries.iter_mut().find(|(k, _)| *k == key) {
                        Some(entry) => entry.1 = item,
                        None => entries.push((key, item)),
                    }
                    self.whitespace();
                    match self.text.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(self.object(entries));
                        }
                        _ => return Err(self.error("Expected ',' or '}' after a property value")),
                    }
                }
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("Unexpected token")),
        }
    }

    /// An object, or the binary value a tagged object stands for.
    fn object(&self, entries: Vec<(JsString, JsValue)>) -> JsValue {
        let get = |key: &str| entries.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
        if let (Some(tag), Some(JsValue::String(data))) = (get(BINARY_TAG), get("data"))
            && let Some(bytes) = data.as_str().and_then(|d| STANDARD.decode(d).ok())
        {
            let kind = if *tag == JsValue::String("ArrayBuffer".into()) {
                BinaryKind::ArrayBuffer
            } else {
                BinaryKind::Uint8Array
            };
            return JsValue::Binary(Binary { kind, bytes });
        }
        JsValue::Object(entries)
    }

    fn number(&mut self) -> Result<JsValue, CodecError> {
        let start = self.at;
        if self.text.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let digits = |reader: &mut Self| {
            let from = reader.at;
            while reader.text.get(reader.at).is_some_and(u8::is_ascii_digit) {
                reader.at += 1;
            }
            reader.at > from
        };
        if !digits(self) {
            return Err(self.error("No number after a minus sign"));
        }
        if self.text.get(self.at) == Some(&b'.') {
            self.at += 1;
            if !digits(self) {
                return Err(self.error("Unterminated fractional number"));
            }
        }
        if let Some(b'e' | b'E') = self.text.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.text.get(self.at) {
                self.at += 1;
            }
            if !digits(self) {
                return Err(self.error("Exponent part is missing a number"));
            }
        }
        let literal = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("NaN");
        Ok(JsValue::Number(literal.parse().unwrap_or(f64::NAN)))
    }

    fn hex4(&mut self) -> Result<u32, CodecError> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("Bad Unicode escape"))?;
        self.at += 4;
        Ok(u32::from_str_radix(digits, 16).unwrap_or(0))
    }

    fn string(&mut self) -> Result<JsString, CodecError> {
        self.at += 1;
        let mut out = JsString::default();
        loop {
            let Some(&byte) = self.text.get(self.at) else {
                return Err(self.error("Unterminated string"));
            };
            match byte {
                b'"' => {
                    self.at += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.at += 1;
                    let escaped = self.text.get(self.at).copied();
                    self.at += 1;
                    let code = match escaped {
                        Some(b'"') => 0x22,
                        Some(b'\\') => 0x5C,
                        Some(b'/') => 0x2F,
                        Some(b'b') => 0x08,
                        Some(b'f') => 0x0C,
                        Some(b'n') => 0x0A,
                        Some(b'r') => 0x0D,
                        Some(b't') => 0x09,
                        Some(b'u') => {
                            let unit = self.hex4()?;
                            let pairs = (0xD800..0xDC00).contains(&unit)
                                && self.text.get(self.at..self.at + 2) == Some(b"\\u");
                            if pairs {
                                let back = self.at;
                                self.at += 2;
                                match self.hex4() {
                                    Ok(low) if (0xDC00..0xE000).contains(&low) => {
                                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                                    }
                                    _ => {
                                        self.at = back;
                                        unit
                                    }
                                }
                            } else {
                                unit
                            }
                        }
                        _ => {
                            self.at -= 1;
                            return Err(self.error("Bad escaped character"));
                        }
                    };
                    out.push_code_point(code);
                }
                0x00..0x20 => return Err(self.error("Bad control character in string literal")),
                _ => {
                    // One UTF-8 sequence, copied whole (the text is a `str`).
                    let len = match byte {
                        0x00..0x80 => 1,
                        0xC0..0xE0 => 2,
                        0xE0..0xF0 => 3,
                        _ => 4,
                    };
                    let end = (self.at + len).min(self.text.len());
                    for &b in &self.text[self.at..end] {
                        out.push_byte(b);
                    }
                    self.at = end;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_round_trips_as_uint8array_or_arraybuffer() {
        let value = JsValue::Array(vec![
            JsValue::Binary(Binary {
                kind: BinaryKind::Uint8Array,
                bytes: vec![1, 2],
            }),
            JsValue::Binary(Binary {
                kind: BinaryKind::ArrayBuffer,
                bytes: vec![3],
            }),
            JsValue::Binary(Binary {
                kind: BinaryKind::Int16Array,
                bytes: vec![4, 0],
            }),
        ]);
        let text = encode_codec_json(&value).unwrap().unwrap();
        assert_eq!(
            text,
            r#"[{"__codemode_binary_v1__":"Uint8Array","data":"AQI="},{"__codemode_binary_v1__":"ArrayBuffer","data":"Aw=="},{"__codemode_binary_v1__":"ArrayBufferView","data":"BAA="}]"#
        );
        let back = decode_codec_json(&text).unwrap();
        assert_eq!(
            back,
            JsValue::Array(vec![
                JsValue::Binary(Binary {
                    kind: BinaryKind::Uint8Array,
                    bytes: vec![1, 2]
                }),
                JsValue::Binary(Binary {
                    kind: BinaryKind::ArrayBuffer,
                    bytes: vec![3]
                }),
                JsValue::Binary(Binary {
                    kind: BinaryKind::Uint8Array,
                    bytes: vec![4, 0]
                }),
            ])
        );
    }

    #[test]
    fn undefined_encodes_to_nothing_and_bigint_refuses() {
        assert_eq!(encode_codec_json(&JsValue::Undefined).unwrap(), None);
        assert!(encode_codec_json(&JsValue::BigInt("1".into())).is_err());
    }
}
