//! Judging one case on one column: the cell and its status.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::catalogue::Case;
use crate::compare::{matches_expectation, pretty, render_diff};

/// A cell's status (`shared/design/case-format.md`, "What passes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    /// The column's outcome differs from ours.
    Diff,
    /// The outcome does not satisfy the case's `expect`.
    Expect,
    Skip,
    /// The side could not run the case.
    Error,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Pass,
        Status::Diff,
        Status::Expect,
        Status::Skip,
        Status::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Diff => "diff",
            Status::Expect => "expect",
            Status::Skip => "skip",
            Status::Error => "error",
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
    pub status: Status,
    /// The column's normalized outcome, when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Value>,
    /// With `diff`: our outcome it was compared with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ours: Option<Value>,
    /// With `expect`: the case's expectation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
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
        }
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
        if let Some(ours) = ours
            && *ours != outcome
        {
            return Cell {
                diff: Some(render_diff(column, &outcome, ours_name, ours)),
                ours: Some(ours.clone()),
                outcome: Some(outcome),
                ..Cell::new(Status::Diff)
            };
        }
        let expected = case.expect.to_outcome_json();
        match matches_expectation(&expected, &outcome) {
            Ok(()) => Cell {
                outcome: Some(outcome),
                ..Cell::new(Status::Pass)
            },
            Err(first) => Cell {
                diff: Some(format!(
                    "{first}\n{}",
                    render_diff("expected", &expected, column, &outcome)
                )),
                expected: Some(expected),
                outcome: Some(outcome),
                ..Cell::new(Status::Expect)
            },
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
            Status::Pass | Status::Skip => {
                if let Some(outcome) = &self.outcome {
                    message.push_str(&pretty(outcome));
                }
            }
        }
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{CaseOptions, CaseTools, Expect};
    use serde_json::json;

    fn case(result: Value) -> Case {
        Case {
            id: "results/x".into(),
            about: None,
            code: "async () => 1".into(),
            tools: CaseTools::Providers(vec![]),
            connectors: vec![],
            options: CaseOptions::default(),
            expect: Expect {
                result: Some(result),
                error: None,
                logs: json!([]),
                calls: json!([]),
                threw: None,
            },
            reference: true,
            reason: None,
            skip_on: vec![],
            file: "cases/results.yaml".into(),
            line: 3,
        }
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
}
