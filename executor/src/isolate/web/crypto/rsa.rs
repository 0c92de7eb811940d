//! RSA for WebCrypto's three schemes (RSASSA-PKCS1-v1_5, RSA-PSS, RSA-OAEP) on the `rsa`
//! crate. A private key crosses to the script as PKCS #8, a public key as SPKI; JWK members
//! are read and written as big-endian bytes. An RSA-OAEP label that is not UTF-8 goes to
//! `bytes_label` (`rsa` 0.10, whose labels are bytes) as the key's components.

use rand_core::OsRng;
use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use rsa::{BigUint, Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use sha1::Sha1;
use sha2::{Sha256, Sha384, Sha512};

use super::{Failure, Many, Outcome, fail, hash_bytes};

macro_rules! with_hash {
    ($hash:expr, $h:ident => $body:expr) => {
        match $hash {
            "SHA-1" => {
                type $h = Sha1;
                $body
            }
            "SHA-256" => {
                type $h = Sha256;
                $body
            }
            "SHA-384" => {
                type $h = Sha384;
                $body
            }
            "SHA-512" => {
                type $h = Sha512;
                $body
            }
            _ => fail(
                "NotSupportedError",
                "Unrecognized or unimplemented digest algorithm requested.".into(),
            ),
        }
    };
}

mod bytes_label;

fn private(der: &[u8]) -> Result<RsaPrivateKey, Failure> {
    RsaPrivateKey::from_pkcs8_der(der).or_else(|_| fail("DataError", "Invalid PKCS8 input.".into()))
}

fn public(der: &[u8]) -> Result<RsaPublicKey, Failure> {
    RsaPublicKey::from_public_key_der(der)
        .or_else(|_| fail("DataError", "Invalid SPKI input.".into()))
}

/// A fresh private key as PKCS #8.
pub(super) fn generate(bits: usize, exponent: &[u8]) -> Outcome {
    let e = BigUint::from_bytes_be(exponent);
    match RsaPrivateKey::new_with_exp(&mut OsRng, bits, &e) {
        Ok(key) => encode_private(&key),
        Err(e) => fail("OperationError", format!("RSA key generation failed: {e}.")),
    }
}

fn encode_private(key: &RsaPrivateKey) -> Outcome {
    match key.to_pkcs8_der() {
        Ok(doc) => Ok(doc.as_bytes().to_vec()),
        Err(_) => fail("OperationError", "Private key export failed.".into()),
    }
}

fn encode_public(key: &RsaPublicKey) -> Outcome {
    match key.to_public_key_der() {
        Ok(doc) => Ok(doc.as_bytes().to_vec()),
        Err(_) => fail("OperationError", "Public key export failed.".into()),
    }
}

/// A private key checked and re-encoded: `[pkcs8, spki, n, e]`.
pub(super) fn from_pkcs8(der: &[u8]) -> Many {
    let key = private(der)?;
    let public = key.to_public_key();
    Ok(vec![
        encode_private(&key)?,
        encode_public(&public)?,
        key.n().to_bytes_be(),
        key.e().to_bytes_be(),
    ])
}

/// A public key checked and re-encoded: `[spki, n, e]`.
pub(super) fn from_spki(der: &[u8]) -> Many {
    let key = public(der)?;
    Ok(vec![
        encode_public(&key)?,
        key.n().to_bytes_be(),
        key.e().to_bytes_be(),
    ])
}

/// A key's JWK members: `[n, e]` for a public key, `[n, e, d, p, q, dp, dq, qi]` for a
/// private one.
pub(super) fn jwk(der: &[u8], is_private: bool) -> Many {
    if !is_private {
        let key = public(der)?;
        return Ok(vec![key.n().to_bytes_be(), key.e().to_bytes_be()]);
    }
    let mut key = private(der)?;
    if key.primes().len() != 2 {
        return fail(
            "NotSupportedError",
            "Multi-prime private keys not supported.".into(),
        );
    }
    key.precompute()
        .or_else(|_| fail("OperationError", "Private key export failed.".into()))?;
    let p = &key.primes()[0];
    let q = &key.primes()[1];
    let qi = key.crt_coefficient().unwrap_or_default();
    Ok(vec![
        key.n().to_bytes_be(),
        key.e().to_bytes_be(),
        key.d().to_bytes_be(),
        p.to_bytes_be(),
        q.to_bytes_be(),
        key.dp().map(|v| v.to_bytes_be()).unwrap_or_default(),
        key.dq().map(|v| v.to_bytes_be()).unwrap_or_default(),
        qi.to_bytes_be(),
    ])
}

/// A key from JWK members (`[n, e]`, or `[n, e, d, p, q]`): PKCS #8 or SPKI.
pub(super) fn from_jwk(members: &[Vec<u8>]) -> Outcome {
    let n = BigUint::from_bytes_be(&members[0]);
    let e = BigUint::from_bytes_be(&members[1]);
    if members.len() == 2 {
        return match RsaPublicKey::new(n, e) {
            Ok(key) => encode_public(&key),
            Err(_) => fail("DataError", "Invalid RSA public key.".into()),
        };
    }
    let d = BigUint::from_bytes_be(&members[2]);
    let primes = members[3..5]
        .iter()
        .map(|b| BigUint::from_bytes_be(b))
        .collect();
    match RsaPrivateKey::from_components(n, e, d, primes) {
        Ok(key) if key.validate().is_ok() => encode_private(&key),
        _ => fail("DataError", "Invalid RSA private key.".into()),
    }
}

/// Signs with RSASSA-PKCS1-v1_5 (`salt` is `None`) or RSA-PSS.
pub(super) fn sign(hash: &str, der: &[u8], data: &[u8], salt: Option<usize>) -> Outcome {
    let key = private(der)?;
    let digest = hash_bytes(hash, data)?;
    let size = key.size();
    let signed = with_hash!(hash, H => match salt {
        None => {
            if digest.len() + 32 > size {
                return fail("OperationError", format!("key too small for signing with given digest, need at least {}bits.", 8 * (digest.len() + 32)));
            }
            Ok(key.sign(Pkcs1v15Sign::new::<H>(), &digest))
        }
        Some(salt) => {
            if digest.len() + 2 > size {
                return fail("OperationError", "key too small for signing with given digest".into());
            }
            if salt > size - digest.len() - 2 {
                return fail("OperationError", "key too small for signing with given digest and salt length".into());
            }
            Ok(key.sign_with_rng(&mut OsRng, Pss::new_with_salt::<H>(salt), &digest))
        }
    })?;
    signed.or_else(|e| fail("OperationError", format!("RSA signing failed: {e}.")))
}

pub(super) fn verify(
    hash: &str,
    der: &[u8],
    sig: &[u8],
    data: &[u8],
    salt: Option<usize>,
) -> Result<bool, Failure> {
    let key = public(der)?;
    let digest = hash_bytes(hash, data)?;
    with_hash!(hash, H => Ok(match salt {
        None => key.verify(Pkcs1v15Sign::new::<H>(), &digest, sig).is_ok(),
        Some(salt) => key.verify(Pss::new_with_salt::<H>(salt), &digest, sig).is_ok(),
    }))
}

/// An OAEP label as the `rsa` crate takes it (a string), or `Err` with the bytes when they are
/// not UTF-8, which go to `bytes_label`.
fn oaep_label(label: &[u8]) -> Result<Option<String>, &[u8]> {
    if label.is_empty() {
        return Ok(None);
    }
    std::str::from_utf8(label)
        .map(|text| Some(text.to_string()))
        .map_err(|_| label)
}

pub(super) fn encrypt(hash: &str, der: &[u8], data: &[u8], label: &[u8]) -> Outcome {
    let key = public(der)?;
    let label = match oaep_label(label) {
        Ok(label) => label,
        Err(bytes) => {
            let (n, e) = (key.n().to_bytes_be(), key.e().to_bytes_be());
            return bytes_label::encrypt(hash, &n, &e, data, bytes);
        }
    };
    let out = with_hash!(hash, H => Ok(match label {
        Some(l) => key.encrypt(&mut OsRng, Oaep::new_with_label::<H, _>(l), data),
        None => key.encrypt(&mut OsRng, Oaep::new::<H>(), data),
    }))?;
    out.or_else(|_| fail("OperationError", "RSA-OAEP failed encrypt/decrypt.".into()))
}

pub(super) fn decrypt(hash: &str, der: &[u8], data: &[u8], label: &[u8]) -> Outcome {
    let key = private(der)?;
    let label = match oaep_label(label) {
        Ok(label) => label,
        Err(bytes) => {
            let (n, e, d) = (
                key.n().to_bytes_be(),
                key.e().to_bytes_be(),
                key.d().to_bytes_be(),
            );
            let primes: Vec<Vec<u8>> = key.primes().iter().map(|p| p.to_bytes_be()).collect();
            return bytes_label::decrypt(hash, (&n, &e, &d), &primes, data, bytes);
        }
    };
    let out = with_hash!(hash, H => Ok(match label {
        Some(l) => key.decrypt(Oaep::new_with_label::<H, _>(l), data),
        None => key.decrypt(Oaep::new::<H>(), data),
    }))?;
    out.or_else(|_| fail("OperationError", "RSA-OAEP failed encrypt/decrypt.".into()))
}
