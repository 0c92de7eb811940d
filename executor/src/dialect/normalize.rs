//! Raw model output to a runnable arrow: a port of the reference's `normalizeCode` (0.1.3 to
//! 0.5.6, byte-identical across them), plus this executor's import extension.
//!
//! The reference parses with acorn (`ecmaVersion: "latest"`, `sourceType: "module"`); this
//! port parses with `oxc_parser` and runs `oxc_semantic`'s syntax checks, which together
//! accept what acorn accepts, and refuses the three proposals oxc takes that acorn does not
//! (decorators, `import defer` and `import source`). Acorn's offsets are UTF-16 indices into a
//! JavaScript string and oxc's are UTF-8 byte offsets into a Rust `&str`; each slices its own
//! string, so the pieces are the same.

use oxc_allocator::Allocator;
use oxc_ast::AstKind;
use oxc_ast::ast::{ExportDefaultDeclarationKind, Expression, Program, Statement};
use oxc_parser::{ParseOptions, Parser};
use oxc_semantic::SemanticBuilder;
use oxc_span::{GetSpan, SourceType, Span};

use super::tool_name::is_js_whitespace;
use crate::protocol::separate_imports;

/// What an empty program normalizes to.
pub const EMPTY_ARROW: &str = "async () => {}";

/// The arrow the native executor runs for a piece of raw model output.
///
/// Exactly the reference's `normalizeCode`, except for one deliberate extension: leading
/// static import declarations stay ahead of the arrow, since an import is legal at module
/// scope only. When the trimmed, unfenced source starts with one or more import declarations
/// (as [`separate_imports`] finds them, the same split the native executor makes), the result
/// is the import block as written (comments ahead of it included), a newline, and the
/// reference's normalization of the rest.
///
/// Guarantees: the function is total (never panics, a parse failure wraps), and every output
/// that parses is a fixed point: normalizing it again returns it unchanged (an output that
/// wraps broken code is wrapped again, as the reference's is).
pub fn normalize_code(code: &str) -> String {
    let source = js_trim(strip_code_fences(js_trim(code)));
    let (imports, body) = separate_imports(source);
    if imports.is_empty() {
        return normalize_code_upstream(code);
    }
    format!("{imports}\n{}", normalize_code_upstream(&body))
}

/// The reference's `normalizeCode`, without this executor's import extension.
///
/// 1. trim, and strip one markdown fence when it wraps the whole string;
/// 2. nothing left gives `async () => {}`;
/// 3. a program that is a lone arrow expression passes through;
/// 4. a lone `export default` of an anonymous function gives `return (<fn>)();`, of an
///    anonymous class `return (<class>);`, of anything else the normalization of what it
///    exports;
/// 5. a lone named function declaration is declared and called;
/// 6. a last expression statement gets `return (...)` spliced around its expression;
/// 7. anything else, a parse failure included, is wrapped in `async () => {\n...\n}`.
pub fn normalize_code_upstream(code: &str) -> String {
    let trimmed = strip_code_fences(js_trim(code));
    let source = js_trim(trimmed);
    if source.is_empty() {
        return EMPTY_ARROW.into();
    }
    let wrapped = || format!("async () => {{\n{source}\n}}");
    let allocator = Allocator::default();
    let Some(program) = parse_module(&allocator, source) else {
        return wrapped();
    };
    let statements = top_level_statements(&program);
    if let [only] = statements.as_slice() {
        match only {
            TopLevel::Expression { is_arrow: true, .. } => return source.into(),
            TopLevel::Statement(Statement::ExportDefaultDeclaration(export)) => {
                let declaration = &export.declaration;
                let inner = slice(source, declaration.span());
                return match declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(function)
                        if function.id.is_none() =>
                    {
                        format!("async () => {{\nreturn ({inner})();\n}}")
                    }
                    ExportDefaultDeclarationKind::ClassDeclaration(class) if class.id.is_none() => {
                        format!("async () => {{\nreturn ({inner});\n}}")
                    }
                    _ => normalize_code_upstream(inner),
                };
            }
            TopLevel::Statement(Statement::FunctionDeclaration(function)) => {
                let name = function.id.as_ref().map_or("fn", |id| id.name.as_str());
                return format!("async () => {{\n{source}\nreturn {name}();\n}}");
            }
            _ => {}
        }
    }
    if let Some(TopLevel::Expression {
        statement,
        expression,
        ..
    }) = statements.last()
    {
        let head = &source[..statement.start as usize];
        let body = slice(source, *expression);
        return format!("async () => {{\n{head}return ({body})\n}}");
    }
    wrapped()
}

