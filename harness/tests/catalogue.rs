//! The catalogue as tests: one test per cell, named `<column>::<case id>`, through
//! libtest-mimic, so `cargo test` prints libtest's output and takes its filters and `--list`.
//!
//! The `ours` cells need nothing outside the process. The `remote` cells run ours behind the
//! executor daemon, which the harness builds (a no-op when fresh) and starts once, on a
//! loopback port with a fresh token, when a selected test needs it. The reference cells start every
//! configured `wrangler dev` column, all at once (installing the reference toolchain from its
//! lockfile first when needed), so CI covers every column; a column is only started when a
//! selected, non-ignored test needs it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode_compat::catalogue::{Case, load_dirs};
use codemode_compat::cell::{Cell, Status};
use codemode_compat::matrix::{OURS, QUIET_RETRIES, reference_cell};
use codemode_compat::sides::ours::OursSide;
use codemode_compat::sides::reference::column_concurrency;
use codemode_compat::sides::reference::{
    ReferenceSide, discover, ensure_installed, install_exit_guards, select,
};
use codemode_compat::sides::remote::{REMOTE, RemoteColumn, RemoteSide, remote_cell};
use codemode_compat::surface::trials as surface;
use codemode_executor::isolate::IsolateExecutor;
use libtest_mimic::{Arguments, Completion, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let root: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the harness lives in the workspace")
        .to_path_buf();
    let catalogue = match load_dirs(&[root.join("cases")]) {
        Ok(catalogue) => catalogue,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(101);
        }
    };
    let runtime = Arc::new(
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime"),
    );
    let _guard = runtime.enter();
    install_exit_guards(false);
    let ours = Arc::new(OursSide::new(IsolateExecutor::default()));
    let cases: Vec<Arc<Case>> = catalogue.cases.into_iter().map(Arc::new).collect();

    let mut trials: Vec<Trial> = cases
        .iter()
        .map(|case| ours_trial(case.clone(), ours.clone(), runtime.clone()))
        .collect();
    // The remote column: one daemon, started only when a selected test needs it.
    let remote_wanted = !args.list
        && cases.iter().any(|case| {
            let probe = Trial::test(format!("{REMOTE}::{}", case.id), || Ok(()));
            !args.is_filtered_out(&probe) && !args.is_ignored(&probe)
        });
    let remote: Option<Result<Arc<RemoteSide>, String>> = remote_wanted.then(|| {
        runtime
            .block_on(RemoteSide::start(RemoteColumn::local()))
            .map(Arc::new)
            .map_err(|e| e.to_string())
    });
    trials.extend(
        cases
            .iter()
            .map(|case| remote_trial(case.clone(), remote.clone(), ours.clone(), runtime.clone())),
    );
    trials.push(surface::table_trial(&root));
    trials.push(surface::ours_trial(&root, ours.clone(), runtime.clone()));

    // Reference columns: named from the installed toolchain; started only when needed.
    let toolchain = ensure_installed(&root);
    let columns = toolchain
        .as_ref()
        .map_err(|e| e.to_string())
        .and_then(|t| discover(t).map_err(|e| e.to_string()));
    let mut sides: Vec<Arc<ReferenceSide>> = Vec::new();
    match (&toolchain, columns) {
        (Ok(toolchain), Ok(columns)) => {
            // The surface inventory is measured on the newest column.
            let latest = select(&columns, "reference@latest")
                .ok()
                .map(|c| c.name.clone());
            let wanted = |name: &str| {
                cases.iter().any(|case| {
                    let probe = Trial::test(format!("{name}::{}", case.id), || Ok(()));
                    !args.is_filtered_out(&probe) && !args.is_ignored(&probe)
                }) || (latest.as_deref() == Some(name) && surface::wanted(&args, name))
            };
            // Every wanted column starts at once; they all stay up while the trials run.
            let state = root.join("reference-worker/.wrangler-state");
            let wanted_columns: Vec<bool> = columns
                .iter()
                .map(|c| !args.list && wanted(&c.name))
                .collect();
            let fit = column_concurrency(None, columns.len());
            let running = wanted_columns.iter().filter(|w| **w).count();
            if running > fit {
                eprintln!(
                    "note: {running} reference columns start at once, more than the {fit} the available memory budgets for"
                );
            }
            let started = runtime.block_on(futures::future::join_all(
                columns.iter().zip(&wanted_columns).map(|(column, wanted)| {
                    let state = state.clone();
                    async move {
                        if !*wanted {
                            return None;
                        }
                        Some(
                            ReferenceSide::start(toolchain, column.clone(), &state, 4)
                                .await
                                .map(Arc::new)
                                .map_err(|e| e.to_string()),
                        )
                    }
                }),
            ));
            for (column, side) in columns.into_iter().zip(started) {
                let name = column.name.clone();
                if let Some(Ok(side)) = &side {
                    sides.push(side.clone());
                }
                if latest.as_deref() == Some(name.as_str()) {
                    trials.push(surface::reference_trial(
                        &root,
                        &name,
                        side.clone(),
                        ours.clone(),
                        runtime.clone(),
                    ));
                }
                for case in &cases {
                    trials.push(reference_trial(
                        &name,
                        case.clone(),
                        side.clone(),
                        ours.clone(),
                        runtime.clone(),
                    ));
                }
            }
        }
        (Err(error), _) => trials.push(failing("reference::toolchain", error.to_string())),
        (Ok(_), Err(error)) => trials.push(failing("reference::columns", error)),
    }

    let conclusion = libtest_mimic::run(&args, trials);
    for side in &sides {
        runtime.block_on(side.stop());
    }
    if let Some(Ok(remote)) = &remote {
        runtime.block_on(remote.stop());
    }
    runtime.block_on(ours.dispose());
    conclusion.exit();
}

