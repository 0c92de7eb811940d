//! Randomness (`getrandom`), digests and HMAC (RustCrypto) for `crypto.js`.

use hmac::{Hmac, Mac};
use md5::Md5;
use rquickjs::{ArrayBuffer, Ctx, Function, Object, TypedArray};
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha384, Sha512};

pub(super) fn natives<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
    // Fills a byte view with random bytes (the caller checks its size and type).
    natives.set(
        "randomFill",
        Function::new(ctx.clone(), |bytes: TypedArray<'js, u8>| -> bool {
            let Some(mut raw) = bytes.as_raw() else {
                return false;
            };
            // SAFETY: the view is live and no JavaScript runs while it is filled.
            let slice = unsafe { raw.as_mut() };
            getrandom::fill(slice).is_ok()
        })?,
    )?;
    // (algorithm, bytes) -> ArrayBuffer, or undefined for an unknown algorithm.
    natives.set(
        "digest",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>,
             algorithm: String,
             bytes: TypedArray<'js, u8>|
             -> rquickjs::Result<Option<ArrayBuffer<'js>>> {
                // SAFETY: the bytes are hashed before any JavaScript runs again.
                let data = unsafe { bytes.as_bytes() }.unwrap_or_default();
                let out = match algorithm.as_str() {
                    "SHA-1" => Sha1::digest(data).to_vec(),
                    "SHA-256" => Sha256::digest(data).to_vec(),
                    "SHA-384" => Sha384::digest(data).to_vec(),
                    "SHA-512" => Sha512::digest(data).to_vec(),
                    "MD5" => Md5::digest(data).to_vec(),
                    _ => return Ok(None),
                };
                ArrayBuffer::new(ctx, out).map(Some)
            },
        )?,
    )?;
    // (hash, key, data) -> the HMAC as an ArrayBuffer, or undefined for an unknown hash.
    natives.set(
        "hmac",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>,
             hash: String,
             key: TypedArray<'js, u8>,
             data: TypedArray<'js, u8>|
             -> rquickjs::Result<Option<ArrayBuffer<'js>>> {
                // SAFETY: both views are read before any JavaScript runs again.
                let key = unsafe { key.as_bytes() }.unwrap_or_default();
                let data = unsafe { data.as_bytes() }.unwrap_or_default();
                let out = match hash.as_str() {
                    "SHA-1" => mac::<Hmac<Sha1>>(key, data),
                    "SHA-256" => mac::<Hmac<Sha256>>(key, data),
                    "SHA-384" => mac::<Hmac<Sha384>>(key, data),
                    "SHA-512" => mac::<Hmac<Sha512>>(key, data),
                    "MD5" => mac::<Hmac<Md5>>(key, data),
                    _ => return Ok(None),
                };
                ArrayBuffer::new(ctx, out).map(Some)
            },
        )?,
    )?;
    Ok(())
}

fn mac<M: Mac + hmac::digest::KeyInit>(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut mac =
        <M as hmac::digest::KeyInit>::new_from_slice(key).expect("HMAC accepts keys of any length");
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}
