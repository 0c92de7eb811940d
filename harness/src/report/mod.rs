//! Matrix reports: `matrix.json` (the machine-readable contract) and `matrix.md`.

mod json;
mod markdown;

pub use json::to_json;
pub use markdown::to_markdown;

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::matrix::Matrix;

/// Writes every report into `out` (created when missing) and returns their paths.
pub fn write_all(matrix: &Matrix, out: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let json_path = out.join("matrix.json");
    let text = serde_json::to_string_pretty(&to_json(matrix)).expect("reports always serialize");
    std::fs::write(&json_path, text + "\n").map_err(|e| Error::io(&json_path, e))?;
    let md_path = out.join("matrix.md");
    std::fs::write(&md_path, to_markdown(matrix)).map_err(|e| Error::io(&md_path, e))?;
    Ok(vec![json_path, md_path])
}
