//! Strings crossing out of the sandbox, every code unit kept.
//!
//! QuickJS writes a string as WTF-8 (a lone surrogate as its own three bytes), which
//! rquickjs's `String` conversion refuses. Here it is read as such: a value's string as a
//! [`JsString`], a text (a log line, a message, a name) in the escape form of
//! [`crate::protocol::js_string`], a Web platform argument as a USVString (a lone
//! surrogate becomes U+FFFD, as `TextEncoder` and `URL` convert it), and a string for ICU
//! (collation, segmentation) as its UTF-16 code units, lone surrogates included.

use rquickjs::{Ctx, FromJs, Value, qjs};

use crate::protocol::JsString;

/// The string `value` holds (after `String(value)` where it is not a string).
pub(super) fn js_string<'js>(ctx: &Ctx<'js>, value: &Value<'js>) -> rquickjs::Result<JsString> {
    let mut len = std::mem::MaybeUninit::uninit();
    // SAFETY: `value` is alive for the call; QuickJS converts it (calling `toString` where
    // it is not a string) and hands back a buffer freed below.
    let ptr =
        unsafe { qjs::JS_ToCStringLen(ctx.as_raw().as_ptr(), len.as_mut_ptr(), value.as_raw()) };
    if ptr.is_null() {
        return Err(rquickjs::Error::Exception);
    }
    // SAFETY: QuickJS wrote the length of the buffer at `ptr`.
    let bytes = unsafe {
        let len = len.assume_init();
        std::slice::from_raw_parts(ptr.cast::<u8>(), len).to_vec()
    };
    // SAFETY: `ptr` came from `JS_ToCStringLen` on this context.
    unsafe { qjs::JS_FreeCString(ctx.as_raw().as_ptr(), ptr) };
    JsString::from_wtf8(bytes).ok_or_else(|| rquickjs::Error::new_from_js("string", "WTF-8 text"))
}

/// A string as a text: lone surrogates in the escape form (`\ud83d`). Only a string
/// converts, as with `String`.
pub(super) struct Text(pub String);

impl<'js> FromJs<'js> for Text {
    fn from_js(ctx: &Ctx<'js>, value: Value<'js>) -> rquickjs::Result<Self> {
        if !value.is_string() {
            return Err(rquickjs::Error::new_from_js(value.type_name(), "string"));
        }
        Ok(Text(js_string(ctx, &value)?.to_text().into_owned()))
    }
}

/// Any value as a text, after `String(value)` (as `Coerced<String>`).
pub(super) struct CoercedText(pub String);

impl<'js> FromJs<'js> for CoercedText {
    fn from_js(ctx: &Ctx<'js>, value: Value<'js>) -> rquickjs::Result<Self> {
        Ok(CoercedText(js_string(ctx, &value)?.to_text().into_owned()))
    }
}

/// A string as the Web platform's USVString: lone surrogates replaced by U+FFFD.
pub(super) struct Usv(pub String);

impl<'js> FromJs<'js> for Usv {
    fn from_js(ctx: &Ctx<'js>, value: Value<'js>) -> rquickjs::Result<Self> {
        if !value.is_string() {
            return Err(rquickjs::Error::new_from_js(value.type_name(), "string"));
        }
        Ok(Usv(js_string(ctx, &value)?.to_usv().into_owned()))
    }
}

/// A string as its UTF-16 code units, every unit kept (what ICU's collation and
/// segmentation read, where V8 hands them the string as it is).
pub(crate) struct Utf16(pub Vec<u16>);

impl<'js> FromJs<'js> for Utf16 {
    fn from_js(ctx: &Ctx<'js>, value: Value<'js>) -> rquickjs::Result<Self> {
        if !value.is_string() {
            return Err(rquickjs::Error::new_from_js(value.type_name(), "string"));
        }
        Ok(Utf16(js_string(ctx, &value)?.to_utf16()))
    }
}

/// A JavaScript string of these UTF-16 code units, lone surrogates included.
pub(super) fn utf16_value<'js>(ctx: &Ctx<'js>, units: &[u16]) -> rquickjs::Result<Value<'js>> {
    // SAFETY: QuickJS copies `len` units from `buf`, which lives for the call; the result
    // is a new reference (or the exception marker) that `Value::from_raw` takes over.
    let raw =
        unsafe { qjs::JS_NewStringUTF16(ctx.as_raw().as_ptr(), units.as_ptr(), units.len() as _) };
    // SAFETY: `raw` is an owned value of this context.
    let value = unsafe { Value::from_raw(ctx.clone(), raw) };
    if value.is_exception() {
        return Err(rquickjs::Error::Exception);
    }
    Ok(value)
}
