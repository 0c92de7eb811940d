//! Progress of a long command on stderr. `explore` and `test262` show a counter rewritten in
//! place on a terminal, a line every 100 items otherwise (and at the end). `matrix` shows
//! cells done per column ([`CellProgress`]): rewritten in place on a terminal; otherwise (CI
//! logs) a line every few seconds, so a log never goes quiet while a run works.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indexmap::IndexMap;

use crate::matrix::Watch;

/// Counts `done/total <noun>` on stderr.
pub struct Progress {
    noun: &'static str,
    terminal: bool,
}

impl Progress {
    /// Progress of `noun` (`"programs"`, `"tests"`) on this process's stderr.
    pub fn on_stderr(noun: &'static str) -> Self {
        Progress {
            noun,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Shows that `done` of `total` are done.
    pub fn report(&self, done: usize, total: usize) {
        let noun = self.noun;
        if self.terminal {
            eprint!("\r{done}/{total} {noun}");
        } else if done.is_multiple_of(100) || done == total {
            eprintln!("{done}/{total} {noun}");
        }
    }

    /// Ends the counter's line on a terminal, so what follows starts on its own.
    pub fn finish(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}

/// How often a run not on a terminal prints its progress line, by default.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// A matrix run's progress: cells done per column, and how long each column took to start.
pub struct CellProgress {
    started: Instant,
    terminal: bool,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Column → (cells done, cells in all).
    columns: IndexMap<String, (usize, usize)>,
    /// Column → how long it took to start.
    starts: IndexMap<String, Duration>,
}

impl CellProgress {
    /// Progress on this process's stderr.
    pub fn on_stderr() -> CellProgress {
        CellProgress {
            started: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
            state: Mutex::new(State::default()),
        }
    }

    /// Whether stderr is a terminal (then the counter is rewritten in place on every cell).
    pub fn terminal(&self) -> bool {
        self.terminal
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The progress line: `[12.0 s] 1234/6152 cells · ours 769/769 · remote 465/769 · …`.
    pub fn line(&self) -> String {
        let state = self.state();
        let (done, total) = state
            .columns
            .values()
            .fold((0, 0), |(d, t), (done, total)| (d + done, t + total));
        let mut line = format!(
            "[{:.1} s] {done}/{total} cells",
            self.started.elapsed().as_secs_f64()
        );
        for (column, (done, total)) in &state.columns {
            line.push_str(&format!(" · {column} {done}/{total}"));
        }
        line
    }

    /// How many columns started (or failed to) and the sum of their start times.
    pub fn starts(&self) -> (usize, Duration) {
        let state = self.state();
        (state.starts.len(), state.starts.values().sum())
    }

    /// Ends the counter's line on a terminal, so what follows starts on its own.
    pub fn finish(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}

impl Watch for CellProgress {
    fn planned(&self, columns: &[String], cases: usize) {
        let mut state = self.state();
        for column in columns {
            state.columns.insert(column.clone(), (0, cases));
        }
    }

    fn started(&self, column: &str, took: Duration) {
        self.state().starts.insert(column.to_string(), took);
    }

    fn cell(&self, column: &str) {
        if let Some((done, _)) = self.state().columns.get_mut(column) {
            *done += 1;
        }
        if self.terminal {
            eprint!("\r{}", self.line());
        }
    }
}

/// Prints `progress`'s line to stderr every `every` until the returned guard is dropped; does
/// nothing on a terminal, where every cell rewrites the line already.
pub fn every(progress: std::sync::Arc<CellProgress>, every: Duration) -> Ticker {
    if progress.terminal || every.is_zero() {
        return Ticker(None);
    }
    Ticker(Some(tokio::spawn(async move {
        let mut interval = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            interval.tick().await;
            eprintln!("{}", progress.line());
        }
    })))
}

/// Stops the periodic progress line when dropped.
pub struct Ticker(Option<tokio::task::JoinHandle<()>>);

impl Drop for Ticker {
    fn drop(&mut self) {
        if let Some(task) = self.0.take() {
            task.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_cells_per_column_and_starts_add_up() {
        let progress = CellProgress {
            started: Instant::now(),
            terminal: false,
            state: Mutex::new(State::default()),
        };
        progress.planned(&["ours".into(), "reference@0.5.6".into()], 3);
        progress.cell("ours");
        progress.cell("ours");
        progress.started("reference@0.5.6", Duration::from_millis(1500));
        progress.cell("reference@0.5.6");
        let line = progress.line();
        assert!(
            line.ends_with("] 3/6 cells · ours 2/3 · reference@0.5.6 1/3"),
            "{line}"
        );
        assert_eq!(progress.starts(), (1, Duration::from_millis(1500)));
    }
}
