//! WPT's JSON as the harness reads it and as the programs carry it.
//!
//! WPT's data files hold strings JSON can spell and Rust cannot: lone surrogates
//! (`"\ud83d \udeb2"`), written as `\uXXXX` escapes. [`parse`] reads such a file with each
//! lone surrogate stood in for by a character of Unicode's last private-use plane
//! (U+10F800 + the surrogate's offset, a range no WPT file uses), and [`js`] writes a
//! value back as JavaScript source with every stand-in turned into its `\uXXXX` escape again,
//! so a program sees exactly the string the file holds.

use serde_json::Value;

/// The first stand-in character; the stand-in for surrogate `s` is `STAND_IN + (s - 0xD800)`.
const STAND_IN: u32 = 0x10_F800;

/// Parses JSON text whose strings may hold lone surrogates; `Err` is serde_json's message.
pub fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(&protect(text)).map_err(|e| e.to_string())
}

/// The text with each lone-surrogate escape (one that is not a high surrogate followed at
/// once by a low one) replaced by its stand-in character; escaped backslashes are honoured.
fn protect(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        // An escape: `\\`, `\"`, … take two bytes; `\uXXXX` six.
        let Some(unit) = unit_at(bytes, i) else {
            i += 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&unit);
        let paired = high && unit_at(bytes, i + 6).is_some_and(|l| (0xDC00..0xE000).contains(&l));
        if paired {
            i += 12;
        } else if (0xD800..0xE000).contains(&unit) {
            out.push_str(&text[copied..i]);
            out.push(char::from_u32(STAND_IN + (unit - 0xD800)).expect("in the private-use plane"));
            i += 6;
            copied = i;
        } else {
            i += 6;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The code unit of the `\uXXXX` escape at `at`, if one starts there.
fn unit_at(bytes: &[u8], at: usize) -> Option<u32> {
    let escape = bytes.get(at..at + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(&escape[2..]).ok()?, 16).ok()
}

/// A value as JavaScript source (JSON is JavaScript), stand-ins written as the lone
/// surrogates they stand for.
pub fn js(value: &Value) -> String {
    let json = serde_json::to_string(value).expect("a JSON value serializes");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c as u32 {
            code if code >= STAND_IN => {
                out.push_str(&format!("\\u{:04X}", code - STAND_IN + 0xD800));
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_survive_the_round_trip_and_pairs_stay_characters() {
        let text = r#"["\ud83d \udeb2", "\ud840\udc00", "\\ud800", "a\u00e9"]"#;
        let value = parse(text).unwrap();
        assert_eq!(value[1], "\u{20000}");
        assert_eq!(value[2], "\\ud800");
        assert_eq!(value[3], "aé");
        assert_eq!(js(&value), r#"["\uD83D \uDEB2","𠀀","\\ud800","aé"]"#);
    }
}
