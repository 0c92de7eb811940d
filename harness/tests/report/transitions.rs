//! Transitions end to end through the real binary, on our column only (no wrangler):
//! `matrix --accept` writes the baseline, a later run reports what moved against it in the
//! exit summary, `matrix.json`, `matrix.md`, `matrix.html` and `junit.xml`, and `accept`
//! makes a written report the baseline.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::{root, scratch};
use serde_json::Value;

fn catalogue(dir: &Path, second_expects: i64, third: bool) {
    let cases = dir.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    let mut text = format!(
        "- id: results/steady\n  code: async () => 1\n  expect:\n    result: 1\n\
         - id: results/moving\n  code: async () => 2\n  expect:\n    result: {second_expects}\n"
    );
    if third {
        text.push_str("- id: results/added\n  code: async () => 3\n  expect:\n    result: 3\n");
    }
    std::fs::write(cases.join("results.yaml"), text).unwrap();
}

fn matrix(dir: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .arg("--root")
        .arg(root())
        .args(["matrix", "--columns", "ours", "--cases"])
        .arg(dir.join("cases"))
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--baseline")
        .arg(dir.join("baseline.json"))
        .args(extra)
        .output()
        .unwrap()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn accept_then_report_what_moved() {
    let dir = scratch("transitions");
    let baseline = dir.join("baseline.json");

    // No baseline yet: the summary says how to make one; --accept makes it.
    catalogue(&dir, 2, false);
    let first = matrix(&dir, &["--accept"]);
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert_eq!(first.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("no baseline at "), "{stdout}");
    assert!(stdout.contains("accepted as the new baseline"), "{stdout}");
    let accepted = read_json(&baseline);
    assert_eq!(
        accepted["cases"]["results/moving"]["cells"]["ours"]["status"],
        "pass"
    );
    for report in ["matrix.json", "matrix.md", "matrix.html", "junit.xml"] {
        assert!(dir.join("out").join(report).is_file(), "{report} written");
    }

    // The expectation moves away (broken), a case is added (new); the baseline stays.
    catalogue(&dir, 5, true);
    let second = matrix(&dir, &[]);
    let stdout = String::from_utf8_lossy(&second.stdout);
    assert_eq!(second.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("0 fixed, 1 broken, 0 changed, 1 new, 0 removed, 0 upstream"),
        "{stdout}"
    );
    assert!(
        stdout.contains("broken results/moving on ours: pass → expect"),
        "{stdout}"
    );
    assert_eq!(
        read_json(&baseline),
        accepted,
        "a run without --accept keeps the baseline"
    );
    let report = read_json(&dir.join("out/matrix.json"));
    assert_eq!(report["transitions"]["counts"]["broken"], 1);
    assert_eq!(report["transitions"]["counts"]["new"], 1);
    let moving = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "results/moving")
        .unwrap();
    assert_eq!(moving["cells"]["ours"]["transition"], "broken");
    assert_eq!(moving["cells"]["ours"]["status"], "expect");
    let markdown = std::fs::read_to_string(dir.join("out/matrix.md")).unwrap();
    assert!(markdown.contains("## Since the baseline"), "{markdown}");
    assert!(
        markdown.contains("| `results/moving` | `ours` | **broken** |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("- **new** on `ours`: 1 cell: `results/added`"),
        "{markdown}"
    );
    let junit = std::fs::read_to_string(dir.join("out/junit.xml")).unwrap();
    assert!(junit.contains("broken since the baseline"), "{junit}");
    let html = std::fs::read_to_string(dir.join("out/matrix.html")).unwrap();
    assert!(
        html.contains("\"transition\":\"broken\""),
        "the page embeds the transitions"
    );

    // `accept` takes the written report, failure and all, as the baseline; putting the
    // expectation back is then a fix.
    let accept = Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .arg("--root")
        .arg(root())
        .args(["accept", "--report"])
        .arg(dir.join("out/matrix.json"))
        .arg("--baseline")
        .arg(&baseline)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&accept.stdout);
    assert_eq!(accept.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("1 broken") && stdout.contains("accepted"),
        "{stdout}"
    );
    catalogue(&dir, 2, true);
    let third = matrix(&dir, &[]);
    let stdout = String::from_utf8_lossy(&third.stdout);
    assert_eq!(third.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("1 fixed, 0 broken, 0 changed, 0 new, 0 removed, 0 upstream"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