/// One top-level statement as acorn lists them: a directive prologue entry is an expression
/// statement there, while oxc keeps it apart in `program.directives`.
enum TopLevel<'p, 'a> {
    Expression {
        statement: Span,
        expression: Span,
        is_arrow: bool,
    },
    Statement(&'p Statement<'a>),
}

fn top_level_statements<'p, 'a>(program: &'p Program<'a>) -> Vec<TopLevel<'p, 'a>> {
    let directives = program.directives.iter().map(|d| TopLevel::Expression {
        statement: d.span,
        expression: d.expression.span,
        is_arrow: false,
    });
    let body = program.body.iter().map(|statement| match statement {
        Statement::ExpressionStatement(expression) => TopLevel::Expression {
            statement: expression.span,
            expression: expression.expression.span(),
            is_arrow: matches!(
                expression.expression,
                Expression::ArrowFunctionExpression(_)
            ),
        },
        other => TopLevel::Statement(other),
    });
    directives.chain(body).collect()
}

/// Parses `source` as acorn would parse a module (`ecmaVersion: "latest"`). `None` where
/// acorn would throw.
fn parse_module<'a>(allocator: &'a Allocator, source: &'a str) -> Option<Program<'a>> {
    let options = ParseOptions {
        preserve_parens: false,
        parse_regular_expression: true,
        ..ParseOptions::default()
    };
    let parsed = Parser::new(allocator, source, SourceType::mjs())
        .with_options(options)
        .parse();
    if parsed.panicked || parsed.diagnostics.has_errors() {
        return None;
    }
    // oxc skips U+0085 and U+200B between tokens as whitespace; acorn, following the
    // language, refuses both.
    let foreign_whitespace = parsed.irregular_whitespaces.iter().any(|span| {
        slice(source, *span)
            .chars()
            .any(|c| matches!(c, '\u{0085}' | '\u{200B}'))
    });
    if foreign_whitespace {
        return None;
    }
    let program = parsed.program;
    let semantic = SemanticBuilder::new()
        .with_check_syntax_error(true)
        .with_build_nodes(true)
        .build(&program);
    if semantic.diagnostics.has_errors() {
        return None;
    }
    let beyond_acorn = semantic
        .semantic
        .nodes()
        .iter()
        .any(|node| match node.kind() {
            AstKind::Decorator(_) => true,
            AstKind::ImportDeclaration(import) => import.phase.is_some(),
            AstKind::ImportExpression(import) => import.phase.is_some(),
            _ => false,
        });
    drop(semantic);
    (!beyond_acorn).then_some(program)
}

fn slice(source: &str, span: Span) -> &str {
    &source[span.start as usize..span.end as usize]
}

/// `String.prototype.trim`: strips JavaScript whitespace and line terminators from both ends.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_whitespace)
}

