//! UTF-8 and base64 for `encoding.js`: TextEncoder, TextDecoder, atob and btoa. Every other
//! encoding of the WHATWG Encoding Standard (labels, names, decoders) is `encoding_rs`'s,
//! through a [`Decoding`], the state of one TextDecoder that streams; `gbk` and `gb18030` with
//! the reference's GB18030-2005 mapping over it ([`gb18030`]).

mod gb18030;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use encoding_rs::{DecoderResult, Encoding};
use rquickjs::class::Trace;
use rquickjs::{Class, Ctx, Function, JsLifetime, Object, TypedArray, Value};

use crate::isolate::text::{Usv, js_string};

/// The decoding state of one TextDecoder: its encoding's decoder, kept across `stream` calls.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "TextDecoding")]
pub(crate) struct Decoding {
    #[qjs(skip_trace)]
    encoding: &'static Encoding,
    #[qjs(skip_trace)]
    decoder: encoding_rs::Decoder,
    /// For `gbk` and `gb18030`: GB18030-2005's adjustment and its held bytes.
    #[qjs(skip_trace)]
    gb2005: Option<gb18030::Gb2005>,
    fatal: bool,
    ignore_bom: bool,
}

#[rquickjs::methods]
impl Decoding {
    /// Decodes the next bytes (the last ones unless `stream`): the text, or undefined when
    /// `fatal` and the bytes are malformed (the state then starts over).
    pub fn decode(&mut self, bytes: TypedArray<'_, u8>, stream: bool) -> Option<String> {
        // SAFETY: the bytes are decoded before any JavaScript runs again.
        let input = unsafe { bytes.as_bytes() }.unwrap_or_default().to_vec();
        let last = !stream;
        let capacity = self
            .decoder
            .max_utf8_buffer_length(input.len())
            .unwrap_or(usize::MAX / 2);
        let mut out = String::with_capacity(capacity);
        let ok = if let Some(gb) = self.gb2005.as_mut() {
            gb.decode(&mut self.decoder, &input, &mut out, last, self.fatal)
        } else if self.fatal {
            let (result, _) = self
                .decoder
                .decode_to_string_without_replacement(&input, &mut out, last);
            !matches!(result, DecoderResult::Malformed(..))
        } else {
            let _ = self.decoder.decode_to_string(&input, &mut out, last);
            true
        };
        if last || !ok {
            self.decoder = new_decoder(self.encoding, self.ignore_bom);
            self.gb2005 = gb18030::applies_to(self.encoding).then(Default::default);
        }
        ok.then_some(out)
    }
}

fn new_decoder(encoding: &'static Encoding, ignore_bom: bool) -> encoding_rs::Decoder {
    if ignore_bom {
        encoding.new_decoder_without_bom_handling()
    } else {
        encoding.new_decoder_with_bom_removal()
    }
}

/// The encoding a label names (the Encoding Standard's table), except `replacement`.
fn encoding_for(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.as_bytes()).filter(|e| *e != encoding_rs::REPLACEMENT)
}

pub(super) fn natives<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
    // label -> the encoding's name (lower case, as TextDecoder.encoding), or undefined.
    natives.set(
        "encodingName",
        Function::new(ctx.clone(), |label: String| -> Option<String> {
            encoding_for(&label).map(|e| e.name().to_ascii_lowercase())
        })?,
    )?;
    // (label, fatal, ignoreBOM) -> a Decoding, or undefined for an unknown label.
    natives.set(
        "decoding",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>,
             label: String,
             fatal: bool,
             ignore_bom: bool|
             -> rquickjs::Result<Option<Class<'js, Decoding>>> {
                let Some(encoding) = encoding_for(&label) else {
                    return Ok(None);
                };
                let decoding = Decoding {
                    encoding,
                    decoder: new_decoder(encoding, ignore_bom),
                    gb2005: gb18030::applies_to(encoding).then(Default::default),
                    fatal,
                    ignore_bom,
                };
                Class::instance(ctx, decoding).map(Some)
            },
        )?,
    )?;
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
