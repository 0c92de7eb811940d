//! `junit.xml`: the matrix for CI systems. One `<testsuite>` per column, one `<testcase>` per
//! case (`classname` the column, `name` the case id, `file` its catalogue); a `diff` or
//! `expect` cell is a `<failure>` carrying the rendered diff, an `error` cell an `<error>`
//! carrying the message, a `skip` cell `<skipped>` with its reason. A `flaky` cell passes, and
//! carries each failed attempt as nextest (and Surefire) write a test that passed on a retry:
//! a `<flakyFailure>` (a `diff` or `expect` attempt) or `<flakyError>` (an `error` attempt)
//! element with the attempt's diff or reason in its `<stackTrace>`; the suite counts it among
//! the passing tests, and names the flaky count in a `flaky` property. A cell that failed on
//! every attempt carries its earlier attempts the same way next to its `<failure>` or
//! `<error>`, as `<rerunFailure>`/`<rerunError>`. A cell that moved since the baseline names
//! its transition in the message and as a property.
//!
//! Guarantee: the output is well-formed XML 1.0 whatever the outcomes hold; characters XML
//! cannot carry are written as `\u{…}` escapes.

use std::fmt::Write;

use crate::cell::{Cell, Status};
use crate::matrix::Matrix;
use crate::transitions::Transitions;

/// The report as JUnit XML.
pub fn to_junit(matrix: &Matrix, transitions: Option<&Transitions>) -> String {
    let mut suites = String::new();
    let (mut all_tests, mut all_failures, mut all_errors, mut all_skipped) = (0, 0, 0, 0);
    let mut all_time = 0.0;
    for column in &matrix.columns {
        let cells: Vec<(&crate::matrix::Row, &Cell)> = matrix
            .cases
            .iter()
            .filter_map(|row| row.cells.get(&column.name).map(|cell| (row, cell)))
            .collect();
        let count = |s: Status| cells.iter().filter(|(_, c)| c.status == s).count();
        let failures = count(Status::Diff) + count(Status::Expect);
        let errors = count(Status::Error);
        let skipped = count(Status::Skip);
        let flaky = count(Status::Flaky);
        let time: f64 = cells.iter().filter_map(|(_, c)| c.elapsed_ms).sum::<f64>() / 1000.0;
        all_tests += cells.len();
        all_failures += failures;
        all_errors += errors;
        all_skipped += skipped;
        all_time += time;
        let _ = writeln!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" \
             skipped=\"{skipped}\" time=\"{time:.3}\">",
            attr(&column.name),
            cells.len()
        );
        suites.push_str("    <properties>\n");
        let _ = writeln!(suites, "      <property name=\"flaky\" value=\"{flaky}\"/>");
        for (name, value) in [
            ("upstream", &column.upstream),
            ("wrangler", &column.wrangler),
            ("workerd", &column.workerd),
            ("executor", &column.executor),
        ] {
            if let Some(value) = value {
                let _ = writeln!(
                    suites,
                    "      <property name=\"{name}\" value=\"{}\"/>",
                    attr(value)
                );
            }
        }
        suites.push_str("    </properties>\n");
        for (row, cell) in cells {
            let moved = transitions.and_then(|t| t.get(&row.id, &column.name));
            let _ = write!(
                suites,
                "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\" time=\"{:.3}\">",
                attr(&row.id),
                attr(&column.name),
                attr(&row.file.display().to_string()),
                row.line,
                cell.elapsed_ms.unwrap_or(0.0) / 1000.0
            );
            let since = moved
                .map(|t| format!(" ({} since the baseline: {})", t.kind.as_str(), t.about))
                .unwrap_or_default();
            let body = |text: Option<&str>| text.unwrap_or_default().trim_end().to_owned();
            match cell.status {
                Status::Pass | Status::Flaky => {}
                Status::Diff => {
                    let _ = write!(
                        suites,
                        "\n      <failure type=\"diff\" message=\"{}\">{}</failure>",
                        attr(&format!(
                            "the outcome on {} differs from ours{since}",
                            column.name
                        )),
                        text(&body(cell.diff.as_deref()))
                    );
                }
                Status::Expect => {
                    let first = cell
                        .diff
                        .as_deref()
                        .and_then(|d| d.lines().next())
                        .unwrap_or("the outcome does not satisfy expect");
                    let _ = write!(
                        suites,
                        "\n      <failure type=\"expect\" message=\"{}\">{}</failure>",
                        attr(&format!("{first}{since}")),
                        text(&body(cell.diff.as_deref()))
                    );
                }
                Status::Error => {
                    let _ = write!(
                        suites,
                        "\n      <error type=\"error\" message=\"{}\">{}</error>",
                        attr(&format!("the side could not run the case{since}")),
                        text(&body(cell.reason.as_deref()))
                    );
                }
                Status::Skip => {
                    let _ = write!(
                        suites,
                        "\n      <skipped message=\"{}\"/>",
                        attr(&format!("{}{since}", body(cell.reason.as_deref())))
                    );
                }
            }
            for (n, attempt) in cell.attempts.iter().enumerate() {
                let kind = match (cell.status, attempt.status) {
                    (Status::Flaky, Status::Error) => "flakyError",
                    (Status::Flaky, _) => "flakyFailure",
                    (_, Status::Error) => "rerunError",
                    _ => "rerunFailure",
                };
                let _ = write!(
                    suites,
                    "\n      <{kind} type=\"{}\" message=\"{}\"><stackTrace>{}</stackTrace></{kind}>",
                    attempt.status.as_str(),
                    attr(&format!(
                        "attempt {} of {}: {}",
                        n + 1,
                        cell.attempts.len() + 1,
                        attempt.status.as_str()
                    )),
                    text(&body(attempt.detail.as_deref()))
                );
            }
            if let Some(t) = moved {
                let _ = write!(
                    suites,
                    "\n      <properties><property name=\"transition\" value=\"{}\"/></properties>",
                    t.kind.as_str()
                );
            }
            if cell.status != Status::Pass || moved.is_some() || !cell.attempts.is_empty() {
                suites.push_str("\n    ");
            }
            suites.push_str("</testcase>\n");
        }
        suites.push_str("  </testsuite>\n");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"codemode-compat\" \
         tests=\"{all_tests}\" failures=\"{all_failures}\" errors=\"{all_errors}\" \
         skipped=\"{all_skipped}\" time=\"{all_time:.3}\">\n{suites}</testsuites>\n"
    )
}

/// Whether XML 1.0 can carry a character at all.
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Text content: `&`, `<` and `>` escaped, characters XML cannot carry written as `\u{…}`.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if xml_char(c) => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out
}

/// An attribute value in double quotes: as [`text`], plus quotes and whitespace that
/// attribute normalization would otherwise fold.
fn attr(s: &str) -> String {
    text(s)
        .replace('"', "&quot;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_markup_and_unusable_characters_out() {
        assert_eq!(text("a<b>&c"), "a&lt;b&gt;&amp;c");
        assert_eq!(text("bell\u{7}\u{FFFE}"), "bell\\u{7}\\u{fffe}");
        assert_eq!(attr("say \"hi\"\n"), "say &quot;hi&quot;&#10;");
    }
}
