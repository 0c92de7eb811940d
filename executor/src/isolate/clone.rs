//! The result's crossing: a QuickJS value cloned into a [`JsValue`], as structured clone
//! (and the reference's RPC) would carry it.
//!
//! Guarantees: brands are read from internal slots (a `Date` is a `Date` whatever its
//! prototype says), with intrinsics captured before the program ran; a `Promise` anywhere
//! fails the crossing with the reference's text; a class instance fails as Workers RPC fails
//! it; a cyclic reference ends as `undefined` instead of looping; nesting deeper than
//! [`MAX_DEPTH`] fails instead of overflowing the stack.

use rquickjs::{Array, ArrayBuffer, Coerced, Ctx, Function, Object, TypedArray, Value, qjs};

use super::memory::Meter;
use super::text::{CoercedText, Text, js_string};
use super::v8_messages::translate_message;
use crate::protocol::{Binary, BinaryKind, JsString, JsValue};

/// What one cloned value costs the run beside its text and bytes.
const NODE_COST: usize = std::mem::size_of::<JsValue>();

/// How deep a result may nest.
pub(super) const MAX_DEPTH: usize = 2_000;

/// Why a value could not cross.
#[derive(Debug)]
pub(super) enum CloneError {
    /// The value holds something that cannot be cloned; the text is the reference's.
    Uncloneable(String),
    /// JavaScript failed while the value was read (a getter threw, memory ran out).
    Js(rquickjs::Error),
    /// The clone would not fit in what remains of the run's memory budget.
    OutOfMemory,
}

impl From<rquickjs::Error> for CloneError {
    fn from(error: rquickjs::Error) -> Self {
        CloneError::Js(error)
    }
}

/// Clones `value` out of the sandbox; `internal` is the object `bootstrap.js` returned.
/// The clone is charged to the run's memory budget as it grows (see [`super::memory`]).
pub(super) fn clone_value<'js>(
    ctx: &Ctx<'js>,
    internal: &Object<'js>,
    value: Value<'js>,
    meter: &Meter,
) -> Result<JsValue, CloneError> {
    Cloner {
        meter,
        ctx: ctx.clone(),
        internal: internal.clone(),
        ancestors: Vec::new(),
    }
    .clone_value(value)
}

struct Cloner<'a, 'js> {
    meter: &'a Meter,
    ctx: Ctx<'js>,
    internal: Object<'js>,
    ancestors: Vec<usize>,
}

fn identity(value: &Value<'_>) -> usize {
    // SAFETY: reading the pointer member of an object value's union.
    unsafe { value.as_raw().u.ptr as usize }
}

