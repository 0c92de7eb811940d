//! Running programs on the columns: ours in process and each reference column under
//! `wrangler dev`, through the same sides the matrix uses, so an outcome here is exactly
//! what the matrix would see for the same case.
//!
//! Guarantees: at most `concurrency` programs are in flight at once (each runs on every
//! column side by side; a reference column bounds its own requests as in the matrix); a
//! program that panics our side, or outlasts its bound plus [`GRACE`] on any side, costs that
//! program on that side (an `Err` naming what happened), never the run; a reference column
//! that dies is started again (see [`LiveColumn`]); outcomes come back in program order
//! whatever order they finished in.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codemode_executor::protocol::Executor;
use futures::stream::{self, StreamExt};
use serde_json::Value;

use crate::catalogue::Case;
use crate::matrix::OURS;
use crate::sides::ours::OursSide;
use crate::sides::reference::{ReferenceSide, Toolchain};
use tokio::sync::RwLock;

/// How long past a program's own bound a side may take before the program counts as lost
/// on that side.
pub const GRACE: Duration = Duration::from_secs(30);

/// The bound a program runs under when its options name none (the executors' default).
const DEFAULT_BOUND: Duration = Duration::from_secs(60);

/// How many times a reference column that stops answering is started again in one run.
pub const RESTARTS: usize = 3;

/// The columns a run compares, in report order: the reference columns as given (the first
/// one decides what is expected), then ours.
pub struct Columns<'a, N> {
    /// The reference columns, in order; the first decides what is expected.
    pub references: Vec<LiveColumn<'a>>,
    /// Ours, when it runs.
    pub ours: Option<Arc<OursSide<N>>>,
}

impl<'a, N> Columns<'a, N> {
    /// Starts the reference columns (all at once, when there is a toolchain), each with its
    /// state under `reference-worker/.wrangler-state/<command>`, beside ours. A column that
    /// cannot start stops the others and refuses with its reason; no column at all is a usage
    /// error naming `command`.
    pub async fn start(
        root: &std::path::Path,
        command: &str,
        references: Vec<crate::sides::reference::ReferenceColumn>,
        ours: Option<Arc<OursSide<N>>>,
        toolchain: Option<&'a Toolchain>,
        permits: usize,
    ) -> crate::error::Result<Self> {
        let state = root.join("reference-worker/.wrangler-state").join(command);
        let references = match toolchain {
            Some(toolchain) => start_columns(toolchain, references, &state, permits).await?,
            None => Vec::new(),
        };
        let columns = Columns { references, ours };
        if columns.names().is_empty() {
            return Err(crate::error::Error::Usage(format!(
                "{command} needs at least one column"
            )));
        }
        Ok(columns)
    }

    /// The column names, in the order outcomes are reported.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.references.iter().map(|c| c.name.clone()).collect();
        if self.ours.is_some() {
            names.push(OURS.to_string());
        }
        names
    }

    /// Stops every reference column.
    pub async fn stop(&self) {
        for column in &self.references {
            column.side.read().await.stop().await;
        }
    }
}

/// A reference column during a run. When a program fails on it and the column no longer
/// answers its health check (its workerd died), the column is stopped and started again, at
/// most [`RESTARTS`] times a run, and the program is tried once more on the new process: a
/// program that takes the column down costs that program, not the rest of the run.
pub struct LiveColumn<'a> {
    /// The column's name.
    pub name: String,
    side: RwLock<Arc<ReferenceSide>>,
    restarts: AtomicUsize,
    toolchain: &'a Toolchain,
    state_dir: PathBuf,
    permits: usize,
}

impl<'a> LiveColumn<'a> {
    /// A started column, and what starting it again takes.
    pub fn new(
        side: ReferenceSide,
        toolchain: &'a Toolchain,
        state_dir: PathBuf,
        permits: usize,
    ) -> Self {
        LiveColumn {
            name: side.column.name.clone(),
            side: RwLock::new(Arc::new(side)),
            restarts: AtomicUsize::new(0),
            toolchain,
            state_dir,
            permits,
        }
    }

    /// How many times the column was started again.
    pub fn restarts(&self) -> usize {
        self.restarts.load(Ordering::SeqCst)
    }

    async fn current(&self) -> Arc<ReferenceSide> {
        self.side.read().await.clone()
    }

    /// Starts the column again unless another program already did since `seen` was current.
    async fn restart(&self, seen: &Arc<ReferenceSide>) -> Result<(), String> {
        let mut side = self.side.write().await;
        if !Arc::ptr_eq(&side, seen) {
            return Ok(());
        }
        if self.restarts() >= RESTARTS {
            return Err(format!(
                "{} stopped answering and was started again {RESTARTS} times already",
                self.name
            ));
        }
        side.stop().await;
        self.restarts.fetch_add(1, Ordering::SeqCst);
        let column = side.column.clone();
        let started = ReferenceSide::start(self.toolchain, column, &self.state_dir, self.permits)
            .await
            .map_err(|e| format!("{} could not be started again: {e}", self.name))?;
        *side = Arc::new(started);
        Ok(())
    }

