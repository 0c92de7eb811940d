//! V8's rendering of an expression inside an error message (its `CallPrinter`), computed
//! from the program's source text: `m.get(...)`, `o.f`, `(intermediate value).map`, `5`.
//!
//! V8 prints the expression at the throw position as written, normalized: a call's arguments
//! become `(...)`, a string key that is a name becomes `.name`, anything it does not print
//! (a parenthesized expression, an `await`, a function) becomes `(intermediate value)`. The
//! engine does not keep the source of an expression, so the isolate renders it here from the
//! source and the position QuickJS reports.

/// V8's rendering of `text`, one expression's source; `None` where the text is not an
/// expression this renderer knows (the caller keeps the engine's own text then).
pub(super) fn render(text: &str) -> Option<String> {
    let mut parser = Parser {
        bytes: text.trim().as_bytes(),
        at: 0,
        last_was_call: false,
    };
    let rendered = parser.chain()?;
    parser.skip_space();
    (parser.at == parser.bytes.len()).then_some(rendered)
}

/// Whether `text`, one expression's source, ends in a call (`m.get('x')`).
pub(super) fn is_call(text: &str) -> bool {
    let mut parser = Parser {
        bytes: text.trim().as_bytes(),
        at: 0,
        last_was_call: false,
    };
    parser.chain().is_some() && parser.last_was_call
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Whether the chain parsed last ended in a call.
    last_was_call: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn name(&mut self) -> Option<&str> {
        let start = self.at;
        while self.peek().is_some_and(is_name_byte) {
            self.at += 1;
        }
        let name = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
        (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit()).then_some(name)
    }

    /// The text up to the bracket closing the one at `self.at`, skipping strings.
    fn balanced(&mut self) -> Option<&str> {
        let open = self.peek()?;
        let close = match open {
            b'(' => b')',
            b'[' => b']',
            b'{' => b'}',
            _ => return None,
        };
        let start = self.at + 1;
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'\'' | b'"' | b'`' => {
                    self.string()?;
                    continue;
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if b != close {
                            return None;
                        }
                        self.at += 1;
                        return std::str::from_utf8(&self.bytes[start..self.at - 1]).ok();
                    }
                }
                _ => {}
            }
            self.at += 1;
        }
        None
    }

    /// A string literal's contents (no escapes beyond skipping them).
    fn string(&mut self) -> Option<&str> {
        let quote = self.peek()?;
        let start = self.at + 1;
        self.at += 1;
        while let Some(b) = self.peek() {
            self.at += 1;
            if b == b'\\' {
                self.at += 1;
            } else if b == quote {
                return std::str::from_utf8(&self.bytes[start..self.at - 1]).ok();
            }
        }
        None
    }

    fn primary(&mut self) -> Option<String> {
        self.skip_space();
        let b = self.peek()?;
        match b {
            b'(' => {
                // V8 prints a parenthesized expression as the expression (`(42)()`: `42 is
                // not a function`), and what it does not print as an intermediate value.
                let inner = self.balanced()?;
                Some(render(inner).unwrap_or_else(|| "(intermediate value)".into()))
            }
            b'\'' | b'"' => {
                let text = self.string()?;
                Some(format!("\"{text}\""))
            }
            b'`' => {
                // A template without substitutions prints as the string it makes.
                let text = self.string()?;
                if text.contains("${") {
                    return None;
                }
                Some(format!("\"{text}\""))
            }
            b'[' => {
                // An array literal: its elements as V8 prints them, joined by `,`.
                let body = self.balanced()?;
                let elements: Vec<String> = split_top_level(body)
                    .into_iter()
                    .filter(|e| !e.trim().is_empty())
                    .map(|e| render(e).unwrap_or_else(|| "(intermediate value)".into()))
                    .collect();
                Some(format!("[{}]", elements.join(",")))
            }
            b'{' => {
                // An object literal: an intermediate value for each property.
                let body = self.balanced()?;
                let properties = split_top_level(body)
                    .into_iter()
                    .filter(|p| !p.trim().is_empty())
                    .count();
                Some(format!("{{{}}}", "(intermediate value)".repeat(properties)))
            }
            b'0'..=b'9' | b'.' => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_')
                {
                    self.at += 1;
                }
                let literal = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
                // A BigInt literal is a value V8 does not print.
                if literal.ends_with('n') && !literal.starts_with("0x") {
                    return Some("(intermediate value)".into());
                }
                let value: f64 = literal.replace('_', "").parse().ok()?;
                Some(number(value))
            }
            _ => {
                let name = self.name()?.to_string();
                match name.as_str() {
                    "await" | "new" | "function" | "class" | "async" | "typeof" | "void"
                    | "delete" | "yield" => None,
                    // V8 prints the home object of `super.x` as a value it does not name.
                    "super" => Some("(intermediate value)".into()),
                    _ => Some(name),
                }
            }
        }
    }

    /// A private name after a `.` (`o.#x`), which V8 prints as a key: `[#x]`.
    fn private_name(&mut self) -> Option<String> {
        if self.peek() != Some(b'#') {
            return None;
        }
        self.at += 1;
        Some(format!("[#{}]", self.name()?))
    }

    /// A member chain: a primary, then `.name`, `?.name`, `[key]` and calls.
    fn chain(&mut self) -> Option<String> {
        let mut out = self.primary()?;
        self.last_was_call = false;
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'.') => {
                    self.at += 1;
                    self.skip_space();
                    if let Some(name) = self.private_name() {
                        out.push_str(&name);
                    } else {
                        out.push('.');
                        out.push_str(self.name()?);
                    }
                    self.last_was_call = false;
                }
                Some(b'?') if self.bytes.get(self.at + 1) == Some(&b'.') => {
                    self.at += 2;
                    self.skip_space();
                    match self.peek() {
                        Some(b'(') => {
                            self.balanced()?;
                            out.push_str("?.(...)");
                            self.last_was_call = true;
                        }
                        Some(b'[') => {
                            let key = self.balanced()?.to_string();
                            out.push_str("?.");
                            out.push_str(&index(&key)?);
                            self.last_was_call = false;
                        }
                        _ => {
                            out.push_str("?.");
                            match self.private_name() {
                                Some(name) => out.push_str(&name),
                                None => out.push_str(self.name()?),
                            }
                            self.last_was_call = false;
                        }
                    }
                }
                Some(b'[') => {
                    let key = self.balanced()?.to_string();
                    out.push_str(&index(&key)?);
                    self.last_was_call = false;
                }
                Some(b'(') => {
                    self.balanced()?;
                    out.push_str("(...)");
                    self.last_was_call = true;
                }
                _ => return Some(out),
            }
        }
    }
}

