//! QuickJS's error wording, translated to the wording V8 uses, wherever a message leaves the
//! sandbox (a run's error message, the text of a logged `Error`, a start failure).
//!
//! Hosts parse these texts, and the reference runs on V8, so the table below is contract. A
//! message the table does not know passes through unchanged.

/// Where a runtime error was raised: the source text of the file and the 1-based line and
/// column QuickJS reported. Lets `not a function` name its callee as V8 does.
pub(super) struct SourcePosition<'a> {
    pub source: &'a str,
    pub line: usize,
    pub column: usize,
}

/// Translates one runtime error message.
pub(super) fn translate_message(message: &str, position: Option<SourcePosition<'_>>) -> String {
    if let Some((key, base)) = message
        .strip_prefix("cannot read property ")
        .and_then(split_property_of)
    {
        return format!("Cannot read properties of {base} (reading {key})");
    }
    if let Some((key, base)) = message
        .strip_prefix("cannot set property ")
        .and_then(split_property_of)
    {
        return format!("Cannot set properties of {base} (setting {key})");
    }
    if message == "not a function" || message == "not a constructor" {
        if let Some((callee, constructed)) =
            position.and_then(|p| callee_at(p.source, p.line, p.column))
        {
            // QuickJS says `not a function` for `new` of a non-callable as well.
            let noun = if constructed || message == "not a constructor" {
                "a constructor"
            } else {
                "a function"
            };
            return format!("{callee} is not {noun}");
        }
        return message.to_string();
    }
    if message.starts_with('\'') && message.ends_with("' is read-only") {
        return "Assignment to constant variable.".into();
    }
    if message == "this is not initialized" {
        return "Must call super constructor in derived class before accessing 'this' or returning from derived constructor".into();
    }
    if let Some(name) = message
        .strip_suffix(" is not initialized")
        .filter(|name| is_identifier(name))
    {
        return format!("Cannot access '{name}' before initialization");
    }
    if let Some(token) = message
        .strip_prefix("unexpected token: '")
        .and_then(|m| m.strip_suffix('\''))
    {
        return format!("Unexpected token '{token}', \"{token}\" is not valid JSON");
    }
    match message {
        "invalid array length" => "Invalid array length".into(),
        // QuickJS's strings are ropes: doubling one reaches the length limit, not the memory
        // limit, and QuickJS reports that limit in two ways where V8 has one text.
        "invalid string length" | "string too long" => "Invalid string length".into(),
        "BigInt is too large" | "BigInt is too large to allocate" => {
            "Maximum BigInt size exceeded".into()
        }
        "invalid array buffer length" => "Invalid array buffer length".into(),
        "division by zero" => "Division by zero".into(),
        "stack overflow" => "Maximum call stack size exceeded".into(),
        "toPrimitive" => "Cannot convert object to primitive value".into(),
        "bigint argument with unary +" => "Cannot convert a BigInt value to a number".into(),
        "BigInt division by zero" => "Division by zero".into(),
        "cannot convert symbol to string" => "Cannot convert a Symbol value to a string".into(),
        "empty array" => "Reduce of empty array with no initial value".into(),
        "Date value is NaN" => "Invalid time value".into(),
        "bad normalization form" => {
            "The normalization form should be one of NFC, NFD, NFKC, NFKD.".into()
        }
        _ => message.to_string(),
    }
}

/// Translates the text of a rendered error (`String(err)`, as `Name: message`).
pub(super) fn translate_rendered(text: &str) -> String {
    match text.split_once(": ") {
        // V8 has one text for every malformed URI sequence.
        Some(("URIError", message)) if QUICKJS_URI_MESSAGES.contains(&message) => {
            "URIError: URI malformed".into()
        }
        Some((name, message)) if name.ends_with("Error") => {
            format!("{name}: {}", translate_message(message, None))
        }
        _ => text.to_string(),
    }
}

/// QuickJS's texts for a malformed sequence in `decodeURI`/`encodeURI` and their kin.
const QUICKJS_URI_MESSAGES: &[&str] = &[
    "expecting %",
    "expecting hex digit",
    "malformed UTF-8",
    "invalid character",
    "expecting surrogate pair",
];

