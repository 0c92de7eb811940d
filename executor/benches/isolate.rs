//! Hand-rolled timing of the isolate executor through its public API. Prints the median and
//! the 99th percentile of each figure.
//!
//! Run with `cargo bench -p codemode-executor --bench isolate`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bench_support::{Figures, median};
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, JsValue, ProviderDescriptor, ToolCall,
};

struct Echo;

impl Dispatch for Echo {
    fn dispatch(&self, _call: ToolCall) -> BoxFuture<'static, Envelope> {
        Box::pin(async { Envelope::Result(JsValue::Number(1.0)) })
    }
}

fn request(code: &str) -> ExecuteRequest {
    ExecuteRequest {
        code: code.into(),
        providers: vec![ProviderDescriptor {
            name: "codemode".into(),
            ..ProviderDescriptor::default()
        }],
        dispatch: Some(Arc::new(Echo)),
        ..ExecuteRequest::default()
    }
}

async fn time_runs(executor: &IsolateExecutor, label: &str, code: &str, runs: usize) {
    time_runs_apart(executor, label, code, runs, Duration::ZERO).await
}

/// Times `runs` sequential executions, each started `gap` after the previous one ended.
async fn time_runs_apart(
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
        let outcome = executor.execute(request(code)).await.expect("run");
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
        // Warm up.
        time_runs(&executor, "warm-up", "async () => 1", 50).await;
        time_runs(&executor, "trivial program", "async () => 1 + 1", 1000).await;
        // A host rarely sends its next program within microseconds of the last answer; with
        // a gap, every run finds its worker's next sandbox already prepared.
        time_runs_apart(
            &executor,
            "trivial program, 1 ms apart",
            "async () => 1 + 1",
            1000,
            Duration::from_millis(1),
        )
        .await;
        let one_each = IsolateExecutor::new(IsolateOptions::default().prepared_sandboxes(1));
        time_runs(&one_each, "trivial program, stock of one", "async () => 1 + 1", 1000).await;
        time_runs_apart(
            &one_each,
            "trivial program, 1 ms apart, stock of one",
            "async () => 1 + 1",
            1000,
            Duration::from_millis(1),
        )
        .await;
        let single = IsolateExecutor::new(IsolateOptions::default().workers(1));
        time_runs(&single, "trivial program, one worker", "async () => 1 + 1", 1000).await;
        time_runs(&executor, "one tool call", "async () => await codemode.echo(1)", 1000).await;
        time_runs(
            &executor,
            "ten sequential tool calls",
            "async () => { let s = 0; for (let i = 0; i < 10; i++) s += await codemode.echo(i); return s }",
            500,
        )
        .await;
        // The same, with the stock full and the workers idle when each run arrives.
        time_runs_apart(
            &executor,
            "one tool call, 1 ms apart",
            "async () => await codemode.echo(1)",
            1000,
            Duration::from_millis(1),
        )
        .await;
        time_runs_apart(
            &executor,
            "ten sequential tool calls, 1 ms apart",
            "async () => { let s = 0; for (let i = 0; i < 10; i++) s += await codemode.echo(i); return s }",
            500,
            Duration::from_millis(1),
        )
        .await;
        time_runs(
            &executor,
            "ten concurrent calls (Promise.all)",
            "async () => (await Promise.all(Array.from({length: 10}, (_, i) => codemode.echo(i)))).length",
            500,
        )
        .await;

        let mut samples = Vec::new();
        for _ in 0..100 {
            let started = Instant::now();
            let mut handles = Vec::new();
            for _ in 0..64 {
                let executor = executor.clone();
                handles.push(tokio::spawn(async move {
                    executor.execute(request("async () => await codemode.echo(1)")).await
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
                    .execute(request("async () => ({ a: [1, 2, 3], s: 'x'.repeat(100) })"))
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
