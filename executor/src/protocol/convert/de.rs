//! A [`JsValue`] read as serde data.

use serde::de::value::StringDeserializer;
use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, VariantAccess,
    Visitor,
};
use serde::forward_to_deserialize_any;

use super::path::ConvertError;
use super::ser::MAX_SAFE_INTEGER;
use crate::protocol::{JsString, JsValue, iso_string};

/// Reads one [`JsValue`], owning it.
pub(super) struct ValueDeserializer {
    value: JsValue,
}

impl ValueDeserializer {
    pub(super) fn new(value: JsValue) -> Self {
        ValueDeserializer { value }
    }
}

/// Rewords serde's name for what it met (`map`, `sequence`, `unit value`) as JavaScript
/// names the value, for an error that arose at this very value.
fn retitled<T>(
    result: Result<T, ConvertError>,
    serde_word: &str,
    js_word: &str,
) -> Result<T, ConvertError> {
    result.map_err(|error| error.retitle(serde_word, js_word))
}

impl ConvertError {
    fn retitle(self, serde_word: &str, js_word: &str) -> Self {
        self.reword(
            &format!("invalid type: {serde_word},"),
            &format!("invalid type: {js_word},"),
        )
    }
}

/// Whether `n` is an integer a JavaScript number holds exactly.
fn safe_integer(n: f64) -> bool {
    n == n.trunc() && n.abs() <= MAX_SAFE_INTEGER as f64
}

/// Visits a number, naming it `number` (not `integer` or `floating point`) in a refusal.
fn visit_number<'de, V: Visitor<'de>>(n: f64, visitor: V) -> Result<V::Value, ConvertError> {
    visit_number_as_serde(n, visitor).map_err(|error| {
        error
            .reword("invalid type: integer", "invalid type: number")
            .reword("invalid type: floating point", "invalid type: number")
            .reword("invalid value: integer", "invalid value: number")
            .reword("invalid value: floating point", "invalid value: number")
    })
}

fn visit_number_as_serde<'de, V: Visitor<'de>>(
    n: f64,
    visitor: V,
) -> Result<V::Value, ConvertError> {
    if safe_integer(n) {
        if n < 0.0 {
            visitor.visit_i64(n as i64)
        } else {
            visitor.visit_u64(n as u64)
        }
    } else {
        visitor.visit_f64(n)
    }
}

fn visit_bigint<'de, V: Visitor<'de>>(
    digits: String,
    visitor: V,
) -> Result<V::Value, ConvertError> {
    if let Ok(n) = digits.parse::<u64>() {
        return visitor.visit_u64(n);
    }
    if let Ok(n) = digits.parse::<i64>() {
        return visitor.visit_i64(n);
    }
    if let Ok(n) = digits.parse::<u128>() {
        return visitor.visit_u128(n);
    }
    if let Ok(n) = digits.parse::<i128>() {
        return visitor.visit_i128(n);
    }
    visitor.visit_string(digits)
}

