//! AES in WebCrypto's four modes (GCM, CBC, CTR, KW): GCM composed from RustCrypto's
//! primitives in `super::gcm`, the others on RustCrypto's `cbc`, `ctr` and `aes-kw`, with
//! workerd's texts for what it refuses.

use aes::cipher::{BlockDecryptMut, BlockEncryptMut, KeyIvInit, StreamCipher};
use aes::{Aes128, Aes192, Aes256};
use cbc::cipher::block_padding::Pkcs7;

use super::{Outcome, fail, gcm};

/// The parameters of one AES operation, as the script read them from the algorithm.
pub(super) struct Params<'a> {
    pub mode: &'a str,
    pub encrypt: bool,
    pub key: &'a [u8],
    /// The IV (GCM, CBC) or counter block (CTR).
    pub iv: &'a [u8],
    pub additional: &'a [u8],
    /// GCM's tag length or CTR's counter length, in bits.
    pub bits: u32,
}

pub(super) fn run(p: &Params<'_>, data: &[u8]) -> Outcome {
    match p.mode {
        "AES-GCM" => gcm(p, data),
        "AES-CBC" => cbc_mode(p, data),
        "AES-CTR" => ctr_mode(p, data),
        "AES-KW" => kw(p, data),
        other => fail(
            "NotSupportedError",
            format!("Unrecognized AES mode \"{other}\"."),
        ),
    }
}

/// workerd's text: the input length and what the cipher had produced before it failed.
fn decrypt_failed(mode: &str, input: usize, output: usize) -> Outcome {
    fail(
        "OperationError",
        format!(
            "Decryption failed. This could be due to a ciphertext authentication failure, bad padding, incorrect CryptoKey, or another algorithm-specific reason. Input length was {input}, output length expected to be {output} for {mode}"
        ),
    )
}

/// AES-GCM as SP 800-38D composes it (`super::gcm`), at every IV length and tag WebCrypto
/// allows.
fn composed<A: gcm::Block128>(p: &Params<'_>, data: &[u8]) -> Outcome {
    let tag = (p.bits / 8) as usize;
    let done = if p.encrypt {
        gcm::seal::<A>(p.key, p.iv, p.additional, data, tag)
    } else {
        gcm::open::<A>(p.key, p.iv, p.additional, data, tag)
    };
    match done {
        Ok(out) => Ok(out),
        Err(gcm::Refused::Unauthentic) => {
            let body = data.len() - tag;
            decrypt_failed("AES-GCM", body, body)
        }
        Err(gcm::Refused::TooLong) => fail(
            "OperationError",
            format!(
                "AES-GCM takes at most 2^39 - 256 bits of text (provided {} bytes).",
                data.len()
            ),
        ),
    }
}

fn gcm(p: &Params<'_>, data: &[u8]) -> Outcome {
    if p.iv.is_empty() {
        return fail("OperationError", "AES-GCM IV must not be empty.".into());
    }
    match p.bits {
        32 | 64 | 96 | 104 | 112 | 120 | 128 => {}
        other => {
            return fail(
                "OperationError",
                format!("Invalid AES-GCM tag length {other}."),
            );
        }
    }
    if !p.encrypt && data.len() < (p.bits / 8) as usize {
        return fail(
            "OperationError",
            format!(
                "Ciphertext length of {} bits must be greater than or equal to the size of the AES-GCM tag length of {} bits.",
                data.len() * 8,
                p.bits
            ),
        );
    }
    match p.key.len() {
        16 => composed::<Aes128>(p, data),
        24 => composed::<Aes192>(p, data),
        _ => composed::<Aes256>(p, data),
    }
}

macro_rules! cbc_with {
    ($aes:ty, $p:expr, $data:expr) => {{
        if $p.encrypt {
            let c = cbc::Encryptor::<$aes>::new_from_slices($p.key, $p.iv).expect("sizes checked");
            Ok(c.encrypt_padded_vec_mut::<Pkcs7>($data))
        } else {
            let c = cbc::Decryptor::<$aes>::new_from_slices($p.key, $p.iv).expect("sizes checked");
            match c.decrypt_padded_vec_mut::<Pkcs7>($data) {
                Ok(out) => Ok(out),
                // The blocks a padded decryption had given out: all but the last whole one.
                Err(_) => {
                    let len = $data.len();
                    let out = if len % 16 == 0 {
                        len.saturating_sub(16)
                    } else {
                        len - len % 16
                    };
                    decrypt_failed("AES-CBC", len, out)
                }
            }
        }
    }};
}

