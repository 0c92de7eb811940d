//! The syntax-error texts the patched engine words as V8 does by the rule a program broke (the
//! engine patches `0210`–`0224`, vendor/README.md): an invalid assignment target, a misplaced
//! `super`, a class element that may not be, a declaration as a statement's body, a reserved word
//! where a name is wanted, a misused `import()`, a loop's head, a parameter list, a malformed
//! numeric literal or escape, an operator's operand; and (patch `0320`) a regular expression
//! literal's escaped flag; (patches `0340`–`0342`) an object literal's or pattern's property,
//! a for head's bindings, a statement's clauses and labels, an arrow after what cannot be its
//! parameters. Such a text names the construct, which the token at the error's
//! position would not, so the executor passes it through as the engine made it rather than
//! rewording it from that token.

/// The texts, whole.
const TEXTS: &[&str] = &[
    "Invalid destructuring assignment target",
    "Rest element must be last element",
    "Unexpected eval or arguments in strict mode",
    "Invalid left-hand side in assignment",
    "Invalid left-hand side in for-loop",
    "Invalid left-hand side expression in postfix operation",
    "Invalid left-hand side expression in prefix operation",
    "Private fields can not be deleted",
    "'super' keyword unexpected here",
    "Classes may not have a static property named 'prototype'",
    "Classes may not have a field named 'constructor'",
    "A class may only have one constructor",
    "'arguments' is not allowed in class field initializer or static initialization block",
    "Lexical declaration cannot appear in a single-statement context",
    "In strict mode code, functions can only be declared at top level or inside a block.",
    "In non-strict mode code, functions can only be declared at top level, inside a block, or as the body of an if statement.",
    "Async functions can only be declared at the top level or inside a block.",
    "Generators can only be declared at the top level or inside a block.",
    "Unexpected strict mode reserved word",
    "Unexpected reserved word",
    "Keyword must not contain escaped characters",
    "Cannot use new with import",
    "import() requires a specifier",
    "for-in loop variable declaration may not have an initializer.",
    "for-of loop variable declaration may not have an initializer.",
    "for-await-of loop variable declaration may not have an initializer.",
    "Invalid 'using' in for-in loop",
    "The left-hand side of a for-of loop may not be 'async'.",
    "Invalid left-hand side in for-await-of loop: Must have a single binding.",
    "Rest parameter must be last formal parameter",
    "Rest parameter may not have a default initializer",
    "Setter function argument must not be a rest parameter",
    "Getter must not have any formal parameters.",
    "Setter must have exactly one formal parameter.",
    "Numeric separator can not be used after leading 0.",
    "Only one underscore is allowed as numeric separator",
    "Numeric separators are not allowed at the end of numeric literals",
    "Decimals with leading zeros are not allowed in strict mode.",
    "Octal literals are not allowed in strict mode.",
    "Invalid Unicode escape sequence",
    "Invalid hexadecimal escape sequence",
    "Octal escape sequences are not allowed in strict mode.",
    "Octal escape sequences are not allowed in template strings.",
    "\\8 and \\9 are not allowed in strict mode.",
    "\\8 and \\9 are not allowed in template strings.",
    "Yield expression not allowed in formal parameter",
    "Illegal await-expression in formal parameters of async function",
    "Unary operator used immediately before exponentiation expression. Parenthesis must be used to disambiguate operator precedence",
    "Invalid tagged template on optional chain",
    "Function statements require a function name",
    "Unexpected private field",
    "Invalid regular expression flags",
    "Invalid left-hand side in for-in loop: Must have a single binding.",
    "Invalid left-hand side in for-of loop: Must have a single binding.",
    "Invalid shorthand property initializer",
    "Duplicate __proto__ fields are not allowed in object literals",
    "Missing catch or finally after try",
    "More than one default clause in switch statement",
    "'new.target' must not contain escaped characters",
    "Malformed arrow function parameter list",
];

/// The texts that open with a fixed part and name the element after it.
const PREFIXES: &[&str] = &["Class constructor may not be ", "Label '"];

/// Whether the engine already worded `message` as V8 does, by the rule broken.
pub(super) fn worded_by_rule(message: &str) -> bool {
    TEXTS.contains(&message) || PREFIXES.iter().any(|p| message.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::worded_by_rule;

    #[test]
    fn a_rule_text_is_known_and_a_quickjs_text_is_not() {
        assert!(worded_by_rule("Rest element must be last element"));
        assert!(worded_by_rule("Class constructor may not be an accessor"));
        assert!(!worded_by_rule("rest element must be the last one"));
        assert!(!worded_by_rule("Unexpected token '='"));
    }
}
