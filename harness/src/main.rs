//! `codemode-compat`: the command line. `matrix` runs the catalogue on every column and
//! writes the reports; `accept` makes a written report the baseline; `eval` runs one program
//! on every column and shows the outcomes side by side; `columns` lists the published
//! releases against the columns (and adds one); `bisect` runs one case across releases;
//! `explore` runs generated programs and writes disagreements as cases; `test262` runs the
//! conformance suite; `wpt` runs the Web Platform Tests' data files; `merge` joins
//! per-column reports; a hidden `serve` is the executor daemon the remote column starts (see
//! `executor_daemon`). `docs/harness.md` is the guide.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod executor_daemon;
mod release_commands;

use clap::{Parser, Subcommand};
use codemode_compat::catalogue::{Case, Catalogue, load_dirs};
use codemode_compat::compare::pretty;
use codemode_compat::explore;
use codemode_compat::matrix::{self, ExtraColumn, OURS, Settings};
use codemode_compat::progress::{self, CellProgress};
use codemode_compat::report;
use codemode_compat::sampling::{SampledColumns, SamplingOptions};
use codemode_compat::shard::Shard;
use codemode_compat::sides::ours::OursSide;
use codemode_compat::sides::reference::{
    ReferenceColumn, ReferenceSide, deployed_column, discover, ensure_installed,
    install_exit_guards, select,
};
use codemode_compat::sides::remote::{RemoteColumn, RemoteSide};
use codemode_compat::stored::Stored;
use codemode_compat::test262;
use codemode_compat::wpt;
use codemode_compat::{Error, Result};
use codemode_executor::isolate::IsolateExecutor;
use serde_json::Value;