fn cbc_mode(p: &Params<'_>, data: &[u8]) -> Outcome {
    if p.iv.len() != 16 {
        let text = if p.encrypt {
            format!(
                "AES-CBC IV must be 16 bytes long (provided {} bytes).",
                p.iv.len()
            )
        } else {
            format!(
                "AES-CBC IV must be 16 bytes long (provided {}).",
                p.iv.len()
            )
        };
        return fail("OperationError", text);
    }
    match p.key.len() {
        16 => cbc_with!(Aes128, p, data),
        24 => cbc_with!(Aes192, p, data),
        _ => cbc_with!(Aes256, p, data),
    }
}

macro_rules! ctr_with {
    ($flavor:ident, $p:expr, $data:expr) => {{
        let mut out = $data.to_vec();
        match $p.key.len() {
            16 => ctr::$flavor::<Aes128>::new_from_slices($p.key, $p.iv)
                .expect("sizes checked")
                .apply_keystream(&mut out),
            24 => ctr::$flavor::<Aes192>::new_from_slices($p.key, $p.iv)
                .expect("sizes checked")
                .apply_keystream(&mut out),
            _ => ctr::$flavor::<Aes256>::new_from_slices($p.key, $p.iv)
                .expect("sizes checked")
                .apply_keystream(&mut out),
        }
        Ok(out)
    }};
}

fn ctr_mode(p: &Params<'_>, data: &[u8]) -> Outcome {
    if p.iv.len() != 16 {
        return fail(
            "OperationError",
            format!(
                "Counter must have length of 16 bytes (provided {}).",
                p.iv.len()
            ),
        );
    }
    if p.bits == 0 || p.bits > 128 {
        return fail(
            "OperationError",
            format!("Invalid counter of {} bits length provided.", p.bits),
        );
    }
    let blocks = data.len().div_ceil(16) as u128;
    if p.bits < 128 && blocks > (1u128 << p.bits) {
        return fail("OperationError", "Counter block values will repeat.".into());
    }
    match p.bits {
        32 => ctr_with!(Ctr32BE, p, data),
        64 => ctr_with!(Ctr64BE, p, data),
        128 => ctr_with!(Ctr128BE, p, data),
        bits => {
            // Below 128 bits only the counter's low `bits` bits turn, and the counter blocks
            // do not repeat (checked above), so they wrap at most once: the blocks before the
            // wrap run on the 128-bit counter from the given block, the rest on it from the
            // block whose low bits are zero (the high bits stay).
            let counter = u128::from_be_bytes(p.iv.try_into().expect("16 bytes"));
            let low_mask = (1u128 << bits) - 1;
            let before_wrap = (1u128 << bits) - (counter & low_mask);
            let split = if blocks > before_wrap {
                (before_wrap * 16) as usize
            } else {
                data.len()
            };
            let (head, tail) = data.split_at(split);
            let mut out = ctr_with!(Ctr128BE, p, head)?;
            if !tail.is_empty() {
                let wrapped = (counter & !low_mask).to_be_bytes();
                let rest = Params { iv: &wrapped, ..*p };
                out.extend(ctr_with!(Ctr128BE, &rest, tail)?);
            }
            Ok(out)
        }
    }
}

fn kw(p: &Params<'_>, data: &[u8]) -> Outcome {
    if p.encrypt {
        if !data.len().is_multiple_of(8) {
            return fail(
                "OperationError",
                format!(
                    "Unwrapped key bit length must be a multiple of 64 bits but unwrapped key has a length of {} bits.",
                    data.len() * 8
                ),
            );
        }
        if data.len() < 16 {
            return fail(
                "OperationError",
                format!(
                    "Unwrapped key has length {} bytes but it should be greater than or equal to 16 and less than or equal to {}",
                    data.len(),
                    usize::MAX - 8
                ),
            );
        }
        let wrapped = match p.key.len() {
            16 => aes_kw::KekAes128::new(p.key.into()).wrap_vec(data),
            24 => aes_kw::KekAes192::new(p.key.into()).wrap_vec(data),
            _ => aes_kw::KekAes256::new(p.key.into()).wrap_vec(data),
        };
        wrapped.or_else(|_| fail("OperationError", "AES-KW key wrapping failed.".into()))
    } else {
        if !data.len().is_multiple_of(8) {
            return fail(
                "OperationError",
                format!(
                    "Provided a wrapped key to unwrap that is {} bits which isn't a multiple of 64 bits.",
                    data.len() * 8
                ),
            );
        }
        if data.len() < 24 {
            return fail(
                "OperationError",
                format!(
                    "Provided a wrapped key to unwrap this is {} bits that is less than the minimal length of 192 bits.",
                    data.len() * 8
                ),
            );
        }
        let unwrapped = match p.key.len() {
            16 => aes_kw::KekAes128::new(p.key.into()).unwrap_vec(data),
            24 => aes_kw::KekAes192::new(p.key.into()).unwrap_vec(data),
            _ => aes_kw::KekAes256::new(p.key.into()).unwrap_vec(data),
        };
        unwrapped.or_else(|_| fail("OperationError", "AES-KW key unwrapping failed.".into()))
    }
}
