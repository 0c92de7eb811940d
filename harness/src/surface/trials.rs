//! The inventory as tests in the catalogue's run (libtest-mimic trials named `surface::…`):
//! `surface::table` checks the table alone, `surface::ours` measures a live sandbox of ours,
//! and `surface::<column>` measures the live reference column (the newest configured one).
//! With [`RECORD_ENV`](super::RECORD_ENV) set, the reference trial measures both sides and
//! rewrites the table and its summary instead of comparing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode_executor::isolate::IsolateExecutor;
use libtest_mimic::{Arguments, Failed, Trial};

use super::{
    Inventory, Measurement, PROBE, RECORD_ENV, SUMMARY, Side, counts, diff, load, measurement,
    record, render_markdown, unexplained, write,
};
use crate::catalogue::Case;
use crate::sides::ours::OursSide;
use crate::sides::reference::ReferenceSide;

/// The fewest reference globals ours must have with the same `typeof` (the bar).
pub const MIN_SAME_GLOBALS: usize = 120;

/// The prefix of every surface trial.
pub const PREFIX: &str = "surface";

fn recording() -> bool {
    std::env::var_os(RECORD_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Whether the selected tests include the surface trial of reference column `column`.
pub fn wanted(args: &Arguments, column: &str) -> bool {
    let probe = Trial::test(format!("{PREFIX}::{column}"), || Ok(()));
    !args.list && !args.is_filtered_out(&probe) && !args.is_ignored(&probe)
}

/// The case the probe runs as: no tools, the default bound.
fn probe_case() -> Case {
    Case::program("surface/inventory", PROBE, PathBuf::from(super::TABLE), 0)
}

fn failed(lines: Vec<String>, what: &str) -> Result<(), Failed> {
    if lines.is_empty() {
        return Ok(());
    }
    Err(Failed::from(format!(
        "{what}:\n  {}\nRe-record with `{RECORD_ENV}=1 cargo test --test catalogue surface` and give every difference a reason.",
        lines.join("\n  ")
    )))
}

/// `surface::table`: every difference has a reason, the summary is current, and ours has at
/// least [`MIN_SAME_GLOBALS`] of the reference's globals with the same `typeof`.
pub fn table_trial(root: &Path) -> Trial {
    let root = root.to_path_buf();
    Trial::test(format!("{PREFIX}::table"), move || {
        if recording() {
            return Ok(());
        }
        let table = load(&root).map_err(|e| Failed::from(e.to_string()))?;
        failed(unexplained(&table), "differences without a reason")?;
        let summary = std::fs::read_to_string(root.join(SUMMARY)).unwrap_or_default();
        if summary != render_markdown(&table) {
            return Err(Failed::from(format!(
                "{SUMMARY} is not the summary of the table; re-record with {RECORD_ENV}=1"
            )));
        }
        let globals = counts(&table, "global");
        if globals.same < MIN_SAME_GLOBALS {
            return Err(Failed::from(format!(
                "ours has {} of the reference's {} globals with the same typeof; at least {MIN_SAME_GLOBALS} are required",
                globals.same, globals.reference
            )));
        }
        Ok(())
    })
}

async fn measure_ours(ours: &OursSide<IsolateExecutor>) -> Result<Measurement, String> {
    measurement(&ours.run(&probe_case(), PROBE).await)
}

async fn measure_reference(side: &ReferenceSide) -> Result<Measurement, String> {
    measurement(&side.run(&probe_case(), PROBE).await?)
}

/// `surface::ours`: a live sandbox of ours against the table's `ours` column.
pub fn ours_trial(
    root: &Path,
    ours: Arc<OursSide<IsolateExecutor>>,
    runtime: Arc<tokio::runtime::Runtime>,
) -> Trial {
    let root = root.to_path_buf();
    Trial::test(format!("{PREFIX}::ours"), move || {
        if recording() {
            return Ok(());
        }
        let table = load(&root).map_err(|e| Failed::from(e.to_string()))?;
        let measured = runtime
            .block_on(measure_ours(&ours))
            .map_err(Failed::from)?;
        failed(
            diff(&table, Side::Ours, &measured),
            "our surface differs from the table",
        )
    })
}

/// `surface::<column>`: the live reference column against the table's `reference` column
/// (or, when recording, both sides written as the new table).
pub fn reference_trial(
    root: &Path,
    column: &str,
    side: Option<Result<Arc<ReferenceSide>, String>>,
    ours: Arc<OursSide<IsolateExecutor>>,
    runtime: Arc<tokio::runtime::Runtime>,
) -> Trial {
    let root = root.to_path_buf();
    let column = column.to_string();
    Trial::test(format!("{PREFIX}::{column}"), move || {
        let side = match side {
            Some(Ok(side)) => side,
            Some(Err(message)) => {
                return Err(Failed::from(format!("{column} could not start: {message}")));
            }
            None => return Err(Failed::from(format!("{column} was not started"))),
        };
        let measured = runtime
            .block_on(measure_reference(&side))
            .map_err(Failed::from)?;
        if recording() {
            let ours = runtime
                .block_on(measure_ours(&ours))
                .map_err(Failed::from)?;
            let old: Option<Inventory> = load(&root).ok();
            let table = record(old.as_ref(), &column, &measured, &ours);
            let written = write(&root, &table).map_err(|e| Failed::from(e.to_string()))?;
            for path in written {
                eprintln!("surface: wrote {}", path.display());
            }
            return failed(
                unexplained(&table),
                "recorded; these differences need a reason",
            );
        }
        let table = load(&root).map_err(|e| Failed::from(e.to_string()))?;
        if table.column != column {
            return Err(Failed::from(format!(
                "the table was measured on {}, the newest column is {column}; re-record with {RECORD_ENV}=1",
                table.column
            )));
        }
        failed(
            diff(&table, Side::Reference, &measured),
            "the reference's surface differs from the table",
        )
    })
}