/// `text` split at its commas outside brackets and strings.
fn split_top_level(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'\'' | b'"' | b'`') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&text[start..]);
    parts
}

/// A computed key as V8 prints it: `.name` for a string that is a name, `[k]` otherwise.
fn index(key: &str) -> Option<String> {
    let key = key.trim();
    let quoted = key.len() >= 2
        && (key.starts_with('\'') || key.starts_with('"'))
        && key.ends_with(&key[..1]);
    if quoted {
        let inner = &key[1..key.len() - 1];
        if !inner.is_empty()
            && inner.bytes().all(is_name_byte)
            && !inner.as_bytes()[0].is_ascii_digit()
        {
            return Some(format!(".{inner}"));
        }
    }
    Some(format!("[{}]", render(key)?))
}

pub(super) fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// A number as JavaScript prints it (integral values without a fraction).
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e21 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_expressions_as_v8s_call_printer_does() {
        // A private name prints as a key (measured on reference@0.5.6).
        assert_eq!(render("o.#f").as_deref(), Some("o[#f]"));
        assert_eq!(render("this.#f").as_deref(), Some("this[#f]"));
        assert_eq!(render("o.x.#f").as_deref(), Some("o.x[#f]"));
        assert_eq!(render("o?.#f").as_deref(), Some("o?.[#f]"));
        assert_eq!(render("m.get('x')").as_deref(), Some("m.get(...)"));
        assert_eq!(render("o [ 'f' ]").as_deref(), Some("o.f"));
        assert_eq!(
            render("t[Symbol.iterator]").as_deref(),
            Some("t[Symbol.iterator]")
        );
        assert_eq!(
            render("(await x()).items").as_deref(),
            Some("(intermediate value).items")
        );
        assert_eq!(render("5").as_deref(), Some("5"));
        assert_eq!(render("[1, 2]").as_deref(), Some("[1,2]"));
        assert_eq!(render("[]").as_deref(), Some("[]"));
        assert_eq!(render("10n").as_deref(), Some("(intermediate value)"));
        assert_eq!(render("a?.b").as_deref(), Some("a?.b"));
        assert_eq!(render("a + b"), None);
        assert_eq!(render("(42)").as_deref(), Some("42"));
        assert_eq!(render("(o).p").as_deref(), Some("o.p"));
        assert_eq!(render("({})").as_deref(), Some("{}"));
        assert_eq!(render("(`t`)").as_deref(), Some("\"t\""));
        assert_eq!(render("(1, 2)").as_deref(), Some("(intermediate value)"));
        assert_eq!(render("await f()"), None);
        assert!(is_call("m.get('x')"));
        assert!(!is_call("m.get"));
    }
}
