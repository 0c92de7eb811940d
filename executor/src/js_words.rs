//! The words JavaScript reserves, in the named sets each rule of the executor needs.
//!
//! Three rules read these words, each through a union of its own: the identifier a tool is
//! exposed under (`dialect::tool_name`, the reference's `sanitizeToolName` set), the names a
//! provider or connector may not take (`dialect::validation`), and V8's wording of a syntax
//! error at an unexpected word (`isolate`). The sets are disjoint, so each union is the sum of
//! its parts, and [`concat`] builds it at compile time.

/// The language's keywords, `null`, `true` and `false` included: V8 reports one where it does
/// not belong as `Unexpected token '<word>'`.
pub const KEYWORDS: [&str; 35] = [
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

/// Reserved in module code, where the sandbox's program runs: V8 says
/// `Unexpected reserved word`.
pub const MODULE_RESERVED: [&str; 2] = ["await", "enum"];

/// Reserved in strict code only: V8 says `Unexpected strict mode reserved word`.
pub const STRICT_RESERVED: [&str; 9] = [
    "let",
    "static",
    "yield",
    "implements",
    "interface",
    "package",
    "private",
    "protected",
    "public",
];

/// The future-reserved words of ECMAScript editions 1 to 3, free since ES5 but still in the
/// reference's tool-name set.
pub const OLD_FUTURE_RESERVED: [&str; 16] = [
    "abstract",
    "boolean",
    "byte",
    "char",
    "double",
    "final",
    "float",
    "goto",
    "int",
    "long",
    "native",
    "short",
    "synchronized",
    "throws",
    "transient",
    "volatile",
];

/// The names strict code may not bind.
pub const RESTRICTED: [&str; 2] = ["eval", "arguments"];

/// The sets in `parts` one after another, as one array of exactly `N` words (a compile-time
/// error when the lengths do not add up to `N`).
pub const fn concat<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut at = 0;
    let mut part = 0;
    while part < parts.len() {
        let words = parts[part];
        let mut i = 0;
        while i < words.len() {
            out[at] = words[i];
            at += 1;
            i += 1;
        }
        part += 1;
    }
    assert!(at == N, "the parts do not add up to the array's length");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sets_are_disjoint() {
        let all: [&str; 64] = concat(&[
            &KEYWORDS,
            &MODULE_RESERVED,
            &STRICT_RESERVED,
            &OLD_FUTURE_RESERVED,
            &RESTRICTED,
        ]);
        let mut sorted = all.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
    }
}
