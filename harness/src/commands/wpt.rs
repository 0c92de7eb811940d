//! `wpt`: the Web Platform Tests' data files on ours and the local reference columns, entry
//! by entry, reported per file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codemode_compat::Result;
use codemode_compat::wpt;

use super::absolute;
use super::columns::local_columns;

/// Runs the files of the checkout `dir` that `files` select and writes the reports under
/// `out`.
pub async fn run(
    root: &Path,
    dir: PathBuf,
    files: Vec<String>,
    columns: Vec<String>,
    out: PathBuf,
    concurrency: usize,
) -> Result<ExitCode> {
    // The checkout and the file selection are checked before any column is set up.
    let request = wpt::cli::request(absolute(dir)?, &files, concurrency, &columns)?;
    let (ours, references, toolchain) = local_columns(root, &columns, "wpt").await?;
    wpt::cli::run(root, request, ours, references, toolchain, &absolute(out)?).await?;
    Ok(ExitCode::SUCCESS)
}
