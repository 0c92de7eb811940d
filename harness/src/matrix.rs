//! Running a catalogue on every column: ours in process, each reference column over HTTP,
//! all cells judged the same way.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use codemode_executor::protocol::Executor;
use futures::stream::{self, StreamExt};
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use crate::catalogue::{Case, Catalogue};
use crate::cell::{Cell, Status};
use crate::sides::ours::OursSide;
use crate::sides::reference::ReferenceSide;

/// The name of our column.
pub const OURS: &str = "ours";

/// A column's header in every report.
#[derive(Debug, Clone, Serialize)]
pub struct ColumnHeader {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrangler: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workerd: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executor: Option<String>,
}

impl ColumnHeader {
    /// Our column's header.
    pub fn ours() -> ColumnHeader {
        ColumnHeader {
            name: OURS.into(),
            upstream: None,
            wrangler: None,
            workerd: None,
            executor: Some(format!("codemode-executor {}", env!("CARGO_PKG_VERSION"))),
        }
    }

    /// A reference column's header.
    pub fn reference(side: &ReferenceSide) -> ColumnHeader {
        let c = &side.column;
        ColumnHeader {
            name: c.name.clone(),
            upstream: Some(c.upstream.clone()),
            wrangler: Some(c.wrangler.clone()),
            workerd: Some(c.workerd.clone()),
            executor: None,
        }
    }
}

/// One case's row.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub id: String,
    pub file: PathBuf,
    pub line: u64,
    pub cells: IndexMap<String, Cell>,
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Matrix {
    pub columns: Vec<ColumnHeader>,
    pub cases: Vec<Row>,
    pub elapsed_ms: u128,
}

impl Matrix {
    /// Cells per status, every status present.
    pub fn totals(&self) -> IndexMap<&'static str, usize> {
        let mut totals: IndexMap<&'static str, usize> =
            Status::ALL.iter().map(|s| (s.as_str(), 0)).collect();
        for row in &self.cases {
            for cell in row.cells.values() {
                *totals.entry(cell.status.as_str()).or_default() += 1;
            }
        }
        totals
    }

    /// Whether any cell is `diff`, `expect` or `error`.
    pub fn failed(&self) -> bool {
        self.cases
            .iter()
            .flat_map(|r| r.cells.values())
            .any(|c| c.status.is_failure())
    }
}

/// How a run treats its columns.
#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    /// Show our column (its cells compare ours against `expect`).
    pub ours_column: bool,
    /// Run cells that `skip_on` skips, and flag annotations that no longer hold.
    pub run_skipped: bool,
}

/// Runs every case on ours (always: reference cells compare against it) and on every
/// reference side. `progress(done, total)` is called as cells finish.
pub async fn run<N: Executor>(
    catalogue: &Catalogue,
    ours: &OursSide<N>,
    references: &[ReferenceSide],
    settings: Settings,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Matrix {
    let started = Instant::now();
    let total = catalogue.cases.len() * (1 + references.len());
    let done = AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, Ordering::SeqCst) + 1, total);
    let ours_outcomes: Vec<(Value, f64)> = stream::iter(&catalogue.cases)
        .map(|case| async {
            let t = Instant::now();
            let outcome = ours.run(case, &case.code).await;
            tick();
            (outcome, t.elapsed().as_secs_f64() * 1000.0)
        })
        .buffered(8)
        .collect()
        .await;
    let pairs: Vec<(usize, usize)> = (0..references.len())
        .flat_map(|r| (0..catalogue.cases.len()).map(move |c| (r, c)))
        .collect();
    let reference_cells: Vec<((usize, usize), Cell)> = stream::iter(pairs)
        .map(|(r, c)| {
            let case = &catalogue.cases[c];
            let ours = &ours_outcomes[c].0;
            async move {
                let cell = reference_cell(case, &references[r], ours, settings.run_skipped).await;
                tick();
                ((r, c), cell)
            }
        })
        .buffer_unordered(references.len().max(1) * 4)
        .collect()
        .await;
    let mut rows: Vec<Row> = catalogue
        .cases
        .iter()
        .zip(&ours_outcomes)
        .map(|(case, (outcome, elapsed))| {
            let mut cells = IndexMap::new();
            if settings.ours_column {
                let mut cell = Cell::judge(case, outcome.clone(), None, OURS, OURS);
                cell.elapsed_ms = Some(*elapsed);
                cells.insert(OURS.to_string(), cell);
            }
            Row {
                id: case.id.clone(),
                file: case.file.clone(),
                line: case.line,
                cells,
            }
        })
        .collect();
    let mut sorted = reference_cells;
    sorted.sort_by_key(|((r, c), _)| (*c, *r));
    for ((r, c), cell) in sorted {
        rows[c]
            .cells
            .insert(references[r].column.name.clone(), cell);
    }
    let mut columns = Vec::new();
    if settings.ours_column {
        columns.push(ColumnHeader::ours());
    }
    columns.extend(references.iter().map(ColumnHeader::reference));
    Matrix {
        columns,
        cases: rows,
        elapsed_ms: started.elapsed().as_millis(),
    }
}

/// One case on one reference column.
pub async fn reference_cell(
    case: &Case,
    side: &ReferenceSide,
    ours: &Value,
    run_skipped: bool,
) -> Cell {
    if !case.reference {
        return Cell::skip(case.reason.clone().unwrap_or_default());
    }
    let skip = case.skip_for(&side.column.version());
    if let (Some(skip), false) = (skip, run_skipped) {
        return Cell::skip(format!("skip_on {}: {}", skip.versions, skip.reason));
    }
    let started = Instant::now();
    let mut cell = match side.run(case, &case.code).await {
        Ok(outcome) => Cell::judge(case, outcome, Some(ours), OURS, &side.column.name),
        Err(message) => Cell::error(message),
    };
    cell.elapsed_ms = Some(started.elapsed().as_secs_f64() * 1000.0);
    if let Some(skip) = skip {
        cell.stale_skip = Some(cell.status == Status::Pass);
        cell.status = Status::Skip;
        cell.reason = Some(format!("skip_on {}: {}", skip.versions, skip.reason));
    }
    cell
}
