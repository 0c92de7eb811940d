//! Splitting a program's leading static `import` declarations off its body.
//!
//! The entry form is an arrow expression optionally preceded by static imports. Imports are
//! legal at module scope only, so an executor keeps them ahead of whatever wraps the arrow.

/// Splits `code` into its leading static import declarations and the rest.
///
/// Guarantees: `imports + body == code` (the split is at one byte index); `imports` holds
/// only whole import declarations plus the whitespace and comments around them; a dynamic
/// `import(...)` or `import.meta` is never taken for a declaration. The scan is lexical and
/// never fails: text it does not recognise as an import ends the import block.
pub fn separate_imports(code: &str) -> (String, String) {
    let bytes = code.as_bytes();
    let mut split = 0;
    let mut pos = 0;
    loop {
        pos = skip_trivia(bytes, pos);
        match import_declaration_end(bytes, pos) {
            Some(end) => {
                split = end;
                pos = end;
            }
            None => break,
        }
    }
    // Keep the whitespace right after the last import (up to the line end) with the imports.
    (code[..split].to_string(), code[split..].to_string())
}

/// Skips whitespace and comments.
fn skip_trivia(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if bytes[pos..].starts_with(b"//") {
            while pos < bytes.len() && bytes[pos] != b'\n' {
                pos += 1;
            }
        } else if bytes[pos..].starts_with(b"/*") {
            match find(bytes, pos + 2, b"*/") {
                Some(end) => pos = end + 2,
                None => return bytes.len(),
            }
        } else {
            return pos;
        }
    }
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..bytes.len()).find(|&i| bytes[i..].starts_with(needle))
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Where the import declaration starting at `pos` ends (after its optional `;`), if one
/// starts there.
fn import_declaration_end(bytes: &[u8], pos: usize) -> Option<usize> {
    if !bytes[pos..].starts_with(b"import") {
        return None;
    }
    let after = pos + "import".len();
    if bytes.get(after).is_some_and(|&b| is_ident_byte(b)) {
        return None;
    }
    let next = skip_trivia(bytes, after);
    match bytes.get(next) {
        // `import(...)` and `import.meta` are expressions, not declarations.
        Some(b'(') | Some(b'.') | None => return None,
        _ => {}
    }
    // Scan to the module specifier: the first string literal outside braces.
    let mut i = next;
    let mut depth = 0usize;
    let specifier_end = loop {
        i = skip_trivia(bytes, i);
        let b = *bytes.get(i)?;
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.checked_sub(1)?,
            b'\'' | b'"' => {
                let end = string_end(bytes, i)?;
                if depth == 0 {
                    break end;
                }
                i = end;
                continue;
            }
            b';' | b'(' | b')' | b'=' => return None,
            _ => {}
        }
        i += 1;
    };
    // Optional import attributes: `with { ... }` (or the legacy `assert { ... }`).
    let mut end = specifier_end;
    let j = skip_trivia(bytes, end);
    for keyword in [&b"with"[..], &b"assert"[..]] {
        if bytes[j..].starts_with(keyword)
            && !bytes
                .get(j + keyword.len())
                .is_some_and(|&b| is_ident_byte(b))
        {
            let k = skip_trivia(bytes, j + keyword.len());
            if bytes.get(k) == Some(&b'{') {
                let close = find(bytes, k, b"}")?;
                end = close + 1;
            }
        }
    }
    // An optional semicolon on the same statement.
    let j = skip_trivia(bytes, end);
    if bytes.get(j) == Some(&b';') {
        end = j + 1;
    }
    Some(end)
}

/// The index just past the string literal opening at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return Some(i + 1),
            b'\n' => return None,
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::separate_imports;

    fn split(code: &str) -> (String, String) {
        let (imports, body) = separate_imports(code);
        assert_eq!(format!("{imports}{body}"), code);
        (imports, body)
    }

    #[test]
    fn no_imports_leaves_the_body_whole() {
        assert_eq!(
            split("async () => 1"),
            (String::new(), "async () => 1".into())
        );
    }

    #[test]
    fn leading_imports_of_every_shape_are_split_off() {
        let code = "import { a, b as c } from 'lib.js';\nimport d from \"d.js\"\n// note\nimport * as ns from 'ns.js'\nimport 'side.js';\nimport j from 'j.json' with { type: 'json' };\nasync () => a";
        let (imports, body) = split(code);
        assert!(imports.ends_with("with { type: 'json' };"), "{imports}");
        assert_eq!(body, "\nasync () => a");
    }

    #[test]
    fn dynamic_import_and_import_meta_are_not_declarations() {
        assert_eq!(split("import('x.js')").0, "");
        assert_eq!(split("import.meta").0, "");
        assert_eq!(split("importer()").0, "");
    }

    #[test]
    fn string_names_inside_braces_do_not_end_the_declaration() {
        let (imports, body) = split("import { \"a b\" as c } from 'm.js'\nasync () => c");
        assert_eq!(imports, "import { \"a b\" as c } from 'm.js'");
        assert_eq!(body, "\nasync () => c");
    }

    #[test]
    fn unterminated_imports_stay_in_the_body() {
        assert_eq!(split("import { a from").0, "");
    }
}
