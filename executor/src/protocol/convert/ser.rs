//! serde data into a [`JsValue`].

use serde::ser::{self, Serialize};

use super::path::ConvertError;
use crate::protocol::{Binary, BinaryKind, JsString, JsValue};

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
pub(super) const MAX_SAFE_INTEGER: i128 = 9_007_199_254_740_991;

/// Serializes into a [`JsValue`].
pub(super) struct ValueSerializer;

fn integer(value: i128) -> Result<JsValue, ConvertError> {
    if value.unsigned_abs() <= MAX_SAFE_INTEGER as u128 {
        Ok(JsValue::Number(value as f64))
    } else {
        Err(beyond_safe(value))
    }
}

fn unsigned(value: u128) -> Result<JsValue, ConvertError> {
    if value <= MAX_SAFE_INTEGER as u128 {
        Ok(JsValue::Number(value as f64))
    } else {
        Err(beyond_safe(value))
    }
}

fn beyond_safe(value: impl std::fmt::Display) -> ConvertError {
    ConvertError::new(format!(
        "the integer {value} is beyond what a JavaScript number holds exactly (±{MAX_SAFE_INTEGER}); send it as a string"
    ))
}

impl ser::Serializer for ValueSerializer {
    type Ok = JsValue;
    type Error = ConvertError;
    type SerializeSeq = SeqSerializer;
    type SerializeTuple = SeqSerializer;
    type SerializeTupleStruct = SeqSerializer;
    type SerializeTupleVariant = VariantSerializer<SeqSerializer>;
    type SerializeMap = MapSerializer;
    type SerializeStruct = MapSerializer;
    type SerializeStructVariant = VariantSerializer<MapSerializer>;

