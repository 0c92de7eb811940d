//! Hand-rolled timing of the isolate executor through its public API. Prints the median and
//! the 99th percentile of each figure.
//!
//! Run with `cargo bench -p codemode-executor --bench isolate`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bench_support::{Figures, ONE_TOOL_CALL, TRIVIAL, median, native_request};
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::Executor;

/// Runs one after another, each as soon as the one before ended.
const NOW: Duration = Duration::ZERO;
/// Runs 1 ms apart.
const APART: Duration = Duration::from_millis(1);

/// Ten tool calls, each awaited before the next.
const TEN_SEQUENTIAL: &str =
    "async () => { let s = 0; for (let i = 0; i < 10; i++) s += await codemode.echo(i); return s }";
/// Ten tool calls awaited together.
const TEN_CONCURRENT: &str =
    "async () => (await Promise.all(Array.from({length: 10}, (_, i) => codemode.echo(i)))).length";

/// The pool a workload runs on.
enum Pool {
    /// The default options.
    Default,
    /// A stock of one prepared sandbox per worker.
    StockOfOne,
    /// One worker.
    OneWorker,
}

/// Each workload: its pool, its label, its program, how many runs, and the gap between them.
/// A host rarely sends its next program within microseconds of the last answer; with a gap
/// (`APART`), every run finds its worker's next sandbox already prepared and the workers idle.
const WORKLOADS: [(Pool, &str, &str, usize, Duration); 11] = [
    (Pool::Default, "warm-up", "async () => 1", 50, NOW),
    (Pool::Default, "trivial program", TRIVIAL, 1000, NOW),
    (
        Pool::Default,
        "trivial program, 1 ms apart",
        TRIVIAL,
        1000,
        APART,
    ),
    (
        Pool::StockOfOne,
        "trivial program, stock of one",
        TRIVIAL,
        1000,
        NOW,
    ),
    (
        Pool::StockOfOne,
        "trivial program, 1 ms apart, stock of one",
        TRIVIAL,
        1000,
        APART,
    ),
    (
        Pool::OneWorker,
        "trivial program, one worker",
        TRIVIAL,
        1000,
        NOW,
    ),
    (Pool::Default, "one tool call", ONE_TOOL_CALL, 1000, NOW),
    (
        Pool::Default,
        "ten sequential tool calls",
        TEN_SEQUENTIAL,
        500,
        NOW,
    ),
    (
        Pool::Default,
        "one tool call, 1 ms apart",
        ONE_TOOL_CALL,
        1000,
        APART,
    ),
    (
        Pool::Default,
        "ten sequential tool calls, 1 ms apart",
        TEN_SEQUENTIAL,
        500,
        APART,
    ),
    (
        Pool::Default,
        "ten concurrent calls (Promise.all)",
        TEN_CONCURRENT,
        500,
        NOW,
    ),
];

/// Times `runs` sequential executions, each started `gap` after the previous one ended.
async fn time_runs(
    executor: &IsolateExecutor,
    label: &str,
    code: &str,
    runs: usize,
    gap: Duration,
) {
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        if !gap.is_zero() {
            tokio::time::sleep(gap).await;
        }
        let started = Instant::now();
        let outcome = executor.execute(native_request(code)).await.expect("run");
        samples.push(started.elapsed());
        assert!(outcome.error.is_none(), "{label}: {outcome:?}");
    }
    println!("{label:<40} {}", Figures::of(samples));
}

fn resident_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

fn main() {
    let runtime = bench_support::runtime();
    runtime.block_on(async {
        let executor = Arc::new(IsolateExecutor::new(IsolateOptions::default()));
        // The other pools start when their first workload does, so that their sandbox
        // preparation does not run beside the workloads before.
        let (mut one_each, mut single) = (None, None);
        for (pool, label, code, runs, gap) in WORKLOADS {
            let executor: &IsolateExecutor = match pool {
                Pool::Default => &executor,
                Pool::StockOfOne => one_each.get_or_insert_with(|| {
                    IsolateExecutor::new(IsolateOptions::default().prepared_sandboxes(1))
                }),
                Pool::OneWorker => single.get_or_insert_with(|| {
                    IsolateExecutor::new(IsolateOptions::default().workers(1))
                }),
            };
            time_runs(executor, label, code, runs, gap).await;
        }

        let mut samples = Vec::new();
        for _ in 0..100 {
            let started = Instant::now();
            let mut handles = Vec::new();
            for _ in 0..64 {
                let executor = executor.clone();
                handles.push(tokio::spawn(async move {
                    executor.execute(native_request(ONE_TOOL_CALL)).await
                }));
            }
            for handle in handles {
                handle.await.expect("join").expect("run");
            }
            samples.push(started.elapsed());
        }
        let batch = median(samples.clone());
        println!(
            "{:<40} {} per batch of 64 ({:.0} runs/s at the median)",
            "pool throughput, 64 concurrent",
            Figures::of(samples),
            64.0 / batch.as_secs_f64()
        );

        for (done, target) in [(0, 100), (100, 10_000)] {
            for _ in done..target {
                executor
                    .execute(native_request(
                        "async () => ({ a: [1, 2, 3], s: 'x'.repeat(100) })",
                    ))
                    .await
                    .expect("run");
            }
            println!(
                "{:<40} {:>10.1} MiB",
                format!("resident after {target} runs"),
                resident_mib()
            );
        }
    });
}
