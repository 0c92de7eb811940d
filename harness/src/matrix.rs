//! Running a catalogue on every column: ours in process, each reference column over HTTP
//! (`wrangler dev`, or a deployed worker), each remote column over the executor daemon's
//! wire (one the harness starts, or one running elsewhere), all cells judged the same way.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use codemode_executor::protocol::Executor;
use futures::stream::{self, StreamExt};
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use crate::catalogue::{Case, Catalogue};
use crate::cell::{Cell, Status};
pub use crate::sides::ours::OURS;
use crate::sides::ours::OursSide;
use crate::sides::reference::{ReferenceColumn, ReferenceSide, Toolchain};
use crate::sides::remote::{RemoteColumn, RemoteSide, remote_cell_whole};
use crate::stored::{Stored, Whole};

/// How many more times a failing reference cell of a timing-sensitive case runs, each time
/// alone (see [`Case::timing_sensitive`]); `--retries` raises it, never lowers it.
pub const QUIET_RETRIES: usize = 2;

/// From this many bytes of our outcome's text on, a case is heavy: its cells on the other
/// columns (whose outcomes are as large when they agree) run at most [`HEAVY_AT_ONCE`] at a
/// time across every column, so the harness's memory is bounded by a few such outcomes rather
/// than by every column's cells in flight at once.
pub const HEAVY_FROM: usize = 1024 * 1024;

/// How many cells of heavy cases (see [`HEAVY_FROM`]) run at once, across every column.
pub const HEAVY_AT_ONCE: usize = 2;

/// The gate of heavy cells.
struct Heavy(tokio::sync::Semaphore);

impl Heavy {
    fn new() -> Heavy {
        Heavy(tokio::sync::Semaphore::new(HEAVY_AT_ONCE))
    }

    /// A place for a cell whose case's outcome on ours is `ours`: none needed for a light
    /// one, one of [`HEAVY_AT_ONCE`] for a heavy one.
    async fn admit(&self, ours: &Whole) -> Option<tokio::sync::SemaphorePermit<'_>> {
        if ours.stored.bytes < HEAVY_FROM {
            return None;
        }
        Some(self.0.acquire().await.expect("the gate is never closed"))
    }
}

/// The reference columns' lane: ordinary cells and column start-ups share it; the quiet run
/// of a timing-sensitive cell holds it alone, so nothing else loads the machine meanwhile.
type Lane = tokio::sync::RwLock<()>;

