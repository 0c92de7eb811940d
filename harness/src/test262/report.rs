//! The report of a test262 run: per directory, how many tests each column passes, how many of
//! the deciding column's passes ours passes too, and every test where ours and the deciding
//! column disagree, both ways. Written as text (printed) and as JSON (for machines).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::program::Verdict;

/// One test's verdict on each column (in [`Report::columns`] order).
#[derive(Debug, Clone, Serialize)]
pub struct TestResult {
    /// The test's path under `test/`.
    pub path: String,
    /// Each column's verdict.
    pub verdicts: Vec<ColumnVerdict>,
}

/// A verdict as the JSON carries it.
#[derive(Debug, Clone, Serialize)]
pub struct ColumnVerdict {
    /// Whether the test passed on the column.
    pub pass: bool,
    /// Why it failed, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl From<&Verdict> for ColumnVerdict {
    fn from(verdict: &Verdict) -> Self {
        match verdict {
            Verdict::Pass => ColumnVerdict {
                pass: true,
                detail: None,
            },
            Verdict::Fail(why) => ColumnVerdict {
                pass: false,
                detail: Some(why.clone()),
            },
        }
    }
}

/// Counts for one directory.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Directory {
    /// The directory (`total` for the whole run).
    pub directory: String,
    /// Tests run.
    pub run: usize,
    /// Tests each column passes, by column name.
    pub passes: BTreeMap<String, usize>,
    /// Of the deciding column's passes, how many ours passes too (when both ran).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ours_of_reference: Option<usize>,
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The command line that reproduces the run.
    pub command_line: String,
    /// The suite's checkout.
    pub suite: String,
    /// Columns in verdict order; the deciding column is the first reference column.
    pub columns: Vec<String>,
    /// The deciding column, when a reference column ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deciding: Option<String>,
    /// Matched tests that could run (before sampling), and how many ran.
    pub runnable: usize,
    /// Tests run.
    pub run: usize,
    /// Matched tests left out, by reason.
    pub left_out: BTreeMap<String, usize>,
    /// Per directory (the first two path segments), then per top directory, then `total`.
    pub directories: Vec<Directory>,
    /// Tests the deciding column passes and ours fails, with ours' failure.
    pub ours_fails_reference_passes: Vec<(String, String)>,
    /// Tests the deciding column fails and ours passes (a difference to list), with the
    /// reference's failure.
    pub reference_fails_ours_passes: Vec<(String, String)>,
    /// Every test run, with its verdicts.
    pub tests: Vec<TestResult>,
}

/// The name of our column.
const OURS: &str = crate::matrix::OURS;

/// Builds the report from every test's verdicts.
pub fn build(
    command_line: String,
    suite: String,
    columns: Vec<String>,
    runnable: usize,
    left_out: BTreeMap<String, usize>,
    tests: Vec<TestResult>,
) -> Report {
    let ours = columns.iter().position(|c| c == OURS);
    let deciding = columns.iter().position(|c| c != OURS);
    let mut directories: BTreeMap<String, Directory> = BTreeMap::new();
    let mut ours_fails = Vec::new();
    let mut reference_fails = Vec::new();
    for test in &tests {
        let segments: Vec<&str> = test.path.split('/').collect();
        let mut keys = vec!["total".to_string(), segments[0].to_string()];
        if segments.len() > 2 {
            keys.push(segments[..2].join("/"));
        }
        for key in keys {
            let dir = directories.entry(key.clone()).or_insert_with(|| Directory {
                directory: key,
                ours_of_reference: ours.and(deciding).map(|_| 0),
                ..Directory::default()
            });
            dir.run += 1;
            for (column, verdict) in columns.iter().zip(&test.verdicts) {
                *dir.passes.entry(column.clone()).or_default() += usize::from(verdict.pass);
            }
            if let (Some(o), Some(d), Some(count)) = (ours, deciding, &mut dir.ours_of_reference)
                && test.verdicts[o].pass
                && test.verdicts[d].pass
            {
                *count += 1;
            }
        }
        if let (Some(o), Some(d)) = (ours, deciding) {
            let (o, d) = (&test.verdicts[o], &test.verdicts[d]);
            if d.pass && !o.pass {
                ours_fails.push((test.path.clone(), o.detail.clone().unwrap_or_default()));
            }
            if o.pass && !d.pass {
                reference_fails.push((test.path.clone(), d.detail.clone().unwrap_or_default()));
            }
        }
    }
    // Two-segment directories first (sorted), then the top directories, then the total.
    let mut ordered: Vec<Directory> = directories.into_values().collect();
    ordered.sort_by_key(|d| {
        let depth = if d.directory == "total" {
            0
        } else {
            d.directory.matches('/').count() + 1
        };
        (std::cmp::Reverse(depth), d.directory.clone())
    });
    Report {
        command_line,
        suite,
        deciding: deciding.map(|d| columns[d].clone()),
        run: tests.len(),
        columns,
        runnable,
        left_out,
        directories: ordered,
        ours_fails_reference_passes: ours_fails,
        reference_fails_ours_passes: reference_fails,
        tests,
    }
}

impl Report {
    /// The text summary.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "test262 at {}", self.suite);
        let _ = writeln!(out, "command: {}", self.command_line);
        let left: usize = self.left_out.values().sum();
        let _ = writeln!(
            out,
            "{} tests matched: {} left out, {} runnable, {} run",
            left + self.runnable,
            left,
            self.runnable,
            self.run
        );
        for (reason, count) in &self.left_out {
            let _ = writeln!(out, "  left out {count:>6}: {reason}");
        }
        let _ = writeln!(out);
        let mut header = format!("{:<44} {:>6}", "directory", "run");
        for column in &self.columns {
            let _ = write!(header, " {:>18}", column);
        }
        if let Some(deciding) = &self.deciding
            && self.columns.iter().any(|c| c == OURS)
        {
            let _ = write!(header, "  ours of {deciding}'s passes");
        }
        let _ = writeln!(out, "{header}");
        for dir in &self.directories {
            let mut line = format!("{:<44} {:>6}", dir.directory, dir.run);
            for column in &self.columns {
                let _ = write!(
                    line,
                    " {:>18}",
                    dir.passes.get(column).copied().unwrap_or(0)
                );
            }
            if let (Some(ours), Some(deciding)) = (dir.ours_of_reference, &self.deciding) {
                let theirs = dir.passes.get(deciding).copied().unwrap_or(0);
                let _ = write!(line, "  {ours}/{theirs} ({})", percent(ours, theirs));
            }
            let _ = writeln!(out, "{line}");
        }
        if let Some(deciding) = &self.deciding
            && self.columns.iter().any(|c| c == OURS)
        {
            let _ = writeln!(
                out,
                "\nours fails where {deciding} passes ({}):",
                self.ours_fails_reference_passes.len()
            );
            for (path, why) in &self.ours_fails_reference_passes {
                let _ = writeln!(out, "  {path}: {why}");
            }
            let _ = writeln!(
                out,
                "\n{deciding} fails where ours passes ({}):",
                self.reference_fails_ours_passes.len()
            );
            for (path, why) in &self.reference_fails_ours_passes {
                let _ = writeln!(out, "  {path}: {why}");
            }
        }
        out
    }
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "—".into();
    }
    format!("{:.1}%", 100.0 * part as f64 / whole as f64)
}
