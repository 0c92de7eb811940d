//! The remote executor's cost, in one run: `CodemodeExecutor` over `RemoteExecutor` (a daemon
//! on loopback, started from this workspace's binary) against `CodemodeExecutor` over an
//! in-process `IsolateExecutor`, and against the newest reference column (the real
//! `DynamicWorkerExecutor` under `wrangler dev`), interleaved round by round so that all three
//! see the same machine. Three workloads: a trivial program, one tool call (which crosses the
//! socket back to the host and returns), and 64 concurrent one-tool-call runs. Prints the
//! median and p99 of each, the remote overhead per execution, and how much faster than the
//! reference the remote executor is. Goals: overhead under 1 ms, at least 10× the reference.
//!
//! Run with `cargo bench -p codemode-compat --bench remote`. It builds the daemon (release),
//! installs the reference toolchain if needed, and stops every process it started.

mod support;

use std::time::{Duration, Instant};

use bench_support::{Figures, dialect_tools};
use codemode_compat::sides::remote::daemon::{self, Daemon};
use codemode_executor::dialect::{CodemodeExecutor, ExecuteOptions};
use codemode_executor::isolate::IsolateExecutor;
use codemode_executor::protocol::Executor;
use codemode_executor::remote::{ConnectOptions, RemoteExecutor};

/// Sequential rounds; each runs the reference once and each of ours `PER_ROUND` times.
const ROUNDS: usize = 150;
const PER_ROUND: usize = 5;
/// Rounds of the concurrent workload; each runs one batch on each of ours.
const BATCH_ROUNDS: usize = 30;
const BATCH: usize = 64;
const WARMUP: usize = 10;

fn show(label: &str, f: Figures) {
    println!("  {label:<34} {f}");
}

async fn one<N: Executor>(executor: &CodemodeExecutor<N>, code: &str) -> Duration {
    let started = Instant::now();
    let result = executor
        .execute(code, dialect_tools(), ExecuteOptions::default())
        .await
        .expect("runs");
    let elapsed = started.elapsed();
    assert_eq!(result.error, None);
    elapsed
}

/// One batch of `BATCH` concurrent runs: each run's latency, and the batch's wall time.
async fn batch<N: Executor>(
    executor: &CodemodeExecutor<N>,
    code: &str,
) -> (Vec<Duration>, Duration) {
    let started = Instant::now();
    let latencies = futures::future::join_all((0..BATCH).map(|_| one(executor, code))).await;
    (latencies, started.elapsed())
}

fn main() {
    let runtime = support::runtime();
    let _guard = runtime.enter();
    let (scratch, catalogue) = support::catalogue("remote-bench");

    let binary = daemon::locate().expect("the daemon binary");
    let token = daemon::fresh_token().expect("a token");
    let mut daemon = runtime
        .block_on(Daemon::start(
            &binary,
            "127.0.0.1:0",
            &token,
            &["--max-concurrent".into(), "128".into()],
        ))
        .expect("the daemon starts");
    let remote = runtime
        .block_on(RemoteExecutor::connect(
            &daemon.url,
            ConnectOptions {
                headers: vec![("Authorization".into(), format!("Bearer {token}"))],
                ..ConnectOptions::default()
            },
        ))
        .expect("connects to the daemon");
    let remote = CodemodeExecutor::new(remote);
    let local = CodemodeExecutor::new(IsolateExecutor::default());

    let side = support::newest_reference(&runtime, &scratch.join("state"));
    println!("daemon: {} ({})", daemon.url, binary.display());
    println!("reference column: {}", side.column.name);

    for case in &catalogue.cases {
        let code = case.code.as_str();
        let (mut reference, mut in_process, mut over_wire) = (vec![], vec![], vec![]);
        runtime.block_on(async {
            for round in 0..ROUNDS + WARMUP {
                let started = Instant::now();
                let outcome = side.run(case, code).await.expect("the reference runs");
                let elapsed = started.elapsed();
                assert!(outcome["error"].is_null(), "{outcome}");
                let mut ours = Vec::new();
                for _ in 0..PER_ROUND {
                    ours.push(one(&local, code).await);
                }
                let mut theirs = Vec::new();
                for _ in 0..PER_ROUND {
                    theirs.push(one(&remote, code).await);
                }
                if round >= WARMUP {
                    reference.push(elapsed);
                    in_process.extend(ours);
                    over_wire.extend(theirs);
                }
            }
        });
        let (reference, in_process, over_wire) = (
            Figures::of(reference),
            Figures::of(in_process),
            Figures::of(over_wire),
        );
        println!("{}", case.id);
        show("reference (wrangler dev, HTTP)", reference);
        show("in-process (IsolateExecutor)", in_process);
        show("remote (daemon on loopback)", over_wire);
        println!(
            "  remote overhead per execution      median {:>10.1?}   ({:.0}x faster than the reference)",
            over_wire.median.saturating_sub(in_process.median),
            reference.median.as_secs_f64() / over_wire.median.as_secs_f64()
        );
    }

    let code = "async () => await codemode.echo(1)";
    let (mut in_process, mut over_wire) = (vec![], vec![]);
    let (mut in_process_walls, mut over_wire_walls) = (vec![], vec![]);
    runtime.block_on(async {
        for round in 0..BATCH_ROUNDS + 3 {
            let (latencies, wall) = batch(&local, code).await;
            let (remote_latencies, remote_wall) = batch(&remote, code).await;
            if round >= 3 {
                in_process.extend(latencies);
                in_process_walls.push(wall);
                over_wire.extend(remote_latencies);
                over_wire_walls.push(remote_wall);
            }
        }
    });
    let per_run = |walls: Vec<Duration>| Figures::of(walls).median / BATCH as u32;
    let (local_per_run, remote_per_run) = (per_run(in_process_walls), per_run(over_wire_walls));
    println!("bench/{BATCH}-concurrent one-tool-call runs (latency of each run in a batch)");
    show("in-process (IsolateExecutor)", Figures::of(in_process));
    show("remote (daemon on loopback)", Figures::of(over_wire));
    println!(
        "  wall time per run                  in-process {local_per_run:>8.1?}   remote {remote_per_run:>8.1?}   overhead {:>8.1?}",
        remote_per_run.saturating_sub(local_per_run)
    );

    runtime.block_on(side.stop());
    runtime.block_on(remote.dispose());
    runtime.block_on(local.dispose());
    runtime.block_on(daemon.stop());
    let _ = std::fs::remove_dir_all(&scratch);
}