/// A column's header in every report.
#[derive(Debug, Clone, Serialize)]
pub struct ColumnHeader {
    /// The column's name (`ours`, `remote`, `reference@0.5.6`, …).
    pub name: String,
    /// The upstream package's version, for a reference column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<String>,
    /// The wrangler version the column ran under, for a reference column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrangler: Option<String>,
    /// The workerd version the column ran on, for a reference column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workerd: Option<String>,
    /// The executor's version, for our columns.
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
        ColumnHeader::column(&side.column)
    }

    /// A remote column's header.
    pub fn remote(column: &RemoteColumn) -> ColumnHeader {
        ColumnHeader {
            name: column.name.clone(),
            upstream: None,
            wrangler: None,
            workerd: None,
            executor: Some(column.executor_label()),
        }
    }

    /// A reference column's header, whether or not it started: the exact upstream, wrangler
    /// and workerd versions, read from the installed packages.
    pub fn column(c: &ReferenceColumn) -> ColumnHeader {
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
    /// The case's id.
    pub id: String,
    /// The case's file, relative to the project root once the run is done.
    pub file: PathBuf,
    /// The line of the case's `id` in its file.
    pub line: u64,
    /// Column name → the case's cell on it.
    pub cells: IndexMap<String, Cell>,
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Matrix {
    /// The columns, in report order.
    pub columns: Vec<ColumnHeader>,
    /// The cases, in catalogue order.
    pub cases: Vec<Row>,
    /// How long the cells took, in milliseconds.
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

    /// Names each case's file relative to the project root, as reports name it, so reports
    /// from two checkouts agree; a file outside the root keeps its path.
    pub fn files_relative_to(&mut self, root: &Path) {
        for row in &mut self.cases {
            if let Ok(relative) = row.file.strip_prefix(root) {
                row.file = relative.to_path_buf();
            }
        }
    }

    /// Whether any cell is `diff`, `expect` or `error`.
    pub fn failed(&self) -> bool {
        self.cases
            .iter()
            .flat_map(|r| r.cells.values())
            .any(|c| c.status.is_failure())
    }
}

/// What a run tells as it goes (see [`crate::progress::CellProgress`]); every method does
/// nothing unless implemented.
pub trait Watch: Sync {
    /// The run's columns, in the order they will run, and how many cases each has.
    fn planned(&self, _columns: &[String], _cases: usize) {}
    /// A column is up, or could not start, after `took`.
    fn started(&self, _column: &str, _took: Duration) {}
    /// A cell of `column` is done.
    fn cell(&self, _column: &str) {}
}

/// A run nobody watches.
impl Watch for () {}

/// How a run treats its columns.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Show our column (its cells compare ours against `expect`).
    pub ours_column: bool,
    /// Run cells that `skip_on` skips, and flag annotations that no longer hold.
    pub run_skipped: bool,
    /// How many reference columns run at once; each is a `wrangler dev` of its own (see
    /// [`crate::sides::reference::column_concurrency`] for the memory budget). 1 runs them one
    /// after another.
    pub column_concurrency: usize,
    /// How many times a failing cell is run again; a cell that passes on a retry is `flaky`.
    pub retries: usize,
    /// How many times a reference column's worker is restarted after it crashed or stopped
    /// answering, before the column is given up (see [`ReferenceSide`]).
    pub reference_restarts: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ours_column: true,
            run_skipped: false,
            column_concurrency: 1,
            retries: 0,
            reference_restarts: crate::sides::reference::RESTARTS,
        }
    }
}

/// The reference columns a run starts, and what they need to start.
pub struct References<'a> {
    /// The toolchain the columns run under.
    pub toolchain: &'a Toolchain,
    /// The reference columns to start.
    pub columns: Vec<ReferenceColumn>,
    /// Each column persists its state in its own directory under this one.
    pub state_dir: PathBuf,
}

/// Columns that need no reference toolchain: ours behind an executor daemon (started by the
/// harness or run elsewhere), and reference workers deployed elsewhere.
#[derive(Debug, Clone)]
pub enum ExtraColumn {
    /// Ours behind an executor daemon, started by the harness or run elsewhere.
    Remote(RemoteColumn),
    /// A deployed reference worker: its column and its origin (`http://HOST:PORT`).
    Deployed(ReferenceColumn, String),
}

impl ExtraColumn {
    /// The column's name.
    pub fn name(&self) -> &str {
        match self {
            ExtraColumn::Remote(column) => &column.name,
            ExtraColumn::Deployed(column, _) => &column.name,
        }
    }
}

