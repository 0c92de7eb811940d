//! `test262`: runs tests of the ECMAScript conformance suite (a checkout of
//! `tc39/test262` the user brings) on the columns, each test turned into a codemode program
//! ([`program`]), and reports per directory how many tests the reference passes and how many
//! of those ours passes ([`report`]).
//!
//! The pieces, one concept each: [`metadata`] (a test's frontmatter and the rules that leave
//! a test out, with their reasons), [`select`] (the files, `--filter`, `--sample`),
//! [`program`] (the program a test becomes, and the verdict on an outcome), [`report`] (the
//! per-directory counts, the text and the JSON), [`messages`] (the message mode: the error
//! texts each side recorded, compared per directory and grouped by shape).
//!
//! Guarantees: every test runs through each side's normal execute path (the same sides, and
//! the same crash and restart handling, as `explore`), under a bound of
//! [`program::BOUND_MS`]; a side that cannot run a test fails that test on that side, never
//! the run; every reference column started is stopped before the command returns; the same
//! suite, filters, sample and seed run the same tests.

pub mod cli;
pub mod messages;
pub mod metadata;
pub mod program;
pub mod report;
pub mod select;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode_executor::protocol::Executor;
use serde_json::Value;

use crate::catalogue::Case;
use crate::error::{Error, Result};
use crate::explore::run::{Columns, observe};
use crate::sides::ours::OursSide;
use crate::sides::reference::{ReferenceColumn, Toolchain};
use report::{ColumnVerdict, Report, TestResult};
use select::{Filter, Sample, Selection};

/// How many requests each reference column serves at once.
const REFERENCE_PERMITS: usize = 4;

/// What `test262` is asked to do.
pub struct Request {
    /// The suite's root (holds `harness/` and `test/`).
    pub dir: PathBuf,
    /// The filters; a test runs when any matches (every test when there are none).
    pub filters: Vec<Filter>,
    /// How many of each filter's tests run, when not all.
    pub sample: Option<Sample>,
    /// Tests in flight at once.
    pub concurrency: usize,
    /// The command line that reproduces the run, for the reports' headers.
    pub command_line: String,
    /// The message mode: the tests record their error texts, which are compared.
    pub messages: bool,
    /// Reference columns recorded by an earlier message-mode run, read instead of run.
    pub recorded: Option<messages::Recording>,
}

/// The case a test runs as: no tools, the test's program, the bound.
pub fn case_for(test: &select::Test, suite: &Path) -> Case {
    let mut case = Case::program(
        format!("test262/{}", test.path),
        test.program.clone(),
        suite.join("test").join(&test.path),
        1,
    );
    case.options.timeout_ms = Some(program::BOUND_MS);
    case.expect.result = Some(Value::String("pass".into()));
    case
}

/// Runs the selected tests on the columns and judges every outcome.
pub async fn run<N: Executor + 'static>(
    request: &Request,
    selection: &Selection,
    columns: &Columns<'_, N>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Report {
    let cases: Vec<Arc<Case>> = selection
        .tests
        .iter()
        .map(|t| Arc::new(case_for(t, &request.dir)))
        .collect();
    let outcomes = observe(&cases, columns, request.concurrency, progress).await;
    let tests = selection
        .tests
        .iter()
        .zip(outcomes)
        .map(|(test, outcomes)| TestResult {
            path: test.path.clone(),
            verdicts: outcomes
                .iter()
                .map(|o| ColumnVerdict::from(&program::verdict(o, &test.expectation)))
                .collect(),
        })
        .collect();
    report::build(
        request.command_line.clone(),
        request.dir.display().to_string(),
        columns.names(),
        selection.runnable,
        selection.left_out.clone(),
        tests,
    )
}

