//! `matrix.json`, as `docs/case-format.md` specifies it. Fields may be added; none
//! may change meaning.
//!
//! Added fields: `rules` (the normalization rules applied to both sides); `outcomes`, each
//! distinct outcome once (digest → `{"bytes", "elided"?, "outcome"}`, see
//! [`crate::stored`]), to which a cell's `outcome` and `ours` refer by digest (reports
//! written before held the outcomes themselves there, and still read); and, when the run
//! was compared with a baseline, `transitions` (`{baseline, counts, cells, columns_not_run, columns_changed}`,
//! see [`crate::transitions`]) and a `transition` kind on every cell that moved.

use indexmap::IndexMap;
use serde_json::{Value, json};

use crate::matrix::Matrix;
use crate::outcome::RULES;
use crate::transitions::Transitions;

/// The report as JSON, without transitions.
pub fn to_json(matrix: &Matrix) -> Value {
    json!({
        "columns": matrix.columns,
        "cases": matrix.cases,
        "outcomes": outcomes(matrix),
        "totals": matrix.totals(),
        "elapsed_ms": matrix.elapsed_ms,
        "rules": RULES.iter().map(|r| json!({"name": r.name, "about": r.about})).collect::<Vec<_>>(),
    })
}

/// Every distinct outcome of the run, once, by digest, in the order first met.
fn outcomes(matrix: &Matrix) -> IndexMap<&str, Value> {
    let mut table = IndexMap::new();
    for cell in matrix.cases.iter().flat_map(|row| row.cells.values()) {
        for stored in [&cell.outcome, &cell.ours].into_iter().flatten() {
            table
                .entry(stored.digest.as_str())
                .or_insert_with(|| stored.entry());
        }
    }
    table
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
