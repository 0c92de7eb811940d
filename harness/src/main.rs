//! `codemode-compat`: the command line. `matrix` runs the catalogue on every column and
//! writes the reports; `accept` makes a written report the baseline; `eval` runs one program
//! on every column and shows the outcomes side by side; `columns` lists the published
//! releases against the columns (and adds one); `bisect` runs one case across releases;
//! `explore` runs generated programs and writes disagreements as cases; `test262` runs the
//! conformance suite; `wpt` runs the Web Platform Tests' data files; `merge` joins
//! per-column reports; a hidden `serve` is the executor daemon the remote column starts. This
//! file parses the command line and dispatches; each command lives in its module under
//! `commands`. `docs/harness.md` is the guide.

use std::path::PathBuf;
use std::process::ExitCode;

mod commands;

use clap::{Parser, Subcommand};
use codemode_compat::sampling::SamplingOptions;
use codemode_compat::shard::Shard;
use codemode_compat::sides::reference::install_exit_guards;
use commands::eval::Program;
use commands::matrix::{Reporting, Running, Wanted};

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
        /// Compare the error texts the tests make (each assert.throws's caught error, a
        /// harness failure, a parse-negative test's SyntaxError) instead of pass rates:
        /// writes messages.json, messages.yaml (the disagreements as cases) and messages.txt.
        #[arg(long)]
        messages: bool,
        /// With --messages: take the reference columns from an earlier run's messages.json
        /// (same suite and filters) instead of running them; only ours runs.
        #[arg(long, value_name = "FILE")]
        recorded: Option<PathBuf>,
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
    Serve(commands::serve::Serve),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The daemon runs on its own: no project root, no exit guards of the harness's.
    let cli = match cli.command {
        Command::Serve(args) => return commands::serve::run(args),
        command => Cli { command, ..cli },
    };
    codemode_compat::usage::bound_malloc_arenas();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let outcome = runtime.block_on(async {
        install_exit_guards(true);
        let root = match cli.root.clone().map(Ok).unwrap_or_else(commands::find_root) {
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
                commands::matrix::run(
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
                commands::eval::run(
                    &root,
                    Program { code, case, full },
                    columns,
                    remote_token_file.as_deref(),
                )
                .await
            }
            Command::Accept { report, baseline } => {
                commands::matrix::accept(&root, report, baseline)
            }
            Command::Columns { add, json } => commands::releases::columns(&root, add, json).await,
            Command::Bisect {
                case,
                from,
                to,
                concurrency,
            } => {
                let case = commands::eval::borrowed_case(&root, Some(&case))?;
                commands::releases::bisect(&root, case, &from, &to, concurrency).await
            }
            Command::Explore {
                generator,
                count,
                sampling,
                out,
                recorded,
            } => commands::explore::run(&root, generator, count, sampling, out, recorded).await,
            Command::Test262 {
                dir,
                filters,
                sample,
                sampling,
                out,
                messages,
                recorded,
            } => {
                commands::test262::run(
                    &root, dir, filters, sample, sampling, out, messages, recorded,
                )
                .await
            }
            Command::Wpt {
                dir,
                files,
                columns,
                out,
                concurrency,
            } => commands::wpt::run(&root, dir, files, columns, out, concurrency).await,
            Command::Serve(_) => unreachable!("served before the runtime starts"),
            Command::Merge { reports, out } => commands::matrix::merge(&root, &reports, out),
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