#[derive(Parser)]
#[command(
    name = "codemode-compat",
    version,
    about = "Does a codemode executor behave exactly like Cloudflare's DynamicWorkerExecutor?"
)]
struct Cli {
    /// The project root (holds cases/, reference-worker/ and wrangler/). Default: the
    /// nearest directory upwards from here that holds reference-worker/.
    #[arg(long, global = true)]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the catalogue on every column and write the reports.
    Matrix {
        /// A catalogue directory (repeatable). Default: cases/.
        #[arg(long = "cases")]
        cases: Vec<PathBuf>,
        /// Columns to run, comma-separated: ours, remote (ours behind an executor daemon the
        /// harness starts), reference@<version>, reference@latest; and columns run elsewhere:
        /// remote@ws://HOST:PORT (a daemon), reference@http://HOST:PORT (a deployed
        /// reference-worker). Default: ours, remote and every configured reference column.
        #[arg(long, value_delimiter = ',')]
        columns: Vec<String>,
        /// The bearer token of the remote@ws:// columns' daemon, read from this file.
        #[arg(long, value_name = "FILE")]
        remote_token_file: Option<PathBuf>,
        /// Where the reports go.
        #[arg(long, default_value = "results")]
        out: PathBuf,
        /// Also run the cells skip_on skips, and list the annotations that no longer hold.
        #[arg(long)]
        run_skipped: bool,
        /// How many reference columns run at once (1: one after another). Default: as many
        /// as fit in the available memory at about 450 MB per wrangler dev.
        #[arg(long, value_name = "N")]
        column_concurrency: Option<usize>,
        /// Make this run the accepted baseline once its reports are written (columns of the
        /// old baseline this run did not include are kept).
        #[arg(long)]
        accept: bool,
        /// The accepted baseline the run is compared with. Default: results/baseline.json
        /// under the project root.
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
        /// Run a failing cell up to N more times; a cell that passes on a retry is `flaky`
        /// (reported, counted, not a failure).
        #[arg(long, value_name = "N", default_value_t = 0)]
        retries: usize,
        /// Run only shard K of N: the cases whose id hashes to K (stable across machines and
        /// runs), for CI jobs that split a column; `merge` joins the shards' reports.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// How many times a reference column's worker is restarted after it crashed or
        /// stopped answering; past that, the column's remaining cells are errors saying so.
        #[arg(long, value_name = "N", default_value_t = codemode_compat::sides::reference::RESTARTS)]
        reference_restarts: u32,
        /// When stderr is not a terminal (a CI log), print the cells done per column every
        /// this many seconds (0: never).
        #[arg(long, value_name = "SECONDS", default_value_t = codemode_compat::progress::PROGRESS_EVERY.as_secs_f64())]
        progress_every: f64,
    },
    /// Make a written matrix.json the accepted baseline, without running anything.
    Accept {
        /// The report to accept.
        #[arg(long, default_value = "results/matrix.json")]
        report: PathBuf,
        /// The baseline to write. Default: results/baseline.json under the project root.
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
    },
    /// Run one program on every column and print the normalized outcomes side by side; large
    /// outcomes elided as the reports elide them, unless --full.
    Eval {
        /// The program, as a model would write it. Default: the --case's own program.
        code: Option<String>,
        /// Print every outcome whole, however large.
        #[arg(long)]
        full: bool,
        /// Borrow providers, connectors and options from a case: FILE:ID or ID.
        #[arg(long)]
        case: Option<String>,
        /// Columns, as for matrix.
        #[arg(long, value_delimiter = ',')]
        columns: Vec<String>,
        /// The bearer token of the remote@ws:// columns' daemon, read from this file.
        #[arg(long, value_name = "FILE")]
        remote_token_file: Option<PathBuf>,
    },
    /// List the published upstream releases against the configured columns, with the release
    /// line of each, flagging a release no column covers; or add a release as a column.
    Columns {
        /// Add this published release as a column (`newest`: the newest published release,
        /// when no column runs it yet): the npm alias, its wrangler config and the lockfile
        /// entry. A release newer than the newest column becomes the newest column.
        #[arg(long, value_name = "VERSION")]
        add: Option<String>,
        /// Print the configured columns (ours first) as a JSON list, for CI job matrices.
        #[arg(long, conflicts_with = "add")]
        json: bool,
    },
    /// Run one case on every published release from --from to --to, each installed on demand
    /// under target/bisect/, and name the first release whose outcome differs.
    Bisect {
        /// The case id (or FILE:ID).
        case: String,
        /// The first release to run.
        #[arg(long)]
        from: String,
        /// The last release to run.
        #[arg(long)]
        to: String,
        /// How many releases run at once. Default: what the memory budget allows, at most 4.
        #[arg(long, value_name = "N")]
        concurrency: Option<usize>,
    },
    /// Run generated programs on the columns and write every disagreement as a case to
    /// review, grouped by the shape of the difference (see docs/harness.md, section explore).
    Explore {
        /// A shipped generator's name (mistakes) or the path of a generator file.
        #[arg(long)]
        generator: String,
        /// How many programs to generate.
        #[arg(long, default_value_t = 2000)]
        count: usize,
        #[command(flatten)]
        sampling: SamplingOptions,
        /// Where the catalogue (<generator>.yaml) and the summary (<generator>.md) go.
        #[arg(long, default_value = "results/explore")]
        out: PathBuf,
        /// Take the reference columns from an earlier run's <generator>.json (same generator,
        /// count and seed) instead of running them; only ours runs.
        #[arg(long, value_name = "FILE")]
        recorded: Option<PathBuf>,
    },
    /// Run tests of the ECMAScript conformance suite (a tc39/test262 checkout) on the columns
    /// and report per directory how many the reference passes and how many of those ours
    /// passes (see docs/harness.md, section test262).
    Test262 {
        /// The test262 checkout's root (holds harness/ and test/).
        #[arg(long)]
        dir: PathBuf,
        /// Run only tests whose path under test/ matches (repeatable): `*` within a segment,
        /// `**` across segments; a directory matches every test below it.
        #[arg(long = "filter", value_name = "GLOB")]
        filters: Vec<String>,
        /// Run N of each filter's runnable tests, drawn with --seed.
        #[arg(long, value_name = "N")]
        sample: Option<usize>,
        #[command(flatten)]
        sampling: SamplingOptions,
        /// Where test262.json and test262.txt go.
        #[arg(long, default_value = "results/test262")]
        out: PathBuf,
    },
    /// Run the data-driven files of the Web Platform Tests (a web-platform-tests checkout) on
    /// the columns, entry by entry, and report per file how many entries the reference answers
    /// as WPT expects and how many of those ours answers as the reference (see docs/wpt.md).
    Wpt {
        /// The WPT checkout's root (holds url/, urlpattern/ and encoding/).
        #[arg(long)]
        dir: PathBuf,
        /// Run only the files whose path contains this text (repeatable). Default: every file.
        #[arg(long = "file", value_name = "TEXT")]
        files: Vec<String>,
        /// Columns, as for matrix; the first reference column decides what ours is held to.
        #[arg(long, value_delimiter = ',', default_value = "ours,reference@latest")]
        columns: Vec<String>,
        /// Where wpt.json, wpt.txt and wpt-candidates.yaml go.
        #[arg(long, default_value = "results/wpt")]
        out: PathBuf,
        /// How many entries run at once.
        #[arg(long, default_value_t = 8)]
        concurrency: usize,
    },
    /// Merge matrix.json reports of runs on different columns (one CI job per column) into one
    /// report.
    Merge {
        /// The matrix.json files to merge.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Where the merged reports go.
        #[arg(long, default_value = "results")]
        out: PathBuf,
    },
    /// The executor daemon, as `codemode-executor serve` (the remote column starts it).
    #[command(hide = true)]
    Serve(executor_daemon::Serve),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The daemon runs on its own: no project root, no exit guards of the harness's.
    let cli = match cli.command {
        Command::Serve(args) => return executor_daemon::run(args),
        command => Cli { command, ..cli },
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let outcome = runtime.block_on(async {
        install_exit_guards(true);
        let root = match cli.root.clone().map(Ok).unwrap_or_else(find_root) {
            Ok(root) => root,
            Err(e) => return Err(e),
        };
        match cli.command {
            Command::Matrix {
                cases,
                columns,
                remote_token_file,
                out,
                run_skipped,
                accept,
                baseline,
                column_concurrency,
                retries,
                shard,
                reference_restarts,
                progress_every,
            } => {
                run_matrix(
                    &root,
                    cases,
                    Wanted {
                        columns,
                        remote_token_file: remote_token_file.as_deref(),
                    },
                    out,
                    Reporting { accept, baseline },
                    Running {
                        run_skipped,
                        column_concurrency,
                        retries,
                        shard,
                        reference_restarts,
                        progress_every,
                    },
                )
                .await
            }
            Command::Eval {
                code,
                full,
                case,
                columns,
                remote_token_file,
            } => {
                run_eval(
                    &root,
                    Program { code, case, full },
                    columns,
                    remote_token_file.as_deref(),
                )
                .await
            }
            Command::Accept { report, baseline } => {
                let how = publishing(&root, baseline, PathBuf::from("results"), true)?;
                let report = std::env::current_dir()
                    .map_err(|e| Error::io(".", e))?
                    .join(report);
                for line in report::accept_report(&report, &how)? {
                    println!("{line}");
                }
                Ok(ExitCode::SUCCESS)
            }
            Command::Columns { add, json } => release_commands::columns(&root, add, json).await,
            Command::Bisect {
                case,
                from,
                to,
                concurrency,
            } => {
                let case = borrowed_case(&root, Some(&case))?;
                release_commands::bisect(&root, case, &from, &to, concurrency).await
            }
            Command::Explore {
                generator,
                count,
                sampling:
                    SamplingOptions {
                        seed,
                        columns,
                        concurrency,
                    },
                out,
                recorded,
            } => {
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
                let (ours, references, toolchain) =
                    local_columns(&root, &columns, "explore").await?;
                let columns = SampledColumns {
                    ours,
                    references,
                    toolchain,
                };
                explore::cli::run(&root, request, columns, &absolute(out)?).await?;
                Ok(ExitCode::SUCCESS)
            }
            Command::Test262 {
                dir,
                filters,
                sample,
                sampling:
                    SamplingOptions {
                        seed,
                        columns,
                        concurrency,
                    },
                out,
            } => {
                // The suite and the filters are checked before any column is set up.
                let request = test262::cli::request(
                    absolute(dir)?,
                    &filters,
                    sample,
                    seed,
                    concurrency,
                    &columns,
                )?;
                let (ours, references, toolchain) =
                    local_columns(&root, &columns, "test262").await?;
                let columns = SampledColumns {
                    ours,
                    references,
                    toolchain,
                };
                test262::cli::run(&root, request, columns, &absolute(out)?).await?;
                Ok(ExitCode::SUCCESS)
            }
            Command::Wpt {
                dir,
                files,
                columns,
                out,
                concurrency,
            } => {
                // The checkout and the file selection are checked before any column is set up.
                let request = wpt::cli::request(absolute(dir)?, &files, concurrency, &columns)?;
                let (ours, references, toolchain) = local_columns(&root, &columns, "wpt").await?;
                wpt::cli::run(&root, request, ours, references, toolchain, &absolute(out)?)
                    .await?;
                Ok(ExitCode::SUCCESS)
            }
            Command::Serve(_) => unreachable!("served before the runtime starts"),
            Command::Merge { reports, out } => {
                let mut matrix = release_commands::merge(&reports)?;
                matrix.files_relative_to(&root);
                // The merged run is compared with the baseline like any run.
                let how = publishing(&root, None, absolute(out)?, false)?;
                for line in report::publish(&matrix, &how)?.lines {
                    println!("{line}");
                }
                Ok(if matrix.failed() {
                    ExitCode::FAILURE
                } else {
                    ExitCode::SUCCESS
                })
            }
        }
    });
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("codemode-compat: {error}");
            ExitCode::from(2)
        }
    }
}