impl<'js> Cloner<'_, 'js> {
    /// Charges `bytes` of the clone to the run's budget.
    fn charge(&self, bytes: usize) -> Result<(), CloneError> {
        if self.meter.charge_host(bytes) {
            Ok(())
        } else {
            Err(CloneError::OutOfMemory)
        }
    }

    fn helper(&self, name: &str) -> Result<Function<'js>, CloneError> {
        Ok(self.internal.get(name)?)
    }

    fn clone_value(&mut self, value: Value<'js>) -> Result<JsValue, CloneError> {
        self.charge(NODE_COST)?;
        if value.is_undefined() {
            return Ok(JsValue::Undefined);
        }
        if value.is_null() {
            return Ok(JsValue::Null);
        }
        if let Some(b) = value.as_bool() {
            return Ok(JsValue::Bool(b));
        }
        if let Some(n) = value.as_number() {
            return Ok(JsValue::Number(n));
        }
        if let Some(s) = value.as_string() {
            let text = js_string(&self.ctx, s.as_value())?;
            self.charge(text.as_wtf8().len())?;
            return Ok(JsValue::String(text));
        }
        if value.is_big_int() {
            let Coerced(digits) = value.get::<Coerced<String>>()?;
            return Ok(JsValue::BigInt(digits));
        }
        if let Some(symbol) = value.as_symbol() {
            let description = symbol.description()?;
            let description = match description.as_string() {
                Some(text) => js_string(&self.ctx, text.as_value())?
                    .to_text()
                    .into_owned(),
                None => String::new(),
            };
            return Err(CloneError::Uncloneable(format!(
                "Symbol({description}) could not be cloned."
            )));
        }
        if !value.is_object() {
            return Ok(JsValue::Undefined);
        }
        let id = identity(&value);
        if self.ancestors.contains(&id) {
            return Ok(JsValue::Undefined);
        }
        if self.ancestors.len() >= MAX_DEPTH {
            return Err(CloneError::Uncloneable(
                "Maximum call stack size exceeded".into(),
            ));
        }
        self.ancestors.push(id);
        let cloned = self.clone_object(value);
        self.ancestors.pop();
        cloned
    }

    fn clone_object(&mut self, value: Value<'js>) -> Result<JsValue, CloneError> {
        let raw = value.as_raw();
        // SAFETY: brand checks read the value's class; `raw` stays alive through `value`.
        let (promise, map, set, date, regexp, error, buffer, data_view, typed, weak) = unsafe {
            (
                qjs::JS_IsPromise(raw),
                qjs::JS_IsMap(raw),
                qjs::JS_IsSet(raw),
                qjs::JS_IsDate(raw),
                qjs::JS_IsRegExp(raw),
                qjs::JS_IsError(raw),
                qjs::JS_IsArrayBuffer(raw),
                qjs::JS_IsDataView(raw),
                qjs::JS_GetTypedArrayType(raw),
                qjs::JS_IsWeakMap(raw) || qjs::JS_IsWeakSet(raw) || qjs::JS_IsWeakRef(raw),
            )
        };
        if promise {
            return Err(CloneError::Uncloneable(
                "#<Promise> could not be cloned.".into(),
            ));
        }
        if value.is_function() {
            return Ok(JsValue::Function);
        }
        if let Some(array) = value.as_array() {
            // A sparse array's length may be far beyond what its elements hold: capacity
            // grows as the (charged) elements arrive.
            let length: f64 = array.as_object().get("length")?;
            let length = length as usize;
            let mut items = Vec::with_capacity(length.min(1024));
            for index in 0..length {
                items.push(self.clone_value(array.get(index)?)?);
            }
            return Ok(JsValue::Array(items));
        }
        if error {
            let object = value.as_object().cloned().ok_or_else(not_an_object)?;
            let name = string_property(&object, "name")?.unwrap_or_else(|| "Error".into());
            let message = string_property(&object, "message")?.unwrap_or_default();
            return Ok(JsValue::Error {
                name,
                message: translate_message(&message, None),
            });
        }
        if date {
            let time: f64 = self.helper("dateValue")?.call((value,))?;
            return Ok(JsValue::Date(time));
        }
        if regexp {
            let (Text(source), Text(flags)) = {
                let parts: Array = self.helper("regexpParts")?.call((value,))?;
                (parts.get(0)?, parts.get(1)?)
            };
            return Ok(JsValue::RegExp { source, flags });
        }
        if map {
            let entries: Array = self.helper("mapEntries")?.call((value,))?;
            let mut pairs = Vec::with_capacity(entries.len());
            for entry in entries.iter::<Array>() {
                let entry = entry?;
                let key = self.clone_value(entry.get(0)?)?;
                let item = self.clone_value(entry.get(1)?)?;
                pairs.push((key, item));
            }
            return Ok(JsValue::Map(pairs));
        }
        if set {
            let values: Array = self.helper("setValues")?.call((value,))?;
            let mut items = Vec::with_capacity(values.len());
            for item in values.iter::<Value>() {
                items.push(self.clone_value(item?)?);
            }
            return Ok(JsValue::Set(items));
        }
        if buffer {
            let bytes = ArrayBuffer::from_value(value)
                .and_then(|b| b.as_raw())
                // SAFETY: copied before any JavaScript runs again.
                .map(|raw| unsafe { raw.as_ref() }.to_vec())
                .unwrap_or_default();
            self.charge(bytes.len())?;
            return Ok(JsValue::Binary(Binary {
                kind: BinaryKind::ArrayBuffer,
                bytes,
            }));
        }
        if data_view || typed >= 0 {
            let kind = if data_view {
                BinaryKind::DataView
            } else {
                typed_array_kind(typed)
            };
            let view: Value = self.helper("viewBytes")?.call((value, data_view))?;
            let bytes = TypedArray::<u8>::from_value(view)?;
            // SAFETY: copied before any JavaScript runs again.
            let bytes = unsafe { bytes.as_bytes() }
                .map(<[u8]>::to_vec)
                .unwrap_or_default();
            self.charge(bytes.len())?;
            return Ok(JsValue::Binary(Binary { kind, bytes }));
        }
        let object = value.as_object().cloned().ok_or_else(not_an_object)?;
        if weak {
            let Text(name) = self.helper("typeName")?.call((object,))?;
            let name = if name.is_empty() {
                "Object".to_string()
            } else {
                name
            };
            return Err(CloneError::Uncloneable(format!(
                "#<{name}> could not be cloned."
            )));
        }
        let Text(type_name) = self.helper("typeName")?.call((object.clone(),))?;
        if type_name == "[object Module]" {
            return Err(CloneError::Uncloneable(format!(
                "{type_name} could not be cloned."
            )));
        }
        if !type_name.is_empty() {
            // A boxed primitive crosses as structured clone carries it; its projection is
            // the primitive's.
            let unboxed: Value = self.helper("unbox")?.call((object.clone(),))?;
            if let Some(unboxed) = unboxed.as_array() {
                return self.clone_value(unboxed.get(0)?);
            }
            return Err(CloneError::Uncloneable(format!(
                "Could not serialize object of type \"{type_name}\". This type does not support serialization."
            )));
        }
        let mut entries = Vec::new();
        for key in object.keys::<Value>() {
            let key = key?;
            let name = js_string(&self.ctx, &key)?;
            self.charge(name.as_wtf8().len() + std::mem::size_of::<JsString>())?;
            let item: Value = object.get(key)?;
            entries.push((name, self.clone_value(item)?));
        }
        Ok(JsValue::Object(entries))
    }
}

fn not_an_object() -> CloneError {
    CloneError::Js(rquickjs::Error::new_from_js("value", "object"))
}

/// A property read as `String(value)`; `None` where it is `undefined`.
fn string_property<'js>(object: &Object<'js>, name: &str) -> rquickjs::Result<Option<String>> {
    let value: Value = object.get(name)?;
    if value.is_undefined() {
        return Ok(None);
    }
    let CoercedText(text) = value.get::<CoercedText>()?;
    Ok(Some(text))
}

fn typed_array_kind(kind: i32) -> BinaryKind {
    match kind as u32 {
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_UINT8C => BinaryKind::Uint8ClampedArray,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_INT8 => BinaryKind::Int8Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_UINT8 => BinaryKind::Uint8Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_INT16 => BinaryKind::Int16Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_UINT16 => BinaryKind::Uint16Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_INT32 => BinaryKind::Int32Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_UINT32 => BinaryKind::Uint32Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_BIG_INT64 => BinaryKind::BigInt64Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_BIG_UINT64 => BinaryKind::BigUint64Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_FLOAT16 => BinaryKind::Float16Array,
        qjs::JSTypedArrayEnum_JS_TYPED_ARRAY_FLOAT32 => BinaryKind::Float32Array,
        _ => BinaryKind::Float64Array,
    }
}
