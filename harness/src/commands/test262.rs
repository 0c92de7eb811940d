//! `test262`: tests of the ECMAScript conformance suite on ours and the local reference
//! columns, reported per directory.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codemode_compat::Result;
use codemode_compat::matrix::OURS;
use codemode_compat::sampling::SamplingOptions;
use codemode_compat::test262;

use super::absolute;
use super::columns::sampled_columns;

/// Runs the tests of the checkout `dir` that `filters` select (`sample` of each, drawn with
/// the seed) and writes the reports under `out`; with `messages`, compares the error texts
/// the tests make (the reference columns read from `recorded` when given).
#[allow(clippy::too_many_arguments)]
pub async fn run(
    root: &Path,
    dir: PathBuf,
    filters: Vec<String>,
    sample: Option<usize>,
    sampling: SamplingOptions,
    out: PathBuf,
    messages: bool,
    recorded: Option<PathBuf>,
) -> Result<ExitCode> {
    let SamplingOptions {
        seed,
        columns,
        concurrency,
    } = sampling;
    // The suite and the filters are checked before any column is set up.
    let request = test262::cli::request(
        absolute(dir)?,
        &filters,
        sample,
        seed,
        concurrency,
        &columns,
    )?;
    let request = if messages || recorded.is_some() {
        request.for_messages(recorded.map(absolute).transpose()?.as_deref())?
    } else {
        request
    };
    // A recording stands for the reference columns: only ours runs.
    let columns = match request.recorded {
        Some(_) => vec![OURS.to_string()],
        None => columns,
    };
    let columns = sampled_columns(root, &columns, "test262").await?;
    test262::cli::run(root, request, columns, &absolute(out)?).await?;
    Ok(ExitCode::SUCCESS)
}
