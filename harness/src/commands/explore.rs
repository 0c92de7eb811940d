//! `explore`: generated programs on ours and the local reference columns (or a recording of
//! theirs), every disagreement written as a case to review.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codemode_compat::Result;
use codemode_compat::explore;
use codemode_compat::matrix::OURS;
use codemode_compat::sampling::SamplingOptions;

use super::absolute;
use super::columns::sampled_columns;

/// Runs `count` programs of `generator` and writes the disagreements under `out`.
pub async fn run(
    root: &Path,
    generator: String,
    count: usize,
    sampling: SamplingOptions,
    out: PathBuf,
    recorded: Option<PathBuf>,
) -> Result<ExitCode> {
    let SamplingOptions {
        seed,
        columns,
        concurrency,
    } = sampling;
    // The generator is checked before any column is set up.
    let request = explore::Request {
        generator: explore::generator::resolve(&generator)?,
        count,
        seed,
        concurrency,
        command_line: format!(
            "codemode-compat explore --generator {generator} --count {count} --seed {seed} --columns {}{}",
            columns.join(","),
            recorded
                .as_ref()
                .map(|r| format!(" --recorded {}", r.display()))
                .unwrap_or_default()
        ),
        recorded: recorded
            .as_deref()
            .map(explore::recorded::read)
            .transpose()?,
    };
    // A recording stands for the reference columns: only ours runs.
    let columns = match request.recorded {
        Some(_) => vec![OURS.to_string()],
        None => columns,
    };
    let columns = sampled_columns(root, &columns, "explore").await?;
    explore::cli::run(root, request, columns, &absolute(out)?).await?;
    Ok(ExitCode::SUCCESS)
}
