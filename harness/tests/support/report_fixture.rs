//! A small matrix for the report tests, built through the harness's own types: a catalogue
//! loaded from YAML by the real loader, cells judged by `Cell::judge`, transitions computed
//! against a baseline made from a report. The reference outcomes here are fixtures of the
//! report's rendering (what a column could answer), not claims about upstream.

pub use super::scratch;
use codemode_compat::baseline::Baseline;
use codemode_compat::catalogue::load_dirs;
use codemode_compat::cell::{Cell, Status};
use codemode_compat::matrix::{ColumnHeader, Matrix, OURS, Row};
use codemode_compat::report;
use codemode_compat::transitions::{self, Transitions};
use indexmap::IndexMap;
use serde_json::{Value, json};

pub const NEW: &str = "reference@0.5.6";
pub const TWIN: &str = "reference@0.5.2";
pub const OLD: &str = "reference@0.2.2";
/// Text that would break HTML or XML if it were not escaped.
pub const HOSTILE: &str = "</script><b id=\"injected\">x</b> & 'q' \u{7}";

const RESULTS: &str = r#"
- id: results/number
  code: async () => 1
  expect:
    result: 1
- id: results/hostile
  code: async () => "hostile"
  expect:
    result: "hostile"
"#;

const DISPATCH: &str = r#"
- id: dispatch/positional-arguments
  code: async () => await codemode.add(1, "b")
  providers:
    - name: codemode
      tools:
        add: { echo: args }
  expect:
    result: [1, "b"]
    calls:
      - { tool: codemode.add, args: [1, "b"] }
- id: dispatch/skipped-on-old
  code: async () => 2
  expect:
    result: 2
  skip_on:
    - versions: "<0.3.7"
      reason: before 0.3.7 a tool received its first argument only
"#;

fn header(name: &str, upstream: &str) -> ColumnHeader {
    ColumnHeader {
        name: name.into(),
        upstream: Some(upstream.into()),
        wrangler: Some("4.164.0".into()),
        workerd: Some("1.20261117.1".into()),
        executor: None,
    }
}

fn outcome(result: Value, calls: Value) -> Value {
    json!({"result": result, "logs": [], "calls": calls})
}

/// The matrix: four cases on ours and three reference columns, of which 0.5.6 and 0.5.2
/// agree everywhere; on 0.2.2 one cell is a diff, one an expect failure, one skipped, one an
/// error.
pub fn matrix() -> Matrix {
    let dir = scratch("catalogue");
    std::fs::write(dir.join("results.yaml"), RESULTS).unwrap();
    std::fs::write(dir.join("dispatch.yaml"), DISPATCH).unwrap();
    let catalogue = load_dirs(std::slice::from_ref(&dir)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let calls = json!([{"tool": "codemode.add", "args": [1, "b"]}]);
    let mut rows = Vec::new();
    for case in &catalogue.cases {
        // What each side answers, per case: (ours, 0.5.x, 0.2.2).
        let (ours, new, old): (Value, Value, Option<Value>) = match case.id.as_str() {
            "results/number" => (
                outcome(json!(1), json!([])),
                outcome(json!(1), json!([])),
                None,
            ),
            "results/hostile" => {
                let o = outcome(json!(HOSTILE), json!([]));
                (o.clone(), o.clone(), Some(o))
            }
            "dispatch/positional-arguments" => (
                outcome(json!([1, "b"]), calls.clone()),
                outcome(json!([1, "b"]), calls.clone()),
                Some(outcome(
                    json!([1]),
                    json!([{"tool": "codemode.add", "args": [1]}]),
                )),
            ),
            "dispatch/skipped-on-old" => {
                let o = outcome(json!(2), json!([]));
                (o.clone(), o, None)
            }
            other => panic!("unknown fixture case {other}"),
        };
        let mut cells = IndexMap::new();
        let mut ours_cell = Cell::judge(case, ours.clone(), None, OURS, OURS);
        ours_cell.elapsed_ms = Some(1.5);
        cells.insert(OURS.to_string(), ours_cell);
        for name in [NEW, TWIN] {
            let mut cell = Cell::judge(case, new.clone(), Some(&ours), OURS, name);
            cell.elapsed_ms = Some(20.0);
            cells.insert(name.to_string(), cell);
        }
        let old_cell = match (case.id.as_str(), old) {
            ("results/number", _) => Cell::error(
                "the column could not start: wrangler dev exited before it answered /health",
            ),
            ("dispatch/skipped-on-old", _) => {
                let skip = case.skip_for(&semver::Version::new(0, 2, 2)).unwrap();
                Cell::skip(format!("skip_on {}: {}", skip.versions, skip.reason))
            }
            (_, Some(o)) => Cell::judge(case, o, Some(&ours), OURS, OLD),
            (_, None) => unreachable!(),
        };
        cells.insert(OLD.to_string(), old_cell);
        rows.push(Row {
            id: case.id.clone(),
            file: case.file.clone(),
            line: case.line,
            cells,
        });
    }
    // The hostile result fails its expect on every column (it is not "hostile").
    let row = |id: &str| rows.iter().find(|r| r.id == id).unwrap();
    assert_eq!(row("results/hostile").cells[OURS].status, Status::Expect);
    assert_eq!(
        row("dispatch/positional-arguments").cells[OLD].status,
        Status::Diff
    );
    Matrix {
        columns: vec![
            ColumnHeader::ours(),
            header(NEW, "0.5.6"),
            header(TWIN, "0.5.2"),
            header(OLD, "0.2.2"),
        ],
        cases: rows,
        elapsed_ms: 1234,
    }
}

/// The matrix's transitions against a baseline in which `dispatch/positional-arguments`
/// passed on 0.2.2 with ours the same (so its diff now is upstream's change), `results/number`
/// on 0.2.2 was a pass (now an error: broken), and a case since removed existed.
pub fn transitions(matrix: &Matrix) -> Transitions {
    let mut baseline = Baseline::from_report(&report::to_json(matrix)).unwrap();
    let args = baseline
        .cases
        .get_mut("dispatch/positional-arguments")
        .unwrap()
        .cells
        .get_mut(OLD)
        .unwrap();
    args.status = Status::Pass;
    args.outcome = args.ours.clone();
    let number = baseline
        .cases
        .get_mut("results/number")
        .unwrap()
        .cells
        .get_mut(OLD)
        .unwrap();
    number.status = Status::Pass;
    number.outcome = Some(outcome(json!(1), json!([])));
    number.ours = number.outcome.clone();
    let mut gone = baseline.cases["results/number"].clone();
    gone.cells.shift_remove(OLD);
    baseline.cases.insert("results/removed-since".into(), gone);
    let run = Baseline::from_report(&report::to_json(matrix)).unwrap();
    transitions::compare(&baseline, &run, "results/baseline.json")
}