/// `'y' of undefined` -> (`'y'`, `undefined`).
fn split_property_of(rest: &str) -> Option<(&str, &str)> {
    let (key, base) = rest.rsplit_once(" of ")?;
    if !(key.starts_with('\'') && key.ends_with('\'')) {
        return None;
    }
    matches!(base, "undefined" | "null").then_some((key, base))
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The callee of the call QuickJS reported at `line`:`column`, when it is a plain member
/// chain (`a.b`, `a?.b`, `a[k]`): V8 names it in `... is not a function`.
fn callee_at(source: &str, line: usize, column: usize) -> Option<(String, bool)> {
    let text = source.lines().nth(line.checked_sub(1)?)?;
    let start = column.checked_sub(1)?.min(text.len());
    let bytes = text.as_bytes();
    // Forward to the call's opening parenthesis.
    // QuickJS reports the callee's last name, or, when an argument emitted a position of its
    // own (an arrow), a place inside the arguments: then the call is the innermost open one.
    let open = open_paren_after(bytes, start).or_else(|| enclosing_call(bytes, start))?;
    // Backward over the member chain.
    let mut i = open;
    let mut depth = 0;
    while i > 0 {
        let b = bytes[i - 1];
        match b {
            b']' => depth += 1,
            b'[' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ if is_chain_byte(b) || b == b'?' => {}
            _ => break,
        }
        i -= 1;
    }
    let callee = text[i..open].trim();
    // A member of a parenthesized expression (`(await f()).map`): V8 names the object
    // `(intermediate value)`.
    if i > 0 && bytes[i - 1] == b')' && callee.starts_with('.') && callee.len() > 1 {
        return Some((format!("(intermediate value){callee}"), false));
    }
    let first = callee.chars().next()?;
    if callee.is_empty() || first.is_ascii_digit() || first == '.' || depth != 0 {
        return None;
    }
    // `new o.g()`: the keyword right before the callee.
    let constructed = text[..i]
        .trim_end()
        .strip_suffix("new")
        .is_some_and(|before| !before.ends_with(|c: char| is_chain_byte(c as u8) && c.is_ascii()));
    Some((callee.to_string(), constructed))
}

/// The call's opening parenthesis when `start` is on its callee's member chain.
fn open_paren_after(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth: i32 = 0;
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        match b {
            b'[' => depth += 1,
            b']' => depth -= 1,
            b'(' if depth <= 0 => return Some(i),
            b'(' => {}
            _ if depth <= 0 && !(is_chain_byte(b) || b == b'?' || b == b' ') => return None,
            _ => {}
        }
    }
    None
}

