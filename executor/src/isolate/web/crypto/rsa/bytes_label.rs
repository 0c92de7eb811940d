//! RSA-OAEP with a label that is not UTF-8, on `rsa` 0.10, whose OAEP labels are bytes (the
//! 0.9 release that the rest of `super` uses takes a label as a string). The key crosses as
//! its big-endian components, read by 0.9 from the same PKCS #8 or SPKI bytes, and is built
//! with the moduli workerd takes (256 to 16384 bits) rather than 0.10's default bounds (1024
//! to 8192 bits).

use crypto_common_oaep::getrandom::SysRng;
use rsa_oaep::sha2::{Sha256, Sha384, Sha512};
use rsa_oaep::{BoxedUint, Oaep, PrivateKey, PublicKey};
use sha1_oaep::Sha1;

use super::super::{Outcome, fail};

/// The moduli workerd takes, in bits.
const MODULUS_BITS: std::ops::RangeInclusive<usize> = 256..=16384;

/// A big-endian integer at a precision of whole 64-bit limbs.
fn uint(bytes: &[u8]) -> BoxedUint {
    let bits = (bytes.len() * 8).div_ceil(64).max(1) * 64;
    BoxedUint::from_be_slice(bytes, bits as u32).expect("the precision holds the bytes")
}

/// Encrypts under the public key `(n, e)`.
pub(super) fn encrypt(hash: &str, n: &[u8], e: &[u8], data: &[u8], label: &[u8]) -> Outcome {
    let key = PublicKey::new_with_size_limits(uint(n), uint(e), MODULUS_BITS)
        .or_else(|error| fail("DataError", format!("Invalid RSA public key: {error}.")))?;
    let out = with_hash!(hash, H => Ok(key.encrypt(&mut SysRng, Oaep::<H>::new_with_label(label), data)))?;
    out.or_else(|_| fail("OperationError", "RSA-OAEP failed encrypt/decrypt.".into()))
}

/// Decrypts with the private key `(n, e, d, primes)`.
pub(super) fn decrypt(
    hash: &str,
    (n, e, d): (&[u8], &[u8], &[u8]),
    primes: &[Vec<u8>],
    data: &[u8],
    label: &[u8],
) -> Outcome {
    let primes = primes.iter().map(|p| uint(p)).collect();
    let key = PrivateKey::from_components(uint(n), uint(e), uint(d), primes)
        .or_else(|error| fail("DataError", format!("Invalid RSA private key: {error}.")))?;
    let out = with_hash!(hash, H => Ok(key.decrypt(Oaep::<H>::new_with_label(label), data)))?;
    out.or_else(|_| fail("OperationError", "RSA-OAEP failed encrypt/decrypt.".into()))
}

#[cfg(test)]
mod tests {
    //! The two `rsa` releases agree on OAEP: what 0.9 seals under a UTF-8 label, 0.10 opens
    //! under the same label's bytes, and the reverse, at 512 bits (below 0.10's default
    //! bounds) and 1024 bits.

    use super::super::{decrypt as decrypt_09, encrypt as encrypt_09, generate};
    use super::*;
    use ::rsa::pkcs8::{DecodePrivateKey as _, EncodePublicKey as _};
    use ::rsa::traits::{PrivateKeyParts as _, PublicKeyParts as _};

    /// A fresh key: its PKCS #8 and SPKI bytes, `(n, e, d)` and its primes.
    #[allow(clippy::type_complexity)]
    fn key(bits: usize) -> (Vec<u8>, Vec<u8>, (Vec<u8>, Vec<u8>, Vec<u8>), Vec<Vec<u8>>) {
        let pkcs8 = generate(bits, &[1, 0, 1]).unwrap();
        let private = ::rsa::RsaPrivateKey::from_pkcs8_der(&pkcs8).unwrap();
        let spki = private
            .to_public_key()
            .to_public_key_der()
            .unwrap()
            .as_bytes()
            .to_vec();
        let parts = (
            private.n().to_bytes_be(),
            private.e().to_bytes_be(),
            private.d().to_bytes_be(),
        );
        let primes = private.primes().iter().map(|p| p.to_bytes_be()).collect();
        (pkcs8, spki, parts, primes)
    }

    #[test]
    fn the_two_releases_open_each_other() {
        for (bits, hashes) in [
            (512, &["SHA-1"][..]),
            (1024, &["SHA-1", "SHA-256", "SHA-384"][..]),
        ] {
            let (pkcs8, spki, (n, e, d), primes) = key(bits);
            for &hash in hashes {
                let sealed = encrypt_09(hash, &spki, b"from 0.9", b"label").unwrap();
                let opened = decrypt(hash, (&n, &e, &d), &primes, &sealed, b"label");
                assert_eq!(opened.unwrap(), b"from 0.9", "{bits} bits, {hash}");
                assert!(decrypt(hash, (&n, &e, &d), &primes, &sealed, b"other").is_err());
                let sealed = encrypt(hash, &n, &e, b"from 0.10", b"label").unwrap();
                let opened = decrypt_09(hash, &pkcs8, &sealed, b"label");
                assert_eq!(opened.unwrap(), b"from 0.10", "{bits} bits, {hash}");
            }
            // A label that is not UTF-8 goes through 0.10 both ways.
            let sealed = encrypt_09("SHA-1", &spki, b"bytes", &[0xff, 0, 0xfe]).unwrap();
            let opened = decrypt_09("SHA-1", &pkcs8, &sealed, &[0xff, 0, 0xfe]);
            assert_eq!(opened.unwrap(), b"bytes", "{bits} bits");
        }
    }
}
