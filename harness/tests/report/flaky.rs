//! Retries, flaky cells and shards end to end through the real binary, on our column only (no
//! wrangler): `matrix --retries N` turns a cell that passes on a retry into `flaky`, counted
//! and shown in `matrix.json`, `matrix.md`, `matrix.html` and `junit.xml` (nextest's
//! `<flakyFailure>` inside a passing testcase) without failing the run; a cell that fails
//! every attempt still fails, with its earlier attempts; `--shard K/N` runs disjoint parts of
//! the catalogue that `merge` joins back into the whole.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::{root, scratch};
use serde_json::Value;

/// Cases that pass half the time: with 20 of them, the chance that none fails its first
/// attempt is 2^-20, and with 30 retries the chance that one fails every attempt is 20 × 2^-31.
const COIN_CASES: usize = 20;

fn coin_catalogue(dir: &Path, with_steady_failure: bool) {
    let cases = dir.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    let mut text = String::new();
    for n in 0..COIN_CASES {
        text.push_str(&format!(
            "- id: results/coin-{n}\n  code: 'async () => Math.random() < 0.5 ? 1 : 2'\n  expect:\n    result: 1\n"
        ));
    }
    text.push_str("- id: results/steady\n  code: async () => 1\n  expect:\n    result: 1\n");
    if with_steady_failure {
        text.push_str(
            "- id: results/always-wrong\n  code: async () => 2\n  expect:\n    result: 3\n",
        );
    }
    std::fs::write(cases.join("results.yaml"), text).unwrap();
}

fn run(dir: &Path, out: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .arg("--root")
        .arg(root())
        .args(["matrix", "--columns", "ours", "--cases"])
        .arg(dir.join("cases"))
        .arg("--out")
        .arg(dir.join(out))
        .arg("--baseline")
        .arg(dir.join("baseline.json"))
        .args(extra)
        .output()
        .unwrap()
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}

fn json(dir: &Path, file: &str) -> Value {
    serde_json::from_str(&read(dir, file)).unwrap()
}

fn statuses(report: &Value) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["id"].as_str().unwrap().to_string(),
                row["cells"]["ours"]["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_cell_passing_on_a_retry_is_flaky_in_every_report_and_does_not_fail_the_run() {
    let dir = scratch("flaky");
    coin_catalogue(&dir, false);
    let output = run(&dir, "out", &["--retries", "30"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "flaky cells do not fail the run: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = json(&dir, "out/matrix.json");
    let cells = statuses(&report);
    let flaky: Vec<&String> = cells
        .iter()
        .filter(|(_, s)| s == "flaky")
        .map(|(id, _)| id)
        .collect();
    assert!(!flaky.is_empty(), "{cells:?}");
    assert!(
        cells.iter().all(|(_, s)| s == "pass" || s == "flaky"),
        "{cells:?}"
    );
    assert_eq!(report["totals"]["flaky"], flaky.len());
    assert!(
        stdout.contains(&format!("{} flaky", flaky.len())),
        "{stdout}"
    );
    // A flaky cell carries the passing outcome and each failed attempt with its diff.
    let row = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == *flaky[0])
        .unwrap();
    let cell = &row["cells"]["ours"];
    // The cell names its outcome by digest in the report's `outcomes` table.
    let digest = cell["outcome"].as_str().unwrap();
    assert_eq!(report["outcomes"][digest]["outcome"]["result"], 1);
    let attempts = cell["attempts"].as_array().unwrap();
    assert!(!attempts.is_empty());
    for attempt in attempts {
        assert_eq!(attempt["status"], "expect");
        assert!(
            attempt["detail"]
                .as_str()
                .unwrap()
                .starts_with("$.result: expected 1, got 2"),
            "{attempt}"
        );
    }
    // matrix.md: the mark, the totals, and a section with the attempts.
    let md = read(&dir, "out/matrix.md");
    assert!(md.contains(&format!("{} flaky", flaky.len())), "{md}");
    assert!(
        md.contains(&format!("| `{}` | 🔁 flaky |", flaky[0])),
        "{md}"
    );
    assert!(
        md.contains("## Flaky cells: failed, then passed on a retry"),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "### `{}` on `ours`: flaky, passed on attempt",
            flaky[0]
        )),
        "{md}"
    );
    assert!(md.contains("Attempt 1: expect"), "{md}");
    assert!(!md.contains("## Cells that did not pass"), "{md}");
    // junit.xml: the testcase passes (no failure element) and holds a flakyFailure per failed
    // attempt, as nextest writes it; the suite counts no failure.
    let xml = read(&dir, "out/junit.xml");
    assert!(xml.contains("failures=\"0\" errors=\"0\""), "{xml}");
    assert!(xml.contains(&format!(
        "<property name=\"flaky\" value=\"{}\"/>",
        flaky.len()
    )));
    let start = xml
        .find(&format!("<testcase name=\"{}\"", flaky[0]))
        .unwrap();
    let testcase = &xml[start..start + xml[start..].find("</testcase>").unwrap()];
    assert!(!testcase.contains("<failure"), "{testcase}");
    assert_eq!(
        testcase.matches("<flakyFailure type=\"expect\"").count(),
        attempts.len(),
        "{testcase}"
    );
    assert!(
        testcase.contains("<stackTrace>$.result: expected 1, got 2"),
        "{testcase}"
    );
    // matrix.html: the status is one the page knows, and the data carries the attempts.
    let html = read(&dir, "out/matrix.html");
    assert!(
        html.contains(r#"const STATUSES = ["pass", "diff", "expect", "skip", "error", "flaky"];"#)
    );
    assert!(html.contains("td.cell.status-flaky"));
    assert!(html.contains("\"status\":\"flaky\""));
    assert!(html.contains("\"attempts\":[{"));
}