fn failing(name: &str, message: String) -> Trial {
    Trial::test(name, move || Err(Failed::from(message)))
}

fn ours_trial(
    case: Arc<Case>,
    ours: Arc<OursSide<IsolateExecutor>>,
    runtime: Arc<tokio::runtime::Runtime>,
) -> Trial {
    Trial::test(format!("{OURS}::{}", case.id), move || {
        let outcome = runtime.block_on(ours.run(&case, &case.code));
        verdict(&case, OURS, Cell::judge(&case, outcome, None, OURS, OURS))
    })
}

fn remote_trial(
    case: Arc<Case>,
    side: Option<Result<Arc<RemoteSide>, String>>,
    ours: Arc<OursSide<IsolateExecutor>>,
    runtime: Arc<tokio::runtime::Runtime>,
) -> Trial {
    Trial::test(format!("{REMOTE}::{}", case.id), move || {
        let side = match side {
            Some(Ok(side)) => side,
            Some(Err(message)) => {
                return Err(Failed::from(format!("{REMOTE} could not start: {message}")));
            }
            None => return Err(Failed::from(format!("{REMOTE} was not started"))),
        };
        let cell = runtime.block_on(async {
            let ours = ours.run(&case, &case.code).await;
            remote_cell(&case, &side, &ours).await
        });
        verdict(&case, REMOTE, cell)
    })
}

fn reference_trial(
    column: &str,
    case: Arc<Case>,
    side: Option<Result<Arc<ReferenceSide>, String>>,
    ours: Arc<OursSide<IsolateExecutor>>,
    runtime: Arc<tokio::runtime::Runtime>,
) -> Trial {
    let name = format!("{column}::{}", case.id);
    let column = column.to_string();
    Trial::ignorable_test(name, move || {
        if !case.reference {
            return Ok(Completion::ignored_with(
                case.reason.clone().unwrap_or_default(),
            ));
        }
        let side = match side {
            Some(Ok(side)) => side,
            Some(Err(message)) => {
                return Err(Failed::from(format!("{column} could not start: {message}")));
            }
            None => return Err(Failed::from(format!("{column} was not started"))),
        };
        if let Some(skip) = case.skip_for(&side.column.version()) {
            return Ok(Completion::ignored_with(format!(
                "skip_on {}: {}",
                skip.versions, skip.reason
            )));
        }
        let cell = runtime.block_on(async {
            let ours = ours.run(&case, &case.code).await;
            let mut cell = reference_cell(&case, &side, &ours, false).await;
            // The reference's own flakes under load, for the cases that declare them.
            for attempt in 1..=QUIET_RETRIES {
                if !case.timing_sensitive || cell.status == Status::Pass {
                    break;
                }
                cell = reference_cell(&case, &side, &ours, false).await;
                if cell.status == Status::Pass {
                    eprintln!(
                        "note: {column}::{} passed on run {} (timing-sensitive: the reference moved under load)",
                        case.id,
                        attempt + 1
                    );
                }
            }
            cell
        });
        verdict(&case, &column, cell).map(|()| Completion::Completed)
    })
}

fn verdict(case: &Case, column: &str, cell: Cell) -> Result<(), Failed> {
    match cell.status {
        Status::Pass => Ok(()),
        _ => Err(Failed::from(cell.failure_message(case, column))),
    }
}
