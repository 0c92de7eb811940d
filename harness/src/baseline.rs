//! The accepted run, `results/baseline.json`: per case and column, the status and the
//! outcomes a later run is measured against (see [`crate::transitions`]).
//!
//! A baseline is made from a `matrix.json` report (the contract of
//! `docs/case-format.md`), so any report can be accepted, including one merged from
//! CI jobs. It keeps only what a comparison needs, no timings and no error messages (those
//! vary from run to run), so that accepting an unchanged run leaves the file unchanged. An
//! outcome longer than [`LARGE_OUTCOME_BYTES`] is kept as its digest (enough to tell that it
//! moved), and the file holds one case per line, so that it stays small and its diffs read
//! case by case.

use std::path::Path;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cell::Status;
use crate::error::{Error, Result};
use crate::matrix::OURS;
use crate::stored::Stored;

/// The file format this harness writes; a baseline of another format is refused with a
/// sentence saying how to make a new one.
pub const FORMAT: u32 = 1;

/// Outcomes whose compact JSON is longer than this are kept as
/// `{"$digest": "fnv1a64:<hex>", "$bytes": <length>}`.
pub const LARGE_OUTCOME_BYTES: usize = 4096;

/// One accepted run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// The baseline format's version ([`FORMAT`]), refused when it is not this harness's.
    pub format: u32,
    /// The columns of the accepted run, as their report headers named them.
    pub columns: Vec<BaselineColumn>,
    /// Case id → the case's cells.
    pub cases: IndexMap<String, BaselineCase>,
}

/// A column's header, as accepted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineColumn {
    /// The column's name (`ours`, `reference@0.5.6`, …).
    pub name: String,
    /// The upstream package's version the column ran, for a reference column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream: Option<String>,
    /// The wrangler version the column ran under, for a reference column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrangler: Option<String>,
    /// The workerd version the column ran on, for a reference column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workerd: Option<String>,
    /// The executor's version, for our columns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub executor: Option<String>,
}

/// One case of an accepted run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineCase {
    /// The catalogue file's name (`dispatch.yaml`): the case's area.
    pub file: String,
    /// Column name → cell.
    pub cells: IndexMap<String, BaselineCell>,
}

