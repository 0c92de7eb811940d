//! Randomness (`getrandom`), digests, HMAC and the rest of WebCrypto's algorithms
//! (RustCrypto) for `crypto.js`.
//!
//! The script keeps keys as bytes and calls one native, `subtle(op, names, blobs, numbers)`,
//! per operation; it answers an ArrayBuffer, an array of them, a boolean, or a refusal as the
//! string `"<DOMException name>|<text>"` that the script throws.

mod cipher;
mod ec;
mod gcm;
mod kdf;
mod okp;
mod rsa;

use hmac::{Hmac, Mac};
use md5::Md5;
use rquickjs::{ArrayBuffer, Ctx, Function, IntoJs, Object, TypedArray, Value};
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha384, Sha512};

const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
const CRC64NVME: crc::Crc<u64> = crc::Crc::<u64>::new(&crc::CRC_64_NVME);

/// Why an operation refused: a DOMException name and workerd's text.
pub(super) type Failure = (&'static str, String);
/// Bytes, or why not.
pub(super) type Outcome = Result<Vec<u8>, Failure>;
/// Several byte strings, or why not.
pub(super) type Many = Result<Vec<Vec<u8>>, Failure>;

pub(super) fn fail<T>(name: &'static str, text: String) -> Result<T, Failure> {
    Err((name, text))
}

/// The digest of `data` with a SHA-family hash named as WebCrypto names it.
pub(super) fn hash_bytes(hash: &str, data: &[u8]) -> Outcome {
    Ok(match hash {
        "SHA-1" => Sha1::digest(data).to_vec(),
        "SHA-256" => Sha256::digest(data).to_vec(),
        "SHA-384" => Sha384::digest(data).to_vec(),
        "SHA-512" => Sha512::digest(data).to_vec(),
        _ => {
            return fail(
                "NotSupportedError",
                "Unrecognized or unimplemented digest algorithm requested.".into(),
            );
        }
    })
}

fn copy(bytes: &TypedArray<'_, u8>) -> Vec<u8> {
    // SAFETY: the view is copied out before any JavaScript runs again.
    unsafe { bytes.as_bytes() }.unwrap_or_default().to_vec()
}

/// What one operation answers.
enum Answer {
    Bytes(Vec<u8>),
    List(Vec<Vec<u8>>),
    Bool(bool),
}

fn run(op: &str, names: &[String], blobs: &[Vec<u8>], numbers: &[f64]) -> Result<Answer, Failure> {
    let name = |i: usize| names.get(i).map(String::as_str).unwrap_or("");
    let blob = |i: usize| blobs.get(i).map(Vec::as_slice).unwrap_or(&[]);
    let number = |i: usize| numbers.get(i).copied().unwrap_or(0.0);
    use Answer::{Bool, Bytes, List};
    Ok(match op {
        "aes" => Bytes(cipher::run(
            &cipher::Params {
                mode: name(0),
                encrypt: number(0) != 0.0,
                key: blob(0),
                iv: blob(1),
                additional: blob(2),
                bits: number(1) as u32,
            },
            blob(3),
        )?),
        "pbkdf2" => Bytes(kdf::pbkdf2(
            name(0),
            blob(0),
            blob(1),
            number(0) as u32,
            number(1) as u32,
        )?),
        "hkdf" => Bytes(kdf::hkdf(
            name(0),
            blob(0),
            blob(1),
            blob(2),
            number(0) as u32,
        )?),
        "ecGenerate" => List(ec::generate(name(0))?),
        "ecFromPkcs8" => List(ec::from_pkcs8(name(0), blob(0))?),
        "ecFromSpki" => Bytes(ec::from_spki(name(0), blob(0))?),
        "ecFromPoint" => Bytes(ec::from_point(name(0), blob(0))?),
        "ecFromScalar" => Bytes(ec::from_scalar(name(0), blob(0))?),
        "ecPkcs8" => Bytes(ec::pkcs8(name(0), blob(0))?),
        "ecSpki" => Bytes(ec::spki(name(0), blob(0))?),
        "ecSign" => Bytes(ec::sign(name(0), name(1), blob(0), blob(1))?),
        "ecVerify" => Bool(ec::verify(name(0), name(1), blob(0), blob(1), blob(2))?),
        "ecDerive" => Bytes(ec::derive(name(0), blob(0), blob(1))?),
        "okpPublic" => Bytes(okp::public_of(name(0), blob(0))?),
        "okpPkcs8" => Bytes(okp::pkcs8(name(0), blob(0))?),
        "okpSpki" => Bytes(okp::spki(name(0), blob(0))?),
        "okpFromPkcs8" => Bytes(okp::from_pkcs8(name(0), blob(0))?),
        "okpFromSpki" => Bytes(okp::from_spki(name(0), blob(0))?),
        "edSign" => Bytes(okp::sign(blob(0), blob(1))?),
        "edVerify" => Bool(okp::verify(blob(0), blob(1), blob(2))),
        "xDerive" => Bytes(okp::derive(blob(0), blob(1))?),
        "rsaGenerate" => Bytes(rsa::generate(number(0) as usize, blob(0))?),
        "rsaFromPkcs8" => List(rsa::from_pkcs8(blob(0))?),
        "rsaFromSpki" => List(rsa::from_spki(blob(0))?),
        "rsaJwk" => List(rsa::jwk(blob(0), number(0) != 0.0)?),
        "rsaFromJwk" => Bytes(rsa::from_jwk(blobs)?),
        "rsaSign" => Bytes(rsa::sign(name(0), blob(0), blob(1), salt(numbers))?),
        "rsaVerify" => Bool(rsa::verify(
            name(0),
            blob(0),
            blob(1),
            blob(2),
            salt(numbers),
        )?),
        "rsaEncrypt" => Bytes(rsa::encrypt(name(0), blob(0), blob(1), blob(2))?),
        "rsaDecrypt" => Bytes(rsa::decrypt(name(0), blob(0), blob(1), blob(2))?),
        other => {
            return fail(
                "NotSupportedError",
                format!("Unknown SubtleCrypto operation \"{other}\"."),
            );
        }
    })
}

/// RSA-PSS's salt length (the first number), or `None` for RSASSA-PKCS1-v1_5 (no number).
fn salt(numbers: &[f64]) -> Option<usize> {
    numbers.first().map(|n| *n as usize)
}

pub(super) fn natives<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
    // (op, names, byte views, numbers) -> ArrayBuffer | ArrayBuffer[] | boolean | "Name|text".
    natives.set(
        "subtle",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>,
             op: String,
             names: Vec<String>,
             blobs: Vec<TypedArray<'js, u8>>,
             numbers: Vec<f64>|
             -> rquickjs::Result<Value<'js>> {
                let blobs: Vec<Vec<u8>> = blobs.iter().map(copy).collect();
                match run(&op, &names, &blobs, &numbers) {
                    Ok(Answer::Bytes(b)) => ArrayBuffer::new(ctx.clone(), b)?.into_js(&ctx),
                    Ok(Answer::List(list)) => {
                        let array = rquickjs::Array::new(ctx.clone())?;
                        for (i, b) in list.into_iter().enumerate() {
                            array.set(i, ArrayBuffer::new(ctx.clone(), b)?)?;
                        }
                        array.into_js(&ctx)
                    }
                    Ok(Answer::Bool(b)) => b.into_js(&ctx),
                    Err((name, text)) => format!("{name}|{text}").into_js(&ctx),
                }
            },
        )?,
    )?;
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
                    // DigestStream's checksums, big-endian as workerd writes them.
                    "crc32" => {
                        let mut crc = flate2::Crc::new();
                        crc.update(data);
                        crc.sum().to_be_bytes().to_vec()
                    }
                    "crc32c" => CRC32C.checksum(data).to_be_bytes().to_vec(),
                    "crc64nvme" => CRC64NVME.checksum(data).to_be_bytes().to_vec(),
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
                // SAFETY: as the key's: the data is read before any JavaScript runs again.
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
