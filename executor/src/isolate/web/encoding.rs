//! UTF-8 and base64 for `encoding.js`: TextEncoder, TextDecoder, atob and btoa.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rquickjs::{Ctx, Function, Object, TypedArray, Value};

use crate::isolate::text::{Usv, js_string};

pub(super) fn natives<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
    natives.set(
        "utf8Encode",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, Usv(text): Usv| {
            TypedArray::<u8>::new(ctx, text.into_bytes())
        })?,
    )?;
    // A string's bytes as the engine holds them (WTF-8: a lone surrogate as its own three
    // bytes), as workerd writes a string body or Blob part (TextEncoder writes U+FFFD).
    natives.set(
        "wtf8Encode",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, value: Value<'js>| {
            let text = js_string(&ctx, &value)?;
            TypedArray::<u8>::new(ctx, text.as_wtf8().to_vec())
        })?,
    )?;
    // (bytes, fatal, ignoreBOM) -> the text, or undefined when `fatal` and the bytes are not UTF-8.
    natives.set(
        "utf8Decode",
        Function::new(
            ctx.clone(),
            |bytes: TypedArray<'js, u8>, fatal: bool, ignore_bom: bool| -> Option<String> {
                // SAFETY: the bytes are copied out before any JavaScript runs again.
                let bytes = unsafe { bytes.as_bytes() }.unwrap_or_default();
                let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
                    Some(rest) if !ignore_bom => rest,
                    _ => bytes,
                };
                if fatal {
                    std::str::from_utf8(bytes).ok().map(str::to_string)
                } else {
                    Some(String::from_utf8_lossy(bytes).into_owned())
                }
            },
        )?,
    )?;
    // atob's forgiving base64: the decoded bytes as a binary string, or undefined.
    natives.set(
        "atob",
        Function::new(ctx.clone(), |Usv(text): Usv| -> Option<String> {
            let mut clean: Vec<u8> = text
                .bytes()
                .filter(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r'))
                .collect();
            if clean.len().is_multiple_of(4) && clean.ends_with(b"==") {
                clean.truncate(clean.len() - 2);
            } else if clean.len().is_multiple_of(4) && clean.ends_with(b"=") {
                clean.truncate(clean.len() - 1);
            }
            if clean.len() % 4 == 1
                || !clean
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
            {
                return None;
            }
            while !clean.len().is_multiple_of(4) {
                clean.push(b'=');
            }
            let engine = base64::engine::GeneralPurpose::new(
                &base64::alphabet::STANDARD,
                base64::engine::GeneralPurposeConfig::new().with_decode_allow_trailing_bits(true),
            );
            let bytes = engine.decode(&clean).ok()?;
            Some(bytes.into_iter().map(char::from).collect())
        })?,
    )?;
    // btoa: the base64 of a binary string, or undefined when a code point exceeds U+00FF.
    natives.set(
        "btoa",
        Function::new(ctx.clone(), |Usv(text): Usv| -> Option<String> {
            let bytes = text
                .chars()
                .map(|c| u8::try_from(u32::from(c)).ok())
                .collect::<Option<Vec<u8>>>()?;
            Some(STANDARD.encode(bytes))
        })?,
    )?;
    Ok(())
}