/// Runs every case on ours (always: remote and reference cells compare against it), then on
/// every extra column (see [`ExtraColumn`]) one after another, then on every
/// reference column: at most `settings.column_concurrency` columns are up at once, each is
/// started, runs the whole catalogue and is stopped before its place goes to the next. A
/// column that cannot start gets an `error` cell for every case, with the reason.
/// `watch` hears of the plan, of each column started and of each cell done. The elapsed time
/// covers everything, starting and stopping the columns included.
pub async fn run<N: Executor>(
    catalogue: &Catalogue,
    ours: &OursSide<N>,
    extra: &[ExtraColumn],
    references: Option<References<'_>>,
    settings: Settings,
    watch: &dyn Watch,
) -> Matrix {
    let started = Instant::now();
    let reference_columns = references.as_ref().map_or(0, |r| r.columns.len());
    let mut planned = vec![OURS.to_string()];
    planned.extend(extra.iter().map(|c| c.name().to_string()));
    if let Some(references) = &references {
        planned.extend(references.columns.iter().map(|c| c.name.clone()));
    }
    watch.planned(&planned, catalogue.cases.len());
    let tick = || watch.cell(OURS);
    // Our cells, retried when they fail; the outcome a reference column is compared with is
    // the last attempt's, held as text while other columns need it, and only then.
    let compared = !extra.is_empty() || reference_columns > 0;
    let ours_results: Vec<(Cell, Option<Whole>)> = stream::iter(&catalogue.cases)
        .map(|case| async {
            let kept = std::sync::Mutex::new(None);
            let first = ours_attempt(case, ours, compared, &kept).await;
            let cell = Cell::retried(first, settings.retries, || {
                ours_attempt(case, ours, compared, &kept)
            })
            .await;
            tick();
            let whole = kept.into_inner().unwrap_or_else(|e| e.into_inner());
            (cell, whole)
        })
        .buffered(8)
        .collect()
        .await;
    let (ours_cells, ours_outcomes): (Vec<Cell>, Vec<Option<Whole>>) =
        ours_results.into_iter().unzip();
    let nothing = Whole::of(&Value::Null);
    let ours_outcomes: Vec<&Whole> = ours_outcomes
        .iter()
        .map(|whole| whole.as_ref().unwrap_or(&nothing))
        .collect();
    let heavy = Heavy::new();
    let mut extra_results = Vec::new();
    for column in extra {
        extra_results.push(
            run_extra_column(
                catalogue,
                &ours_outcomes,
                column,
                settings.run_skipped,
                &heavy,
                watch,
            )
            .await,
        );
    }
    let lane = Lane::new(());
    let mut reference_results: Vec<(usize, ColumnHeader, Vec<Cell>)> = match &references {
        None => Vec::new(),
        Some(references) => {
            stream::iter(references.columns.iter().enumerate())
                .map(|(index, column)| {
                    let ours_outcomes = &ours_outcomes;
                    let (lane, heavy) = (&lane, &heavy);
                    async move {
                        let (header, cells) = run_column(
                            catalogue,
                            ours_outcomes,
                            references,
                            column,
                            settings,
                            (lane, heavy),
                            watch,
                        )
                        .await;
                        (index, header, cells)
                    }
                })
                .buffer_unordered(settings.column_concurrency.max(1))
                .collect()
                .await
        }
    };
    reference_results.sort_by_key(|(index, _, _)| *index);
    let mut rows: Vec<Row> = catalogue
        .cases
        .iter()
        .zip(ours_cells)
        .map(|(case, cell)| {
            let mut cells = IndexMap::new();
            if settings.ours_column {
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
    let mut columns = Vec::new();
    if settings.ours_column {
        columns.push(ColumnHeader::ours());
    }
    let reference_results = reference_results
        .into_iter()
        .map(|(_, header, cells)| (header, cells));
    for (header, cells) in extra_results.into_iter().chain(reference_results) {
        for (row, cell) in rows.iter_mut().zip(cells) {
            row.cells.insert(header.name.clone(), cell);
        }
        columns.push(header);
    }
    Matrix {
        columns,
        cases: rows,
        elapsed_ms: started.elapsed().as_millis(),
    }
}

fn same_header(a: &ColumnHeader, b: &ColumnHeader) -> bool {
    (&a.upstream, &a.wrangler, &a.workerd, &a.executor)
        == (&b.upstream, &b.wrangler, &b.workerd, &b.executor)
}

fn header_versions(c: &ColumnHeader) -> String {
    [&c.upstream, &c.wrangler, &c.workerd, &c.executor]
        .into_iter()
        .flatten()
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}

/// One reference column: start it, run every case, stop it. Starting and every first attempt
/// share the `lane`; a timing-sensitive case's retries hold it alone.
async fn run_column(
    catalogue: &Catalogue,
    ours_outcomes: &[&Whole],
    references: &References<'_>,
    column: &ReferenceColumn,
    settings: Settings,
    (lane, heavy): (&Lane, &Heavy),
    watch: &dyn Watch,
) -> (ColumnHeader, Vec<Cell>) {
    let header = ColumnHeader::column(column);
    let tick = || watch.cell(&column.name);
    let starting = Instant::now();
    let side = {
        let _shared = lane.read().await;
        ReferenceSide::start(
            references.toolchain,
            column.clone(),
            &references.state_dir,
            4,
        )
        .await
    };
    watch.started(&column.name, starting.elapsed());
    let side = match side {
        Ok(side) => {
            side.limit_restarts(settings.reference_restarts);
            side
        }
        Err(error) => {
            let message = format!("the column could not start: {error}");
            let cells = catalogue
                .cases
                .iter()
                .map(|_| {
                    tick();
                    Cell::error(message.clone())
                })
                .collect();
            return (header, cells);
        }
    };
    let cells = stream::iter(catalogue.cases.iter().zip(ours_outcomes))
        .map(|(case, ours)| {
            let side = &side;
            let tick = &tick;
            async move {
                let _place = heavy.admit(ours).await;
                let cell = lane_attempts(case, settings.retries, lane, || {
                    reference_cell_whole(case, side, ours, settings.run_skipped)
                })
                .await;
                tick();
                cell
            }
        })
        .buffered(8)
        .collect()
        .await;
    side.stop().await;
    (header, cells)
}

/// A reference cell's attempts: the first, then up to `retries` more while it fails
/// ([`QUIET_RETRIES`] at least for a timing-sensitive case). Every attempt shares the `lane`
/// but a timing-sensitive case's retries, which hold it alone.
async fn lane_attempts<F, Fut>(case: &Case, retries: usize, lane: &Lane, run: F) -> Cell
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Cell>,
{
    let first = {
        let _shared = lane.read().await;
        run().await
    };
    let retries = match case.timing_sensitive {
        true => retries.max(QUIET_RETRIES),
        false => retries,
    };
    Cell::retried(first, retries, || async {
        if case.timing_sensitive {
            let _alone = lane.write().await;
            run().await
        } else {
            let _shared = lane.read().await;
            run().await
        }
    })
    .await
}

/// One extra column: start it, run every case, stop it. A column that cannot start gets an
/// `error` cell for every case, with the reason.
async fn run_extra_column(
    catalogue: &Catalogue,
    ours_outcomes: &[&Whole],
    column: &ExtraColumn,
    run_skipped: bool,
    heavy: &Heavy,
    watch: &dyn Watch,
) -> (ColumnHeader, Vec<Cell>) {
    let tick = || watch.cell(column.name());
    let tick = &tick;
    let starting = Instant::now();
    let failed = |header: ColumnHeader, error: crate::error::Error| {
        let message = format!("the column could not start: {error}");
        let cells = catalogue
            .cases
            .iter()
            .map(|_| {
                tick();
                Cell::error(message.clone())
            })
            .collect();
        (header, cells)
    };
    let cases = || stream::iter(catalogue.cases.iter().zip(ours_outcomes));
    match column {
        ExtraColumn::Remote(column) => {
            let header = ColumnHeader::remote(column);
            let side = RemoteSide::start(column.clone()).await;
            watch.started(&column.name, starting.elapsed());
            let side = match side {
                Ok(side) => side,
                Err(error) => return failed(header, error),
            };
            let cells = cases()
                .map(|(case, ours)| {
                    let side = &side;
                    async move {
                        let _place = heavy.admit(ours).await;
                        let cell = remote_cell_whole(case, side, ours).await;
                        tick();
                        cell
                    }
                })
                .buffered(8)
                .collect()
                .await;
            side.stop().await;
            (header, cells)
        }
        ExtraColumn::Deployed(column, origin) => {
            let header = ColumnHeader::column(column);
            let side = ReferenceSide::deployed(column.clone(), origin, 4).await;
            watch.started(&column.name, starting.elapsed());
            let side = match side {
                Ok(side) => side,
                Err(error) => return failed(header, error),
            };
            let header = ColumnHeader::reference(&side);
            let cells = cases()
                .map(|(case, ours)| {
                    let side = &side;
                    async move {
                        let _place = heavy.admit(ours).await;
                        let cell = reference_cell_whole(case, side, ours, run_skipped).await;
                        tick();
                        cell
                    }
                })
                .buffered(8)
                .collect()
                .await;
            (header, cells)
        }
    }
}

/// Every `skip_on` annotation that no longer holds: the skipped cell was run anyway (with
/// [`Settings::run_skipped`]) and passed. Each is `(case id, column, the annotation)`.
pub fn stale_skips(matrix: &Matrix) -> Vec<(String, String, String)> {
    matrix
        .cases
        .iter()
        .flat_map(|row| {
            row.cells
                .iter()
                .filter(|(_, cell)| cell.stale_skip == Some(true))
                .map(move |(column, cell)| {
                    (
                        format!("{} ({}:{})", row.id, row.file.display(), row.line),
                        column.clone(),
                        cell.reason.clone().unwrap_or_default(),
                    )
                })
        })
        .collect()
}

/// One attempt at a case on ours; with `keep`, its outcome goes to `kept` for the other
/// columns to be compared with.
async fn ours_attempt<N: Executor>(
    case: &Case,
    ours: &OursSide<N>,
    keep: bool,
    kept: &std::sync::Mutex<Option<Whole>>,
) -> Cell {
    let started = Instant::now();
    let outcome = ours.run(case, &case.code).await;
    let whole = Whole::of(&outcome);
    if keep {
        *kept.lock().unwrap_or_else(|e| e.into_inner()) = Some(whole.clone());
    }
    let mut cell = Cell::judge_whole(case, &outcome, whole, None, OURS, OURS);
    cell.elapsed_ms = Some(started.elapsed().as_secs_f64() * 1000.0);
    cell
}

/// One case on one reference column.
pub async fn reference_cell(
    case: &Case,
    side: &ReferenceSide,
    ours: &Value,
    run_skipped: bool,
) -> Cell {
    reference_cell_whole(case, side, &Whole::of(ours), run_skipped).await
}

/// [`reference_cell`] with ours as a run holds it.
pub async fn reference_cell_whole(
    case: &Case,
    side: &ReferenceSide,
    ours: &Whole,
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
        Ok(outcome) => {
            let whole = Whole::compared_once(&outcome);
            Cell::judge_whole(case, &outcome, whole, Some(ours), OURS, &side.column.name)
        }
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

/// Reads a `matrix.json` report back (the fields of `docs/case-format.md`; fields a
/// merge does not need, such as `totals` and `transitions`, are left out and recomputed).
pub fn from_report(report: &Value) -> Result<Matrix, String> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let columns = report
        .get("columns")
        .and_then(Value::as_array)
        .ok_or("the report has no \"columns\" list")?
        .iter()
        .map(|c| {
            Ok(ColumnHeader {
                name: text(c.get("name")).ok_or("a column has no name")?,
                upstream: text(c.get("upstream")),
                wrangler: text(c.get("wrangler")),
                workerd: text(c.get("workerd")),
                executor: text(c.get("executor")),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let outcomes = report.get("outcomes");
    let stored = |id: &str, column: &str, value: Option<&Value>| {
        value
            .map(|v| Stored::read(v, outcomes))
            .transpose()
            .map_err(|e| format!("case {id} on {column}: {e}"))
    };
    let cases = report
        .get("cases")
        .and_then(Value::as_array)
        .ok_or("the report has no \"cases\" list")?
        .iter()
        .map(|row| {
            let id = text(row.get("id")).ok_or("a case has no id")?;
            let mut cells = IndexMap::new();
            for (column, cell) in row
                .get("cells")
                .and_then(Value::as_object)
                .ok_or_else(|| format!("case {id} has no cells"))?
            {
                let status = text(cell.get("status")).unwrap_or_default();
                let status = Status::ALL
                    .into_iter()
                    .find(|s| s.as_str() == status)
                    .ok_or_else(|| format!("case {id} on {column}: unknown status \"{status}\""))?;
                let mut parsed = Cell::skip(String::new());
                parsed.status = status;
                parsed.outcome = stored(&id, column, cell.get("outcome"))?;
                parsed.ours = stored(&id, column, cell.get("ours"))?;
                parsed.expected = cell.get("expected").cloned();
                parsed.diff = text(cell.get("diff"));
                parsed.reason = text(cell.get("reason"));
                parsed.stale_skip = cell.get("stale_skip").and_then(Value::as_bool);
                parsed.elapsed_ms = cell.get("elapsed_ms").and_then(Value::as_f64);
                parsed.attempts = match cell.get("attempts") {
                    None => Vec::new(),
                    Some(attempts) => serde_json::from_value(attempts.clone()).map_err(|e| {
                        format!("case {id} on {column}: the attempts do not read: {e}")
                    })?,
                };
                cells.insert(column.clone(), parsed);
            }
            Ok(Row {
                file: PathBuf::from(text(row.get("file")).unwrap_or_default()),
                line: row.get("line").and_then(Value::as_u64).unwrap_or(0),
                id,
                cells,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Matrix {
        columns,
        cases,
        elapsed_ms: report
            .get("elapsed_ms")
            .and_then(Value::as_u64)
            .unwrap_or(0) as u128,
    })
}

/// Merges runs of the same catalogue on different columns (CI runs one job per column) or on
/// different shards of a column (`matrix --shard K/N`) into one matrix: `ours` first, then the
/// reference columns newest first; cases in the order first seen, or in catalogue order (file,
/// then line) when shards were joined; the elapsed time of the longest run, since the jobs ran
/// side by side. A column two runs both report must have the same header in both, and a cell
/// (case and column) two runs both report is refused: the merge would have to pick one.
pub fn merge(parts: Vec<Matrix>) -> Result<Matrix, String> {
    let mut columns: Vec<ColumnHeader> = Vec::new();
    let mut rows: IndexMap<String, Row> = IndexMap::new();
    let mut elapsed_ms = 0;
    let mut sharded = false;
    for part in parts {
        for column in &part.columns {
            match columns.iter().find(|c| c.name == column.name) {
                Some(seen) if !same_header(seen, column) => {
                    return Err(format!(
                        "two of the merged reports have the column {} with different versions ({} and {})",
                        column.name,
                        header_versions(seen),
                        header_versions(column)
                    ));
                }
                Some(_) => sharded = true,
                None => columns.push(column.clone()),
            }
        }
        elapsed_ms = elapsed_ms.max(part.elapsed_ms);
        for row in part.cases {
            match rows.get_mut(&row.id) {
                Some(existing) => {
                    for (column, cell) in row.cells {
                        if existing.cells.contains_key(&column) {
                            return Err(format!(
                                "two of the merged reports both have the case {} on {column}",
                                row.id
                            ));
                        }
                        existing.cells.insert(column, cell);
                    }
                }
                None => {
                    rows.insert(row.id.clone(), row);
                }
            }
        }
    }
    if sharded {
        rows.sort_by(|_, a, _, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    }
    // Ours first, then the reference columns newest first, as a single run orders them.
    columns.sort_by_key(|c| {
        (
            c.name != OURS,
            std::cmp::Reverse(
                c.upstream
                    .as_deref()
                    .and_then(|v| semver::Version::parse(v).ok()),
            ),
        )
    });
    let mut cases: Vec<Row> = rows.into_values().collect();
    for row in &mut cases {
        let mut ordered = IndexMap::new();
        for column in &columns {
            if let Some(cell) = row.cells.shift_remove(&column.name) {
                ordered.insert(column.name.clone(), cell);
            }
        }
        row.cells = ordered;
    }
    Ok(Matrix {
        columns,
        cases,
        elapsed_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn case(timing_sensitive: bool) -> Case {
        Case {
            timing_sensitive,
            ..Case::program("event-loop/x", "async () => 1", "cases/x.yaml".into(), 1)
        }
    }

    /// Fails until its `pass_on`-th run; notes whether anyone else held the lane meanwhile.
    fn runs<'a>(
        lane: &'a Lane,
        count: &'a AtomicUsize,
        alone: &'a AtomicUsize,
        pass_on: usize,
    ) -> impl Fn() -> std::future::Ready<Cell> + 'a {
        move || {
            let run = count.fetch_add(1, Ordering::SeqCst) + 1;
            // Held alone: a new shared hold is refused while this run holds the lane.
            if lane.try_read().is_err() {
                alone.fetch_add(1, Ordering::SeqCst);
            }
            std::future::ready(match run >= pass_on {
                true => Cell::skip("stands in for a pass"),
                false => Cell::error("the order moved"),
            })
        }
    }

    fn block<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn a_timing_sensitive_cell_is_retried_alone_even_without_retries() {
        let lane = Lane::new(());
        let (count, alone) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let cell = block(lane_attempts(
            &case(true),
            0,
            &lane,
            runs(&lane, &count, &alone, 3),
        ));
        assert_eq!(
            count.load(Ordering::SeqCst),
            3,
            "the first run and two quiet ones"
        );
        assert_eq!(
            alone.load(Ordering::SeqCst),
            2,
            "each retry held the lane alone"
        );
        assert_eq!(cell.attempts.len(), 2, "both failures are kept");
        let cell = block(lane_attempts(
            &case(true),
            0,
            &lane,
            runs(&lane, &AtomicUsize::new(0), &AtomicUsize::new(0), 9),
        ));
        assert_eq!(
            cell.status,
            Status::Error,
            "a cell failing every run still fails"
        );
    }

    #[test]
    fn heavy_cells_take_one_of_a_few_places_and_light_ones_none() {
        let heavy = Heavy::new();
        let light = Whole::of(&serde_json::json!({"result": 1, "logs": [], "calls": []}));
        let lines: Vec<String> = (0..HEAVY_FROM / 8).map(|n| format!("line {n}")).collect();
        let large = Whole::of(&serde_json::json!({"logs": lines, "calls": []}));
        assert!(large.stored.bytes >= HEAVY_FROM);
        block(async {
            let places: Vec<_> =
                futures::future::join_all((0..HEAVY_AT_ONCE).map(|_| heavy.admit(&large))).await;
            assert!(places.iter().all(Option::is_some));
            assert!(
                heavy.admit(&light).await.is_none(),
                "a light cell waits for nothing"
            );
            let waiting = tokio::time::timeout(Duration::from_millis(50), heavy.admit(&large));
            assert!(waiting.await.is_err(), "one heavy cell too many waits");
            drop(places);
            assert!(heavy.admit(&large).await.is_some());
        });
    }

    #[test]
    fn an_ordinary_cell_is_retried_only_when_asked_and_never_alone() {
        let lane = Lane::new(());
        let (count, alone) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let cell = block(lane_attempts(
            &case(false),
            0,
            &lane,
            runs(&lane, &count, &alone, 2),
        ));
        assert_eq!(count.load(Ordering::SeqCst), 1);
        assert_eq!(cell.status, Status::Error);
        let (count, alone) = (AtomicUsize::new(0), AtomicUsize::new(0));
        block(lane_attempts(
            &case(false),
            3,
            &lane,
            runs(&lane, &count, &alone, 2),
        ));
        assert_eq!(count.load(Ordering::SeqCst), 2);
        assert_eq!(alone.load(Ordering::SeqCst), 0);
    }
}
