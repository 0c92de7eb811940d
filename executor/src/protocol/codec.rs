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

use super::{Binary, BinaryKind, JsValue};

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

/// Encodes a value as the sandbox's `__stringifyForCodemode` would. `None` where
/// `JSON.stringify` gives `undefined`; an error where it throws (a BigInt).
pub fn encode_codec_json(value: &JsValue) -> Result<Option<String>, CodecError> {
    if contains_bigint(value) {
        return Err(CodecError("Do not know how to serialize a BigInt".into()));
    }
    Ok(value
        .to_json_with(&encode_binary)
        .map(|json| serde_json::to_string(&json).expect("JSON values always serialize")))
}

fn contains_bigint(value: &JsValue) -> bool {
    match value {
        JsValue::BigInt(_) => true,
        JsValue::Array(items) => items.iter().any(contains_bigint),
        JsValue::Object(entries) => entries.iter().any(|(_, v)| contains_bigint(v)),
        _ => false,
    }
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

/// Decodes codec JSON as `__parseForCodemode` would.
pub fn decode_codec_json(text: &str) -> Result<JsValue, CodecError> {
    let json: Value = serde_json::from_str(text).map_err(|e| CodecError(e.to_string()))?;
    Ok(decode_value(&json))
}

fn decode_value(json: &Value) -> JsValue {
    match json {
        Value::Array(items) => JsValue::Array(items.iter().map(decode_value).collect()),
        Value::Object(map) => {
            if let (Some(tag), Some(Value::String(data))) = (map.get(BINARY_TAG), map.get("data"))
                && let Ok(bytes) = STANDARD.decode(data)
            {
                let kind = if tag == "ArrayBuffer" {
                    BinaryKind::ArrayBuffer
                } else {
                    BinaryKind::Uint8Array
                };
                return JsValue::Binary(Binary { kind, bytes });
            }
            JsValue::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), decode_value(v)))
                    .collect(),
            )
        }
        other => JsValue::from_json(other),
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
