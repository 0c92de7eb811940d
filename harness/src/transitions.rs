//! Transitions: every cell of a run against the accepted baseline (`results/baseline.json`).
//!
//! A cell moves in one of these ways, or not at all:
//!
//! | kind | meaning |
//! | --- | --- |
//! | `fixed` | was `diff`, `expect` or `error`; now passes or is skipped |
//! | `broken` | passed or was skipped; now `diff`, `expect` or `error` |
//! | `changed` | still failing, differently (another status, or other outcomes); or a pass became a skip, or back |
//! | `new` | the baseline has no such cell (a new case, or a new column) |
//! | `removed` | the baseline has the cell, this run's column does not have its case |
//! | `upstream` | on a reference column, the reference's outcome moved while ours did not: whatever the cell did, it is upstream's change, not our regression |
//!
//! Columns are matched by name (`reference@<exact version>`): a column of the baseline this
//! run did not include is listed as not run, its cells are not reported as removed.

use indexmap::IndexMap;
use serde::Serialize;

use crate::baseline::{Baseline, BaselineCell};
use crate::cell::Status;
use crate::matrix::OURS;

/// How a cell moved since the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Was `diff`, `expect` or `error`, now passes (or is skipped).
    Fixed,
    /// Passed (or was skipped), now `diff`, `expect` or `error`.
    Broken,
    /// Still failing, differently (another status or other outcomes), or a pass with other
    /// outcomes.
    Changed,
    /// A cell the baseline does not have.
    New,
    /// A case gone from a column that ran.
    Removed,
    /// On a reference column, the reference's outcome changed while ours did not.
    Upstream,
}

impl Kind {
    /// Every kind, in the order reports list them.
    pub const ALL: [Kind; 6] = [
        Kind::Fixed,
        Kind::Broken,
        Kind::Changed,
        Kind::New,
        Kind::Removed,
        Kind::Upstream,
    ];

    /// The kind as reports write it (`fixed`, `broken`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Fixed => "fixed",
            Kind::Broken => "broken",
            Kind::Changed => "changed",
            Kind::New => "new",
            Kind::Removed => "removed",
            Kind::Upstream => "upstream",
        }
    }
}

/// One cell that moved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Transition {
    /// The case's id.
    pub case: String,
    /// The column.
    pub column: String,
    /// How the cell moved.
    pub kind: Kind,
    /// The baseline's status, when it had the cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Status>,
    /// This run's status, when it has the cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Status>,
    /// One sentence: what moved.
    pub about: String,
}

/// A whole run against its baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Transitions {
    /// Where the baseline was read from, as given.
    pub baseline: String,
    /// Every cell that moved, in report order (removed cells last).
    pub cells: Vec<Transition>,
    /// Columns of the baseline that this run did not include.
    pub columns_not_run: Vec<String>,
    /// Columns whose header moved (another wrangler, workerd or executor under the same
    /// name), one sentence each: what may explain an `upstream` cell.
    pub columns_changed: Vec<String>,
}

