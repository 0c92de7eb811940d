//! `matrix.json`, as `docs/case-format.md` specifies it. Fields may be added; none
//! may change meaning.
//!
//! Added fields: `rules` (the normalization rules applied to both sides), and, when the run
//! was compared with a baseline, `transitions` (`{baseline, counts, cells, columns_not_run, columns_changed}`,
//! see [`crate::transitions`]) and a `transition` kind on every cell that moved.

use serde_json::{Value, json};

use crate::matrix::Matrix;
use crate::outcome::RULES;
use crate::transitions::Transitions;

/// The report as JSON, without transitions.
pub fn to_json(matrix: &Matrix) -> Value {
    json!({
        "columns": matrix.columns,
        "cases": matrix.cases,
        "totals": matrix.totals(),
        "elapsed_ms": matrix.elapsed_ms,
        "rules": RULES.iter().map(|r| json!({"name": r.name, "about": r.about})).collect::<Vec<_>>(),
    })
}

/// Adds the run's transitions to a report made by [`to_json`].
pub fn add_transitions(report: &mut Value, transitions: &Transitions) {
    if let Some(cases) = report.get_mut("cases").and_then(Value::as_array_mut) {
        for row in cases {
            let Some(id) = row.get("id").and_then(Value::as_str).map(str::to_owned) else {
                continue;
            };
            let Some(cells) = row.get_mut("cells").and_then(Value::as_object_mut) else {
                continue;
            };
            for (column, cell) in cells.iter_mut() {
                if let (Some(t), Some(cell)) = (transitions.get(&id, column), cell.as_object_mut())
                {
                    cell.insert("transition".into(), json!(t.kind));
                }
            }
        }
    }
    report["transitions"] = json!({
        "baseline": transitions.baseline,
        "counts": transitions.counts(),
        "cells": transitions.cells,
        "columns_not_run": transitions.columns_not_run,
        "columns_changed": transitions.columns_changed,
    });
}

/// The full report: [`to_json`], with transitions when there are any.
pub fn report(matrix: &Matrix, transitions: Option<&Transitions>) -> Value {
    let mut report = to_json(matrix);
    if let Some(t) = transitions {
        add_transitions(&mut report, t);
    }
    report
}
