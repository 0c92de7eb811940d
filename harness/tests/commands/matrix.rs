//! The `matrix` command as CI runs it, stderr not a terminal: a progress line (cells done per
//! column) every `--progress-every` seconds while the cells run, the closing phase line with
//! the time of each phase, the `cpu:` line with the harness's own CPU and peak memory, and
//! reports that name a case's file relative to the project root.

use crate::support;

use std::process::{Command, Stdio};

/// Two cases that wait 1.5 s each (side by side on any machine with two cores).
fn catalogue() -> String {
    (0..2)
        .map(|i| {
            format!(
                "- id: slow/wait-{i}\n  code: async () => {{ await new Promise(r => setTimeout(r, 1500)); return {i} }}\n  expect:\n    result: {i}\n"
            )
        })
        .collect()
}

/// The seconds a progress line (`[1.5 s] 16/40 cells · ours 16/40`) stamps.
fn stamp(line: &str) -> Option<f64> {
    line.strip_prefix('[')?.split_once(" s] ")?.0.parse().ok()
}

#[test]
fn a_run_off_a_terminal_prints_progress_every_few_seconds_and_its_phases() {
    let dir = support::scratch("progress");
    // A catalogue inside the project (under target/), so its file has a path from the root.
    let inside = format!("target/matrix-command-{}", std::process::id());
    let cases = support::root().join(&inside);
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(cases.join("slow.yaml"), catalogue()).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .arg("--root")
        .arg(support::root())
        .args([
            "matrix",
            "--columns",
            "ours",
            "--progress-every",
            "0.5",
            "--cases",
        ])
        .arg(&cases)
        .arg("--out")
        .arg(dir.join("results"))
        .arg("--baseline")
        .arg(dir.join("baseline.json"))
        .stdin(Stdio::null())
        .output()
        .expect("the harness runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");

    let progress: Vec<&str> = stderr.lines().filter(|l| stamp(l).is_some()).collect();
    assert!(
        progress.len() >= 3,
        "a line every 0.3 s of a run of at least 1.5 s:\n{stderr}"
    );
    for line in &progress {
        assert!(
            line.contains("/2 cells · ours ") && line.ends_with("/2"),
            "{line}"
        );
    }
    let stamps: Vec<f64> = progress.iter().filter_map(|l| stamp(l)).collect();
    for pair in stamps.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(
            (0.2..1.0).contains(&gap),
            "lines {gap:.2} s apart:\n{stderr}"
        );
    }
    assert!(
        !stderr.contains('\r'),
        "no counter rewritten in place off a terminal"
    );

    let phases = stdout
        .lines()
        .find(|l| l.starts_with("phases: "))
        .unwrap_or_else(|| panic!("no phase line:\n{stdout}"));
    for phase in [
        "toolchain check ",
        "columns started 0 in ",
        "cells ",
        "reports written ",
        "total ",
    ] {
        assert!(phases.contains(phase), "{phase} missing: {phases}");
    }
    // The cpu: line: the harness's CPU seconds and peak memory (no process started here).
    let cpu = stdout
        .lines()
        .find(|l| l.starts_with("cpu: harness "))
        .unwrap_or_else(|| panic!("no cpu line:\n{stdout}"));
    let peak: u64 = cpu
        .split_once("(peak ")
        .and_then(|(_, rest)| rest.split_once(" MiB)"))
        .and_then(|(mib, _)| mib.parse().ok())
        .unwrap_or_else(|| panic!("no peak in {cpu}"));
    assert!((1..256).contains(&peak), "{cpu}");
    assert!(cpu.contains(" · all "), "{cpu}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results/matrix.json")).unwrap())
            .unwrap();
    assert_eq!(
        report["cases"][0]["file"],
        serde_json::json!(format!("{inside}/slow.yaml"))
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(cases);
}
