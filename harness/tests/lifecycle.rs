//! The harness's promises about processes and bad input, tested on the real binary and a
//! real `wrangler dev`: no process of ours outlives an interrupted run, a reference killed
//! mid-run turns its remaining cells into `error`, and a malformed catalogue is located.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use codemode_compat::catalogue::load_dirs;
use codemode_compat::cell::Status;
use codemode_compat::matrix::reference_cell;
use codemode_compat::sides::reference::{ReferenceSide, discover, ensure_installed, group_alive};
use common::{root, scratch};

/// Children of `pid`, from /proc.
fn children(pid: u32) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let rest = stat.rsplit_once(')')?.1;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            (fields.get(1)?.parse::<u32>().ok()? == pid)
                .then(|| entry.file_name().to_str()?.parse().ok())?
        })
        .collect()
}

#[test]
fn sigint_mid_run_leaves_no_process_behind() {
    ensure_installed(&root()).expect("the reference toolchain installs");
    let out = scratch("sigint");
    let mut harness = Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .args([
            "--root",
            root().to_str().unwrap(),
            "matrix",
            "--columns",
            "reference@latest",
            "--out",
        ])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until wrangler runs (a child of the harness, leading its own process group).
    let started = Instant::now();
    let groups = loop {
        let kids = children(harness.id());
        if !kids.is_empty() && started.elapsed() > Duration::from_secs(2) {
            break kids;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "wrangler never started"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        groups.iter().all(|g| group_alive(*g)),
        "the process groups run before the interrupt"
    );
    // SAFETY: signalling the child we spawned.
    unsafe { libc::kill(harness.id() as i32, libc::SIGINT) };
    let status = harness.wait().unwrap();
    assert!(
        !status.success(),
        "an interrupted run does not report success"
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while groups.iter().any(|g| group_alive(*g)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let left: Vec<_> = groups.iter().filter(|g| group_alive(**g)).collect();
    assert!(
        left.is_empty(),
        "process groups {left:?} outlived the harness"
    );
}

#[test]
fn a_reference_killed_mid_run_turns_its_cells_into_errors() {
    let root = root();
    let toolchain = ensure_installed(&root).expect("the reference toolchain installs");
    let column = discover(&toolchain)
        .unwrap()
        .into_iter()
        .next()
        .expect("a configured column");
    let catalogue = load_dirs(&[root.join("cases")]).unwrap();
    let case = catalogue
        .get("results/number")
        .expect("the catalogue has results/number");
    let ours = serde_json::json!({"result": 2, "logs": [], "calls": []});
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let state = scratch("killed");
        let side = ReferenceSide::start(&toolchain, column, &state, 2)
            .await
            .expect("the column starts");
        assert_eq!(
            reference_cell(case, &side, &ours, false).await.status,
            Status::Pass
        );
        // SAFETY: killing the process group this test started.
        unsafe { libc::kill(-side.pgid(), libc::SIGKILL) };
        tokio::time::sleep(Duration::from_millis(500)).await;
        for _ in 0..2 {
            let cell = reference_cell(case, &side, &ours, false).await;
            assert_eq!(cell.status, Status::Error, "{cell:?}");
            assert!(
                cell.reason
                    .as_deref()
                    .unwrap_or_default()
                    .contains("exited"),
                "{cell:?}"
            );
        }
        side.stop().await;
        assert!(!group_alive(side.pgid()));
    });
}

#[test]
fn a_malformed_catalogue_is_located_and_fails_the_run() {
    let dir = scratch("malformed");
    std::fs::write(
        dir.join("bad.yaml"),
        "- id: a/b\n  code: async () => 1\n  expect: {}\n  bogus: 1\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .args([
            "--root",
            root().to_str().unwrap(),
            "matrix",
            "--columns",
            "ours",
            "--out",
        ])
        .arg(dir.join("out"))
        .arg("--cases")
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.yaml:4:3:") && stderr.contains("bogus"),
        "{stderr}"
    );
}

#[test]
fn a_wrong_expect_fails_the_matrix_with_a_readable_diff() {
    let dir = scratch("wrong");
    std::fs::write(
        dir.join("wrong.yaml"),
        "- id: results/wrong\n  code: async () => 1 + 1\n  expect:\n    result: 3\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .args([
            "--root",
            root().to_str().unwrap(),
            "matrix",
            "--columns",
            "ours",
            "--cases",
        ])
        .arg(&dir)
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report = std::fs::read_to_string(dir.join("out/matrix.md")).unwrap();
    assert!(report.contains("$.result: expected 3, got 2"), "{report}");
    assert!(
        report.contains("-  \"result\": 3") && report.contains("+  \"result\": 2"),
        "{report}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/matrix.json")).unwrap())
            .unwrap();
    assert_eq!(json["cases"][0]["cells"]["ours"]["status"], "expect");
    assert_eq!(json["totals"]["expect"], 1);
}
