//! Catalogue values: JSON where `{"$<Type>": [...]}` stands for binary data and
//! `{"$undefined": true}` for `undefined`.

use codemode_executor::protocol::{Binary, BinaryKind, JsValue};
use serde_json::Value;

/// Why a catalogue value cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError(pub String);

/// Decodes a catalogue value into the value a tool resolves with.
pub fn decode_value(value: &Value) -> Result<JsValue, ValueError> {
    Ok(match value {
        Value::Array(items) => {
            JsValue::Array(items.iter().map(decode_value).collect::<Result<_, _>>()?)
        }
        Value::Object(map) if map.len() == 1 => {
            let (key, inner) = map.iter().next().expect("one entry");
            match key.strip_prefix('$') {
                Some("undefined") => JsValue::Undefined,
                Some(type_name) => decode_binary(type_name, inner)?,
                None => JsValue::Object(vec![(key.into(), decode_value(inner)?)]),
            }
        }
        Value::Object(map) => JsValue::Object(
            map.iter()
                .map(|(k, v)| Ok((k.into(), decode_value(v)?)))
                .collect::<Result<_, ValueError>>()?,
        ),
        other => JsValue::from_json(other),
    })
}

fn decode_binary(type_name: &str, elements: &Value) -> Result<JsValue, ValueError> {
    let kind = BinaryKind::from_name(type_name).ok_or_else(|| {
        ValueError(format!(
            "\"${type_name}\" names no binary type (use $Uint8Array, $ArrayBuffer, $DataView, … or $undefined)"
        ))
    })?;
    let Value::Array(items) = elements else {
        return Err(ValueError(format!(
            "\"${type_name}\" takes an array of elements"
        )));
    };
    let mut bytes = Vec::with_capacity(items.len() * kind.element_size());
    for item in items {
        let bad = || ValueError(format!("\"${type_name}\" cannot hold the element {item}"));
        match kind {
            BinaryKind::ArrayBuffer
            | BinaryKind::DataView
            | BinaryKind::Uint8Array
            | BinaryKind::Uint8ClampedArray => {
                bytes.push(u8::try_from(item.as_u64().ok_or_else(bad)?).map_err(|_| bad())?)
            }
            BinaryKind::Int8Array => bytes.extend(
                (i8::try_from(item.as_i64().ok_or_else(bad)?).map_err(|_| bad())?).to_le_bytes(),
            ),
            BinaryKind::Int16Array => bytes.extend(
                (i16::try_from(item.as_i64().ok_or_else(bad)?).map_err(|_| bad())?).to_le_bytes(),
            ),
            BinaryKind::Uint16Array => bytes.extend(
                (u16::try_from(item.as_u64().ok_or_else(bad)?).map_err(|_| bad())?).to_le_bytes(),
            ),
            BinaryKind::Int32Array => bytes.extend(
                (i32::try_from(item.as_i64().ok_or_else(bad)?).map_err(|_| bad())?).to_le_bytes(),
            ),
            BinaryKind::Uint32Array => bytes.extend(
                (u32::try_from(item.as_u64().ok_or_else(bad)?).map_err(|_| bad())?).to_le_bytes(),
            ),
            BinaryKind::Float32Array => {
                bytes.extend((item.as_f64().ok_or_else(bad)? as f32).to_le_bytes())
            }
            BinaryKind::Float64Array => bytes.extend(item.as_f64().ok_or_else(bad)?.to_le_bytes()),
            BinaryKind::Float16Array => {
                return Err(ValueError(
                    "\"$Float16Array\" values cannot be written in a catalogue yet".into(),
                ));
            }
            BinaryKind::BigInt64Array => {
                let n: i64 = bigint_element(item).ok_or_else(bad)?;
                bytes.extend(n.to_le_bytes())
            }
            BinaryKind::BigUint64Array => {
                let n: u64 = bigint_element(item).ok_or_else(bad)?;
                bytes.extend(n.to_le_bytes())
            }
        }
    }
    Ok(JsValue::Binary(Binary { kind, bytes }))
}

fn bigint_element<T: std::str::FromStr>(item: &Value) -> Option<T> {
    match item {
        Value::String(digits) => digits.parse().ok(),
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn binary_and_undefined_markers_decode() {
        assert_eq!(
            decode_value(&json!({"$Uint8Array": [1, 2]})).unwrap(),
            JsValue::Binary(Binary {
                kind: BinaryKind::Uint8Array,
                bytes: vec![1, 2]
            })
        );
        assert_eq!(
            decode_value(&json!({"$Int16Array": [-1]})).unwrap(),
            JsValue::Binary(Binary {
                kind: BinaryKind::Int16Array,
                bytes: vec![255, 255]
            })
        );
        assert_eq!(
            decode_value(&json!([{"$undefined": true}])).unwrap(),
            JsValue::Array(vec![JsValue::Undefined])
        );
        assert_eq!(
            decode_value(&json!({"a": 1})).unwrap(),
            JsValue::Object(vec![("a".into(), JsValue::Number(1.0))])
        );
    }

    #[test]
    fn bad_markers_say_why() {
        assert!(
            decode_value(&json!({"$Uint9Array": []}))
                .unwrap_err()
                .0
                .contains("names no binary type")
        );
        assert!(
            decode_value(&json!({"$Uint8Array": [300]}))
                .unwrap_err()
                .0
                .contains("cannot hold")
        );
    }
}