/// The reference's `stripCodeFences`: the content of one markdown fence when the fence wraps
/// the whole string, the string itself otherwise.
///
/// The reference's pattern is ``/^```(?:js|javascript|typescript|ts|tsx|jsx)?\s*\n([\s\S]*?)```\s*$/``:
/// an opening fence with an optional tag, whitespace up to the last line break of that
/// whitespace run, then the shortest content followed by a closing fence and only
/// whitespace to the end of the string.
pub fn strip_code_fences(code: &str) -> &str {
    let Some(after_fence) = code.strip_prefix("```") else {
        return code;
    };
    let tags = ["", "js", "javascript", "typescript", "ts", "tsx", "jsx"];
    for tag in tags {
        let Some(after_tag) = after_fence.strip_prefix(tag) else {
            continue;
        };
        // `\s*\n`, greedy: the content starts after the last line feed of the whitespace run.
        let run = after_tag
            .char_indices()
            .find(|(_, c)| !is_js_whitespace(*c))
            .map_or(after_tag.len(), |(i, _)| i);
        let Some(newline) = after_tag[..run].rfind('\n') else {
            continue;
        };
        let content = &after_tag[newline + 1..];
        // `([\s\S]*?)```\s*$`, lazy: the first closing fence followed only by whitespace.
        let mut from = 0;
        while let Some(found) = content[from..].find("```") {
            let at = from + found;
            if content[at + 3..].chars().all(is_js_whitespace) {
                return &content[..at];
            }
            from = at + 1;
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The design's table, row by row: what the model wrote, what the executor runs.
    const TABLE: [(&str, &str); 11] = [
        ("async () => 42", "async () => 42"),
        ("1 + 2", "async () => {\nreturn (1 + 2)\n}"),
        (
            "const a = 40\na + 2",
            "async () => {\nconst a = 40\nreturn (a + 2)\n}",
        ),
        (
            "let a = 1\nif (a) { a += 1 }",
            "async () => {\nlet a = 1\nif (a) { a += 1 }\n}",
        ),
        ("return 6 * 7", "async () => {\nreturn 6 * 7\n}"),
        (
            "function run() { return 42 }",
            "async () => {\nfunction run() { return 42 }\nreturn run();\n}",
        ),
        ("export default async () => 42", "async () => 42"),
        (
            "export default function () { return 42 }",
            "async () => {\nreturn (function () { return 42 })();\n}",
        ),
        (
            "export default class {}",
            "async () => {\nreturn (class {});\n}",
        ),
        (
            "import { helper } from 'lib.js'\nconst a = helper()\na",
            "import { helper } from 'lib.js'\nasync () => {\nconst a = helper()\nreturn (a)\n}",
        ),
        ("", "async () => {}"),
    ];

    #[test]
    fn the_design_table_holds_row_by_row() {
        for (input, output) in TABLE {
            assert_eq!(normalize_code(input), output, "{input:?}");
        }
    }

    #[test]
    fn every_table_shape_is_a_fixed_point() {
        for (input, _) in TABLE {
            let once = normalize_code(input);
            assert_eq!(normalize_code(&once), once, "{input:?}");
        }
    }

    #[test]
    fn a_fence_around_the_whole_string_is_stripped() {
        let expected = "async () => {\nconst sum = 20 + 22\nreturn (sum)\n}";
        for tag in ["", "js", "javascript", "ts", "typescript", "tsx", "jsx"] {
            let input = format!("```{tag}\nconst sum = 20 + 22\nsum\n```");
            assert_eq!(normalize_code(&input), expected, "{tag}");
        }
        assert_eq!(
            normalize_code("```js\nconsole.warn(\"late\")\n```"),
            "async () => {\nreturn (console.warn(\"late\"))\n}"
        );
        // A fence that does not wrap the whole string stays, and fails to parse.
        assert_eq!(strip_code_fences("```json\n1\n```"), "```json\n1\n```");
        assert_eq!(strip_code_fences("```js 1```"), "```js 1```");
        assert_eq!(strip_code_fences("```\n```"), "");
        assert_eq!(strip_code_fences("```js \n \nx\n```  "), "x\n");
        assert_eq!(strip_code_fences("```\na\n```\nb\n```"), "a\n```\nb\n");
    }

    #[test]
    fn directives_read_as_expression_statements() {
        assert_eq!(normalize_code("'x'"), "async () => {\nreturn ('x')\n}");
        assert_eq!(
            normalize_code("'use strict'; function f() {}"),
            "async () => {\n'use strict'; function f() {}\n}"
        );
        assert_eq!(
            normalize_code("\"a\"\n1"),
            "async () => {\n\"a\"\nreturn (1)\n}"
        );
    }

    #[test]
    fn parens_and_early_errors_follow_acorn() {
        assert_eq!(
            normalize_code("(1 + 2)"),
            "async () => {\nreturn (1 + 2)\n}"
        );
        assert_eq!(normalize_code("(async () => 1)"), "(async () => 1)");
        // Early errors acorn raises wrap the whole source.
        for broken in [
            "let a; let a;",
            "break",
            "with (a) {}",
            "@dec class A {}\n1",
        ] {
            assert_eq!(
                normalize_code(broken),
                format!("async () => {{\n{broken}\n}}"),
                "{broken}"
            );
        }
    }

    #[test]
    fn multibyte_text_slices_by_bytes() {
        assert_eq!(
            normalize_code("const s = '😀é'; s + 'x'"),
            "async () => {\nconst s = '😀é'; return (s + 'x')\n}"
        );
    }

    #[test]
    fn imports_stay_ahead_of_the_arrow() {
        assert_eq!(
            normalize_code("import a from 'a'\nimport { b } from 'b';\nreturn a + b"),
            "import a from 'a'\nimport { b } from 'b';\nasync () => {\nreturn a + b\n}"
        );
        assert_eq!(
            normalize_code("import 'side'"),
            "import 'side'\nasync () => {}"
        );
        // Not leading: the reference's behaviour.
        assert_eq!(
            normalize_code("const a = 1\nimport b from 'b'\na"),
            "async () => {\nconst a = 1\nimport b from 'b'\nreturn (a)\n}"
        );
    }
}
