//! Randomness (`getrandom`) and digests (RustCrypto) for `crypto.js`.

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
    Ok(())
}
