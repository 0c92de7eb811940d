//! The key derivations: PBKDF2 (`pbkdf2`) and HKDF (`hkdf`) over HMAC with the SHA family,
//! with workerd's texts for what it refuses.

use hmac::Hmac;
use sha1::Sha1;
use sha2::{Sha256, Sha384, Sha512};

use super::{Outcome, fail};

/// The highest PBKDF2 iteration count: a derivation runs outside the engine's interrupt, so
/// it is bounded (about seconds); workerd's own refusal text is reused.
const MAX_ITERATIONS: u32 = 10_000_000;

pub(super) fn pbkdf2(
    hash: &str,
    password: &[u8],
    salt: &[u8],
    iterations: u32,
    bits: u32,
) -> Outcome {
    if !bits.is_multiple_of(8) {
        return fail(
            "OperationError",
            format!(
                "PBKDF2 requires a derived key length that is a multiple of eight (requested {bits})."
            ),
        );
    }
    if iterations == 0 {
        return fail(
            "OperationError",
            format!("PBKDF2 requires a positive iteration count (requested {iterations})."),
        );
    }
    if iterations > MAX_ITERATIONS {
        return fail(
            "NotSupportedError",
            format!(
                "Pbkdf2 failed: iteration counts above {MAX_ITERATIONS} are not supported (requested {iterations})."
            ),
        );
    }
    let mut out = vec![0u8; (bits / 8) as usize];
    let done = match hash {
        "SHA-1" => pbkdf2::pbkdf2::<Hmac<Sha1>>(password, salt, iterations, &mut out),
        "SHA-256" => pbkdf2::pbkdf2::<Hmac<Sha256>>(password, salt, iterations, &mut out),
        "SHA-384" => pbkdf2::pbkdf2::<Hmac<Sha384>>(password, salt, iterations, &mut out),
        "SHA-512" => pbkdf2::pbkdf2::<Hmac<Sha512>>(password, salt, iterations, &mut out),
        _ => return unknown_digest(),
    };
    match done {
        Ok(()) => Ok(out),
        Err(_) => fail("Error", "PBKDF2 deriveBits failed.".into()),
    }
}

pub(super) fn hkdf(hash: &str, key: &[u8], salt: &[u8], info: &[u8], bits: u32) -> Outcome {
    if !bits.is_multiple_of(8) {
        return fail(
            "OperationError",
            format!(
                "HKDF requires a derived key length that is a multiple of eight (requested {bits})."
            ),
        );
    }
    let mut out = vec![0u8; (bits / 8) as usize];
    let done = match hash {
        "SHA-1" => hkdf::Hkdf::<Sha1>::new(Some(salt), key)
            .expand(info, &mut out)
            .is_ok(),
        "SHA-256" => hkdf::Hkdf::<Sha256>::new(Some(salt), key)
            .expand(info, &mut out)
            .is_ok(),
        "SHA-384" => hkdf::Hkdf::<Sha384>::new(Some(salt), key)
            .expand(info, &mut out)
            .is_ok(),
        "SHA-512" => hkdf::Hkdf::<Sha512>::new(Some(salt), key)
            .expand(info, &mut out)
            .is_ok(),
        _ => return unknown_digest(),
    };
    if done {
        Ok(out)
    } else {
        fail("OperationError", "HKDF deriveBits failed.".into())
    }
}

fn unknown_digest() -> Outcome {
    fail(
        "NotSupportedError",
        "Unrecognized or unimplemented digest algorithm requested.".into(),
    )
}