impl Transitions {
    /// Cells per kind, every kind present.
    pub fn counts(&self) -> IndexMap<&'static str, usize> {
        let mut counts: IndexMap<&'static str, usize> =
            Kind::ALL.iter().map(|k| (k.as_str(), 0)).collect();
        for t in &self.cells {
            *counts.entry(t.kind.as_str()).or_default() += 1;
        }
        counts
    }

    /// The transition of a case on a column, if it moved.
    pub fn get(&self, case: &str, column: &str) -> Option<&Transition> {
        self.cells
            .iter()
            .find(|t| t.case == case && t.column == column)
    }

    /// One line for people: the counts against the baseline.
    pub fn summary(&self) -> String {
        let counts = self.counts();
        let mut line = format!(
            "against {}: {}",
            self.baseline,
            counts
                .iter()
                .map(|(k, v)| format!("{v} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if !self.columns_changed.is_empty() {
            line.push_str(&format!("; {}", self.columns_changed.join("; ")));
        }
        if !self.columns_not_run.is_empty() {
            line.push_str(&format!("; not run: {}", self.columns_not_run.join(", ")));
        }
        line
    }
}

/// Compares a run (as a baseline made from its report) with the accepted baseline.
pub fn compare(baseline: &Baseline, run: &Baseline, baseline_name: &str) -> Transitions {
    let mut cells = Vec::new();
    for (id, case) in &run.cases {
        for (column, now) in &case.cells {
            if let Some(t) = classify(id, column, baseline.cell(id, column), Some(now)) {
                cells.push(t);
            }
        }
    }
    let run_columns: Vec<&str> = run.columns.iter().map(|c| c.name.as_str()).collect();
    for (id, case) in &baseline.cases {
        for (column, was) in &case.cells {
            if run_columns.contains(&column.as_str()) && run.cell(id, column).is_none() {
                cells.extend(classify(id, column, Some(was), None));
            }
        }
    }
    let columns_not_run = baseline
        .columns
        .iter()
        .filter(|c| !run.has_column(&c.name))
        .map(|c| c.name.clone())
        .collect();
    let columns_changed = run
        .columns
        .iter()
        .filter_map(|now| {
            let was = baseline.columns.iter().find(|c| c.name == now.name)?;
            let moved: Vec<String> = [
                ("upstream", &was.upstream, &now.upstream),
                ("wrangler", &was.wrangler, &now.wrangler),
                ("workerd", &was.workerd, &now.workerd),
                ("executor", &was.executor, &now.executor),
            ]
            .into_iter()
            .filter(|(_, a, b)| a != b)
            .map(|(what, a, b)| {
                let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
                format!("{what} {} → {}", show(a), show(b))
            })
            .collect();
            (!moved.is_empty()).then(|| format!("{}: {}", now.name, moved.join(", ")))
        })
        .collect();
    Transitions {
        baseline: baseline_name.to_owned(),
        cells,
        columns_not_run,
        columns_changed,
    }
}

/// How one cell moved between the baseline (`was`) and this run (`now`); `None` when it did
/// not.
pub fn classify(
    case: &str,
    column: &str,
    was: Option<&BaselineCell>,
    now: Option<&BaselineCell>,
) -> Option<Transition> {
    let make = |kind: Kind, about: String| Transition {
        case: case.to_owned(),
        column: column.to_owned(),
        kind,
        from: was.map(|c| c.status),
        to: now.map(|c| c.status),
        about,
    };
    let (was, now) = match (was, now) {
        (None, None) => return None,
        (None, Some(now)) => {
            return Some(make(
                Kind::New,
                format!("not in the baseline; now {}", now.status.as_str()),
            ));
        }
        (Some(was), None) => {
            return Some(make(
                Kind::Removed,
                format!("was {}; no longer in the catalogue", was.status.as_str()),
            ));
        }
        (Some(was), Some(now)) => (was, now),
    };
    let moved = format!("{} → {}", was.status.as_str(), now.status.as_str());
    let kind = match (was.status.is_failure(), now.status.is_failure()) {
        (true, false) => Kind::Fixed,
        (false, true) => Kind::Broken,
        (true, true) if was.status != now.status || outcomes_differ(was, now) => Kind::Changed,
        (false, false) if was.status != now.status => Kind::Changed,
        _ => return None,
    };
    if column != OURS && upstream_moved(was, now) {
        return Some(make(
            Kind::Upstream,
            format!(
                "{moved}: the reference's outcome changed while ours did not (would be {})",
                kind.as_str()
            ),
        ));
    }
    let about = match kind {
        Kind::Changed if was.status == now.status => format!("{moved}, with other outcomes"),
        // A flaky cell passed on a retry: the same outcome, reached on the second try or the
        // first, is the run's timing, not a change of the case.
        _ if now.status == Status::Flaky && !outcomes_differ(was, now) => {
            format!("{moved}, with the same outcomes: this run passed it only on a retry")
        }
        _ if was.status == Status::Flaky && !outcomes_differ(was, now) => {
            format!("{moved}, with the same outcomes: this run passed it without a retry")
        }
        _ if was.outcome.is_some() && !outcomes_differ(was, now) => {
            format!("{moved}, with the same outcomes: the case itself changed")
        }
        _ => moved,
    };
    Some(make(kind, about))
}

/// Whether two failing cells differ beyond their error messages (which vary run to run).
fn outcomes_differ(was: &BaselineCell, now: &BaselineCell) -> bool {
    was.outcome != now.outcome || was.ours != now.ours
}

/// The upstream rule: the column's outcome is known on both runs and differs, and the ours it
/// was compared with is known on both and equal.
fn upstream_moved(was: &BaselineCell, now: &BaselineCell) -> bool {
    match (&was.outcome, &now.outcome, &was.ours, &now.ours) {
        (Some(a), Some(b), Some(ours_then), Some(ours_now)) => a != b && ours_then == ours_now,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::{BaselineCase, BaselineColumn, FORMAT};
    use serde_json::{Value, json};

    const REF: &str = "reference@0.5.6";

    fn cell(status: Status, outcome: Option<Value>, ours: Option<Value>) -> BaselineCell {
        BaselineCell {
            status,
            outcome,
            ours,
            reason: None,
        }
    }

    fn pass(v: i64) -> BaselineCell {
        cell(
            Status::Pass,
            Some(json!({"result": v})),
            Some(json!({"result": v})),
        )
    }

    fn diff(reference: i64, ours: i64) -> BaselineCell {
        cell(
            Status::Diff,
            Some(json!({"result": reference})),
            Some(json!({"result": ours})),
        )
    }

    fn kind(was: Option<&BaselineCell>, now: Option<&BaselineCell>) -> Option<Kind> {
        classify("c/x", REF, was, now).map(|t| t.kind)
    }

    #[test]
    fn an_unmoved_cell_is_no_transition() {
        assert_eq!(kind(Some(&pass(1)), Some(&pass(1))), None);
        assert_eq!(kind(Some(&diff(1, 2)), Some(&diff(1, 2))), None);
        let error = cell(Status::Error, None, None);
        assert_eq!(kind(Some(&error), Some(&error)), None);
    }

    #[test]
    fn failing_to_passing_is_fixed_and_back_is_broken() {
        // Ours moved to match the reference: our fix.
        assert_eq!(kind(Some(&diff(1, 2)), Some(&pass(1))), Some(Kind::Fixed));
        // Ours moved away from the reference: our regression.
        assert_eq!(kind(Some(&pass(1)), Some(&diff(1, 2))), Some(Kind::Broken));
        let error = cell(Status::Error, None, None);
        assert_eq!(kind(Some(&pass(1)), Some(&error)), Some(Kind::Broken));
        assert_eq!(kind(Some(&error), Some(&pass(1))), Some(Kind::Fixed));
    }

    #[test]
    fn still_failing_differently_is_changed() {
        assert_eq!(
            kind(Some(&diff(1, 2)), Some(&diff(1, 3))),
            Some(Kind::Changed)
        );
        let expect = cell(
            Status::Expect,
            Some(json!({"result": 1})),
            Some(json!({"result": 1})),
        );
        let error = cell(Status::Error, None, None);
        assert_eq!(kind(Some(&expect), Some(&error)), Some(Kind::Changed));
        let t = classify("c/x", REF, Some(&diff(1, 2)), Some(&diff(1, 3))).unwrap();
        assert_eq!(t.about, "diff → diff, with other outcomes");
        assert_eq!((t.from, t.to), (Some(Status::Diff), Some(Status::Diff)));
    }

    #[test]
    fn a_move_with_the_same_outcomes_is_put_down_to_the_case() {
        let expect = cell(
            Status::Expect,
            Some(json!({"result": 1})),
            Some(json!({"result": 1})),
        );
        let t = classify("c/x", REF, Some(&pass(1)), Some(&expect)).unwrap();
        assert_eq!(t.kind, Kind::Broken);
        assert_eq!(
            t.about,
            "pass → expect, with the same outcomes: the case itself changed"
        );
    }

    #[test]
    fn a_move_between_pass_and_flaky_is_put_down_to_the_retry() {
        let flaky = cell(Status::Flaky, Some(json!({"result": 1})), None);
        let was_pass = cell(Status::Pass, Some(json!({"result": 1})), None);
        let t = classify("c/x", REF, Some(&was_pass), Some(&flaky)).unwrap();
        assert_eq!(t.kind, Kind::Changed);
        assert_eq!(
            t.about,
            "pass → flaky, with the same outcomes: this run passed it only on a retry"
        );
        let t = classify("c/x", REF, Some(&flaky), Some(&was_pass)).unwrap();
        assert_eq!(
            t.about,
            "flaky → pass, with the same outcomes: this run passed it without a retry"
        );
    }

    #[test]
    fn a_pass_that_became_a_skip_is_changed() {
        let skip = cell(Status::Skip, None, None);
        assert_eq!(kind(Some(&pass(1)), Some(&skip)), Some(Kind::Changed));
        assert_eq!(kind(Some(&skip), Some(&pass(1))), Some(Kind::Changed));
    }

    #[test]
    fn new_and_removed_cells() {
        assert_eq!(kind(None, Some(&pass(1))), Some(Kind::New));
        assert_eq!(kind(Some(&pass(1)), None), Some(Kind::Removed));
        assert_eq!(kind(None, None), None);
    }

    #[test]
    fn the_reference_moving_while_ours_stays_is_upstream_not_our_regression() {
        // pass → diff because upstream now returns 2 and ours still returns 1.
        let t = classify("c/x", REF, Some(&pass(1)), Some(&diff(2, 1))).unwrap();
        assert_eq!(t.kind, Kind::Upstream);
        assert!(t.about.contains("would be broken"), "{}", t.about);
        // diff → pass because upstream came round to ours.
        assert_eq!(
            kind(Some(&diff(2, 1)), Some(&pass(1))),
            Some(Kind::Upstream)
        );
        // Still a diff, upstream moved again, ours the same.
        assert_eq!(
            kind(Some(&diff(2, 1)), Some(&diff(3, 1))),
            Some(Kind::Upstream)
        );
    }

    #[test]
    fn both_moving_is_ours_to_answer_for() {
        // The reference and ours both moved: not upstream's alone.
        assert_eq!(kind(Some(&pass(1)), Some(&diff(2, 3))), Some(Kind::Broken));
        // Ours moved, the reference did not: ours.
        assert_eq!(kind(Some(&pass(1)), Some(&diff(1, 3))), Some(Kind::Broken));
    }

    #[test]
    fn our_own_column_is_never_upstream() {
        let was = pass(1);
        let now = cell(
            Status::Expect,
            Some(json!({"result": 2})),
            Some(json!({"result": 1})),
        );
        let t = classify("c/x", OURS, Some(&was), Some(&now)).unwrap();
        assert_eq!(t.kind, Kind::Broken);
    }

    fn baseline(columns: &[&str], cells: &[(&str, &str, BaselineCell)]) -> Baseline {
        let mut cases: IndexMap<String, BaselineCase> = IndexMap::new();
        for (case, column, cell) in cells {
            cases
                .entry(case.to_string())
                .or_insert_with(|| BaselineCase {
                    file: "results.yaml".into(),
                    cells: IndexMap::new(),
                })
                .cells
                .insert(column.to_string(), cell.clone());
        }
        Baseline {
            format: FORMAT,
            columns: columns
                .iter()
                .map(|name| BaselineColumn {
                    name: name.to_string(),
                    upstream: None,
                    wrangler: None,
                    workerd: None,
                    executor: None,
                })
                .collect(),
            cases,
        }
    }

    #[test]
    fn a_whole_run_against_its_baseline() {
        let old = baseline(
            &[OURS, REF, "reference@0.4.1"],
            &[
                ("a", OURS, pass(1)),
                ("a", REF, pass(1)),
                ("a", "reference@0.4.1", pass(1)),
                ("gone", OURS, pass(1)),
                ("gone", REF, pass(1)),
            ],
        );
        let new = baseline(
            &[OURS, REF, "reference@0.6.0"],
            &[
                ("a", OURS, pass(1)),
                ("a", REF, diff(2, 1)),
                ("a", "reference@0.6.0", pass(1)),
                ("b", OURS, pass(1)),
            ],
        );
        let t = compare(&old, &new, "results/baseline.json");
        let kinds: Vec<(&str, &str, Kind)> = t
            .cells
            .iter()
            .map(|t| (t.case.as_str(), t.column.as_str(), t.kind))
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("a", REF, Kind::Upstream),
                ("a", "reference@0.6.0", Kind::New),
                ("b", OURS, Kind::New),
                ("gone", OURS, Kind::Removed),
                ("gone", REF, Kind::Removed),
            ]
        );
        assert_eq!(t.columns_not_run, vec!["reference@0.4.1".to_string()]);
        assert_eq!(
            t.summary(),
            "against results/baseline.json: 0 fixed, 0 broken, 0 changed, 2 new, 2 removed, \
             1 upstream; not run: reference@0.4.1"
        );
        assert_eq!(t.get("a", REF).unwrap().kind, Kind::Upstream);
        assert!(t.get("a", OURS).is_none());
        assert!(t.columns_changed.is_empty());
    }

    #[test]
    fn a_column_whose_toolchain_moved_is_named() {
        let mut old = baseline(&[REF], &[("a", REF, pass(1))]);
        old.columns[0].workerd = Some("1.20261117.1".into());
        let mut new = old.clone();
        new.columns[0].workerd = Some("1.20270101.0".into());
        let t = compare(&old, &new, "b.json");
        assert_eq!(
            t.columns_changed,
            vec![format!("{REF}: workerd 1.20261117.1 → 1.20270101.0")]
        );
        assert!(
            t.summary()
                .ends_with("; reference@0.5.6: workerd 1.20261117.1 → 1.20270101.0")
        );
    }
}
