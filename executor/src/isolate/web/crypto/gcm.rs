//! AES-GCM at every size WebCrypto asks for: an IV of any non-empty length and tags of 32 to
//! 128 bits. The `aes-gcm` crate fixes both at compile time (one IV length per type, tags of
//! 96 to 128 bits), so one composition serves them all.
//!
//! GCM is composed here from RustCrypto's primitives exactly as NIST SP 800-38D, section 7,
//! defines it, and from nothing else: `aes` is the block cipher CIPH_K, `ghash` is GHASH_H
//! with H = CIPH_K(0^128), and `ctr`'s `Ctr32BE` is GCTR (the counter's low 32 bits turn,
//! `inc_32`). The pre-counter block J0 is `IV || 0^31 || 1` for a 96-bit IV and
//! `GHASH_H(IV || 0^(s+64) || [len(IV)]_64)` otherwise; the ciphertext is
//! `GCTR_K(inc_32(J0), P)`; the tag is the `t` leftmost bits of
//! `GCTR_K(J0, GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64))`. A decryption
//! computes the tag over the ciphertext first, compares it in constant time (`subtle`) and
//! only then deciphers.

use aes::cipher::consts::U16;
use aes::cipher::{BlockCipher, BlockEncrypt, BlockSizeUser, KeyInit, KeyIvInit, StreamCipher};
use ghash::GHash;
use ghash::universal_hash::UniversalHash;
use subtle::ConstantTimeEq;

/// A block cipher of 128-bit blocks keyed from bytes: AES-128, AES-192 or AES-256.
pub(super) trait Block128:
    BlockCipher + BlockEncrypt + BlockSizeUser<BlockSize = U16> + KeyInit
{
}

impl<T: BlockCipher + BlockEncrypt + BlockSizeUser<BlockSize = U16> + KeyInit> Block128 for T {}

/// The longest plaintext SP 800-38D allows: 2^39 - 256 bits.
const MAX_TEXT_BYTES: u64 = (1 << 36) - 32;

/// GHASH under H, the keystream positioned at J0, and `CIPH_K(J0)`, which masks the tag.
struct Started<A: Block128> {
    ghash: GHash,
    keystream: ctr::Ctr32BE<A>,
    mask: [u8; 16],
}

fn start<A: Block128>(key: &[u8], iv: &[u8]) -> Started<A> {
    let cipher = A::new_from_slice(key).expect("key length checked");
    let mut h = ghash::Key::default();
    cipher.encrypt_block(&mut h);
    let ghash = GHash::new(&h);
    let mut j0 = ghash::Block::default();
    if iv.len() == 12 {
        j0[..12].copy_from_slice(iv);
        j0[15] = 1;
    } else {
        let mut g = ghash.clone();
        g.update_padded(iv);
        let mut lengths = ghash::Block::default();
        lengths[8..].copy_from_slice(&(iv.len() as u64 * 8).to_be_bytes());
        g.update(&[lengths]);
        j0 = g.finalize();
    }
    let mut keystream =
        ctr::Ctr32BE::<A>::new_from_slices(key, &j0).expect("key and block lengths checked");
    // The keystream's first block is CIPH_K(J0); the text starts at inc_32(J0).
    let mut mask = [0u8; 16];
    keystream.apply_keystream(&mut mask);
    Started {
        ghash,
        keystream,
        mask,
    }
}

/// The full 128-bit tag over `aad` and `ciphertext`.
fn full_tag(mut ghash: GHash, mask: &[u8; 16], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
    ghash.update_padded(aad);
    ghash.update_padded(ciphertext);
    let mut lengths = ghash::Block::default();
    lengths[..8].copy_from_slice(&(aad.len() as u64 * 8).to_be_bytes());
    lengths[8..].copy_from_slice(&(ciphertext.len() as u64 * 8).to_be_bytes());
    ghash.update(&[lengths]);
    let mut tag = [0u8; 16];
    for ((t, s), m) in tag.iter_mut().zip(ghash.finalize().iter()).zip(mask) {
        *t = s ^ m;
    }
    tag
}

/// Why a composed operation did not answer.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refused {
    /// The text is longer than SP 800-38D allows.
    TooLong,
    /// The tag does not authenticate the ciphertext.
    Unauthentic,
}

/// The ciphertext followed by its tag of `tag_bytes` bytes (4 to 16).
pub(super) fn seal<A: Block128>(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    plaintext: &[u8],
    tag_bytes: usize,
) -> Result<Vec<u8>, Refused> {
    if plaintext.len() as u64 > MAX_TEXT_BYTES {
        return Err(Refused::TooLong);
    }
    let Started {
        ghash,
        mut keystream,
        mask,
    } = start::<A>(key, iv);
    let mut out = plaintext.to_vec();
    keystream.apply_keystream(&mut out);
    let tag = full_tag(ghash, &mask, aad, &out);
    out.extend_from_slice(&tag[..tag_bytes]);
    Ok(out)
}