fn absolute(path: PathBuf) -> Result<PathBuf> {
    if path.is_absolute() {
        return Ok(path);
    }
    Ok(std::env::current_dir()
        .map_err(|e| Error::io(".", e))?
        .join(path))
}

fn find_root() -> Result<PathBuf> {
    let here = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    here.ancestors()
        .find(|dir| dir.join("reference-worker").is_dir())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            Error::Usage(
                "no reference-worker/ here or above; run from the project, or pass --root".into(),
            )
        })
}

/// `--columns` and `--remote-token-file`, as given.
struct Wanted<'a> {
    columns: Vec<String>,
    remote_token_file: Option<&'a Path>,
}

/// Which columns a run wants, resolved.
struct Plan {
    /// Whether ours shows.
    ours: bool,
    /// Remote columns and deployed reference workers.
    extra: Vec<ExtraColumn>,
    /// The reference columns the harness starts under `wrangler dev`.
    columns: Vec<ReferenceColumn>,
    toolchain: Option<codemode_compat::sides::reference::Toolchain>,
}

/// Resolves `--columns` (empty: ours, remote and every configured reference column); the
/// reference toolchain is only installed when a local reference column is wanted.
async fn plan_columns(root: &Path, wanted: &[String], token_file: Option<&Path>) -> Result<Plan> {
    let mut extra = Vec::new();
    let mut local: Vec<&String> = Vec::new();
    for w in wanted.iter().filter(|w| *w != OURS) {
        if let Some(column) = RemoteColumn::parse(w, token_file) {
            extra.push(ExtraColumn::Remote(column?));
        } else if let Some(deployed) = deployed_column(root, w) {
            let (column, origin) = deployed?;
            extra.push(ExtraColumn::Deployed(column, origin));
        } else {
            local.push(w);
        }
    }
    if wanted.is_empty() {
        extra.push(ExtraColumn::Remote(RemoteColumn::local()));
    }
    let ours = wanted.is_empty() || wanted.iter().any(|w| w == OURS);
    if !wanted.is_empty() && local.is_empty() {
        return Ok(Plan {
            ours,
            extra,
            columns: Vec::new(),
            toolchain: None,
        });
    }
    let root = root.to_path_buf();
    let toolchain = tokio::task::spawn_blocking(move || ensure_installed(&root))
        .await
        .map_err(|e| Error::Toolchain(e.to_string()))??;
    let available = discover(&toolchain)?;
    let columns = if wanted.is_empty() {
        available
    } else {
        let mut chosen = Vec::new();
        for w in local {
            chosen.push(select(&available, w)?.clone());
        }
        chosen
    };
    Ok(Plan {
        ours,
        extra,
        columns,
        toolchain: Some(toolchain),
    })
}

