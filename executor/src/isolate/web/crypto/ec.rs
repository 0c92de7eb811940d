//! ECDSA and ECDH on the NIST curves P-256, P-384 and P-521 (`p256`, `p384`, `p521`).
//!
//! A key crosses to the script as bytes: a private key as its scalar `d`, a public key as its
//! uncompressed point (`04 ‖ x ‖ y`). PKCS #8 and SPKI are encoded and decoded by the curve
//! crates (RFC 5915 private keys with the public point and no parameters, as BoringSSL
//! writes them).

use p256::ecdsa::signature::hazmat::{PrehashSigner, PrehashVerifier};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
use rand_core::OsRng;

use super::{Failure, Many, Outcome, fail, hash_bytes};

macro_rules! on_curve {
    ($curve:expr, $c:ident => $body:expr) => {
        match $curve {
            "P-256" => {
                use p256 as $c;
                $body
            }
            "P-384" => {
                use p384 as $c;
                $body
            }
            "P-521" => {
                use p521 as $c;
                $body
            }
            other => fail(
                "NotSupportedError",
                format!("Unrecognized or unimplemented EC curve \"{other}\" requested."),
            ),
        }
    };
}

fn point_of<S: ToEncodedPoint<C>, C>(public: &S) -> Vec<u8>
where
    C: p256::elliptic_curve::CurveArithmetic,
    <C as p256::elliptic_curve::Curve>::FieldBytesSize: p256::elliptic_curve::sec1::ModulusSize,
    C::AffinePoint: p256::elliptic_curve::sec1::FromEncodedPoint<C> + ToEncodedPoint<C>,
{
    public.to_encoded_point(false).as_bytes().to_vec()
}

/// A fresh key pair: `[d, point]`.
pub(super) fn generate(curve: &str) -> Many {
    on_curve!(curve, c => {
        let secret = c::SecretKey::random(&mut OsRng);
        Ok(vec![secret.to_bytes().to_vec(), point_of(&secret.public_key())])
    })
}

/// A private key from PKCS #8: `[d, point]`.
pub(super) fn from_pkcs8(curve: &str, der: &[u8]) -> Many {
    on_curve!(curve, c => match c::SecretKey::from_pkcs8_der(der) {
        Ok(secret) => Ok(vec![secret.to_bytes().to_vec(), point_of(&secret.public_key())]),
        Err(_) => fail("DataError", "Invalid PKCS8 input.".into()),
    })
}

/// A public key from SPKI: its point.
pub(super) fn from_spki(curve: &str, der: &[u8]) -> Outcome {
    on_curve!(curve, c => match c::PublicKey::from_public_key_der(der) {
        Ok(public) => Ok(point_of(&public)),
        Err(_) => fail("DataError", "Invalid SPKI input.".into()),
    })
}

/// A public key from a SEC1 point (compressed or not): its uncompressed point.
pub(super) fn from_point(curve: &str, point: &[u8]) -> Outcome {
    on_curve!(curve, c => match c::PublicKey::from_sec1_bytes(point) {
        Ok(public) => Ok(point_of(&public)),
        Err(_) => {
            let well_formed = matches!(point.first(), Some(4)) && point.len() == 1 + 2 * field_size(curve)
                || matches!(point.first(), Some(2 | 3)) && point.len() == 1 + field_size(curve);
            let why = if well_formed { "Point is not on curve." } else { "Invalid point encoding." };
            fail("DataError", format!("Failed to import raw EC key data: {why}."))
        }
    })
}

/// A private scalar's public point (checks that `d` is a valid scalar).
pub(super) fn from_scalar(curve: &str, d: &[u8]) -> Outcome {
    on_curve!(curve, c => match c::SecretKey::from_slice(d) {
        Ok(secret) => Ok(point_of(&secret.public_key())),
        Err(_) => fail("DataError", "Invalid EC private key.".into()),
    })
}

pub(super) fn pkcs8(curve: &str, d: &[u8]) -> Outcome {
    on_curve!(curve, c => {
        let secret = c::SecretKey::from_slice(d).expect("a scalar this module answered");
        match secret.to_pkcs8_der() {
            Ok(doc) => Ok(doc.as_bytes().to_vec()),
            Err(_) => fail("OperationError", "Private key export failed.".into()),
        }
    })
}

pub(super) fn spki(curve: &str, point: &[u8]) -> Outcome {
    on_curve!(curve, c => {
        let public = c::PublicKey::from_sec1_bytes(point).expect("a point this module answered");
        match public.to_public_key_der() {
            Ok(doc) => Ok(doc.as_bytes().to_vec()),
            Err(_) => fail("OperationError", "Public key export failed.".into()),
        }
    })
}

/// The bytes of a coordinate (and of a scalar) on each curve.
fn field_size(curve: &str) -> usize {
    match curve {
        "P-384" => 48,
        "P-521" => 66,
        _ => 32,
    }
}

/// The digest as ECDSA reads it: a hash shorter than the field is the same integer with zero
/// bytes ahead of it (the curve crates want at least half the field's bytes).
fn prehash(curve: &str, hash: &str, data: &[u8]) -> Outcome {
    let digest = hash_bytes(hash, data)?;
    let size = field_size(curve);
    if digest.len() >= size {
        return Ok(digest);
    }
    let mut padded = vec![0u8; size - digest.len()];
    padded.extend_from_slice(&digest);
    Ok(padded)
}

/// ECDSA over `hash(data)`: the signature as `r ‖ s`.
pub(super) fn sign(curve: &str, hash: &str, d: &[u8], data: &[u8]) -> Outcome {
    let digest = prehash(curve, hash, data)?;
    on_curve!(curve, c => {
        let key = c::ecdsa::SigningKey::from_slice(d).expect("a scalar this module answered");
        let signed: Result<c::ecdsa::Signature, _> = key.sign_prehash(&digest);
        match signed {
            Ok(sig) => Ok(sig.to_bytes().to_vec()),
            Err(_) => fail("OperationError", "ECDSA signing failed.".into()),
        }
    })
}

pub(super) fn verify(
    curve: &str,
    hash: &str,
    point: &[u8],
    sig: &[u8],
    data: &[u8],
) -> Result<bool, Failure> {
    let digest = prehash(curve, hash, data)?;
    on_curve!(curve, c => {
        let key = c::ecdsa::VerifyingKey::from_sec1_bytes(point).expect("a point this module answered");
        Ok(match c::ecdsa::Signature::from_slice(sig) {
            Ok(sig) => key.verify_prehash(&digest, &sig).is_ok(),
            Err(_) => false,
        })
    })
}

/// ECDH: the shared secret (the x coordinate).
pub(super) fn derive(curve: &str, d: &[u8], point: &[u8]) -> Outcome {
    on_curve!(curve, c => {
        let secret = c::SecretKey::from_slice(d).expect("a scalar this module answered");
        let public = c::PublicKey::from_sec1_bytes(point).expect("a point this module answered");
        let shared = c::ecdh::diffie_hellman(secret.to_nonzero_scalar(), public.as_affine());
        Ok(shared.raw_secret_bytes().to_vec())
    })
}
