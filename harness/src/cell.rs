//! Judging one case on one column: the cell and its status.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::catalogue::Case;
use crate::compare::{matches_expectation, pretty, render_diff};
use crate::stored::{Stored, WHOLE_BYTES, Whole, first_difference};

/// The longest diff or mismatch text a cell keeps, in bytes; past it the text is cut with a
/// line saying so.
pub const DIFF_BYTES: usize = 32 * 1024;

/// A cell's status (`docs/case-format.md`, "What passes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The outcome agrees with ours (or, for ours, satisfies the case's `expect`).
    Pass,
    /// The column's outcome differs from ours.
    Diff,
    /// The outcome does not satisfy the case's `expect`.
    Expect,
    /// The case does not apply to the column (`skip_on`, or the reference cannot run it).
    Skip,
    /// The side could not run the case.
    Error,
    /// Failed, then passed on a retry (`matrix --retries N`): not a failure, but counted and
    /// shown, with every failed attempt in [`Cell::attempts`].
    Flaky,
}

impl Status {
    /// Every status, in the order reports list them.
    pub const ALL: [Status; 6] = [
        Status::Pass,
        Status::Diff,
        Status::Expect,
        Status::Skip,
        Status::Error,
        Status::Flaky,
    ];

    /// The status as reports write it (`pass`, `diff`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Diff => "diff",
            Status::Expect => "expect",
            Status::Skip => "skip",
            Status::Error => "error",
            Status::Flaky => "flaky",
        }
    }

    /// Whether the status fails a run.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Diff | Status::Expect | Status::Error)
    }
}

/// One case on one column.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// The cell's status.
    pub status: Status,
    /// The column's normalized outcome, when it ran (reduced once compared: see
    /// [`crate::stored`]; written as its digest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Stored>,
    /// With `diff`: our outcome it was compared with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ours: Option<Stored>,
    /// With `expect`: the case's expectation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// With `diff` and `expect`: the difference, as a unified diff of the two outcomes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// With `skip` and `error`: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// With `skip` when skipped cells were run anyway: `true` where the cell would have
    /// passed, so the `skip_on` annotation no longer holds for this column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale_skip: Option<bool>,
    /// Time the side took, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
    /// With retries (`matrix --retries N`): the failed attempts before this one, in order. A
    /// `flaky` cell always has at least one; a cell that failed every attempt has the earlier
    /// ones here and its own status from the last.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub attempts: Vec<Attempt>,
}

/// One failed attempt at a cell, kept when a retry followed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// `diff`, `expect` or `error`.
    pub status: Status,
    /// The attempt's diff (`diff`, `expect`) or reason (`error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl Attempt {
    /// The failed cell as an attempt.
    pub fn of(cell: &Cell) -> Attempt {
        Attempt {
            status: cell.status,
            detail: cell.diff.clone().or_else(|| cell.reason.clone()),
        }
    }
}

impl Cell {
    fn new(status: Status) -> Cell {
        Cell {
            status,
            outcome: None,
            ours: None,
            expected: None,
            diff: None,
            reason: None,
            stale_skip: None,
            elapsed_ms: None,
            attempts: Vec::new(),
        }
    }

    /// The cell after retries: `first` as it is when it did not fail or `retries` is 0;
    /// otherwise `again` runs it once more until it passes (then the cell is `flaky`, carrying
    /// the failed attempts) or the retries are used up (then it keeps the last attempt's
    /// status, with the earlier attempts).
    pub async fn retried<F, Fut>(first: Cell, retries: usize, mut again: F) -> Cell
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Cell>,
    {
        if !first.status.is_failure() || retries == 0 {
            return first;
        }
        let mut failed = vec![Attempt::of(&first)];
        let mut last = first;
        for _ in 0..retries {
            let mut cell = again().await;
            if !cell.status.is_failure() {
                if cell.status == Status::Pass {
                    cell.status = Status::Flaky;
                }
                cell.attempts = failed;
                return cell;
            }
            failed.push(Attempt::of(&cell));
            last = cell;
        }
        failed.pop();
        last.attempts = failed;
        last
    }

    /// A cell that did not run, and why.
    pub fn skip(reason: impl Into<String>) -> Cell {
        Cell {
            reason: Some(reason.into()),
            ..Cell::new(Status::Skip)
        }
    }

    /// A cell whose side could not run the case.
    pub fn error(reason: impl Into<String>) -> Cell {
        Cell {
            reason: Some(reason.into()),
            ..Cell::new(Status::Error)
        }
    }

