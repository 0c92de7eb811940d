//! Ed25519 (`ed25519-dalek`) and X25519 (`x25519-dalek`): keys as their 32 raw bytes, and
//! PKCS #8 / SPKI in the RFC 8410 shapes (a version 1 private key without the public key, as
//! BoringSSL writes it), encoded by the `pkcs8` and `spki` crates.

use ed25519_dalek::{Signer, Verifier};
use p256::pkcs8::der::asn1::{BitStringRef, OctetStringRef};
use p256::pkcs8::der::{Decode, Encode};
use p256::pkcs8::spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};
use p256::pkcs8::{ObjectIdentifier, PrivateKeyInfo};

use super::{Outcome, fail};

const ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
const X25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");

fn oid(algorithm: &str) -> ObjectIdentifier {
    if algorithm == "X25519" {
        X25519
    } else {
        ED25519
    }
}

fn bytes32(b: &[u8]) -> Option<[u8; 32]> {
    b.try_into().ok()
}

/// The public key of a private key's 32 bytes.
pub(super) fn public_of(algorithm: &str, private: &[u8]) -> Outcome {
    let Some(private) = bytes32(private) else {
        return fail(
            "DataError",
            format!("Invalid length {} for private key", private.len()),
        );
    };
    Ok(if algorithm == "X25519" {
        let secret = x25519_dalek::StaticSecret::from(private);
        x25519_dalek::PublicKey::from(&secret).as_bytes().to_vec()
    } else {
        ed25519_dalek::SigningKey::from_bytes(&private)
            .verifying_key()
            .to_bytes()
            .to_vec()
    })
}

pub(super) fn pkcs8(algorithm: &str, private: &[u8]) -> Outcome {
    let inner = OctetStringRef::new(private).and_then(|o| o.to_der());
    let encoded = inner.and_then(|inner| {
        PrivateKeyInfo {
            algorithm: AlgorithmIdentifierRef {
                oid: oid(algorithm),
                parameters: None,
            },
            private_key: &inner,
            public_key: None,
        }
        .to_der()
    });
    encoded.or_else(|_| fail("OperationError", "Private key export failed.".into()))
}

pub(super) fn spki(algorithm: &str, public: &[u8]) -> Outcome {
    let encoded = BitStringRef::from_bytes(public).and_then(|bits| {
        SubjectPublicKeyInfoRef {
            algorithm: AlgorithmIdentifierRef {
                oid: oid(algorithm),
                parameters: None,
            },
            subject_public_key: bits,
        }
        .to_der()
    });
    encoded.or_else(|_| fail("OperationError", "Public key export failed.".into()))
}

/// The private key's 32 bytes from PKCS #8.
pub(super) fn from_pkcs8(algorithm: &str, der: &[u8]) -> Outcome {
    let parsed = PrivateKeyInfo::from_der(der).ok().and_then(|info| {
        if info.algorithm.oid != oid(algorithm) {
            return None;
        }
        OctetStringRef::from_der(info.private_key)
            .ok()
            .and_then(|o| bytes32(o.as_bytes()))
    });
    match parsed {
        Some(key) => Ok(key.to_vec()),
        None => fail("DataError", "Invalid PKCS8 input.".into()),
    }
}

/// The public key's 32 bytes from SPKI.
pub(super) fn from_spki(algorithm: &str, der: &[u8]) -> Outcome {
    let parsed = SubjectPublicKeyInfoRef::from_der(der)
        .ok()
        .and_then(|info| {
            if info.algorithm.oid != oid(algorithm) {
                return None;
            }
            info.subject_public_key.as_bytes().and_then(bytes32)
        });
    match parsed {
        Some(key) => Ok(key.to_vec()),
        None => fail("DataError", "Invalid SPKI input.".into()),
    }
}

pub(super) fn sign(private: &[u8], data: &[u8]) -> Outcome {
    let Some(private) = bytes32(private) else {
        return fail("DataError", "Invalid Ed25519 private key.".into());
    };
    Ok(ed25519_dalek::SigningKey::from_bytes(&private)
        .sign(data)
        .to_bytes()
        .to_vec())
}

pub(super) fn verify(public: &[u8], sig: &[u8], data: &[u8]) -> bool {
    let Some(public) = bytes32(public) else {
        return false;
    };
    let Ok(key) = ed25519_dalek::VerifyingKey::from_bytes(&public) else {
        return false;
    };
    let Ok(sig) = ed25519_dalek::Signature::from_slice(sig) else {
        return false;
    };
    key.verify(data, &sig).is_ok()
}

/// X25519: the shared secret, refused when it is all zeros (a small-order peer key).
pub(super) fn derive(private: &[u8], public: &[u8]) -> Outcome {
    let (Some(private), Some(public)) = (bytes32(private), bytes32(public)) else {
        return fail(
            "OperationError",
            "Failed to derive EDDH key: public key routines INVALID_PEER_KEY.".into(),
        );
    };
    let secret = x25519_dalek::StaticSecret::from(private);
    let shared = secret.diffie_hellman(&x25519_dalek::PublicKey::from(public));
    if !shared.was_contributory() {
        return fail(
            "OperationError",
            "Failed to derive EDDH key: public key routines INVALID_PEER_KEY.".into(),
        );
    }
    Ok(shared.as_bytes().to_vec())
}
