//! `matrix` (the catalogue on every column, then the reports), and what writes reports
//! without running: `accept` (a written report becomes the baseline) and `merge` (per-column
//! reports joined, then compared with the baseline like any run).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codemode_compat::catalogue::load_dirs;
use codemode_compat::matrix::{self, Settings};
use codemode_compat::progress::{self, CellProgress};
use codemode_compat::report;
use codemode_compat::shard::Shard;
use codemode_compat::sides::ours::OursSide;
use codemode_compat::{Error, Result};
use codemode_executor::isolate::IsolateExecutor;

use super::absolute;
use super::columns::{Plan, column_concurrency_for, plan_columns};
use super::releases;

/// `--columns` and `--remote-token-file`, as given.
pub struct Wanted<'a> {
    pub columns: Vec<String>,
    pub remote_token_file: Option<&'a Path>,
}

/// `matrix --run-skipped`, `--column-concurrency`, `--retries`, `--shard`,
/// `--reference-restarts` and `--progress-every`.
pub struct Running {
    pub run_skipped: bool,
    pub column_concurrency: Option<usize>,
    pub retries: usize,
    pub shard: Option<Shard>,
    pub reference_restarts: u32,
    pub progress_every: f64,
}

/// `matrix --accept` and `--baseline`.
pub struct Reporting {
    pub accept: bool,
    pub baseline: Option<PathBuf>,
}

/// Where reports and the baseline go: `--baseline` (relative to here) or
/// `<root>/results/baseline.json`, named relative to the root in reports.
pub fn publishing(
    root: &Path,
    baseline: Option<PathBuf>,
    out: PathBuf,
    accept: bool,
) -> Result<report::Publish> {
    let here = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let baseline = baseline
        .map(|b| here.join(b))
        .unwrap_or_else(|| root.join("results/baseline.json"));
    let baseline_name = baseline
        .strip_prefix(root)
        .unwrap_or(&baseline)
        .display()
        .to_string();
    Ok(report::Publish {
        out: here.join(out),
        baseline,
        baseline_name,
        accept,
    })
}

/// `matrix`: the catalogue on every column, then the reports.
pub async fn run(
    root: &Path,
    cases: Vec<PathBuf>,
    wanted: Wanted<'_>,
    out: PathBuf,
    reporting: Reporting,
    running: Running,
) -> Result<ExitCode> {
    let Running {
        run_skipped,
        column_concurrency,
        retries,
        shard,
        reference_restarts,
        progress_every,
    } = running;
    let began = std::time::Instant::now();
    let dirs = if cases.is_empty() {
        vec![root.join("cases")]
    } else {
        cases.into_iter().map(absolute).collect::<Result<_>>()?
    };
    let mut catalogue = load_dirs(&dirs)?;
    if let Some(shard) = shard {
        let all = catalogue.cases.len();
        catalogue = shard.select(catalogue);
        eprintln!(
            "shard {shard}: {} of the catalogue's {all} cases",
            catalogue.cases.len()
        );
    }
    let checking = std::time::Instant::now();
    let Plan {
        ours: ours_column,
        extra,
        columns,
        toolchain,
    } = plan_columns(root, &wanted.columns, wanted.remote_token_file).await?;
    let toolchain_check = checking.elapsed();
    let concurrency = column_concurrency_for(column_concurrency, columns.len());
    if !columns.is_empty() {
        eprintln!(
            "{} reference column{}, {concurrency} at a time",
            columns.len(),
            if columns.len() == 1 { "" } else { "s" }
        );
    }
    let references = toolchain.as_ref().map(|toolchain| matrix::References {
        toolchain,
        columns,
        state_dir: root.join("reference-worker/.wrangler-state"),
    });
    let ours = OursSide::new(IsolateExecutor::default());
    let progress = std::sync::Arc::new(CellProgress::on_stderr());
    let ticker = progress::every(
        progress.clone(),
        std::time::Duration::try_from_secs_f64(progress_every).map_err(|_| {
            Error::Usage(format!(
                "--progress-every takes a number of seconds, not {progress_every}"
            ))
        })?,
    );
    let mut matrix = matrix::run(
        &catalogue,
        &ours,
        &extra,
        references,
        Settings {
            ours_column,
            run_skipped,
            column_concurrency: concurrency,
            retries,
            reference_restarts,
        },
        &*progress,
    )
    .await;
    drop(ticker);
    progress.finish();
    ours.dispose().await;
    matrix.files_relative_to(root);
    if run_skipped {
        let stale = matrix::stale_skips(&matrix);
        if stale.is_empty() {
            println!("every skip_on annotation still holds");
        }
        for (case, column, annotation) in stale {
            println!("no longer holds: {case} passes on {column} despite {annotation}");
        }
    }
    let out = if out.is_absolute() {
        out
    } else {
        std::env::current_dir()
            .map_err(|e| Error::io(".", e))?
            .join(out)
    };
    let writing = std::time::Instant::now();
    let published = report::publish(
        &matrix,
        &publishing(root, reporting.baseline, out, reporting.accept)?,
    )?;
    let reports_written = writing.elapsed();
    let totals = matrix.totals();
    println!(
        "{} cases × {} columns: {} in {:.1} s",
        matrix.cases.len(),
        matrix.columns.len(),
        totals
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", "),
        matrix.elapsed_ms as f64 / 1000.0
    );
    for line in &published.lines {
        println!("{line}");
    }
    let (started, starting) = progress.starts();
    println!(
        "phases: toolchain check {:.1} s · columns started {started} in {:.1} s (each as its turn came, within cells) · cells {:.1} s · reports written {:.1} s · total {:.1} s",
        toolchain_check.as_secs_f64(),
        starting.as_secs_f64(),
        matrix.elapsed_ms as f64 / 1000.0,
        reports_written.as_secs_f64(),
        began.elapsed().as_secs_f64()
    );
    println!(
        "{}",
        codemode_compat::usage::line(
            codemode_compat::usage::own(),
            &codemode_compat::usage::stopped()
        )
    );
    Ok(if matrix.failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `accept`: the report at `report` (relative to here) becomes the baseline.
pub fn accept(root: &Path, report: PathBuf, baseline: Option<PathBuf>) -> Result<ExitCode> {
    let how = publishing(root, baseline, PathBuf::from("results"), true)?;
    let report = std::env::current_dir()
        .map_err(|e| Error::io(".", e))?
        .join(report);
    for line in report::accept_report(&report, &how)? {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `merge`: per-column reports joined into one, written to `out` and compared with the
/// baseline like any run.
pub fn merge(root: &Path, reports: &[PathBuf], out: PathBuf) -> Result<ExitCode> {
    let mut matrix = releases::merge(reports)?;
    matrix.files_relative_to(root);
    // The merged run is compared with the baseline like any run.
    let how = publishing(root, None, absolute(out)?, false)?;
    for line in report::publish(&matrix, &how)?.lines {
        println!("{line}");
    }
    Ok(if matrix.failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
