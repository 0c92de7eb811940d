//! RSA-OAEP with a label that is not UTF-8, on `rsa` 0.10, whose OAEP labels are bytes (the
//! 0.9 release that the rest of `super` uses takes a label as a string). The key crosses as
//! the same PKCS #8 or SPKI bytes; 0.10 takes moduli of 1024 to 8192 bits.

use crypto_common_oaep::getrandom::SysRng;
use rsa_oaep::pkcs8::{DecodePrivateKey, DecodePublicKey};
use rsa_oaep::sha2::{Sha256, Sha384, Sha512};
use rsa_oaep::{Oaep, PrivateKey, PublicKey};
use sha1_oaep::Sha1;

use super::super::{Outcome, fail};

/// The moduli `rsa` 0.10 takes, in bits.
const MODULUS_BITS: std::ops::RangeInclusive<usize> = 1024..=8192;

fn in_range(bits: usize) -> Result<(), super::Failure> {
    if MODULUS_BITS.contains(&bits) {
        Ok(())
    } else {
        fail(
            "NotSupportedError",
            format!(
                "An RSA-OAEP label that is not UTF-8 is taken here with a modulus of 1024 to 8192 bits; this key has {bits} bits."
            ),
        )
    }
}

pub(super) fn encrypt(hash: &str, der: &[u8], bits: usize, data: &[u8], label: &[u8]) -> Outcome {
    in_range(bits)?;
    let key = PublicKey::from_public_key_der(der)
        .or_else(|_| fail("DataError", "Invalid SPKI input.".into()))?;
    let out = with_hash!(hash, H => Ok(key.encrypt(&mut SysRng, Oaep::<H>::new_with_label(label), data)))?;
    out.or_else(|_| fail("OperationError", "RSA-OAEP failed encrypt/decrypt.".into()))
}

pub(super) fn decrypt(hash: &str, der: &[u8], bits: usize, data: &[u8], label: &[u8]) -> Outcome {
    in_range(bits)?;
    let key = PrivateKey::from_pkcs8_der(der)
        .or_else(|_| fail("DataError", "Invalid PKCS8 input.".into()))?;
    let out = with_hash!(hash, H => Ok(key.decrypt(Oaep::<H>::new_with_label(label), data)))?;
    out.or_else(|_| fail("OperationError", "RSA-OAEP failed encrypt/decrypt.".into()))
}

#[cfg(test)]
mod tests {
    //! The two `rsa` releases agree on OAEP: what 0.9 seals under a UTF-8 label, 0.10 opens
    //! under the same label's bytes, and the reverse; a key outside 0.10's moduli is refused.

    use super::super::{decrypt as decrypt_09, encrypt as encrypt_09, generate};
    use super::*;
    use ::rsa::pkcs8::{DecodePrivateKey as _, EncodePublicKey as _};

    fn key(bits: usize) -> (Vec<u8>, Vec<u8>) {
        let pkcs8 = generate(bits, &[1, 0, 1]).unwrap();
        let spki = ::rsa::RsaPrivateKey::from_pkcs8_der(&pkcs8)
            .unwrap()
            .to_public_key()
            .to_public_key_der()
            .unwrap()
            .as_bytes()
            .to_vec();
        (pkcs8, spki)
    }

    #[test]
    fn the_two_releases_open_each_other() {
        let (pkcs8, spki) = key(1024);
        for hash in ["SHA-1", "SHA-256", "SHA-384"] {
            let sealed = encrypt_09(hash, &spki, b"from 0.9", b"label").unwrap();
            assert_eq!(
                decrypt(hash, &pkcs8, 1024, &sealed, b"label").unwrap(),
                b"from 0.9"
            );
            assert!(decrypt(hash, &pkcs8, 1024, &sealed, b"other").is_err());
            let sealed = encrypt(hash, &spki, 1024, b"from 0.10", b"label").unwrap();
            assert_eq!(
                decrypt_09(hash, &pkcs8, &sealed, b"label").unwrap(),
                b"from 0.10"
            );
        }
        // A label that is not UTF-8 goes through 0.10 both ways.
        let sealed = encrypt_09("SHA-256", &spki, b"bytes", &[0xff, 0, 0xfe]).unwrap();
        assert_eq!(
            decrypt_09("SHA-256", &pkcs8, &sealed, &[0xff, 0, 0xfe]).unwrap(),
            b"bytes"
        );
    }

    #[test]
    fn a_modulus_outside_its_range_is_refused_with_its_size() {
        let (pkcs8, spki) = key(512);
        let refused = encrypt_09("SHA-1", &spki, b"x", &[0xff]).unwrap_err();
        assert_eq!(refused.0, "NotSupportedError");
        assert!(refused.1.contains("this key has 512 bits"), "{}", refused.1);
        assert!(decrypt_09("SHA-1", &pkcs8, &[0; 64], &[0xff]).is_err());
    }
}