/// The opening parenthesis of the innermost call whose arguments hold `start`.
fn enclosing_call(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0;
    for i in (0..start.min(bytes.len())).rev() {
        match bytes[i] {
            b')' => depth += 1,
            b'(' if depth > 0 => depth -= 1,
            // A grouping parenthesis (an arrow's parameters) is passed on the way out.
            b'(' if i > 0 && (is_chain_byte(bytes[i - 1]) || bytes[i - 1] == b']') => {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

fn is_chain_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.'
}

/// A V8-worded syntax error for QuickJS's `message` at `line`:`column` of `source`.
pub(super) fn translate_syntax_error(
    message: &str,
    source: &str,
    line: usize,
    column: usize,
) -> String {
    if message == "unexpected end of string" {
        return "Invalid or unexpected token".into();
    }
    let offset = source
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + column.saturating_sub(1);
    let rest = source.get(offset..).unwrap_or("");
    let rest = rest.trim_start();
    let Some(first) = rest.chars().next() else {
        return "Unexpected end of input".into();
    };
    if first.is_alphabetic() || first == '_' || first == '$' {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        return match word.as_str() {
            "await" | "yield" | "enum" => "Unexpected reserved word".into(),
            "let" | "static" | "implements" | "interface" | "package" | "private" | "protected"
            | "public" => "Unexpected strict mode reserved word".into(),
            w if V8_KEYWORDS.contains(&w) => format!("Unexpected token '{w}'"),
            w => format!("Unexpected identifier '{w}'"),
        };
    }
    if first.is_ascii_digit() {
        return "Unexpected number".into();
    }
    if first == '"' || first == '\'' {
        return "Unexpected string".into();
    }
    if first == '`' {
        return "Unexpected template string".into();
    }
    let punct = PUNCTUATORS
        .iter()
        .find(|p| rest.starts_with(**p))
        .map(|p| p.to_string())
        .unwrap_or_else(|| first.to_string());
    format!("Unexpected token '{punct}'")
}

/// Whether `word` is a keyword V8 reports as `Unexpected token '<word>'`.
pub(super) fn is_v8_keyword(word: &str) -> bool {
    V8_KEYWORDS.contains(&word)
}

const V8_KEYWORDS: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
];

/// Longest first.
const PUNCTUATORS: &[&str] = &[
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=",
    "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "**", "<<", ">>",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn property_reads_and_writes_on_nullish_read_as_v8() {
        assert_eq!(
            translate_message("cannot read property 'y' of undefined", None),
            "Cannot read properties of undefined (reading 'y')"
        );
        assert_eq!(
            translate_message("cannot read property 'x' of null", None),
            "Cannot read properties of null (reading 'x')"
        );
        assert_eq!(
            translate_message("cannot set property 'x' of undefined", None),
            "Cannot set properties of undefined (setting 'x')"
        );
    }

    #[test]
    fn not_a_function_names_a_recoverable_callee() {
        let at = |source, line, column| {
            translate_message(
                "not a function",
                Some(SourcePosition {
                    source,
                    line,
                    column,
                }),
            )
        };
        assert_eq!(at("const o = {}; o.f()", 1, 16), "o.f is not a function");
        assert_eq!(
            at("const t = {}; t[Symbol.iterator]()", 1, 23),
            "t[Symbol.iterator] is not a function"
        );
        assert_eq!(
            at("x\n  api.tools.list()", 2, 12),
            "api.tools.list is not a function"
        );
        assert_eq!(at("(1)()", 1, 1), "not a function");
        assert_eq!(
            at("async () => (await codemode.get()).map(x => x)", 1, 36),
            "(intermediate value).map is not a function"
        );
        assert_eq!(
            at("async () => (await codemode.get()).map(x => x)", 1, 40),
            "(intermediate value).map is not a function"
        );
        assert_eq!(
            at("items.forEach((x) => x)", 1, 16),
            "items.forEach is not a function"
        );
        assert_eq!(at("(x => x)", 1, 2), "not a function");
        assert_eq!(translate_message("not a function", None), "not a function");
    }

    #[test]
    fn messages_v8_already_shares_pass_through() {
        for m in [
            "undefinedVariable is not defined",
            "Expected property name or '}' in JSON at position 1 (line 1 column 2)",
            "Unexpected end of JSON input",
            "boom",
        ] {
            assert_eq!(translate_message(m, None), m);
        }
    }

    #[test]
    fn other_runtime_messages_read_as_v8() {
        assert_eq!(
            translate_message("'x' is read-only", None),
            "Assignment to constant variable."
        );
        assert_eq!(
            translate_message("x is not initialized", None),
            "Cannot access 'x' before initialization"
        );
        assert_eq!(
            translate_message("unexpected token: 'x'", None),
            "Unexpected token 'x', \"x\" is not valid JSON"
        );
        assert_eq!(
            translate_rendered("TypeError: cannot read property 'a' of null"),
            "TypeError: Cannot read properties of null (reading 'a')"
        );
        assert_eq!(translate_rendered("plain: text"), "plain: text");
        assert_eq!(
            translate_message("toPrimitive", None),
            "Cannot convert object to primitive value"
        );
        assert_eq!(
            translate_message("empty array", None),
            "Reduce of empty array with no initial value"
        );
        assert_eq!(
            translate_message("this is not initialized", None),
            "Must call super constructor in derived class before accessing 'this' or returning from derived constructor"
        );
        assert_eq!(
            translate_rendered("URIError: expecting hex digit"),
            "URIError: URI malformed"
        );
        assert_eq!(
            translate_rendered("Error: expecting hex digit"),
            "Error: expecting hex digit"
        );
    }

    #[test]
    fn syntax_errors_name_the_unexpected_token() {
        assert_eq!(
            translate_syntax_error(
                "variable name expected",
                "async () => { const class = 1 }",
                1,
                21
            ),
            "Unexpected token 'class'"
        );
        assert_eq!(
            translate_syntax_error("class statement requires a name", "class {", 1, 7),
            "Unexpected token '{'"
        );
        assert_eq!(
            translate_syntax_error(
                "unexpected token in expression: ''",
                "async () => 1 +",
                1,
                16
            ),
            "Unexpected end of input"
        );
        assert_eq!(
            translate_syntax_error("unexpected end of string", "'a", 1, 1),
            "Invalid or unexpected token"
        );
        assert_eq!(
            translate_syntax_error("expecting ';'", "a\nlet b = foo bar", 2, 13),
            "Unexpected identifier 'bar'"
        );
    }
}