/// Reads an integer type: a number beyond ±(2^53 − 1) is refused, since it no longer says
/// which integer the program meant.
macro_rules! deserialize_integer {
    ($($method:ident => $name:literal),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ConvertError> {
            match self.value {
                JsValue::Number(n) if n == n.trunc() && !safe_integer(n) => Err(ConvertError::new(format!(
                    "the number {} is beyond the integers a JavaScript number holds exactly (±{MAX_SAFE_INTEGER}), so it cannot be read as {}; send it as a string or a BigInt",
                    JsValue::Number(n).to_js_string(),
                    $name,
                ))),
                _ => self.deserialize_any(visitor),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for ValueDeserializer {
    type Error = ConvertError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ConvertError> {
        match self.value {
            JsValue::Undefined | JsValue::Function => {
                retitled(visitor.visit_unit(), "unit value", "undefined")
            }
            JsValue::Null => retitled(visitor.visit_unit(), "unit value", "null"),
            JsValue::Bool(b) => visitor.visit_bool(b),
            JsValue::Number(n) => visit_number(n, visitor),
            JsValue::BigInt(digits) => visit_bigint(digits, visitor),
            JsValue::String(text) => visitor.visit_string(text.to_usv().into_owned()),
            JsValue::Array(items) | JsValue::Set(items) => {
                retitled(visit_array(items, visitor), "sequence", "array")
            }
            JsValue::Object(entries) => retitled(visit_object(entries, visitor), "map", "object"),
            JsValue::Map(entries) => retitled(
                visitor.visit_map(EntryAccess {
                    entries: entries.into_iter(),
                    value: None,
                }),
                "map",
                "Map",
            ),
            JsValue::Date(time) => match iso_string(time) {
                Some(iso) => visitor.visit_string(iso),
                None => retitled(visitor.visit_unit(), "unit value", "an invalid Date"),
            },
            JsValue::Binary(binary) => retitled(
                visitor.visit_byte_buf(binary.bytes),
                "byte array",
                "binary data",
            ),
            JsValue::RegExp { source, flags } => visitor.visit_string(format!("/{source}/{flags}")),
            JsValue::Error { name, message } => retitled(
                visit_object(
                    vec![
                        ("name".into(), JsValue::String(name.into())),
                        ("message".into(), JsValue::String(message.into())),
                    ],
                    visitor,
                ),
                "map",
                "an Error",
            ),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ConvertError> {
        match self.value {
            JsValue::Undefined | JsValue::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ConvertError> {
        match self.value {
            JsValue::Undefined | JsValue::Null => visitor.visit_unit(),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ConvertError> {
        match self.value {
            // A plain `Vec<u8>` reads binary data byte by byte.
            JsValue::Binary(binary) => visit_array(
                binary
                    .bytes
                    .into_iter()
                    .map(|byte| JsValue::Number(byte.into()))
                    .collect(),
                visitor,
            ),
            _ => self.deserialize_any(visitor),
        }
    }

    /// A tuple reads an array as a function reads its arguments: missing elements read as
    /// `undefined` (so an `Option` element may be left out), extra elements are ignored.
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        match self.value {
            JsValue::Array(mut items) if items.len() < len => {
                items.resize(len, JsValue::Undefined);
                retitled(visit_array(items, visitor), "sequence", "array")
            }
            _ => self.deserialize_seq(visitor),
        }
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        match self.value {
            JsValue::String(variant) => visitor.visit_enum(Variant {
                name: variant.to_usv().into_owned(),
                content: JsValue::Undefined,
            }),
            JsValue::Object(mut entries) if entries.len() == 1 => {
                let (variant, content) = entries.pop().expect("one entry");
                visitor.visit_enum(Variant {
                    name: variant.to_usv().into_owned(),
                    content,
                })
            }
            other => Err(ConvertError::new(format!(
                "expected enum {name} as a variant's name (a string) or as an object with exactly one property, found {}",
                describe(&other)
            ))),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        visitor.visit_unit()
    }

    deserialize_integer! {
        deserialize_i8 => "i8", deserialize_i16 => "i16", deserialize_i32 => "i32",
        deserialize_i64 => "i64", deserialize_i128 => "i128",
        deserialize_u8 => "u8", deserialize_u16 => "u16", deserialize_u32 => "u32",
        deserialize_u64 => "u64", deserialize_u128 => "u128",
    }

    forward_to_deserialize_any! {
        bool f32 f64 char str string bytes byte_buf map struct identifier
    }
}

/// How a value is named in a message.
fn describe(value: &JsValue) -> String {
    match value {
        JsValue::Undefined => "undefined".into(),
        JsValue::Null => "null".into(),
        JsValue::Bool(b) => format!("the boolean {b}"),
        JsValue::Number(_) => format!("the number {}", value.to_js_string()),
        JsValue::BigInt(digits) => format!("the BigInt {digits}n"),
        JsValue::String(text) => format!("the string {text:?}"),
        JsValue::Array(_) => "an array".into(),
        JsValue::Object(entries) => format!("an object with {} properties", entries.len()),
        JsValue::Map(_) => "a Map".into(),
        JsValue::Set(_) => "a Set".into(),
        JsValue::Date(_) => "a Date".into(),
        JsValue::Binary(binary) => format!("a {}", binary.kind.name()),
        JsValue::RegExp { .. } => "a RegExp".into(),
        JsValue::Error { .. } => "an Error".into(),
        JsValue::Function => "a function".into(),
    }
}

fn visit_array<'de, V: Visitor<'de>>(
    items: Vec<JsValue>,
    visitor: V,
) -> Result<V::Value, ConvertError> {
    visitor.visit_seq(ArrayAccess {
        items: items.into_iter().enumerate(),
    })
}

fn visit_object<'de, V: Visitor<'de>>(
    entries: Vec<(JsString, JsValue)>,
    visitor: V,
) -> Result<V::Value, ConvertError> {
    visitor.visit_map(PropertyAccess {
        entries: entries.into_iter(),
        value: None,
    })
}

/// An array's elements, each error under its index.
struct ArrayAccess {
    items: std::iter::Enumerate<std::vec::IntoIter<JsValue>>,
}

impl<'de> SeqAccess<'de> for ArrayAccess {
    type Error = ConvertError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, ConvertError> {
        match self.items.next() {
            None => Ok(None),
            Some((index, item)) => seed
                .deserialize(ValueDeserializer::new(item))
                .map(Some)
                .map_err(|e| e.under_index(index)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's properties, each error under its key.
struct PropertyAccess {
    entries: std::vec::IntoIter<(JsString, JsValue)>,
    value: Option<(String, JsValue)>,
}

impl<'de> MapAccess<'de> for PropertyAccess {
    type Error = ConvertError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ConvertError> {
        match self.entries.next() {
            None => Ok(None),
            Some((key, value)) => {
                let key = key.to_usv().into_owned();
                let read = seed
                    .deserialize(PropertyName(key.clone()))
                    .map_err(|e| e.under_key(&key))?;
                self.value = Some((key, value));
                Ok(Some(read))
            }
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<T::Value, ConvertError> {
        let (key, value) = self
            .value
            .take()
            .ok_or_else(|| ConvertError::new("a property's value was read before its key"))?;
        seed.deserialize(ValueDeserializer::new(value))
            .map_err(|e| e.under_key(&key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// A `Map`'s entries, each error under its key as `String()` renders it.
struct EntryAccess {
    entries: std::vec::IntoIter<(JsValue, JsValue)>,
    value: Option<(String, JsValue)>,
}

impl<'de> MapAccess<'de> for EntryAccess {
    type Error = ConvertError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ConvertError> {
        match self.entries.next() {
            None => Ok(None),
            Some((key, value)) => {
                let label = key.to_js_string();
                let read = match key {
                    JsValue::String(text) => {
                        seed.deserialize(PropertyName(text.to_usv().into_owned()))
                    }
                    other => seed.deserialize(ValueDeserializer::new(other)),
                }
                .map_err(|e| e.under_key(&label))?;
                self.value = Some((label, value));
                Ok(Some(read))
            }
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<T::Value, ConvertError> {
        let (label, value) = self
            .value
            .take()
            .ok_or_else(|| ConvertError::new("a Map's value was read before its key"))?;
        seed.deserialize(ValueDeserializer::new(value))
            .map_err(|e| e.under_key(&label))
    }
}

/// A property name, read as a string or, for a map keyed by numbers, parsed as one.
struct PropertyName(String);

macro_rules! parse_name {
    ($($method:ident => $ty:ty, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ConvertError> {
            match self.0.parse::<$ty>() {
                Ok(parsed) => visitor.$visit(parsed),
                Err(_) => Err(ConvertError::new(format!(
                    "the property name {:?} is not a {}",
                    self.0,
                    stringify!($ty),
                ))),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for PropertyName {
    type Error = ConvertError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ConvertError> {
        visitor.visit_string(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ConvertError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        let name: StringDeserializer<ConvertError> = self.0.into_deserializer();
        visitor.visit_enum(name)
    }

    parse_name! {
        deserialize_bool => bool, visit_bool;
        deserialize_i8 => i8, visit_i8;
        deserialize_i16 => i16, visit_i16;
        deserialize_i32 => i32, visit_i32;
        deserialize_i64 => i64, visit_i64;
        deserialize_i128 => i128, visit_i128;
        deserialize_u8 => u8, visit_u8;
        deserialize_u16 => u16, visit_u16;
        deserialize_u32 => u32, visit_u32;
        deserialize_u64 => u64, visit_u64;
        deserialize_u128 => u128, visit_u128;
        deserialize_f32 => f32, visit_f32;
        deserialize_f64 => f64, visit_f64;
        deserialize_char => char, visit_char;
    }

    forward_to_deserialize_any! {
        str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// An enum's variant: its name, and what it carries (`undefined` for a unit variant).
struct Variant {
    name: String,
    content: JsValue,
}

impl<'de> EnumAccess<'de> for Variant {
    type Error = ConvertError;
    type Variant = VariantContent;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, VariantContent), ConvertError> {
        let name: StringDeserializer<ConvertError> = self.name.clone().into_deserializer();
        let read = seed.deserialize(name)?;
        Ok((
            read,
            VariantContent {
                name: self.name,
                content: self.content,
            },
        ))
    }
}

/// What a variant carries, each error under the variant's name.
struct VariantContent {
    name: String,
    content: JsValue,
}

impl<'de> VariantAccess<'de> for VariantContent {
    type Error = ConvertError;

    fn unit_variant(self) -> Result<(), ConvertError> {
        match self.content {
            JsValue::Undefined | JsValue::Null => Ok(()),
            other => Err(ConvertError::new(format!(
                "the variant {} carries nothing, found {}",
                self.name,
                describe(&other)
            ))
            .under_key(&self.name)),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, ConvertError> {
        let name = self.name;
        seed.deserialize(ValueDeserializer::new(self.content))
            .map_err(|e| e.under_key(&name))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        let name = self.name;
        de::Deserializer::deserialize_tuple(ValueDeserializer::new(self.content), len, visitor)
            .map_err(|e| e.under_key(&name))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ConvertError> {
        let name = self.name;
        de::Deserializer::deserialize_any(ValueDeserializer::new(self.content), visitor)
            .map_err(|e| e.under_key(&name))
    }
}