/// Selects the tests, starts the reference columns (all at once), runs, stops them, and
/// writes `<out>/test262.json` and `<out>/test262.txt`. A column that cannot start stops the
/// command, with the reason, after the others are stopped.
pub async fn command<N: Executor + 'static>(
    root: &Path,
    request: Request,
    ours: Option<Arc<OursSide<N>>>,
    references: Vec<ReferenceColumn>,
    toolchain: Option<&Toolchain>,
    out: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report> {
    let selection = select_tests(&request)?;
    let columns = Columns::start(
        root,
        "test262",
        references,
        ours,
        toolchain,
        REFERENCE_PERMITS,
    )
    .await?;
    let report = run(&request, &selection, &columns, progress).await;
    columns.stop().await;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let json = out.join("test262.json");
    let text = serde_json::to_string_pretty(&report).expect("the report serializes");
    std::fs::write(&json, text).map_err(|e| Error::io(&json, e))?;
    let summary = out.join("test262.txt");
    std::fs::write(&summary, report.text()).map_err(|e| Error::io(&summary, e))?;
    Ok(report)
}

/// The request's tests, refused with a sentence when none is runnable.
fn select_tests(request: &Request) -> Result<Selection> {
    let selection = select::select_for(
        &request.dir,
        &request.filters,
        request.sample,
        request.messages,
    )?;
    if selection.tests.is_empty() {
        return Err(Error::Usage(format!(
            "no runnable test262 test under {} matches the filters ({} left out)",
            request.dir.display(),
            selection.left_out.values().sum::<usize>()
        )));
    }
    Ok(selection)
}

/// The message mode: selects the tests that make error texts, runs them on the columns (the
/// recorded columns, when the request has a recording, come first, read instead of run), and
/// writes `<out>/messages.json` (every test's program and outcomes, first, so a run is never
/// lost), `<out>/messages.yaml` (the catalogue of disagreements) and `<out>/messages.txt`.
pub async fn messages_command<N: Executor + 'static>(
    root: &Path,
    request: Request,
    ours: Option<Arc<OursSide<N>>>,
    references: Vec<ReferenceColumn>,
    toolchain: Option<&Toolchain>,
    out: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<messages::MessageReport> {
    let selection = select_tests(&request)?;
    let recorded = match &request.recorded {
        Some(recording) => Some((
            recording.columns.clone(),
            recording.outcomes_for(
                selection
                    .tests
                    .iter()
                    .map(|t| (t.path.as_str(), t.program.as_str())),
            )?,
        )),
        None => None,
    };
    let columns = Columns::start(
        root,
        "test262",
        references,
        ours,
        toolchain,
        REFERENCE_PERMITS,
    )
    .await?;
    let cases: Vec<Arc<Case>> = selection
        .tests
        .iter()
        .map(|t| Arc::new(case_for(t, &request.dir)))
        .collect();
    let mut outcomes = observe(&cases, &columns, request.concurrency, progress).await;
    let mut names = columns.names();
    columns.stop().await;
    if let Some((recorded_names, recorded)) = recorded {
        names.splice(0..0, recorded_names);
        for (observed, mut before) in outcomes.iter_mut().zip(recorded) {
            before.append(observed);
            *observed = before;
        }
    }
    let tests: Vec<messages::MessageTest> = selection
        .tests
        .into_iter()
        .zip(outcomes)
        .map(|(test, outcomes)| messages::MessageTest {
            path: test.path,
            code: test.program,
            outcomes,
        })
        .collect();
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let raw = out.join("messages.json");
    let text = serde_json::to_string(&messages::raw(&names, &tests)).expect("JSON serializes");
    std::fs::write(&raw, text).map_err(|e| Error::io(&raw, e))?;
    let report = messages::build(request.command_line.clone(), names, &tests);
    let catalogue = out.join("messages.yaml");
    let text = report.catalogue(&tests, &catalogue)?;
    std::fs::write(&catalogue, text).map_err(|e| Error::io(&catalogue, e))?;
    let summary = out.join("messages.txt");
    std::fs::write(&summary, report.text()).map_err(|e| Error::io(&summary, e))?;
    Ok(report)
}
