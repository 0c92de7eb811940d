//! `matrix.json`, as `shared/design/case-format.md` specifies it. Fields may be added; none
//! may change meaning.

use serde_json::{Value, json};

use crate::matrix::Matrix;
use crate::outcome::RULES;

/// The report as JSON.
pub fn to_json(matrix: &Matrix) -> Value {
    json!({
        "columns": matrix.columns,
        "cases": matrix.cases,
        "totals": matrix.totals(),
        "elapsed_ms": matrix.elapsed_ms,
        "rules": RULES.iter().map(|r| json!({"name": r.name, "about": r.about})).collect::<Vec<_>>(),
    })
}
