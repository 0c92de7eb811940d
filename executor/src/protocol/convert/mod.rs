//! Conversions between [`JsValue`] and serde data, done once for every host.
//!
//! [`to_js_value`] turns any [`Serialize`] value into a [`JsValue`], and [`from_js_value`]
//! reads any [`DeserializeOwned`] type out of one. The mapping, chosen so that what a tool
//! returns reads in the sandbox as the same data written in JavaScript:
//!
//! | Rust (serde)                                  | JavaScript ([`JsValue`])                     |
//! |-----------------------------------------------|----------------------------------------------|
//! | `bool`                                        | boolean                                      |
//! | integers within ±(2<sup>53</sup> − 1), floats | number                                       |
//! | larger integers (`i64`, `u64`, `i128`…)       | refused: a number cannot hold them exactly   |
//! | `String`, `&str`, `char`                      | string                                       |
//! | bytes (`serde_bytes`, `ByteBuf`)              | `Uint8Array`                                 |
//! | `None`                                        | `null`                                       |
//! | `()`, unit structs                            | `undefined`                                  |
//! | sequences, tuples, `Vec<T>`                   | array                                        |
//! | structs, maps                                 | plain object (map keys as strings)           |
//! | enum unit variant                             | the variant's name as a string               |
//! | other enum variants                           | `{ "<variant>": <content> }`                 |
//!
//! Reading goes the other way, and accepts more: `undefined` and `null` both read as `None`
//! (and as `()`); a missing object property reads as `None` for an `Option` field; binary data
//! reads as bytes, or as a sequence of numbers for a plain `Vec<u8>`; an integral number reads
//! as any integer type that holds it, while a fraction, or an integer beyond the type's range,
//! is refused; a BigInt reads as an integer type that holds it; a `Date` reads as its ISO
//! string, a `Map` as a map, a `Set` as a sequence, an `Error` as `{name, message}`.
//!
//! Guarantees: a value that does not fit is refused with a [`Error::Conversion`] whose text
//! names where (`value.items[2].id`) and what was wrong; nothing panics on any input.

mod de;
mod path;
mod ser;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::JsValue;
use crate::Error;

pub(crate) use path::ConvertError;

/// Converts a serde value into a [`JsValue`] (see the [module docs](self) for the mapping).
///
/// # Errors
///
/// [`Error::Conversion`] where the value has no JavaScript form: an integer beyond
/// ±(2<sup>53</sup> − 1), which a JavaScript number cannot hold exactly, or a map key that is
/// neither a string nor a number. The text names where the value sits.
///
/// ```
/// use codemode_executor::protocol::{JsValue, to_js_value};
///
/// #[derive(serde::Serialize)]
/// struct Point { x: i32, label: Option<String> }
///
/// let value = to_js_value(&Point { x: 3, label: None }).unwrap();
/// assert_eq!(value, JsValue::Object(vec![
///     ("x".into(), JsValue::Number(3.0)),
///     ("label".into(), JsValue::Null),
/// ]));
/// ```
pub fn to_js_value<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Error> {
    to_js_value_at(value, "value").map_err(|error| {
        Error::Conversion(format!(
            "The Rust value has no JavaScript form: {}.",
            error.sentence()
        ))
    })
}

/// Reads a serde type out of a [`JsValue`] (see the [module docs](self) for the mapping).
///
/// # Errors
///
/// [`Error::Conversion`] where the value does not fit the type: a missing field, a value of
/// another type, a fraction or an out-of-range number for an integer, an unknown enum
/// variant. The text names where (`value.items[2].id`) and what was wrong.
///
/// ```
/// use codemode_executor::protocol::{JsValue, from_js_value};
///
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Point { x: i32, label: Option<String> }
///
/// let value = JsValue::Object(vec![("x".into(), JsValue::Number(3.0))]);
/// assert_eq!(from_js_value::<Point>(value).unwrap(), Point { x: 3, label: None });
///
/// let wrong = JsValue::Object(vec![("x".into(), JsValue::Number(3.5))]);
/// assert_eq!(
///     from_js_value::<Point>(wrong).unwrap_err().to_string(),
///     "The value does not fit the Rust type: at value.x, invalid type: number `3.5`, expected i32.",
/// );
/// ```
pub fn from_js_value<T: DeserializeOwned>(value: JsValue) -> Result<T, Error> {
    from_js_value_at(value, "value").map_err(|error| {
        Error::Conversion(format!(
            "The value does not fit the Rust type: {}.",
            error.sentence()
        ))
    })
}

/// [`to_js_value`] with the error kept whole, its path rooted at `root`.
pub(crate) fn to_js_value_at<T: Serialize + ?Sized>(
    value: &T,
    root: &str,
) -> Result<JsValue, ConvertError> {
    value
        .serialize(ser::ValueSerializer)
        .map_err(|error| error.rooted(root))
}

/// [`from_js_value`] with the error kept whole, its path rooted at `root`.
pub(crate) fn from_js_value_at<T: DeserializeOwned>(
    value: JsValue,
    root: &str,
) -> Result<T, ConvertError> {
    T::deserialize(de::ValueDeserializer::new(value)).map_err(|error| error.rooted(root))
}

impl From<f64> for JsValue {
    /// A number.
    fn from(n: f64) -> Self {
        JsValue::Number(n)
    }
}

impl From<i32> for JsValue {
    /// A number (every `i32` is one exactly).
    fn from(n: i32) -> Self {
        JsValue::Number(n.into())
    }
}

impl From<bool> for JsValue {
    /// A boolean.
    fn from(b: bool) -> Self {
        JsValue::Bool(b)
    }
}

impl From<&str> for JsValue {
    /// A string.
    fn from(text: &str) -> Self {
        JsValue::String(text.into())
    }
}

impl From<String> for JsValue {
    /// A string.
    fn from(text: String) -> Self {
        JsValue::String(text.into())
    }
}
