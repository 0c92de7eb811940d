//! JavaScript strings on the host side.
//!
//! A JavaScript string is a sequence of UTF-16 code units and may hold a *lone surrogate*
//! (half of a pair, as `'😀'.slice(0, 1)` gives); a Rust `String` cannot. Two
//! representations cover every string a program can make:
//!
//! - **Values keep every code unit.** [`JsString`], the string of a
//!   [`JsValue::String`](super::JsValue::String) and of an object key, holds the string as
//!   WTF-8 (UTF-8 generalized to encode a lone surrogate as its own three-byte sequence, as
//!   QuickJS itself writes it). A well-formed string's WTF-8 is its UTF-8, so
//!   [`JsString::as_str`] borrows it as `&str`. A value that crosses out and back (a tool
//!   that echoes its argument) hands the sandbox the same code units it received: the codec
//!   writes a lone surrogate as the escape `JSON.stringify` writes, `\udXXX`, which the
//!   sandbox's `JSON.parse` turns back into the code unit.
//! - **Texts use the escape.** Where a string must become a Rust `String` (a log line, an
//!   error's message, a tool's name, and the normalized outcome the harness compares), each
//!   lone surrogate is written as the six characters `JSON.stringify` writes for it:
//!   backslash, `u`, and four lower-case hex digits (`"hi \ud83d"`). A well-formed string is
//!   unchanged. [`JsString::to_text`] gives this form, [`lone_surrogates_as_text`] reads JSON
//!   text from elsewhere (the reference's answers) into it.
//!
//! The escape form is a text, not a value: a string that already held the six characters
//! `\ud83d` reads the same as one that held the lone surrogate. Values never pass through
//! it, so only texts (which nothing hands back to a sandbox) can meet that ambiguity.

use std::borrow::Cow;
use std::fmt;

/// A JavaScript string, every code unit kept: WTF-8 bytes (see the module docs).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct JsString {
    wtf8: Vec<u8>,
}

impl JsString {
    /// The string of these UTF-16 code units.
    pub fn from_utf16(units: &[u16]) -> JsString {
        let mut wtf8 = Vec::with_capacity(units.len());
        for unit in char::decode_utf16(units.iter().copied()) {
            match unit {
                Ok(c) => push_code_point(&mut wtf8, u32::from(c)),
                Err(lone) => push_code_point(&mut wtf8, u32::from(lone.unpaired_surrogate())),
            }
        }
        JsString { wtf8 }
    }

    /// The string whose WTF-8 these bytes are; `None` where they are not WTF-8 (bytes that
    /// are not generalized UTF-8, or a surrogate pair encoded as two halves).
    pub fn from_wtf8(bytes: Vec<u8>) -> Option<JsString> {
        if std::str::from_utf8(&bytes).is_ok() {
            return Some(JsString { wtf8: bytes });
        }
        let mut previous_high = false;
        for code in CodePoints::new(&bytes) {
            let code = code?;
            if previous_high && (0xDC00..0xE000).contains(&code) {
                return None;
            }
            previous_high = (0xD800..0xDC00).contains(&code);
        }
        Some(JsString { wtf8: bytes })
    }

    /// The WTF-8 bytes.
    pub fn as_wtf8(&self) -> &[u8] {
        &self.wtf8
    }