/// The plaintext of `sealed` (ciphertext then a tag of `tag_bytes` bytes), if its tag holds.
pub(super) fn open<A: Block128>(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    sealed: &[u8],
    tag_bytes: usize,
) -> Result<Vec<u8>, Refused> {
    let (ciphertext, tag) = sealed.split_at(sealed.len() - tag_bytes);
    if ciphertext.len() as u64 > MAX_TEXT_BYTES {
        return Err(Refused::TooLong);
    }
    let Started {
        ghash,
        mut keystream,
        mask,
    } = start::<A>(key, iv);
    let expected = full_tag(ghash, &mask, aad, ciphertext);
    if !bool::from(expected[..tag_bytes].ct_eq(tag)) {
        return Err(Refused::Unauthentic);
    }
    let mut out = ciphertext.to_vec();
    keystream.apply_keystream(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    //! NIST CAVP's GCM vectors (gcmEncryptExtIV and gcmDecrypt, 2013) with IVs of 8 and 1024
    //! bits and tags of 32 to 128 bits, and a cross-check with the `aes-gcm` crate where its
    //! sizes reach.

    use super::*;
    use aes::{Aes128, Aes192, Aes256};
    use aes_gcm::aead::AeadInPlace;
    use aes_gcm::aead::consts::{U12, U13};

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// One CAVP encryption vector: key, IV, PT, AAD, CT, tag.
    fn check(key: &str, iv: &str, pt: &str, aad: &str, ct: &str, tag: &str) {
        let (key, iv, pt, aad) = (unhex(key), unhex(iv), unhex(pt), unhex(aad));
        let mut expect = unhex(ct);
        expect.extend(unhex(tag));
        let n = tag.len() / 2;
        let (sealed, opened) = match key.len() {
            16 => (
                seal::<Aes128>(&key, &iv, &aad, &pt, n),
                open::<Aes128>(&key, &iv, &aad, &expect, n),
            ),
            24 => (
                seal::<Aes192>(&key, &iv, &aad, &pt, n),
                open::<Aes192>(&key, &iv, &aad, &expect, n),
            ),
            _ => (
                seal::<Aes256>(&key, &iv, &aad, &pt, n),
                open::<Aes256>(&key, &iv, &aad, &expect, n),
            ),
        };
        assert_eq!(sealed.unwrap(), expect);
        assert_eq!(opened.unwrap(), pt);
        // Any flipped bit, in the text or the tag, is refused.
        for at in [0, expect.len() - 1] {
            let mut bad = expect.clone();
            bad[at] ^= 0x80;
            let refused = match key.len() {
                16 => open::<Aes128>(&key, &iv, &aad, &bad, n),
                24 => open::<Aes192>(&key, &iv, &aad, &bad, n),
                _ => open::<Aes256>(&key, &iv, &aad, &bad, n),
            };
            assert_eq!(refused, Err(Refused::Unauthentic));
        }
    }

    // gcmEncryptExtIV128.rsp, [Keylen = 128] [IVlen = 8] [PTlen = 128] [AADlen = 160]
    // [Taglen = 64] Count = 0.
    #[test]
    fn cavp_iv_of_8_bits_tag_of_64() {
        check(
            "90e625f18f04122c3e0657a2dfe0e1b8",
            "d9",
            "e2d381298318a2135ca6d01a24d0dfab",
            "a7f88b0e07672401f86f515404fe5af3e53edcca",
            "87cbfc064d5584ac1c2b385adc02fde5",
            "f0260a089fdaaa12",
        );
    }

    // gcmEncryptExtIV128.rsp, [IVlen = 8] [PTlen = 256] [AADlen = 128] [Taglen = 104] Count = 0.
    #[test]
    fn cavp_iv_of_8_bits_tag_of_104() {
        check(
            "be07c4a0725cc27da0221b4892c959b5",
            "15",
            "e4f618a23e93cde8b9480a63e0bcb0806f66f47e36f0cb86c932f43291ca4d52",
            "6f65e713c455988a256d59c754b44f4f",
            "6c21f6f08e77a9cb2e4b7a702270cc07bb1c7225cffaaa9d6a310c1dfd5adf4b",
            "d3770bc1706d83cd4e936d32bc",
        );
    }

    // gcmEncryptExtIV128.rsp, [IVlen = 1024] [PTlen = 128] [AADlen = 128] [Taglen = 120] Count = 0.
    #[test]
    fn cavp_iv_of_1024_bits_tag_of_120() {
        check(
            "ec20b2dd5a4d6f8d2aa49086a7ef9080",
            "d15fd1d8ba90275826c6b085d9d2a3856e2359e41f2ab3033b6c4a61e412177233afbdd0897d113652e72e37d711627eb43636fd7d7513f213f458d89597e330e487adde840c245ce21f3e45d14075c86ee6f70a7dde573dd320786d1ff28ea026c07bfe904dfb904a990123f79a0a32febcc57d2fe529ccd2a393856757065c",
            "7ca608d6dac77682def3e129499d1575",
            "3abfac97f5e569ed960638002ae32738",
            "f7c5704950a6b03a77db660769e1204b",
            "a0d98b0c38599c1bb16354f61b0f00",
        );
    }

    // gcmEncryptExtIV128.rsp, [IVlen = 1024] [PTlen = 408] [AADlen = 720] [Taglen = 32] Count = 0.
    #[test]
    fn cavp_iv_of_1024_bits_tag_of_32() {
        check(
            "2633d1781ce54f74ac609a5b5209a01f",
            "7d0e90b7e9f36f760d2dcbd66f352df45f3917afdbe1d0a89cc44be0bd85cf8bf75edbdd33f1d16dad02824d81389210b0f146f3df63f9232d7035eb9e8297a09474985b3e038a5fa6840155d8848fc7c53061ba0f442b84408660a997176ca5bf3473103fd3c9a1de2580b9e539af872259ecae925a8ef50f5a176a069b1fb8",
            "ae695828625b264e0b13d3c9a539f2cf306a7501cdd35b817b699b2d7c25cf20d2dceec3fa883019db807272fddfdca8e7f672",
            "584c3cad3035d1427d6f5f1b261e97a5ea7d97c0b88cedf3b1aa5e21e5916805a63964eab4449d8806e7af60618465cf39f82769b7528bba9bb9c04992cd7b9e26efe9be38e1bfeeb41678c52d5ba3508fd7a2b1e8478505bfde",
            "fbc32a56885100a36c276ff368db9236906021a8cc7500f2b3e78a6ca01546827073ff1103145f139f4d116eb47b84e33c7160",
            "49589b3a",
        );
    }

    // gcmEncryptExtIV128.rsp, [IVlen = 96] [PTlen = 128] [AADlen = 384] [Taglen = 32] Count = 0.
    #[test]
    fn cavp_iv_of_96_bits_tag_of_32() {
        check(
            "99e8e1861e55cf4e853a910c70901f2d",
            "437b73e624906652956bd2fb",
            "fd239ba3aeef41608fc7013c472b581d",
            "41e328808d081b677d8f51bdaedf0aa7b42e4de88c1a9004196d7ca5e0e4f9aab3a78f26cf01d60deec62dad8f9fd62b",
            "8ccc27bca436f983c761d5c5ef28138a",
            "a2f11ce5",
        );
    }

    /// Where the `aes-gcm` crate's sizes reach (a 12- or 16-byte IV, 13- or 16-byte tags,
    /// every key size), the composition answers as the crate does, for texts of 0 to 70 bytes.
    #[test]
    fn agrees_with_the_aes_gcm_crate() {
        fn crate_seal<A, N, T>(key: &[u8], iv: &[u8], aad: &[u8], pt: &[u8]) -> Vec<u8>
        where
            A: Block128,
            N: aes_gcm::aead::generic_array::ArrayLength<u8>,
            T: aes_gcm::TagSize,
        {
            let cipher = aes_gcm::AesGcm::<A, N, T>::new_from_slice(key).unwrap();
            let mut buffer = pt.to_vec();
            let tag = cipher
                .encrypt_in_place_detached(aes_gcm::Nonce::<N>::from_slice(iv), aad, &mut buffer)
                .unwrap();
            buffer.extend_from_slice(&tag);
            buffer
        }
        fn agree<A: Block128>(key: &[u8], iv: &[u8], aad: &[u8], pt: &[u8]) {
            let theirs = if iv.len() == 12 {
                [
                    crate_seal::<A, U12, U13>(key, iv, aad, pt),
                    crate_seal::<A, U12, U16>(key, iv, aad, pt),
                ]
            } else {
                [
                    crate_seal::<A, U16, U13>(key, iv, aad, pt),
                    crate_seal::<A, U16, U16>(key, iv, aad, pt),
                ]
            };
            for (tag, theirs) in [13, 16].into_iter().zip(theirs) {
                assert_eq!(
                    seal::<A>(key, iv, aad, pt, tag).unwrap(),
                    theirs,
                    "{} bytes, key {}, IV {}, tag {tag}",
                    pt.len(),
                    key.len(),
                    iv.len()
                );
            }
        }
        let bytes = |n: usize, from: u8| {
            (0..n)
                .map(|i| from.wrapping_add((i * 7) as u8))
                .collect::<Vec<u8>>()
        };
        for len in [0, 1, 15, 16, 17, 31, 32, 33, 70] {
            let (pt, aad) = (bytes(len, 3), bytes(len / 2 + 1, 9));
            for key in [bytes(16, 1), bytes(24, 2), bytes(32, 4)] {
                for iv in [bytes(12, 5), bytes(16, 6)] {
                    match key.len() {
                        16 => agree::<Aes128>(&key, &iv, &aad, &pt),
                        24 => agree::<Aes192>(&key, &iv, &aad, &pt),
                        _ => agree::<Aes256>(&key, &iv, &aad, &pt),
                    }
                }
            }
        }
    }
}
