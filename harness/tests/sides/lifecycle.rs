//! The harness's promises about processes and bad input, tested on the real binary and a
//! real `wrangler dev`: no process of ours outlives an interrupted run, a reference killed
//! mid-run is restarted and its column carries on, a case that crashes workerd costs its own
//! cell and no other, a column that keeps crashing is given up after its restarts, and a
//! malformed catalogue is located.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{children, root, scratch};
use codemode_compat::catalogue::load_dirs;
use codemode_compat::cell::Status;
use codemode_compat::matrix::reference_cell;
use codemode_compat::sides::reference::{
    CRASHED_ON_THIS_CASE, ReferenceSide, discover, ensure_installed, group_alive,
};

/// Whether `pid` leads a process group (its pgid, the fifth field of /proc/PID/stat, is itself).
fn leads_its_group(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let rest = stat.rsplit_once(')')?.1.to_string();
            rest.split_whitespace().nth(2)?.parse::<i32>().ok()
        })
        == Some(pid)
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
    // Wait until wrangler runs (a child of the harness, leading its own process group; a
    // short-lived helper the harness runs first, such as `node --version`, leads none).
    let started = Instant::now();
    let groups = loop {
        let kids: Vec<i32> = children(harness.id())
            .into_iter()
            .filter(|pid| leads_its_group(*pid))
            .collect();
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
fn a_reference_killed_mid_run_is_restarted_and_its_column_carries_on() {
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
        let first = side.pgid();
        // SAFETY: killing the process group this test started.
        unsafe { libc::kill(-first, libc::SIGKILL) };
        tokio::time::sleep(Duration::from_millis(500)).await;
        for _ in 0..2 {
            let cell = reference_cell(case, &side, &ours, false).await;
            assert_eq!(cell.status, Status::Pass, "{cell:?}");
        }
        assert_eq!(side.restarts(), 1);
        assert_ne!(side.pgid(), first, "a new wrangler serves the column");
        assert!(!group_alive(first));
        side.stop().await;
        assert!(!group_alive(side.pgid()));
    });
}

/// Crashes workerd: V8 aborts the whole process on its heap limit (about 10 s here).
const CRASH: &str = "async () => { const a = []; for (;;) a.push(new Array(1e7).fill(0)) }";

#[test]
fn a_case_that_crashes_the_reference_costs_its_own_cell_and_no_other() {
    ensure_installed(&root()).expect("the reference toolchain installs");
    let dir = scratch("crash");
    let cases = dir.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    // The crash case first; one ordinary case still in flight when workerd goes down (so it
    // is run again, alone, on the fresh worker), and ordinary cases after it.
    std::fs::write(
        cases.join("crash.yaml"),
        format!(
            "- id: crash/heap-limit\n  code: '{CRASH}'\n  options: {{timeout_ms: 60000}}\n  expect: {{}}\n\
             - id: crash/in-flight\n  code: 'async () => {{ await new Promise(r => setTimeout(r, 15000)); return 1 }}'\n  options: {{timeout_ms: 60000}}\n  expect: {{result: 1}}\n\
             - id: crash/after-one\n  code: async () => 2\n  expect: {{result: 2}}\n\
             - id: crash/after-two\n  code: async () => 3\n  expect: {{result: 3}}\n"
        ),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .args(["--root", root().to_str().unwrap(), "matrix"])
        .args(["--columns", "reference@latest", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--baseline")
        .arg(dir.join("baseline.json"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/matrix.json")).unwrap())
            .unwrap();
    let column = report["columns"][0]["name"].as_str().unwrap().to_string();
    let cell = |id: &str| {
        report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["id"] == id)
            .unwrap()["cells"][&column]
            .clone()
    };
    let crashed = cell("crash/heap-limit");
    assert_eq!(crashed["status"], "error", "{crashed}");
    assert!(
        crashed["reason"]
            .as_str()
            .unwrap()
            .starts_with(CRASHED_ON_THIS_CASE),
        "{crashed}"
    );
    for id in ["crash/in-flight", "crash/after-one", "crash/after-two"] {
        assert_eq!(cell(id)["status"], "pass", "{id}: {}", cell(id));
    }
    assert_eq!(report["totals"]["error"], 1);
}

#[test]
fn a_column_that_keeps_crashing_is_given_up_after_its_restarts() {
    let root = root();
    let toolchain = ensure_installed(&root).expect("the reference toolchain installs");
    let column = discover(&toolchain)
        .unwrap()
        .into_iter()
        .find(|c| c.latest)
        .expect("the newest column");
    let dir = scratch("keeps-crashing");
    std::fs::write(
        dir.join("crash.yaml"),
        format!(
            "- id: crash/heap-limit\n  code: '{CRASH}'\n  options: {{timeout_ms: 60000}}\n  expect: {{}}\n\
             - id: crash/after\n  code: async () => 2\n  expect: {{result: 2}}\n"
        ),
    )
    .unwrap();
    let catalogue = load_dirs(std::slice::from_ref(&dir)).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let side = ReferenceSide::start(&toolchain, column, &dir.join("state"), 2)
            .await
            .expect("the column starts");
        side.limit_restarts(0);
        let ours = serde_json::json!({"result": 2, "logs": [], "calls": []});
        let crash = reference_cell(
            catalogue.get("crash/heap-limit").unwrap(),
            &side,
            &ours,
            false,
        )
        .await;
        let after =
            reference_cell(catalogue.get("crash/after").unwrap(), &side, &ours, false).await;
        for cell in [&crash, &after] {
            assert_eq!(cell.status, Status::Error, "{cell:?}");
            let reason = cell.reason.as_deref().unwrap();
            assert!(
                reason.contains("the column is not restarted again (at most 0 restarts)")
                    && reason.contains("did not run"),
                "{reason}"
            );
        }
        assert!(
            !group_alive(side.pgid()),
            "a given-up column leaves no process"
        );
        side.stop().await;
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
