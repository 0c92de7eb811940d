//! `gbk` and `gb18030` as the reference decodes them: GB18030-2005 (ICU's mapping), over
//! `encoding_rs`, which follows the Encoding Standard's GB18030-2022 tables.
//!
//! The two differ in nineteen places, each measured on the reference (`docs/encodings.md`):
//! - the lone byte `0x80` is an error there (U+20AC in the standard);
//! - eighteen two-byte codes decode to private-use code points there, to the characters
//!   GB18030-2022 gave them in the standard. [`PUA_2005`] holds those entries of the
//!   Encoding Standard's `index-gb18030.txt` as it was before it adopted GB18030-2022.
//!
//! [`Gb2005`] walks the bytes in the decoder's own steps (one, two or four bytes), hands every
//! run between two such codes to `encoding_rs` and writes those codes itself. A sequence cut
//! at the end of a streamed chunk waits for the next chunk, so `encoding_rs` only ever sees
//! whole sequences between two adjusted codes.

use encoding_rs::{DecoderResult, Encoding};

/// The entries of the Encoding Standard's `index-gb18030.txt` (pointer, code point) that
/// GB18030-2022 changed: their GB18030-2005 code points, all private use.
const PUA_2005: [(u16, char); 18] = [
    (7182, '\u{E78D}'),
    (7183, '\u{E78E}'),
    (7184, '\u{E78F}'),
    (7185, '\u{E790}'),
    (7186, '\u{E791}'),
    (7187, '\u{E792}'),
    (7188, '\u{E793}'),
    (7201, '\u{E794}'),
    (7202, '\u{E795}'),
    (7208, '\u{E796}'),
    (23775, '\u{E81E}'),
    (23783, '\u{E826}'),
    (23788, '\u{E82B}'),
    (23789, '\u{E82C}'),
    (23795, '\u{E832}'),
    (23812, '\u{E843}'),
    (23829, '\u{E854}'),
    (23845, '\u{E864}'),
];

/// Whether an encoding is one this adjustment applies to.
pub(super) fn applies_to(encoding: &'static Encoding) -> bool {
    encoding == encoding_rs::GB18030 || encoding == encoding_rs::GBK
}

/// The GB18030-2005 code point of a two-byte code that GB18030-2022 changed, if it is one.
fn pua_2005(lead: u8, trail: u8) -> Option<char> {
    let offset = if trail < 0x7F { 0x40 } else { 0x41 };
    if !(0x81..=0xFE).contains(&lead) || !(0x40..=0xFE).contains(&trail) || trail == 0x7F {
        return None;
    }
    let pointer = u16::from(lead - 0x81) * 190 + u16::from(trail - offset);
    PUA_2005
        .iter()
        .find(|(p, _)| *p == pointer)
        .map(|(_, c)| *c)
}

/// What one step of the decoder does with the bytes at a position.
enum Step {
    /// `encoding_rs` decodes these many bytes as the standard does.
    Standard(usize),
    /// These two bytes are a code GB18030-2005 maps elsewhere.
    Pua(char),
    /// This byte is an error: `0x80` (under GB18030-2005 only), or a lead byte whose
    /// sequence is malformed (the bytes after it are read again). Written here, so that
    /// `encoding_rs` never holds a malformed lead waiting for bytes it will not get.
    Error,
    /// The sequence is cut by the end of the bytes given so far.
    Cut,
}

/// The step at `bytes[0]` (never empty): one, two or four bytes, as the gb18030 decoder
/// takes them (after a malformed lead, the second, third and fourth bytes are read again,
/// as the standard says).
fn step(bytes: &[u8]) -> Step {
    match bytes[0] {
        0x80 => Step::Error,
        lead @ 0x81..=0xFE => {
            let Some(&second) = bytes.get(1) else {
                return Step::Cut;
            };
            if (0x30..=0x39).contains(&second) {
                match (bytes.get(2), bytes.get(3)) {
                    (None, _) | (Some(0x81..=0xFE), None) => Step::Cut,
                    (Some(0x81..=0xFE), Some(0x30..=0x39)) => Step::Standard(4),
                    _ => Step::Error,
                }
            } else if let Some(c) = pua_2005(lead, second) {
                Step::Pua(c)
            } else if second < 0x80 && !(0x40..0x7F).contains(&second) {
                Step::Error
            } else {
                Step::Standard(2)
            }
        }
        _ => Step::Standard(1),
    }
}

