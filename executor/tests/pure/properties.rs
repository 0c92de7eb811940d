//! Property tests of the pure parts: the codec, output normalization and tool names.
//!
//! Case counts keep each property to a few seconds; `PROPTEST_CASES` raises them for a
//! longer search.

use codemode_executor::dialect::{normalize_code, sanitize_tool_name, tool_name};
use codemode_executor::protocol::{
    Binary, BinaryKind, JsString, JsValue, decode_codec_json, encode_codec_json,
    lone_surrogates_as_text,
};
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Any string JavaScript can hold: UTF-16 code units, lone surrogates included.
fn js_string() -> impl Strategy<Value = JsString> {
    let unit = prop_oneof![
        4 => 0x20u16..0x7F,
        1 => 0u16..0x20,
        1 => 0xD800u16..0xE000,
        1 => any::<u16>(),
        1 => Just(b'\\' as u16),
        1 => Just(b'"' as u16),
    ];
    prop::collection::vec(unit, 0..12).prop_map(|units| JsString::from_utf16(&units))
}

/// A value the codec carries both ways: what `JSON.parse` with the binary reviver can give
/// (numbers finite, binary as `Uint8Array` or `ArrayBuffer`).
fn codec_value() -> impl Strategy<Value = JsValue> {
    let leaf = prop_oneof![
        Just(JsValue::Null),
        any::<bool>().prop_map(JsValue::Bool),
        (-1e6f64..1e6).prop_map(|n| JsValue::Number(n.trunc())),
        any::<f64>()
            .prop_filter("finite", |n| n.is_finite())
            .prop_map(|n| JsValue::Number(if n == 0.0 { 0.0 } else { n })),
        js_string().prop_map(JsValue::String),
        (
            prop_oneof![Just(BinaryKind::Uint8Array), Just(BinaryKind::ArrayBuffer)],
            prop::collection::vec(any::<u8>(), 0..16)
        )
            .prop_map(|(kind, bytes)| JsValue::Binary(Binary { kind, bytes })),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(JsValue::Array),
            prop::collection::vec((js_string(), inner), 0..6).prop_map(|entries| {
                // Keys are unique in an object; integer-like keys would be reordered by
                // JavaScript, which the value tree does not model.
                let mut unique: Vec<(JsString, JsValue)> = Vec::new();
                for (key, value) in entries {
                    let numeric = key.as_str().is_some_and(|k| k.parse::<u32>().is_ok());
                    if !numeric && !unique.iter().any(|(k, _)| *k == key) {
                        unique.push((key, value));
                    }
                }
                JsValue::Object(unique)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(config(512))]

    /// Every value the codec carries reads back unchanged, lone surrogates and binary
    /// included.
    #[test]
    fn codec_round_trips_value_trees(value in codec_value()) {
        let text = encode_codec_json(&value).unwrap().expect("a defined value encodes");
        prop_assert_eq!(decode_codec_json(&text).unwrap(), value);
    }

    /// A string keeps its UTF-16 code units through WTF-8 and back.
    #[test]
    fn strings_keep_every_code_unit(units in prop::collection::vec(any::<u16>(), 0..24)) {
        let string = JsString::from_utf16(&units);
        prop_assert_eq!(string.to_utf16(), units);
        prop_assert_eq!(JsString::from_wtf8(string.as_wtf8().to_vec()), Some(string.clone()));
    }

    /// The codec's JSON is what serde_json reads once lone surrogates are in the text form,
    /// and the text form is the string itself when it is well formed.
    #[test]
    fn codec_json_reads_as_the_text_form(string in js_string()) {
        let text = encode_codec_json(&JsValue::String(string.clone())).unwrap().unwrap();
        let read: String = serde_json::from_str(&lone_surrogates_as_text(&text)).unwrap();
        prop_assert_eq!(&read, &*string.to_text());
        if let Some(well_formed) = string.as_str() {
            prop_assert_eq!(read.as_str(), well_formed);
        }
    }

    /// Arbitrary text never panics the decoder.
    #[test]
    fn decoding_arbitrary_text_never_panics(text in "\\PC{0,40}|[\\[\\]{}\",:0-9a-z\\\\ ]{0,40}") {
        let _ = decode_codec_json(&text);
    }
}

/// JavaScript-shaped fragments, so normalization meets arrows, statements, declarations,
/// exports, fences and broken code, not only noise.
fn program() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("async () => 42".to_string()),
        Just("() => { return 1 }".to_string()),
        Just("1 + 2".to_string()),
        Just("const a = 40".to_string()),
        Just("let b = [1, 2]".to_string()),
        Just("a + 2".to_string()),
        Just("await codemode.search({ q: 'x' })".to_string()),
        Just("if (a) { a += 1 }".to_string()),
        Just("return 6 * 7".to_string()),
        Just("function run() { return 42 }".to_string()),
        Just("async function go() { return 1 }".to_string()),
        Just("export default async () => 42".to_string()),
        Just("export default function () { return 1 }".to_string()),
        Just("export default class {}".to_string()),
        Just("class A {}".to_string()),
        Just("({ a: 1 })".to_string()),
        Just("'use strict'".to_string()),
        Just("// comment".to_string()),
        Just("/* block */".to_string()),
        Just("const = broken".to_string()),
        Just("import { x } from 'lib.js'".to_string()),
        "[a-z0-9 +*()={};\\n]{0,12}",
    ];
    (
        prop::collection::vec(piece, 0..5),
        prop_oneof![Just("\n"), Just(";\n"), Just("; "), Just("\r\n")],
        prop_oneof![Just(""), Just("```js\n"), Just("```\n"), Just("  ")],
    )
        .prop_map(|(pieces, separator, fence)| {
            let body = pieces.join(separator);
            if fence.starts_with("```") {
                format!("{fence}{body}\n```")
            } else {
                format!("{fence}{body}")
            }
        })
}

