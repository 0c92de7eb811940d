//! After a run: compare it with the baseline, write every report, accept it when asked, and
//! say so in a few lines for the command's exit summary.

use std::path::{Path, PathBuf};

use crate::baseline::Baseline;
use crate::error::{Error, Result};
use crate::matrix::Matrix;
use crate::transitions::{self, Transitions};

/// Where the reports and the baseline are, and whether to accept the run.
#[derive(Debug, Clone)]
pub struct Publish {
    /// The reports' directory.
    pub out: PathBuf,
    /// The accepted baseline (`results/baseline.json` under the project root).
    pub baseline: PathBuf,
    /// How the baseline is named in reports (a path relative to the project root).
    pub baseline_name: String,
    /// Make this run the new baseline.
    pub accept: bool,
}

/// What [`publish`] did.
#[derive(Debug)]
pub struct Published {
    /// The files written, in order.
    pub written: Vec<PathBuf>,
    /// What moved against the baseline, when there was one.
    pub transitions: Option<Transitions>,
    /// Lines for the exit summary, in order.
    pub lines: Vec<String>,
}

/// Compares `matrix` with the baseline (when there is one), writes every report into
/// `how.out`, and with `how.accept` writes the run as the new baseline.
pub fn publish(matrix: &Matrix, how: &Publish) -> Result<Published> {
    let previous = Baseline::load(&how.baseline)?;
    let run = Baseline::from_report(&super::to_json(matrix))?;
    let transitions = previous
        .as_ref()
        .map(|b| transitions::compare(b, &run, &how.baseline_name));
    let written = super::write_reports(matrix, transitions.as_ref(), &how.out)?;
    let mut lines = Vec::new();
    match &transitions {
        Some(t) => {
            lines.push(t.summary());
            for moved in t.cells.iter().filter(|m| {
                matches!(
                    m.kind,
                    transitions::Kind::Broken
                        | transitions::Kind::Changed
                        | transitions::Kind::Fixed
                        | transitions::Kind::Upstream
                )
            }) {
                lines.push(format!(
                    "  {} {} on {}: {}",
                    moved.kind.as_str(),
                    moved.case,
                    moved.column,
                    moved.about
                ));
            }
        }
        None => lines.push(format!(
            "no baseline at {} yet: accept this run with `codemode-compat matrix --accept`",
            how.baseline_name
        )),
    }
    for path in &written {
        lines.push(format!("wrote {}", path.display()));
    }
    if how.accept {
        lines.extend(accept(run, previous.as_ref(), how)?);
    }
    Ok(Published {
        written,
        transitions,
        lines,
    })
}

/// Makes a `matrix.json` report the new baseline (the `accept` command): the report's run
/// over the current baseline, as [`Baseline::accept_over`] merges them.
pub fn accept_report(report: &Path, how: &Publish) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(report).map_err(|e| Error::io(report, e))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{} is not JSON ({e}); run `codemode-compat matrix` to write one",
            report.display()
        ))
    })?;
    let run = Baseline::from_report(&value)?;
    let previous = Baseline::load(&how.baseline)?;
    let mut lines = Vec::new();
    if let Some(previous) = &previous {
        lines.push(transitions::compare(previous, &run, &how.baseline_name).summary());
    }
    lines.extend(accept(run, previous.as_ref(), how)?);
    Ok(lines)
}

fn accept(run: Baseline, previous: Option<&Baseline>, how: &Publish) -> Result<Vec<String>> {
    let (accepted, kept) = run.accept_over(previous);
    accepted.save(&how.baseline)?;
    let mut lines = vec![format!(
        "accepted as the new baseline: {} ({} cases × {} columns)",
        how.baseline_name,
        accepted.cases.len(),
        accepted.columns.len()
    )];
    if !kept.is_empty() {
        lines.push(format!(
            "kept from the previous baseline, not run this time: {}",
            kept.join(", ")
        ));
    }
    Ok(lines)
}