/// A gbk or gb18030 decoder with GB18030-2005's mapping: the bytes of a sequence cut at the
/// end of the last streamed chunk, held for the next.
#[derive(Default)]
pub(super) struct Gb2005 {
    cut: Vec<u8>,
}

impl Gb2005 {
    /// Decodes `input` (after the bytes held from the last call) with `decoder`, into `out`;
    /// `false` when `fatal` and the bytes are malformed.
    pub(super) fn decode(
        &mut self,
        decoder: &mut encoding_rs::Decoder,
        input: &[u8],
        out: &mut String,
        last: bool,
        fatal: bool,
    ) -> bool {
        let mut bytes = std::mem::take(&mut self.cut);
        bytes.extend_from_slice(input);
        let (mut start, mut at) = (0, 0);
        while at < bytes.len() {
            match step(&bytes[at..]) {
                Step::Standard(n) => at += n,
                Step::Cut if last => at = bytes.len(),
                Step::Cut => {
                    self.cut = bytes[at..].to_vec();
                    break;
                }
                Step::Pua(c) => {
                    if !feed(decoder, &bytes[start..at], out, false, fatal) {
                        return false;
                    }
                    out.push(c);
                    at += 2;
                    start = at;
                }
                Step::Error => {
                    if fatal || !feed(decoder, &bytes[start..at], out, false, fatal) {
                        return false;
                    }
                    out.push('\u{FFFD}');
                    at += 1;
                    start = at;
                }
            }
        }
        feed(decoder, &bytes[start..at], out, last, fatal)
    }
}

/// Hands whole sequences to `encoding_rs`; `false` when `fatal` and they are malformed.
fn feed(
    decoder: &mut encoding_rs::Decoder,
    bytes: &[u8],
    out: &mut String,
    last: bool,
    fatal: bool,
) -> bool {
    out.reserve(
        decoder
            .max_utf8_buffer_length(bytes.len())
            .unwrap_or(usize::MAX / 2),
    );
    if fatal {
        let (result, _) = decoder.decode_to_string_without_replacement(bytes, out, last);
        !matches!(result, DecoderResult::Malformed(..))
    } else {
        let _ = decoder.decode_to_string(bytes, out, last);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]], fatal: bool) -> Option<String> {
        let encoding = encoding_rs::GB18030;
        let mut decoder = encoding.new_decoder_without_bom_handling();
        let mut gb = Gb2005::default();
        let mut out = String::new();
        for (i, chunk) in chunks.iter().enumerate() {
            let last = i + 1 == chunks.len();
            if !gb.decode(&mut decoder, chunk, &mut out, last, fatal) {
                return None;
            }
        }
        Some(out)
    }

    #[test]
    fn the_eighteen_codes_are_private_use_and_the_rest_is_the_standard() {
        let text = decode(
            &[&[0xA6, 0xD9, 0xC4, 0xE3, 0xFE, 0x59, 0xFE, 0xA0, 0x41]],
            false,
        );
        assert_eq!(text.as_deref(), Some("\u{E78D}你\u{E81E}\u{E864}A"));
    }

    #[test]
    fn a_lone_0x80_is_an_error() {
        assert_eq!(
            decode(&[&[0x41, 0x80, 0x42]], false).as_deref(),
            Some("A\u{FFFD}B")
        );
        assert_eq!(decode(&[&[0x41, 0x80]], true), None);
    }

    #[test]
    fn a_code_cut_between_chunks_is_read_whole() {
        let text = decode(&[&[0x41, 0xA6], &[0xD9, 0x84, 0x31], &[0xA4, 0x39]], false);
        assert_eq!(text.as_deref(), Some("A\u{E78D}\u{FFFF}"));
        assert_eq!(decode(&[&[0xA6], &[]], false).as_deref(), Some("\u{FFFD}"));
    }

    #[test]
    fn a_four_byte_code_is_never_read_as_two() {
        // 0x81 0x30 0xA6 0xD9 is not a four-byte code (its fourth byte is no digit): the
        // decoder reads 0x81 as an error, 0x30 as "0", then A6D9.
        let text = decode(&[&[0x81, 0x30, 0xA6, 0xD9]], false);
        assert_eq!(text.as_deref(), Some("\u{FFFD}0\u{E78D}"));
    }
}