    /// Judges an outcome: against ours first when there is one to compare with (a reference
    /// column), then against the case's `expect`.
    pub fn judge(
        case: &Case,
        outcome: Value,
        ours: Option<&Value>,
        ours_name: &str,
        column: &str,
    ) -> Cell {
        let ours = ours.map(Whole::of);
        Cell::judge_whole(
            case,
            &outcome,
            Whole::of(&outcome),
            ours.as_ref(),
            ours_name,
            column,
        )
    }

    /// [`Cell::judge`] with the outcome's text (`whole`, of `outcome`) and ours as the run
    /// holds them. The comparisons are of the whole outcomes; the cell keeps them reduced.
    pub fn judge_whole(
        case: &Case,
        outcome: &Value,
        whole: Whole,
        ours: Option<&Whole>,
        ours_name: &str,
        column: &str,
    ) -> Cell {
        if let Some(ours) = ours
            && !ours.same(&whole, outcome)
        {
            let ours_value = ours.value();
            return Cell {
                diff: Some(diff_text(
                    column,
                    outcome,
                    &whole.stored,
                    ours_name,
                    &ours_value,
                    &ours.stored,
                )),
                ours: Some(ours.stored.clone()),
                outcome: Some(whole.into_stored()),
                ..Cell::new(Status::Diff)
            };
        }
        let expected = case.expect.to_outcome_json();
        match matches_expectation(&expected, outcome) {
            Ok(()) => Cell {
                outcome: Some(whole.into_stored()),
                ..Cell::new(Status::Pass)
            },
            Err(first) => {
                let expected_stored = Stored::of(&expected);
                let diff = format!(
                    "{}\n{}",
                    bounded(first, 1024),
                    diff_text(
                        "expected",
                        &expected,
                        &expected_stored,
                        column,
                        outcome,
                        &whole.stored
                    )
                );
                Cell {
                    diff: Some(bounded(diff, DIFF_BYTES)),
                    expected: Some(expected),
                    outcome: Some(whole.into_stored()),
                    ..Cell::new(Status::Expect)
                }
            }
        }
    }

    /// The cell as a failure message for a test runner: the case, where it stands, and the
    /// readable diff.
    pub fn failure_message(&self, case: &Case, column: &str) -> String {
        let mut message = format!(
            "{} on {column} ({}): {}\n",
            case.id,
            case.location(),
            self.status.as_str()
        );
        match self.status {
            Status::Diff | Status::Expect => {
                message.push_str(self.diff.as_deref().unwrap_or_default());
            }
            Status::Error => message.push_str(self.reason.as_deref().unwrap_or_default()),
            Status::Pass | Status::Skip | Status::Flaky => {
                if let Some(outcome) = &self.outcome {
                    message.push_str(&pretty(&outcome.shown));
                }
            }
        }
        message
    }
}

/// The diff of two outcomes: of the whole values when both are small; otherwise where they
/// first differ (with context), then the diff of their elided forms.
fn diff_text(
    left_name: &str,
    left: &Value,
    left_stored: &Stored,
    right_name: &str,
    right: &Value,
    right_stored: &Stored,
) -> String {
    if left_stored.bytes <= WHOLE_BYTES && right_stored.bytes <= WHOLE_BYTES {
        return bounded(render_diff(left_name, left, right_name, right), DIFF_BYTES);
    }
    let first = first_difference(left, right).unwrap_or_default();
    let elided = render_diff(
        left_name,
        &left_stored.shown,
        right_name,
        &right_stored.shown,
    );
    bounded(
        format!(
            "first difference at {first}\n(the outcomes are {} and {} bytes of JSON, {} and {}; the diff below is of their elided forms)\n{elided}",
            left_stored.bytes, right_stored.bytes, left_stored.digest, right_stored.digest
        ),
        DIFF_BYTES,
    )
}