    fn serialize_bool(self, v: bool) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<JsValue, ConvertError> {
        integer(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<JsValue, ConvertError> {
        integer(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<JsValue, ConvertError> {
        integer(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<JsValue, ConvertError> {
        integer(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<JsValue, ConvertError> {
        integer(v)
    }
    fn serialize_u8(self, v: u8) -> Result<JsValue, ConvertError> {
        integer(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<JsValue, ConvertError> {
        integer(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<JsValue, ConvertError> {
        integer(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<JsValue, ConvertError> {
        integer(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<JsValue, ConvertError> {
        unsigned(v)
    }
    fn serialize_f32(self, v: f32) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Number(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Number(v))
    }
    fn serialize_char(self, v: char) -> Result<JsValue, ConvertError> {
        Ok(JsValue::String(v.to_string().into()))
    }
    fn serialize_str(self, v: &str) -> Result<JsValue, ConvertError> {
        Ok(JsValue::String(v.into()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Binary(Binary {
            kind: BinaryKind::Uint8Array,
            bytes: v.to_vec(),
        }))
    }
    fn serialize_none(self) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<JsValue, ConvertError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Undefined)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Undefined)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<JsValue, ConvertError> {
        Ok(JsValue::String(variant.into()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<JsValue, ConvertError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<JsValue, ConvertError> {
        let content = value
            .serialize(ValueSerializer)
            .map_err(|e| e.under_key(variant))?;
        Ok(JsValue::Object(vec![(variant.into(), content)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer, ConvertError> {
        Ok(SeqSerializer(Vec::with_capacity(
            len.unwrap_or(0).min(4096),
        )))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer, ConvertError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqSerializer, ConvertError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSerializer<SeqSerializer>, ConvertError> {
        Ok(VariantSerializer {
            variant,
            inner: self.serialize_seq(Some(len))?,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapSerializer, ConvertError> {
        Ok(MapSerializer {
            entries: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            key: None,
        })
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<MapSerializer, ConvertError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSerializer<MapSerializer>, ConvertError> {
        Ok(VariantSerializer {
            variant,
            inner: self.serialize_map(Some(len))?,
        })
    }
}

/// The elements of an array, collected in order.
pub(super) struct SeqSerializer(Vec<JsValue>);

impl SeqSerializer {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ConvertError> {
        let index = self.0.len();
        let element = value
            .serialize(ValueSerializer)
            .map_err(|e| e.under_index(index))?;
        self.0.push(element);
        Ok(())
    }
}

impl ser::SerializeSeq for SeqSerializer {
    type Ok = JsValue;
    type Error = ConvertError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Array(self.0))
    }
}

impl ser::SerializeTuple for SeqSerializer {
    type Ok = JsValue;
    type Error = ConvertError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Array(self.0))
    }
}

impl ser::SerializeTupleStruct for SeqSerializer {
    type Ok = JsValue;
    type Error = ConvertError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Array(self.0))
    }
}

/// The properties of an object, collected in order; a repeated key keeps its first place and
/// its last value, as assigning it again in JavaScript does.
pub(super) struct MapSerializer {
    entries: Vec<(String, JsValue)>,
    key: Option<String>,
}

impl MapSerializer {
    fn insert(&mut self, key: String, value: JsValue) {
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => self.entries.push((key, value)),
        }
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), ConvertError> {
        let value = value
            .serialize(ValueSerializer)
            .map_err(|e| e.under_key(key))?;
        self.insert(key.to_string(), value);
        Ok(())
    }
}

/// Collected properties as an object's keys.
fn into_properties(entries: Vec<(String, JsValue)>) -> Vec<(JsString, JsValue)> {
    entries
        .into_iter()
        .map(|(key, value)| (key.into(), value))
        .collect()
}

/// A map key as a property name: strings as they are, numbers and booleans as `String()`
/// writes them.
fn property_name(key: JsValue) -> Result<String, ConvertError> {
    match key {
        JsValue::String(text) => Ok(text.to_text().into_owned()),
        key @ (JsValue::Number(_) | JsValue::Bool(_)) => Ok(key.to_js_string()),
        other => Err(ConvertError::new(format!(
            "a map key must be a string or a number to become a property name, not {}",
            describe(&other)
        ))),
    }
}

fn describe(value: &JsValue) -> &'static str {
    match value {
        JsValue::Undefined => "undefined (a unit value)",
        JsValue::Null => "null (a None)",
        JsValue::Array(_) => "an array (a sequence or tuple)",
        JsValue::Object(_) => "an object (a struct or map)",
        JsValue::Binary(_) => "bytes",
        _ => "this value",
    }
}

impl ser::SerializeMap for MapSerializer {
    type Ok = JsValue;
    type Error = ConvertError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), ConvertError> {
        self.key = Some(property_name(key.serialize(ValueSerializer)?)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ConvertError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ConvertError::new("a map value came without its key"))?;
        self.field(&key, value)
    }
    fn end(self) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Object(into_properties(self.entries)))
    }
}

impl ser::SerializeStruct for MapSerializer {
    type Ok = JsValue;
    type Error = ConvertError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ConvertError> {
        self.field(key, value)
    }
    fn end(self) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Object(into_properties(self.entries)))
    }
}

/// An enum variant with content: `{ "<variant>": <content> }`.
pub(super) struct VariantSerializer<S> {
    variant: &'static str,
    inner: S,
}

impl VariantSerializer<SeqSerializer> {
    fn wrap(self) -> JsValue {
        JsValue::Object(vec![(self.variant.into(), JsValue::Array(self.inner.0))])
    }
}

impl ser::SerializeTupleVariant for VariantSerializer<SeqSerializer> {
    type Ok = JsValue;
    type Error = ConvertError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ConvertError> {
        let variant = self.variant;
        self.inner.push(value).map_err(|e| e.under_key(variant))
    }
    fn end(self) -> Result<JsValue, ConvertError> {
        Ok(self.wrap())
    }
}

impl ser::SerializeStructVariant for VariantSerializer<MapSerializer> {
    type Ok = JsValue;
    type Error = ConvertError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ConvertError> {
        let variant = self.variant;
        self.inner
            .field(key, value)
            .map_err(|e| e.under_key(variant))
    }
    fn end(self) -> Result<JsValue, ConvertError> {
        Ok(JsValue::Object(vec![(
            self.variant.into(),
            JsValue::Object(into_properties(self.inner.entries)),
        )]))
    }
}