    /// The string as `&str` when it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.wtf8).ok()
    }

    /// `true` where the string holds no lone surrogate.
    pub fn is_well_formed(&self) -> bool {
        self.as_str().is_some()
    }

    /// `true` for the empty string.
    pub fn is_empty(&self) -> bool {
        self.wtf8.is_empty()
    }

    /// The string's UTF-16 code units, as JavaScript indexes them.
    pub fn to_utf16(&self) -> Vec<u16> {
        let mut units = Vec::with_capacity(self.wtf8.len());
        for code in self.code_points() {
            if code >= 0x10000 {
                let code = code - 0x10000;
                units.push(0xD800 | (code >> 10) as u16);
                units.push(0xDC00 | (code & 0x3FF) as u16);
            } else {
                units.push(code as u16);
            }
        }
        units
    }

    /// Code points, a lone surrogate as its own (`0xD800..0xE000`).
    fn code_points(&self) -> impl Iterator<Item = u32> + '_ {
        CodePoints::new(&self.wtf8).map(|code| code.unwrap_or(0xFFFD))
    }

    /// The text form: the string itself when well formed, otherwise each lone surrogate as
    /// the escape `JSON.stringify` writes (`\ud83d`).
    pub fn to_text(&self) -> Cow<'_, str> {
        if let Some(text) = self.as_str() {
            return Cow::Borrowed(text);
        }
        let mut text = String::with_capacity(self.wtf8.len() + 8);
        for code in self.code_points() {
            match char::from_u32(code) {
                Some(c) => text.push(c),
                None => text.push_str(&format!("\\u{code:04x}")),
            }
        }
        Cow::Owned(text)
    }

    /// The string as a USVString: each lone surrogate replaced by U+FFFD, as the Web
    /// platform converts strings (`TextEncoder`, `URL`).
    pub fn to_usv(&self) -> Cow<'_, str> {
        if let Some(text) = self.as_str() {
            return Cow::Borrowed(text);
        }
        self.code_points()
            .map(|code| char::from_u32(code).unwrap_or('\u{FFFD}'))
            .collect::<String>()
            .into()
    }

    /// Appends this string as JSON text (quotes included), escaped as `JSON.stringify`
    /// escapes it: a lone surrogate as `\udXXX`.
    pub fn write_json(&self, out: &mut String) {
        out.push('"');
        for code in self.code_points() {
            match char::from_u32(code) {
                Some('"') => out.push_str("\\\""),
                Some('\\') => out.push_str("\\\\"),
                Some('\n') => out.push_str("\\n"),
                Some('\r') => out.push_str("\\r"),
                Some('\t') => out.push_str("\\t"),
                Some('\u{08}') => out.push_str("\\b"),
                Some('\u{0C}') => out.push_str("\\f"),
                Some(c) if code >= 0x20 => out.push(c),
                _ => out.push_str(&format!("\\u{code:04x}")),
            }
        }
        out.push('"');
    }

    /// Appends one byte of a UTF-8 sequence the caller appends whole.
    pub(crate) fn push_byte(&mut self, byte: u8) {
        self.wtf8.push(byte);
    }

    /// Appends a code point: a surrogate's own three bytes where it is one.
    pub(crate) fn push_code_point(&mut self, code: u32) {
        push_code_point(&mut self.wtf8, code);
    }
}

/// Appends `code` as generalized UTF-8. A low surrogate right after a high one would make
/// a pair: the caller combines pairs before.
fn push_code_point(wtf8: &mut Vec<u8>, code: u32) {
    match code {
        0..0x80 => wtf8.push(code as u8),
        0x80..0x800 => {
            wtf8.push(0xC0 | (code >> 6) as u8);
            wtf8.push(0x80 | (code & 0x3F) as u8);
        }
        0x800..0x10000 => {
            wtf8.push(0xE0 | (code >> 12) as u8);
            wtf8.push(0x80 | ((code >> 6) & 0x3F) as u8);
            wtf8.push(0x80 | (code & 0x3F) as u8);
        }
        _ => {
            wtf8.push(0xF0 | (code >> 18) as u8);
            wtf8.push(0x80 | ((code >> 12) & 0x3F) as u8);
            wtf8.push(0x80 | ((code >> 6) & 0x3F) as u8);
            wtf8.push(0x80 | (code & 0x3F) as u8);
        }
    }
}

/// The code points of generalized UTF-8; `None` for bytes that are not.
struct CodePoints<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> CodePoints<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        CodePoints { bytes, at: 0 }
    }
}