/// One cell of an accepted run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineCell {
    /// The cell's status.
    pub status: Status,
    /// The column's normalized outcome, when the cell ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Value>,
    /// On a reference column that ran: our outcome the cell was compared with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ours: Option<Value>,
    /// With `skip`: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Baseline {
    /// The baseline a `matrix.json` report makes. Fails with a sentence when the report does
    /// not follow the contract.
    pub fn from_report(report: &Value) -> Result<Baseline> {
        let bad = |what: &str| Error::Usage(format!("the report is not a matrix.json: {what}"));
        let columns: Vec<BaselineColumn> = report
            .get("columns")
            .cloned()
            .map(serde_json::from_value)
            .ok_or_else(|| bad("it has no \"columns\""))?
            .map_err(|e| bad(&format!("its \"columns\" do not parse ({e})")))?;
        let rows = report
            .get("cases")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("it has no \"cases\" list"))?;
        let outcomes = report.get("outcomes");
        let mut cases = IndexMap::new();
        for row in rows {
            let id = row
                .get("id")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("a case has no \"id\""))?;
            let file = row
                .get("file")
                .and_then(Value::as_str)
                .map(area_file)
                .unwrap_or_default();
            let mut cells = IndexMap::new();
            if let Some(map) = row.get("cells").and_then(Value::as_object) {
                for (column, cell) in map {
                    let status: Status = cell
                        .get("status")
                        .cloned()
                        .map(serde_json::from_value)
                        .ok_or_else(|| bad(&format!("{id} on {column} has no \"status\"")))?
                        .map_err(|e| bad(&format!("{id} on {column}: {e}")))?;
                    let read = |key: &str| {
                        cell.get(key)
                            .map(|v| Stored::read(v, outcomes))
                            .transpose()
                            .map(|stored| stored.map(kept))
                            .map_err(|e| bad(&format!("{id} on {column}: {e}")))
                    };
                    let outcome = read("outcome")?;
                    // A reference cell carries `ours` only when the two differ; otherwise
                    // ours equals the column's outcome.
                    let ours = if column == OURS {
                        None
                    } else {
                        read("ours")?.or_else(|| outcome.clone())
                    };
                    let reason = match status {
                        Status::Skip => cell
                            .get("reason")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        _ => None,
                    };
                    cells.insert(
                        column.clone(),
                        BaselineCell {
                            status,
                            outcome,
                            ours,
                            reason,
                        },
                    );
                }
            }
            cases.insert(id.to_owned(), BaselineCase { file, cells });
        }
        Ok(Baseline {
            format: FORMAT,
            columns,
            cases,
        })
    }

    /// Reads a baseline; `None` when the file does not exist (no run accepted yet).
    pub fn load(path: &Path) -> Result<Option<Baseline>> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io(path, e)),
        };
        let unreadable = |why: String| {
            Error::Usage(format!(
                "{} is not a baseline this harness can read ({why}); accept a fresh run with \
                 `codemode-compat matrix --accept`",
                path.display()
            ))
        };
        let baseline: Baseline =
            serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
        if baseline.format != FORMAT {
            return Err(unreadable(format!(
                "format {}, this harness writes format {FORMAT}",
                baseline.format
            )));
        }
        Ok(Some(baseline))
    }

    /// Writes the baseline, creating its directory: JSON with one column and one case per
    /// line.
    pub fn save(&self, path: &Path) -> Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        std::fs::write(path, self.to_text()).map_err(|e| Error::io(path, e))
    }

    /// The file's text: valid JSON, one column and one case per line.
    pub fn to_text(&self) -> String {
        let columns: Vec<String> = self.columns.iter().map(compact).collect();
        let cases: Vec<String> = self
            .cases
            .iter()
            .map(|(id, case)| format!("{}: {}", compact(id), compact(case)))
            .collect();
        format!(
            "{{\n\"format\": {},\n\"columns\": [\n{}\n],\n\"cases\": {{\n{}\n}}\n}}\n",
            self.format,
            columns.join(",\n"),
            cases.join(",\n")
        )
    }

    /// This run as the new baseline, keeping from `previous` the columns this run did not
    /// include (their cells for the cases this run has), so that accepting a run of some
    /// columns does not forget the others. Returns the names of the columns kept.
    pub fn accept_over(mut self, previous: Option<&Baseline>) -> (Baseline, Vec<String>) {
        let Some(previous) = previous else {
            return (self, Vec::new());
        };
        let mut kept = Vec::new();
        for column in &previous.columns {
            if self.has_column(&column.name) {
                continue;
            }
            kept.push(column.name.clone());
            self.columns.push(column.clone());
            for (id, case) in &mut self.cases {
                if let Some(cell) = previous.cell(id, &column.name) {
                    case.cells.insert(column.name.clone(), cell.clone());
                }
            }
        }
        (self, kept)
    }

    /// The cell of a case on a column, if the accepted run had it.
    pub fn cell(&self, case: &str, column: &str) -> Option<&BaselineCell> {
        self.cases.get(case)?.cells.get(column)
    }

    /// Whether the accepted run had this column.
    pub fn has_column(&self, column: &str) -> bool {
        self.columns.iter().any(|c| c.name == column)
    }
}

/// Compact JSON.
fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("a baseline always serializes")
}

/// An outcome as the baseline keeps it: whole, or past [`LARGE_OUTCOME_BYTES`] its digest
/// (`{"$digest": "fnv1a64:<hex>", "$bytes": <length>}`, of the whole outcome even when the
/// report holds it elided).
fn kept(outcome: Stored) -> Value {
    if outcome.bytes <= LARGE_OUTCOME_BYTES && !outcome.elided() {
        return (*outcome.shown).clone();
    }
    serde_json::json!({"$digest": outcome.digest, "$bytes": outcome.bytes})
}

