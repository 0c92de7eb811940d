//! Matrix reports: `matrix.json` (the machine-readable contract), `matrix.md` (for people),
//! `matrix.html` (one self-contained page) and `junit.xml` (for CI systems). Each carries
//! the run's transitions when it was compared with a baseline.

mod html;
mod json;
mod junit;
mod markdown;
mod publish;

pub use html::to_html;
pub use json::{add_transitions, report, to_json};
pub use junit::to_junit;
pub use markdown::to_markdown;
pub use publish::{Publish, Published, accept_report, publish};

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::matrix::Matrix;
use crate::transitions::Transitions;

/// Writes every report of a run not compared with a baseline; see [`write_reports`].
pub fn write_all(matrix: &Matrix, out: &Path) -> Result<Vec<PathBuf>> {
    write_reports(matrix, None, out)
}

/// Writes every report into `out` (created when missing) and returns their paths:
/// `matrix.json`, `matrix.md`, `matrix.html`, `junit.xml`.
pub fn write_reports(
    matrix: &Matrix,
    transitions: Option<&Transitions>,
    out: &Path,
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let full = report(matrix, transitions);
    let text = serde_json::to_string_pretty(&full).expect("reports always serialize");
    let files = [
        ("matrix.json", text + "\n"),
        ("matrix.md", to_markdown(matrix, transitions)),
        ("matrix.html", to_html(&full)),
        ("junit.xml", to_junit(matrix, transitions)),
    ];
    let mut written = Vec::new();
    for (name, text) in files {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}