impl Iterator for CodePoints<'_> {
    type Item = Option<u32>;

    fn next(&mut self) -> Option<Option<u32>> {
        let bytes = self.bytes;
        let first = *bytes.get(self.at)?;
        let (len, initial) = match first {
            0x00..=0x7F => (1, u32::from(first)),
            0xC2..=0xDF => (2, u32::from(first & 0x1F)),
            0xE0..=0xEF => (3, u32::from(first & 0x0F)),
            0xF0..=0xF4 => (4, u32::from(first & 0x07)),
            _ => {
                self.at = bytes.len();
                return Some(None);
            }
        };
        let Some(rest) = bytes.get(self.at + 1..self.at + len) else {
            self.at = bytes.len();
            return Some(None);
        };
        let mut code = initial;
        for byte in rest {
            if byte & 0xC0 != 0x80 {
                self.at = bytes.len();
                return Some(None);
            }
            code = (code << 6) | u32::from(byte & 0x3F);
        }
        let minimum = [0, 0, 0x80, 0x800, 0x10000][len];
        if code < minimum || code > 0x10FFFF {
            self.at = bytes.len();
            return Some(None);
        }
        self.at += len;
        Some(Some(code))
    }
}

impl From<&str> for JsString {
    fn from(text: &str) -> Self {
        JsString {
            wtf8: text.as_bytes().to_vec(),
        }
    }
}

impl From<String> for JsString {
    fn from(text: String) -> Self {
        JsString {
            wtf8: text.into_bytes(),
        }
    }
}

impl From<&String> for JsString {
    fn from(text: &String) -> Self {
        JsString::from(text.as_str())
    }
}

impl PartialEq<str> for JsString {
    fn eq(&self, other: &str) -> bool {
        self.wtf8 == other.as_bytes()
    }
}

impl PartialEq<&str> for JsString {
    fn eq(&self, other: &&str) -> bool {
        self.wtf8 == other.as_bytes()
    }
}

impl PartialEq<String> for JsString {
    fn eq(&self, other: &String) -> bool {
        self.wtf8 == other.as_bytes()
    }
}

impl PartialEq<JsString> for str {
    fn eq(&self, other: &JsString) -> bool {
        other == self
    }
}

impl PartialEq<JsString> for &str {
    fn eq(&self, other: &JsString) -> bool {
        other == *self
    }
}

impl PartialEq<JsString> for String {
    fn eq(&self, other: &JsString) -> bool {
        other == self
    }
}

/// The text form (see the module docs).
impl fmt::Display for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl fmt::Debug for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.to_text(), f)
    }
}

/// JSON text with every lone surrogate escape (`\ud83d` not paired with its other half)
/// written as text, so that a JSON reader that refuses lone surrogates (`serde_json`) reads
/// the string in the text form of the module docs. Everything else is unchanged.
pub fn lone_surrogates_as_text(json: &str) -> Cow<'_, str> {
    if !json.contains("\\u") && !json.contains("\\U") {
        return Cow::Borrowed(json);
    }
    let bytes = json.as_bytes();
    let mut out = String::with_capacity(json.len() + 8);
    let mut copied = 0;
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                in_string = !in_string;
                i += 1;
            }
            b'\\' if in_string => {
                if bytes.get(i + 1) == Some(&b'u')
                    && let Some(unit) = hex_unit(json, i + 2)
                {
                    if (0xD800..0xDC00).contains(&unit)
                        && bytes.get(i + 6) == Some(&b'\\')
                        && bytes.get(i + 7) == Some(&b'u')
                        && hex_unit(json, i + 8).is_some_and(|n| (0xDC00..0xE000).contains(&n))
                    {
                        i += 12;
                        continue;
                    }
                    if (0xD800..0xE000).contains(&unit) {
                        out.push_str(&json[copied..i]);
                        out.push_str(&format!("\\\\u{unit:04x}"));
                        i += 6;
                        copied = i;
                        continue;
                    }
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    out.push_str(&json[copied..]);
    Cow::Owned(out)
}

fn hex_unit(text: &str, at: usize) -> Option<u16> {
    let digits = text.get(at..at + 4)?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(digits, 16).ok()
}