/// Whether `code` parses as a module.
fn parses(code: &str) -> bool {
    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, code, oxc_span::SourceType::mjs()).parse();
    !parsed.panicked && !parsed.diagnostics.has_errors()
}

/// Whether `code` is, after its leading imports, a single arrow function expression.
fn is_lone_arrow(code: &str) -> bool {
    use oxc_ast::ast::{Expression, Statement};
    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, code, oxc_span::SourceType::mjs()).parse();
    let body: Vec<&Statement> = parsed
        .program
        .body
        .iter()
        .filter(|s| !matches!(s, Statement::ImportDeclaration(_)))
        .collect();
    matches!(
        body.as_slice(),
        [Statement::ExpressionStatement(e)] if matches!(e.expression, Expression::ArrowFunctionExpression(_))
    )
}

/// Whether `code` parses as a module and passes the early errors (an `export` inside a
/// function, a duplicate declaration) that the parser alone lets through.
fn parses_strictly(code: &str) -> bool {
    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, code, oxc_span::SourceType::mjs()).parse();
    if parsed.panicked || parsed.diagnostics.has_errors() {
        return false;
    }
    let semantic = oxc_semantic::SemanticBuilder::new()
        .with_check_syntax_error(true)
        .build(&parsed.program);
    semantic.diagnostics.is_empty()
}

proptest! {
    #![proptest_config(config(256))]

    /// Normalizing an output that is valid JavaScript returns it unchanged; only an output
    /// that wraps code which cannot run (a syntax error, an `export` inside the arrow) is
    /// wrapped again, as the reference's is.
    #[test]
    fn normalized_output_is_a_fixed_point(code in program()) {
        let once = normalize_code(&code);
        let twice = normalize_code(&once);
        if twice != once {
            // As upstream's normalizeCode does, an output that is not a lone arrow (garbage wrapped,
            // such as `}\n{`, can parse as an arrow and a block) is wrapped again.
            prop_assert!(
                !parses_strictly(&once) || !is_lone_arrow(&once),
                "a valid output moved: {:?} -> {:?} (from {:?})", once, twice, code
            );
            // Leading comments stay where they were, before the imports and the wrapper.
            let after_comments: Vec<&str> = twice
                .lines()
                .skip_while(|line| line.starts_with("//") || line.starts_with("/*"))
                .collect();
            let head = after_comments.join("\n");
            prop_assert!(head.starts_with("async () => {\n") || head.starts_with("import"), "{:?}", twice);
        }
    }

    /// Any text at all: normalization is total.
    #[test]
    fn normalization_never_panics(code in "\\PC{0,60}") {
        let _ = normalize_code(&code);
    }

    /// A tool name always becomes an identifier that is not a reserved word.
    #[test]
    fn sanitized_names_are_identifiers(name in "\\PC{0,16}|[a-z0-9_$. \\t-]{0,12}") {
        let sanitized = sanitize_tool_name(&name);
        let mut chars = sanitized.chars();
        let first = chars.next().expect("never empty");
        prop_assert!(first.is_ascii_alphabetic() || first == '_' || first == '$', "{:?} -> {:?}", name, sanitized);
        prop_assert!(chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$'), "{:?} -> {:?}", name, sanitized);
        prop_assert!(!tool_name::TOOL_NAME_RESERVED_WORDS.contains(&sanitized.as_str()), "{:?} -> {:?}", name, sanitized);
        prop_assert!(parses(&format!("const {sanitized} = 1;")), "{:?} -> {:?} is not a binding", name, sanitized);
    }

    /// Every reserved word itself, with noise around it, still lands outside the list.
    #[test]
    fn reserved_words_never_survive(
        index in 0..tool_name::TOOL_NAME_RESERVED_WORDS.len(),
        prefix in "[-. ]{0,2}",
        suffix in "[-. ]{0,2}|[^a-zA-Z0-9_$]{0,2}",
    ) {
        let word = tool_name::TOOL_NAME_RESERVED_WORDS[index];
        let sanitized = sanitize_tool_name(&format!("{prefix}{word}{suffix}"));
        prop_assert!(!tool_name::TOOL_NAME_RESERVED_WORDS.contains(&sanitized.as_str()));
    }
}
