//! `wpt`: runs the data-driven files of the Web Platform Tests (a checkout of
//! `web-platform-tests/wpt` the user brings) on the columns, entry by entry, each entry
//! turned into a codemode program that asks the platform WPT's questions ([`suite`]), and
//! reports per file how many entries the reference answers as WPT expects ([`judge`]) and how
//! many of those ours answers as the reference does; every entry where ours and the reference
//! answer differently is written as a candidate case ([`report`]).
//!
//! The pieces, one concept each: [`data`] (WPT's JSON, lone surrogates and all), [`suite`]
//! (the files and their entries' programs), [`judge`] (WPT's expectations), [`report`] (the
//! counts, the text, the JSON and the candidates).
//!
//! Guarantees: every entry runs through each side's normal execute path (the same sides, and
//! the same crash and restart handling, as `explore` and `test262`), under a bound of
//! [`BOUND_MS`]; a side that cannot run an entry fails that entry on that side, never the
//! run; every reference column started is stopped before the command returns; the same
//! checkout and file selection run the same programs.

pub mod cli;
pub mod data;
pub mod judge;
pub mod report;
pub mod suite;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode_executor::protocol::Executor;

use crate::catalogue::Case;
use crate::error::{Error, Result};
use crate::explore::run::{Columns, observe};
use crate::sides::ours::OursSide;
use crate::sides::reference::{ReferenceColumn, Toolchain};
use report::Report;
use suite::{Entry, WptFile};

/// How many requests each reference column serves at once.
const REFERENCE_PERMITS: usize = 4;

/// The bound each entry's program runs under on every side, in milliseconds.
pub const BOUND_MS: u64 = 10_000;

/// What `wpt` is asked to do.
pub struct Request {
    /// The WPT checkout's root (holds `url/`, `urlpattern/`, `encoding/`).
    pub dir: PathBuf,
    /// The files to run, in report order.
    pub files: Vec<WptFile>,
    /// Entries in flight at once.
    pub concurrency: usize,
    /// The command line that reproduces the run, for the reports' headers.
    pub command_line: String,
}

/// The case an entry runs as: no tools, the entry's program, the bound.
pub fn case_for(entry: &Entry, checkout: &Path) -> Case {
    let mut case = Case::program(
        report::case_id(entry),
        entry.program.clone(),
        checkout.join(entry.file),
        1,
    );
    case.options.timeout_ms = Some(BOUND_MS);
    case
}

/// Reads every requested file's entries; a file missing or not in WPT's shape is refused,
/// naming it.
pub fn read(request: &Request) -> Result<(Box<report::Files>, Vec<Entry>)> {
    let mut files = Vec::new();
    let mut entries = Vec::new();
    for file in &request.files {
        let read = suite::read(&request.dir, file)?;
        files.push((file.path, read.left_out));
        entries.extend(read.entries);
    }
    Ok((files.into_boxed_slice(), entries))
}

/// Runs the entries on the columns and builds the report.
pub async fn run<N: Executor + 'static>(
    request: &Request,
    columns: &Columns<'_, N>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report> {
    let (files, entries) = read(request)?;
    let cases: Vec<Arc<Case>> = entries
        .iter()
        .map(|e| Arc::new(case_for(e, &request.dir)))
        .collect();
    let outcomes = observe(&cases, columns, request.concurrency, progress).await;
    Ok(report::build(
        request.command_line.clone(),
        request.dir.display().to_string(),
        columns.names(),
        &files,
        &entries,
        &outcomes,
    ))
}

/// Reads the files, starts the reference columns (all at once), runs, stops them, and writes
/// `<out>/wpt.json`, `<out>/wpt.txt` and `<out>/wpt-candidates.yaml`. A column that cannot
/// start stops the command, with the reason, after the others are stopped.
pub async fn command<N: Executor + 'static>(
    root: &Path,
    request: Request,
    ours: Option<Arc<OursSide<N>>>,
    references: Vec<ReferenceColumn>,
    toolchain: Option<&Toolchain>,
    out: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report> {
    // The files are read (and refused) before any column is started.
    read(&request)?;
    let columns =
        Columns::start(root, "wpt", references, ours, toolchain, REFERENCE_PERMITS).await?;
    let report = run(&request, &columns, progress).await;
    columns.stop().await;
    let report = report?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let candidates = out.join("wpt-candidates.yaml");
    let text = report.candidates(&candidates)?;
    std::fs::write(&candidates, text).map_err(|e| Error::io(&candidates, e))?;
    let json = out.join("wpt.json");
    let text = serde_json::to_string_pretty(&report).expect("the report serializes");
    std::fs::write(&json, text).map_err(|e| Error::io(&json, e))?;
    let summary = out.join("wpt.txt");
    std::fs::write(&summary, report.text()).map_err(|e| Error::io(&summary, e))?;
    Ok(report)
}