/// Ours and the local reference columns `wanted` names, for the commands that run only those
/// (`explore`, `test262`): empty is ours and every configured reference column; a remote or
/// deployed column is refused with a sentence naming the command.
async fn local_columns(
    root: &Path,
    wanted: &[String],
    command: &str,
) -> Result<(
    bool,
    Vec<ReferenceColumn>,
    Option<codemode_compat::sides::reference::Toolchain>,
)> {
    let Plan {
        ours,
        extra,
        columns,
        toolchain,
    } = plan_columns(root, wanted, None).await?;
    // An empty `--columns` adds the remote column for matrix; these commands leave it out.
    if !wanted.is_empty()
        && let Some(column) = extra.first()
    {
        return Err(Error::Usage(format!(
            "{command} runs on ours and the local reference columns; the column {} is not one of them",
            column.name()
        )));
    }
    Ok((ours, columns, toolchain))
}

/// `--column-concurrency`, or what the memory budget allows.
fn column_concurrency_for(requested: Option<usize>, columns: usize) -> usize {
    codemode_compat::sides::reference::column_concurrency(requested, columns)
}

/// Starts every column at once; a column that cannot start is returned with its reason.
async fn start_columns(
    root: &Path,
    toolchain: Option<&codemode_compat::sides::reference::Toolchain>,
    columns: Vec<ReferenceColumn>,
) -> (Vec<ReferenceSide>, Vec<(ReferenceColumn, String)>) {
    let Some(toolchain) = toolchain else {
        return (Vec::new(), Vec::new());
    };
    let state = root.join("reference-worker/.wrangler-state");
    let started = futures::future::join_all(columns.into_iter().map(|column| {
        let state = state.clone();
        async move {
            let result = ReferenceSide::start(toolchain, column.clone(), &state, 4).await;
            (column, result)
        }
    }))
    .await;
    let mut sides = Vec::new();
    let mut failed = Vec::new();
    for (column, result) in started {
        match result {
            Ok(side) => sides.push(side),
            Err(error) => failed.push((column, error.to_string())),
        }
    }
    (sides, failed)
}