/// A catalogue path's file name (`/x/cases/dispatch.yaml` → `dispatch.yaml`), so a baseline
/// does not depend on where the project was checked out.
pub fn area_file(path: &str) -> String {
    Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn report() -> Value {
        json!({
            "columns": [{"name": "ours", "executor": "codemode-executor 0.1.0"},
                        {"name": "reference@0.5.6", "upstream": "0.5.6", "wrangler": "4.164.0", "workerd": "1"}],
            "cases": [{
                "id": "results/x", "file": "/somewhere/cases/results.yaml", "line": 2,
                "cells": {
                    "ours": {"status": "pass", "outcome": {"result": 1}, "elapsed_ms": 1.5},
                    "reference@0.5.6": {"status": "diff", "outcome": {"result": 2}, "ours": {"result": 1}, "diff": "..."}
                }
            }, {
                "id": "results/y", "file": "cases/results.yaml", "line": 9,
                "cells": {
                    "ours": {"status": "pass", "outcome": {"result": 3}},
                    "reference@0.5.6": {"status": "skip", "reason": "skip_on <0.6: no"}
                }
            }],
            "totals": {}, "elapsed_ms": 5
        })
    }

    #[test]
    fn a_report_becomes_a_baseline_without_timings_or_paths() {
        let baseline = Baseline::from_report(&report()).unwrap();
        assert_eq!(baseline.columns.len(), 2);
        let x = &baseline.cases["results/x"];
        assert_eq!(x.file, "results.yaml");
        assert_eq!(x.cells["ours"].ours, None);
        assert_eq!(x.cells["reference@0.5.6"].ours, Some(json!({"result": 1})));
        let y = baseline.cell("results/y", "reference@0.5.6").unwrap();
        assert_eq!(y.status, Status::Skip);
        assert_eq!(y.reason.as_deref(), Some("skip_on <0.6: no"));
        let text = serde_json::to_string(&baseline).unwrap();
        assert!(
            !text.contains("elapsed_ms") && !text.contains("/somewhere"),
            "{text}"
        );
    }

    #[test]
    fn a_reference_cell_that_agrees_records_ours_as_its_outcome() {
        let mut r = report();
        r["cases"][0]["cells"]["reference@0.5.6"] =
            json!({"status": "pass", "outcome": {"result": 1}});
        let baseline = Baseline::from_report(&r).unwrap();
        let cell = baseline.cell("results/x", "reference@0.5.6").unwrap();
        assert_eq!(cell.ours, cell.outcome);
    }

    #[test]
    fn save_and_load_round_trip_and_a_missing_file_is_none() {
        let dir = std::env::temp_dir().join(format!("codemode-baseline-{}", std::process::id()));
        let path = dir.join("baseline.json");
        assert_eq!(Baseline::load(&path).unwrap(), None);
        let baseline = Baseline::from_report(&report()).unwrap();
        baseline.save(&path).unwrap();
        assert_eq!(Baseline::load(&path).unwrap(), Some(baseline));
        std::fs::write(&path, "{\"format\": 99, \"columns\": [], \"cases\": {}}").unwrap();
        let error = Baseline::load(&path).unwrap_err().to_string();
        assert!(error.contains("matrix --accept"), "{error}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn accepting_some_columns_keeps_the_others() {
        let previous = Baseline::from_report(&report()).unwrap();
        let mut partial = report();
        partial["columns"] = json!([{"name": "ours", "executor": "codemode-executor 0.1.0"}]);
        for row in partial["cases"].as_array_mut().unwrap() {
            row["cells"]
                .as_object_mut()
                .unwrap()
                .remove("reference@0.5.6");
        }
        let run = Baseline::from_report(&partial).unwrap();
        let (accepted, kept) = run.accept_over(Some(&previous));
        assert_eq!(kept, vec!["reference@0.5.6".to_string()]);
        assert_eq!(accepted, previous);
        let (alone, kept) = Baseline::from_report(&partial).unwrap().accept_over(None);
        assert!(kept.is_empty() && !alone.has_column("reference@0.5.6"));
    }

    #[test]
    fn a_large_outcome_is_kept_as_its_digest_and_still_tells_a_change() {
        let big = |fill: u8| json!({"result": vec![fill; 3000], "logs": [], "calls": []});
        let mut r = report();
        r["cases"][0]["cells"]["ours"]["outcome"] = big(1);
        let one = Baseline::from_report(&r).unwrap();
        let kept = one.cases["results/x"].cells["ours"]
            .outcome
            .clone()
            .unwrap();
        assert!(
            kept["$digest"].as_str().unwrap().starts_with("fnv1a64:"),
            "{kept}"
        );
        r["cases"][0]["cells"]["ours"]["outcome"] = big(2);
        let two = Baseline::from_report(&r).unwrap();
        assert_ne!(
            one.cases["results/x"].cells["ours"].outcome,
            two.cases["results/x"].cells["ours"].outcome
        );
        r["cases"][0]["cells"]["ours"]["outcome"] = big(1);
        assert_eq!(Baseline::from_report(&r).unwrap(), one);
    }

    #[test]
    fn the_file_is_json_with_a_case_per_line() {
        let baseline = Baseline::from_report(&report()).unwrap();
        let text = baseline.to_text();
        let back: Baseline = serde_json::from_str(&text).unwrap();
        assert_eq!(back, baseline);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines.iter().any(|l| l.starts_with("\"results/x\": {")),
            "{text}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("\"results/y\": {")),
            "{text}"
        );
        assert_eq!(lines.len(), 11, "{text}");
    }

    #[test]
    fn a_report_without_cases_is_refused_with_a_sentence() {
        let error = Baseline::from_report(&json!({"columns": []}))
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "the report is not a matrix.json: it has no \"cases\" list"
        );
    }
}
