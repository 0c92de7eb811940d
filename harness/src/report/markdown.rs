//! `matrix.md`: the matrix for people: columns and their versions, totals, what moved since
//! the baseline, a case × column grid, and the detail of every cell that did not pass.

use std::fmt::Write;

use indexmap::IndexMap;

use crate::cell::Status;
use crate::matrix::Matrix;
use crate::outcome::RULES;
use crate::transitions::{Kind, Transitions};

fn mark(status: Status) -> &'static str {
    match status {
        Status::Pass => "✅ pass",
        Status::Diff => "❌ diff",
        Status::Expect => "⚠️ expect",
        Status::Skip => "⏭️ skip",
        Status::Error => "💥 error",
        Status::Flaky => "🔁 flaky",
    }
}

/// The report as Markdown.
pub fn to_markdown(matrix: &Matrix, transitions: Option<&Transitions>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Codemode compatibility matrix\n");
    let _ = writeln!(
        out,
        "| column | upstream | wrangler | workerd |\n|---|---|---|---|"
    );
    for c in &matrix.columns {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            c.name,
            c.upstream
                .as_deref()
                .or(c.executor.as_deref())
                .unwrap_or("-"),
            c.wrangler.as_deref().unwrap_or("-"),
            c.workerd.as_deref().unwrap_or("-")
        );
    }
    let totals = matrix.totals();
    let _ = writeln!(
        out,
        "\n**Totals:** {} · elapsed {:.1} s\n",
        totals
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(" · "),
        matrix.elapsed_ms as f64 / 1000.0
    );
    if let Some(t) = transitions {
        write_transitions(&mut out, t);
    }
    let _ = write!(out, "| case |");
    for c in &matrix.columns {
        let _ = write!(out, " `{}` |", c.name);
    }
    let _ = write!(out, "\n|---|");
    for _ in &matrix.columns {
        let _ = write!(out, "---|");
    }
    out.push('\n');
    for row in &matrix.cases {
        let _ = write!(out, "| `{}` |", row.id);
        for c in &matrix.columns {
            let cell = row.cells.get(&c.name).map(|cell| {
                let stale = if cell.stale_skip == Some(true) {
                    " (stale)"
                } else {
                    ""
                };
                let moved = transitions
                    .and_then(|t| t.get(&row.id, &c.name))
                    .map(|t| format!(" · **{}**", t.kind.as_str()))
                    .unwrap_or_default();
                format!("{}{stale}{moved}", mark(cell.status))
            });
            let _ = write!(out, " {} |", cell.unwrap_or_else(|| "-".into()));
        }
        out.push('\n');
    }
    let mut details = String::new();
    let mut skips = String::new();
    let mut flaky = String::new();
    for row in &matrix.cases {
        for (column, cell) in &row.cells {
            match cell.status {
                Status::Pass => {}
                Status::Flaky => {
                    let _ = writeln!(
                        flaky,
                        "### `{}` on `{column}`: flaky, passed on attempt {}\n\n{}:{}\n",
                        row.id,
                        cell.attempts.len() + 1,
                        row.file.display(),
                        row.line
                    );
                    write_attempts(&mut flaky, &cell.attempts);
                }
                Status::Skip => {
                    let _ = writeln!(
                        skips,
                        "- `{}` on `{column}`: {}",
                        row.id,
                        cell.reason.as_deref().unwrap_or_default()
                    );
                }
                status => {
                    let _ = writeln!(
                        details,
                        "### `{}` on `{column}`: {}\n\n{}:{}\n",
                        row.id,
                        status.as_str(),
                        row.file.display(),
                        row.line
                    );
                    let body = cell
                        .diff
                        .as_deref()
                        .or(cell.reason.as_deref())
                        .unwrap_or_default();
                    let _ = writeln!(details, "```diff\n{}\n```\n", body.trim_end());
                    if !cell.attempts.is_empty() {
                        let _ = writeln!(
                            details,
                            "Failed on every one of {} attempts; the earlier ones:\n",
                            cell.attempts.len() + 1
                        );
                        write_attempts(&mut details, &cell.attempts);
                    }
                }
            }
        }
    }
    if !details.is_empty() {
        let _ = writeln!(out, "\n## Cells that did not pass\n\n{details}");
    }
    if !flaky.is_empty() {
        let _ = writeln!(
            out,
            "\n## Flaky cells: failed, then passed on a retry\n\n{flaky}"
        );
    }
    if !skips.is_empty() {
        let _ = writeln!(out, "\n## Skipped cells and their reasons\n\n{skips}");
    }
    let _ = writeln!(out, "\n## Normalization rules applied to both sides\n");
    for rule in RULES {
        let _ = writeln!(out, "- `{}`: {}", rule.name, rule.about);
    }
    out
}

/// The failed attempts of a retried cell, each with its diff or reason.
fn write_attempts(out: &mut String, attempts: &[crate::cell::Attempt]) {
    for (n, attempt) in attempts.iter().enumerate() {
        let _ = writeln!(
            out,
            "Attempt {}: {}\n\n```diff\n{}\n```\n",
            n + 1,
            attempt.status.as_str(),
            attempt.detail.as_deref().unwrap_or_default().trim_end()
        );
    }
}

/// What moved since the baseline: a row per cell, except new cells, which are listed per
/// column (a new column or a new case brings many at once).
fn write_transitions(out: &mut String, t: &Transitions) {
    let _ = writeln!(out, "## Since the baseline\n\n{}\n", t.summary());
    if t.cells.is_empty() {
        let _ = writeln!(out, "No cell moved.\n");
        return;
    }
    let (new, moved): (Vec<_>, Vec<_>) = t.cells.iter().partition(|c| c.kind == Kind::New);
    if !moved.is_empty() {
        let _ = writeln!(
            out,
            "| case | column | transition | what moved |\n|---|---|---|---|"
        );
        for c in moved {
            let _ = writeln!(
                out,
                "| `{}` | `{}` | **{}** | {} |",
                c.case,
                c.column,
                c.kind.as_str(),
                c.about.replace('|', "\\|")
            );
        }
        out.push('\n');
    }
    let mut by_column: IndexMap<&str, Vec<&str>> = IndexMap::new();
    for c in new {
        by_column.entry(&c.column).or_default().push(&c.case);
    }
    for (column, cases) in by_column {
        let shown: Vec<String> = cases.iter().take(12).map(|c| format!("`{c}`")).collect();
        let more = cases.len().saturating_sub(shown.len());
        let _ = writeln!(
            out,
            "- **new** on `{column}`: {} cell{}: {}{}",
            cases.len(),
            if cases.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    out.push('\n');
}