/// `matrix --run-skipped`, `--column-concurrency`, `--retries`, `--shard`,
/// `--reference-restarts` and `--progress-every`.
struct Running {
    run_skipped: bool,
    column_concurrency: Option<usize>,
    retries: usize,
    shard: Option<Shard>,
    reference_restarts: u32,
    progress_every: f64,
}

/// One program on a remote column or a deployed reference worker: started, run, stopped.
async fn eval_extra(column: ExtraColumn, case: &Case, code: &str) -> Value {
    let side_error = |message: String| serde_json::json!({"error of the side": message});
    match column {
        ExtraColumn::Remote(column) => match RemoteSide::start(column).await {
            Ok(side) => {
                let outcome = side.run(case, code).await.unwrap_or_else(side_error);
                side.stop().await;
                outcome
            }
            Err(error) => side_error(error.to_string()),
        },
        ExtraColumn::Deployed(column, origin) => {
            match ReferenceSide::deployed(column, &origin, 1).await {
                Ok(side) => side.run(case, code).await.unwrap_or_else(side_error),
                Err(error) => side_error(error.to_string()),
            }
        }
    }
}

/// `matrix --accept` and `--baseline`.
struct Reporting {
    accept: bool,
    baseline: Option<PathBuf>,
}

/// Where reports and the baseline go: `--baseline` (relative to here) or
/// `<root>/results/baseline.json`, named relative to the root in reports.
fn publishing(
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

async fn run_matrix(
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

fn borrowed_case(root: &Path, spec: Option<&str>) -> Result<Case> {
    let Some(spec) = spec else {
        return Ok(Case::program(
            "eval/program",
            String::new(),
            PathBuf::from("<eval>"),
            1,
        ));
    };
    let (dirs, id) = match spec.rsplit_once(':') {
        Some((file, id)) => {
            let file = PathBuf::from(file);
            let catalogue = load_one_file(&file)?;
            return catalogue
                .get(id)
                .cloned()
                .ok_or_else(|| Error::Usage(format!("{} has no case {id}", file.display())));
        }
        None => (vec![root.join("cases")], spec),
    };
    let catalogue = load_dirs(&dirs)?;
    catalogue
        .get(id)
        .cloned()
        .ok_or_else(|| Error::Usage(format!("no case {id} in cases/")))
}

fn load_one_file(file: &Path) -> Result<Catalogue> {
    let dir = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let catalogue = load_dirs(&[dir.to_path_buf()])?;
    Ok(Catalogue {
        cases: catalogue
            .cases
            .into_iter()
            .filter(|c| c.file == file || c.file.ends_with(file))
            .collect(),
    })
}

/// `eval`'s program: its code (default: the case's own), the case it borrows from, and
/// whether outcomes print whole.
struct Program {
    code: Option<String>,
    case: Option<String>,
    full: bool,
}

async fn run_eval(
    root: &Path,
    program: Program,
    columns: Vec<String>,
    token_file: Option<&Path>,
) -> Result<ExitCode> {
    let case = borrowed_case(root, program.case.as_deref())?;
    let code = match (program.code, &program.case) {
        (Some(code), _) => code,
        (None, Some(_)) => case.code.clone(),
        (None, None) => {
            return Err(Error::Usage(
                "eval needs a program, or --case to run that case's own program".into(),
            ));
        }
    };
    let Plan {
        ours: ours_column,
        extra,
        columns,
        toolchain,
    } = plan_columns(root, &columns, token_file).await?;
    let (sides, failed) = start_columns(root, toolchain.as_ref(), columns).await;
    let mut outcomes: Vec<(String, Value)> = Vec::new();
    let ours = OursSide::new(IsolateExecutor::default());
    if ours_column {
        outcomes.push((OURS.into(), ours.run(&case, &code).await));
    }
    for column in extra {
        let name = column.name().to_string();
        outcomes.push((name, eval_extra(column, &case, &code).await));
    }
    for side in &sides {
        let outcome = match side.run(&case, &code).await {
            Ok(outcome) => outcome,
            Err(message) => serde_json::json!({"error of the side": message}),
        };
        outcomes.push((side.column.name.clone(), outcome));
    }
    for (column, message) in failed {
        outcomes.push((
            column.name,
            serde_json::json!({"error of the side": message}),
        ));
    }
    for side in &sides {
        side.stop().await;
    }
    ours.dispose().await;
    // Group columns whose outcomes agree.
    let mut groups: Vec<(Vec<String>, Value)> = Vec::new();
    for (column, outcome) in outcomes {
        match groups.iter_mut().find(|(_, o)| *o == outcome) {
            Some((names, _)) => names.push(column),
            None => groups.push((vec![column], outcome)),
        }
    }
    for (names, outcome) in &groups {
        let stored = Stored::of(outcome);
        if program.full || !stored.elided() {
            println!("[{}]\n{}", names.join(" "), pretty(outcome));
        } else {
            println!(
                "[{}] elided as reports elide it ({} bytes whole, {}; --full prints it whole)\n{}",
                names.join(" "),
                stored.bytes,
                stored.digest,
                pretty(&stored.shown)
            );
        }
    }
    Ok(if groups.len() > 1 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
