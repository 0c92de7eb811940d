//! Where the program sits in the module the reference generates for each execution
//! (`executor.js`): a syntax error there is reported with that module's line, and a line
//! that starts with the offending token shows it (`Uncaught SyntaxError: …\n  at
//! executor.js:57`). This dialect follows the newest release's layout (0.4 to 0.5.6, measured
//! with `eval`): the program's first line is the module's 56th, after 12 lines per provider
//! proxy, 13 per connector proxy and every line of every prelude.

use super::{Connector, Provider};

/// The module's line before the program's first, without providers, connectors or preludes.
const BASE_LINES: usize = 55;
/// The lines of one provider's proxy in the module.
const PROVIDER_LINES: usize = 12;
/// The lines of one connector's proxy in the module.
const CONNECTOR_LINES: usize = 13;

/// The syntax errors V8 reports at no position in the module (its parser reports them at an
/// invalid location): the reference names the module alone, `\n  at executor.js`, wherever
/// the error is (measured on reference@0.5.6).
const UNPOSITIONED: &[&str] =
    &["Invalid left-hand side in for-await-of loop: Must have a single binding."];

/// The start failure's message as the reference prints it: workerd writes the message as a C
/// string, so it ends at the first NUL character (a regular expression literal whose pattern
/// holds one: `Invalid regular expression: /(?s`), and the location follows it.
pub fn start_failure_message(text: &str) -> &str {
    text.split('\0').next().unwrap_or(text)
}

/// The location the reference appends to a start failure whose text is `text`, for a syntax
/// error at `line` and `column`: the module alone for the errors V8 does not position, else
/// [`start_location`].
pub fn start_failure_location(
    text: &str,
    line: usize,
    column: usize,
    providers: &[Provider],
    connectors: &[Connector],
) -> String {
    if UNPOSITIONED
        .iter()
        .any(|unpositioned| text.ends_with(unpositioned))
    {
        return "\n  at executor.js".into();
    }
    start_location(line, column, providers, connectors)
}

/// The location the reference appends to a start failure for a syntax error at `line`:
/// `column` (1-based) of the normalized program: `\n  at executor.js:LINE` when the error
/// is at the start of its line, `\n  at executor.js:LINE:COLUMN` otherwise, the column
/// counted from 0 as V8 counts it (`x )` on the program's second line is `57:2`). The
/// catalogue redacts the second form (rule `worker-start-location`), so only the first is
/// compared.
pub fn start_location(
    line: usize,
    column: usize,
    providers: &[Provider],
    connectors: &[Connector],
) -> String {
    let proxied = providers
        .iter()
        .filter(|p| !connectors.iter().any(|c| c.name == p.name));
    let prelude_lines: usize = proxied
        .clone()
        .filter_map(|p| p.prelude.as_deref())
        .map(|prelude| prelude.split('\n').count())
        .sum();
    let module_line = BASE_LINES
        + PROVIDER_LINES * proxied.count()
        + CONNECTOR_LINES * connectors.len()
        + prelude_lines
        + line;
    if column <= 1 {
        format!("\n  at executor.js:{module_line}")
    } else {
        format!("\n  at executor.js:{module_line}:{}", column - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_for_await_head_with_more_than_one_binding_is_not_positioned() {
        // Measured on reference@0.5.6: the module alone, whether the error starts its line
        // or not.
        let text = "Uncaught SyntaxError: Invalid left-hand side in for-await-of loop: Must have a single binding.";
        assert_eq!(
            start_failure_location(text, 3, 1, &[], &[]),
            "\n  at executor.js"
        );
        assert_eq!(
            start_failure_location(text, 2, 9, &[], &[]),
            "\n  at executor.js"
        );
        let other = "Uncaught SyntaxError: Invalid destructuring assignment target";
        assert_eq!(
            start_failure_location(other, 2, 1, &[], &[]),
            "\n  at executor.js:57"
        );
    }

    #[test]
    fn a_message_ends_at_its_first_nul() {
        // Measured on reference@0.5.6: `/(?s\0:a)/;` on the program's second line.
        let text = "Uncaught SyntaxError: Invalid regular expression: /(?s\0:a)/: Invalid group";
        assert_eq!(
            start_failure_message(text),
            "Uncaught SyntaxError: Invalid regular expression: /(?s"
        );
        assert_eq!(
            start_failure_message("Uncaught SyntaxError: x"),
            "Uncaught SyntaxError: x"
        );
    }

    #[test]
    fn lines_follow_the_newest_releases_module() {
        // Measured on reference@0.5.6: `interface` on the program's second line, no providers.
        assert_eq!(start_location(2, 1, &[], &[]), "\n  at executor.js:57");
        assert_eq!(start_location(2, 5, &[], &[]), "\n  at executor.js:57:4");
        let provider = Provider {
            name: "codemode".into(),
            fns: Vec::new(),
            prelude: Some("const a = 1;\nconst b = 2;".into()),
            positional_args: None,
            proxy_source: None,
        };
        // A missing brace on a one-line program fails on its fourth line (after wrapping).
        assert_eq!(
            start_location(4, 1, &[provider], &[]),
            "\n  at executor.js:73"
        );
    }
}
