//! The identifier a tool is exposed under inside the sandbox, and the text two colliding
//! raw names produce.
//!
//! Both are contract: the dialect's type generator shows the model [`sanitize_tool_name`]'s
//! output, so the handler must look calls up under exactly that identifier, and hosts surface
//! the collision text to their model and operators verbatim.

use crate::js_words;

/// Every word `sanitize_tool_name` suffixes with `_`: every ECMAScript edition's reserved
/// words (the ES1 to ES3 future-reserved words included), the strict-mode restricted names
/// `arguments` and `eval`, and `undefined`. Word for word the reference's `JS_RESERVED`
/// (65 words), so the identifier the model was shown is the one the handler looks up.
pub const TOOL_NAME_RESERVED_WORDS: [&str; 65] = js_words::concat(&[
    &js_words::KEYWORDS,
    &js_words::MODULE_RESERVED,
    &js_words::STRICT_RESERVED,
    &js_words::OLD_FUTURE_RESERVED,
    &js_words::RESTRICTED,
    &["undefined"],
]);

/// `true` for the characters JavaScript's `\s` matches (and `String.prototype.trim`
/// removes): the `WhiteSpace` and `LineTerminator` productions.
///
/// This differs from Rust's [`char::is_whitespace`]: U+FEFF is JavaScript whitespace, and
/// U+0085 is not.
pub(crate) fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'
            | '\u{000A}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// The identifier a raw tool name is exposed under, exactly as the reference's
/// `sanitizeToolName` computes it:
///
/// 1. hyphens, dots and JavaScript whitespace become `_`;
/// 2. every character outside `[a-zA-Z0-9_$]` is dropped;
/// 3. nothing left gives `_`;
/// 4. a leading digit gets a `_` prefix;
/// 5. a word of [`TOOL_NAME_RESERVED_WORDS`] gets a `_` suffix.
///
/// The result always matches `^[a-zA-Z_$][a-zA-Z0-9_$]*$` and is never a reserved word.
pub fn sanitize_tool_name(name: &str) -> String {
    let mut sanitized: String = name
        .chars()
        .filter_map(|c| match c {
            '-' | '.' => Some('_'),
            c if is_js_whitespace(c) => Some('_'),
            c if c.is_ascii_alphanumeric() || c == '_' || c == '$' => Some(c),
            _ => None,
        })
        .collect();
    if sanitized.is_empty() {
        return "_".into();
    }
    if sanitized.starts_with(|c: char| c.is_ascii_digit()) {
        sanitized.insert(0, '_');
    }
    if TOOL_NAME_RESERVED_WORDS.contains(&sanitized.as_str()) {
        sanitized.push('_');
    }
    sanitized
}

/// The text for two raw tool names of one provider that sanitize to one identifier. Composed
/// here alone, so a reword takes a deliberate edit.
pub fn format_sanitize_collision(
    first: &str,
    second: &str,
    sanitized: &str,
    provider: &str,
) -> String {
    format!(
        "Tool names \"{first}\" and \"{second}\" both sanitize to \"{sanitized}\" in provider \"{provider}\""
    )
}

/// The first pair of raw names, in `raw_names`' order, that sanitize to one identifier, as
/// [`format_sanitize_collision`]'s text. Identical raw names do not collide (the later one
/// replaces the earlier, as a repeated object key does).
pub fn detect_sanitize_collision<'a>(
    provider: &str,
    raw_names: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    for raw in raw_names {
        let sanitized = sanitize_tool_name(raw);
        match seen.iter().find(|(s, _)| *s == sanitized) {
            Some((_, existing)) if *existing != raw => {
                return Some(format_sanitize_collision(
                    existing, raw, &sanitized, provider,
                ));
            }
            Some(_) => {}
            None => seen.push((sanitized, raw)),
        }
    }
    None
}

/// The order JavaScript's `Object.entries` lists an object's keys in: array-index keys
/// (canonical decimal integers below 2³² − 1) first, ascending, then every other key in
/// insertion order. A repeated key keeps its first position.
///
/// The reference walks `Object.entries(provider.fns)`, so this is the order its collision
/// check (and therefore the pair its text names) follows.
pub fn js_property_order<'a>(keys: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut indices: Vec<(u32, &str)> = Vec::new();
    let mut others: Vec<&str> = Vec::new();
    for key in keys {
        match array_index(key) {
            Some(i) if !indices.iter().any(|(j, _)| *j == i) => indices.push((i, key)),
            Some(_) => {}
            None if !others.contains(&key) => others.push(key),
            None => {}
        }
    }
    indices.sort_by_key(|(i, _)| *i);
    indices.into_iter().map(|(_, k)| k).chain(others).collect()
}

fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if key.len() > 1 && key.starts_with('0') {
        return None;
    }
    let value: u64 = key.parse().ok()?;
    (value < u64::from(u32::MAX)).then_some(value as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_table_holds_row_by_row() {
        for (raw, identifier) in [
            ("list-issues", "list_issues"),
            ("search.code", "search_code"),
            ("send email", "send_email"),
            ("files:read!", "filesread"),
            ("2fa-verify", "_2fa_verify"),
            ("delete", "delete_"),
            ("-delete", "_delete"),
            ("поиск🔍", "_"),
        ] {
            assert_eq!(sanitize_tool_name(raw), identifier, "{raw}");
        }
    }

    #[test]
    fn edges_follow_the_reference() {
        assert_eq!(sanitize_tool_name(""), "_");
        assert_eq!(sanitize_tool_name("undefined"), "undefined_");
        assert_eq!(sanitize_tool_name("async"), "async");
        assert_eq!(sanitize_tool_name("$ok"), "$ok");
        assert_eq!(sanitize_tool_name("a\u{FEFF}b"), "a_b");
        assert_eq!(sanitize_tool_name("a\u{0085}b"), "ab");
        assert_eq!(sanitize_tool_name("42"), "_42");
        assert_eq!(TOOL_NAME_RESERVED_WORDS.len(), 65);
    }

    #[test]
    fn the_first_colliding_pair_is_reported() {
        assert_eq!(
            detect_sanitize_collision("gh", ["list-issues", "list.issues", "list issues"]),
            Some(
                "Tool names \"list-issues\" and \"list.issues\" both sanitize to \"list_issues\" in provider \"gh\""
                    .into()
            )
        );
        assert_eq!(detect_sanitize_collision("gh", ["a", "a", "b"]), None);
    }

    #[test]
    fn property_order_puts_array_indices_first() {
        assert_eq!(
            js_property_order(["b", "10", "_1", "1", "01", "b", "4294967295"]),
            vec!["1", "10", "b", "_1", "01", "4294967295"]
        );
    }
}