/// `text`, cut at `limit` bytes with a line saying how much was cut.
fn bounded(mut text: String, limit: usize) -> String {
    if text.len() <= limit {
        return text;
    }
    let total = text.len();
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str(&format!("\n… ({} of {total} bytes cut)\n", total - end));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn case(result: Value) -> Case {
        let mut case = Case::program("results/x", "async () => 1", "cases/results.yaml".into(), 3);
        case.expect.result = Some(result);
        case
    }

    #[test]
    fn equal_outcomes_meeting_expect_pass() {
        let outcome = json!({"result": 1, "logs": [], "calls": []});
        let cell = Cell::judge(
            &case(json!(1)),
            outcome.clone(),
            Some(&outcome),
            "ours",
            "reference@0.5.6",
        );
        assert_eq!(cell.status, Status::Pass);
    }

    #[test]
    fn differing_outcomes_are_a_diff_shown_side_by_side() {
        let reference = json!({"result": 1, "logs": [], "calls": []});
        let ours = json!({"result": 2, "logs": [], "calls": []});
        let cell = Cell::judge(
            &case(json!(1)),
            reference,
            Some(&ours),
            "ours",
            "reference@0.5.6",
        );
        assert_eq!(cell.status, Status::Diff);
        let message = cell.failure_message(&case(json!(1)), "reference@0.5.6");
        assert!(
            message.contains("results/x on reference@0.5.6 (cases/results.yaml:3): diff"),
            "{message}"
        );
        assert!(
            message.contains("-  \"result\": 1") && message.contains("+  \"result\": 2"),
            "{message}"
        );
    }

    fn failing() -> Cell {
        Cell::judge(
            &case(json!(2)),
            json!({"result": 1, "logs": [], "calls": []}),
            None,
            "ours",
            "ours",
        )
    }

    fn passing() -> Cell {
        Cell::judge(
            &case(json!(1)),
            json!({"result": 1, "logs": [], "calls": []}),
            None,
            "ours",
            "ours",
        )
    }

    fn block<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn a_cell_that_passes_on_a_retry_is_flaky_and_keeps_its_failures() {
        let mut runs = 0;
        let cell = block(Cell::retried(failing(), 3, || {
            runs += 1;
            let cell = if runs < 2 {
                Cell::error("the request failed")
            } else {
                passing()
            };
            async move { cell }
        }));
        assert_eq!(runs, 2, "retries stop at the first pass");
        assert_eq!(cell.status, Status::Flaky);
        assert!(!cell.status.is_failure());
        assert_eq!(
            cell.outcome.map(|o| (*o.shown).clone()),
            Some(json!({"result": 1, "logs": [], "calls": []}))
        );
        let statuses: Vec<Status> = cell.attempts.iter().map(|a| a.status).collect();
        assert_eq!(statuses, [Status::Expect, Status::Error]);
        assert!(
            cell.attempts[0]
                .detail
                .as_deref()
                .unwrap()
                .starts_with("$.result: expected 2, got 1")
        );
        assert_eq!(
            cell.attempts[1].detail.as_deref(),
            Some("the request failed")
        );
    }

    #[test]
    fn a_cell_failing_every_retry_keeps_failing_with_the_earlier_attempts() {
        let mut runs = 0;
        let cell = block(Cell::retried(failing(), 2, || {
            runs += 1;
            let cell = Cell::error(format!("attempt {}", runs + 1));
            async move { cell }
        }));
        assert_eq!(runs, 2);
        assert_eq!(cell.status, Status::Error);
        assert_eq!(cell.reason.as_deref(), Some("attempt 3"));
        let statuses: Vec<Status> = cell.attempts.iter().map(|a| a.status).collect();
        assert_eq!(statuses, [Status::Expect, Status::Error]);
    }

    #[test]
    fn passing_cells_and_no_retries_run_once() {
        let mut runs = 0;
        let pass = block(Cell::retried(passing(), 3, || {
            runs += 1;
            async { failing() }
        }));
        let fail = block(Cell::retried(failing(), 0, || {
            runs += 1;
            async { passing() }
        }));
        assert_eq!(runs, 0);
        assert_eq!((pass.status, fail.status), (Status::Pass, Status::Expect));
        assert!(pass.attempts.is_empty() && fail.attempts.is_empty());
    }

    #[test]
    fn a_wrong_expect_fails_with_the_path() {
        let outcome = json!({"result": 1, "logs": [], "calls": []});
        let cell = Cell::judge(&case(json!(2)), outcome, None, "ours", "ours");
        assert_eq!(cell.status, Status::Expect);
        assert!(
            cell.diff
                .unwrap()
                .starts_with("$.result: expected 2, got 1")
        );
    }

    #[test]
    fn two_large_outcomes_differing_late_are_a_short_diff_naming_where() {
        let big = |last: &str| {
            let mut logs = vec![json!("y".repeat(65_536)); 40];
            logs.push(json!(last));
            json!({"result": 1, "logs": logs, "calls": []})
        };
        let (reference, ours) = (big("end"), big("End"));
        let cell = Cell::judge(
            &case(json!(1)),
            reference,
            Some(&ours),
            "ours",
            "reference@0.5.6",
        );
        assert_eq!(cell.status, Status::Diff);
        let diff = cell.diff.unwrap();
        assert!(diff.len() <= DIFF_BYTES + 100, "{} bytes", diff.len());
        assert!(
            diff.starts_with(
                "first difference at $.logs[40], byte 0 of 3 and 3: \"end\" ≠ \"End\""
            ),
            "{}",
            &diff[..200]
        );
        let (outcome, ours) = (cell.outcome.unwrap(), cell.ours.unwrap());
        assert!(outcome.elided() && ours.elided());
        assert_ne!(outcome.digest, ours.digest);
        assert!(serde_json::to_string(&*outcome.shown).unwrap().len() < 20_000);
    }
}