#[test]
fn a_cell_failing_every_retry_fails_with_its_attempts() {
    let dir = scratch("always-wrong");
    let cases = dir.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(
        cases.join("results.yaml"),
        "- id: results/always-wrong\n  code: async () => 2\n  expect:\n    result: 3\n",
    )
    .unwrap();
    let output = run(&dir, "out", &["--retries", "2"]);
    assert_eq!(output.status.code(), Some(1));
    let report = json(&dir, "out/matrix.json");
    let cell = &report["cases"][0]["cells"]["ours"];
    assert_eq!(cell["status"], "expect");
    assert_eq!(cell["attempts"].as_array().unwrap().len(), 2);
    assert_eq!(report["totals"]["flaky"], 0);
    let md = read(&dir, "out/matrix.md");
    assert!(md.contains("Failed on every one of 3 attempts"), "{md}");
    let xml = read(&dir, "out/junit.xml");
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert_eq!(
        xml.matches("<rerunFailure type=\"expect\"").count(),
        2,
        "{xml}"
    );
}

#[test]
fn shards_split_the_catalogue_disjointly_and_merge_joins_them() {
    let dir = scratch("shards");
    coin_catalogue(&dir, true);
    let whole = run(&dir, "whole", &["--retries", "30"]);
    assert_eq!(whole.status.code(), Some(1), "the always-wrong case fails");
    let whole = statuses(&json(&dir, "whole/matrix.json"));
    let mut parts = Vec::new();
    for k in 1..=3 {
        let out = format!("shard-{k}");
        let output = run(
            &dir,
            &out,
            &["--retries", "30", "--shard", &format!("{k}/3")],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(&format!("shard {k}/3: ")), "{stderr}");
        parts.push(statuses(&json(&dir, &format!("{out}/matrix.json"))));
    }
    // Disjoint, and together the whole catalogue.
    let mut ids: Vec<String> = parts.iter().flatten().map(|(id, _)| id.clone()).collect();
    assert_eq!(ids.len(), whole.len(), "{parts:?}");
    ids.sort();
    ids.dedup();
    assert_eq!(
        ids.len(),
        whole.len(),
        "a case ran in two shards: {parts:?}"
    );
    assert!(parts.iter().all(|p| !p.is_empty()), "{parts:?}");
    // The same shard twice is the same cases.
    let again = run(&dir, "again", &["--shard", "2/3"]);
    assert!(again.status.code().is_some());
    let ids_of = |cells: &[(String, String)]| cells.iter().map(|c| c.0.clone()).collect::<Vec<_>>();
    assert_eq!(
        ids_of(&statuses(&json(&dir, "again/matrix.json"))),
        ids_of(&parts[1])
    );
    // merge joins the shards in catalogue order, with every cell and the totals.
    let merged = Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .arg("--root")
        .arg(root())
        .arg("merge")
        .args((1..=3).map(|k| dir.join(format!("shard-{k}/matrix.json"))))
        .arg("--out")
        .arg(dir.join("merged"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(
        merged.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    let report = json(&dir, "merged/matrix.json");
    assert_eq!(ids_of(&statuses(&report)), ids_of(&whole));
    assert_eq!(report["totals"]["expect"], 1);
    assert_eq!(
        report["totals"]["pass"].as_u64().unwrap() + report["totals"]["flaky"].as_u64().unwrap(),
        whole.len() as u64 - 1
    );
    // A bad shard is refused with a sentence.
    let bad = run(&dir, "bad", &["--shard", "4/3"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("--shard takes K/N with 1 <= K <= N"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