    /// One program on this column, with a restart and one more try if the column died.
    async fn run(&self, case: &Case, bound: Duration) -> Result<Value, String> {
        let side = self.current().await;
        let failure = match attempt(&side, case, bound).await {
            Ok(outcome) => return Ok(outcome),
            Err(failure) => failure,
        };
        if side.healthy().await {
            return Err(failure);
        }
        self.restart(&side)
            .await
            .map_err(|why| format!("{failure}; {why}"))?;
        let side = self.current().await;
        attempt(&side, case, bound)
            .await
            .map_err(|again| format!("{failure}; after {} was started again: {again}", self.name))
    }
}

/// Starts every reference column at once, each serving `permits` requests at a time. A
/// column that cannot start fails the whole start, with its reason, after the columns that
/// did start are stopped.
pub async fn start_columns<'a>(
    toolchain: &'a Toolchain,
    references: Vec<crate::sides::reference::ReferenceColumn>,
    state: &std::path::Path,
    permits: usize,
) -> crate::error::Result<Vec<LiveColumn<'a>>> {
    let started = futures::future::join_all(references.into_iter().map(|column| async move {
        ReferenceSide::start(toolchain, column, state, permits).await
    }))
    .await;
    let mut sides = Vec::new();
    let mut failure = None;
    for side in started {
        match side {
            Ok(side) => sides.push(side),
            Err(error) => failure = failure.or(Some(error)),
        }
    }
    if let Some(error) = failure {
        for side in &sides {
            side.stop().await;
        }
        return Err(error);
    }
    Ok(sides
        .into_iter()
        .map(|side| LiveColumn::new(side, toolchain, state.to_path_buf(), permits))
        .collect())
}

/// One program's outcome on each column (in [`Columns::names`] order): the normalized
/// outcome, or why the side could not run it.
pub type Outcomes = Vec<Result<Value, String>>;

/// Runs every case on every column; `progress(done, total)` is called as programs finish.
pub async fn observe<N: Executor + 'static>(
    cases: &[Arc<Case>],
    columns: &Columns<'_, N>,
    concurrency: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Outcomes> {
    let done = AtomicUsize::new(0);
    let mut observed: Vec<(usize, Outcomes)> = stream::iter(cases.iter().enumerate())
        .map(|(index, case)| {
            let done = &done;
            async move {
                let bound = case
                    .options
                    .timeout_ms
                    .map_or(DEFAULT_BOUND, Duration::from_millis)
                    + GRACE;
                let references = futures::future::join_all(
                    columns
                        .references
                        .iter()
                        .map(|column| column.run(case, bound)),
                );
                let ours = async {
                    match &columns.ours {
                        Some(ours) => Some(on_ours(ours.clone(), case.clone(), bound).await),
                        None => None,
                    }
                };
                let (mut outcomes, ours) = futures::join!(references, ours);
                outcomes.extend(ours);
                progress(done.fetch_add(1, Ordering::SeqCst) + 1, cases.len());
                (index, outcomes)
            }
        })
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    observed.sort_by_key(|(index, _)| *index);
    observed.into_iter().map(|(_, outcomes)| outcomes).collect()
}

async fn attempt(side: &ReferenceSide, case: &Case, bound: Duration) -> Result<Value, String> {
    match tokio::time::timeout(bound, side.run(case, &case.code)).await {
        Ok(outcome) => outcome,
        Err(_) => Err(format!(
            "{} gave no answer within {} s",
            side.column.name,
            bound.as_secs()
        )),
    }
}

/// Ours runs in a task of its own, so that a panic in our executor costs this program only.
async fn on_ours<N: Executor + 'static>(
    ours: Arc<OursSide<N>>,
    case: Arc<Case>,
    bound: Duration,
) -> Result<Value, String> {
    let task = tokio::spawn(async move { ours.run(&case, &case.code).await });
    let abort = task.abort_handle();
    match tokio::time::timeout(bound, task).await {
        Ok(Ok(outcome)) => Ok(outcome),
        Ok(Err(error)) if error.is_panic() => Err(format!(
            "our executor panicked: {}",
            panic_text(error.into_panic())
        )),
        Ok(Err(error)) => Err(format!("our run was cancelled: {error}")),
        Err(_) => {
            abort.abort();
            Err(format!(
                "our executor gave no answer within {} s",
                bound.as_secs()
            ))
        }
    }
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}
