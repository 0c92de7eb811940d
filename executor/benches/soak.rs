//! Soak: many mixed executions at full concurrency through `CodemodeExecutor` over
//! `IsolateExecutor`, watching what the process holds (resident memory, threads, open file
//! descriptors) at the start, every tenth of the runs, and at the end. Each figure must stay
//! flat: nothing a run leaves behind may accumulate (checked from the middle checkpoint on,
//! once the allocator's arenas have grown to the mix).
//!
//! Run with `cargo bench -p codemode-executor --bench soak` (100,000 runs, 64 at once);
//! `SOAK_RUNS=5000` for a quick check. The bench fails (exits non-zero) when a run ends
//! other than its kind says, or when a figure grows past its allowance between the first
//! checkpoint after warm-up and the end.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use codemode_executor::dialect::{
    CodemodeExecutor, ExecuteOptions, ExecuteResult, Provider, ToolFn, Tools,
};
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{JsValue, Timeout};
use futures::StreamExt;

const CONCURRENCY: usize = 64;
const MEMORY_LIMIT: usize = 16 << 20;

/// One kind of run, its program and how it must end.
struct Kind {
    name: &'static str,
    code: &'static str,
    timeout_ms: u64,
    check: fn(&Result<ExecuteResult, codemode_executor::Error>) -> bool,
}

fn result_is(expected: f64) -> impl Fn(&Result<ExecuteResult, codemode_executor::Error>) -> bool {
    move |r| matches!(r, Ok(ExecuteResult { result: JsValue::Number(n), error: None, .. }) if *n == expected)
}

fn error_starts(r: &Result<ExecuteResult, codemode_executor::Error>, text: &str) -> bool {
    matches!(r, Ok(ExecuteResult { error: Some(e), .. }) if e.starts_with(text))
}

/// The mix, by weight out of 100.
fn kinds() -> Vec<(usize, Kind)> {
    vec![
        (
            55,
            Kind {
                name: "plain",
                code: "async () => { const a = [1, 2, 3].map((x) => x * 2); console.log(a); return a.length + 39 }",
                timeout_ms: 5_000,
                check: |r| result_is(42.0)(r),
            },
        ),
        (
            30,
            Kind {
                name: "tool calls",
                code: "async () => { const [a, b] = await Promise.all([codemode.echo({ n: 20 }), codemode.echo({ n: 22 })]); return a.n + b.n }",
                timeout_ms: 5_000,
                check: |r| result_is(42.0)(r),
            },
        ),
        (
            4,
            Kind {
                name: "timeout",
                code: "async () => { while (true) {} }",
                timeout_ms: 20,
                check: |r| error_starts(r, "Execution timed out"),
            },
        ),
        (
            4,
            Kind {
                name: "out of memory",
                code: "async () => { const a = []; while (true) a.push(new Array(1000).fill(1)) }",
                timeout_ms: 10_000,
                check: |r| error_starts(r, "Execution ran out of memory"),
            },
        ),
        (
            3,
            Kind {
                name: "log flood",
                code: "async () => { for (let i = 0; ; i++) console.log('line ' + i) }",
                timeout_ms: 10_000,
                check: |r| error_starts(r, "Execution ran out of memory"),
            },
        ),
        (
            2,
            Kind {
                name: "timer storm",
                code: "async () => { for (let i = 0; i < 5000; i++) setTimeout(() => {}, 1e9); await new Promise((r) => setTimeout(r, 1)); return 42 }",
                timeout_ms: 5_000,
                check: |r| result_is(42.0)(r),
            },
        ),
        (
            2,
            Kind {
                name: "deep recursion",
                code: "async () => { const f = (n) => f(n + 1) + 1; try { f(0) } catch (e) { return 42 } }",
                timeout_ms: 5_000,
                check: |r| result_is(42.0)(r),
            },
        ),
    ]
}

/// What the process holds right now.
#[derive(Debug, Clone, Copy)]
struct Figures {
    rss_kib: u64,
    threads: u64,
    fds: usize,
}

fn figures() -> Figures {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    Figures {
        rss_kib: field("VmRSS:"),
        threads: field("Threads:"),
        fds: std::fs::read_dir("/proc/self/fd")
            .map(|d| d.count())
            .unwrap_or(0),
    }
}

fn print(label: &str, done: usize, f: Figures, started: Instant) {
    println!(
        "{label:<10} runs {done:>7}  rss {:>8.1} MiB  threads {:>3}  fds {:>3}  elapsed {:>7.1?}",
        f.rss_kib as f64 / 1024.0,
        f.threads,
        f.fds,
        started.elapsed()
    );
}

fn main() {
    let runs: usize = std::env::var("SOAK_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let runtime = bench_support::runtime();
    let failed = runtime.block_on(soak(runs));
    if failed {
        std::process::exit(1);
    }
}

async fn soak(runs: usize) -> bool {
    let workers = std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(2);
    let executor = Arc::new(CodemodeExecutor::new(IsolateExecutor::new(
        IsolateOptions::default()
            .workers(workers)
            .memory_limit_bytes(MEMORY_LIMIT),
    )));
    let echo: ToolFn = Arc::new(|args: Vec<JsValue>| {
        Box::pin(async move { Ok(args.into_iter().next().unwrap_or(JsValue::Undefined)) })
    });
    let provider = Provider::new("codemode").tool("echo", echo);
    let kinds = Arc::new(kinds());
    let total_weight: usize = kinds.iter().map(|(w, _)| w).sum();
    let wrong: Arc<std::sync::Mutex<BTreeMap<&'static str, usize>>> = Arc::default();
    let counts: Arc<std::sync::Mutex<BTreeMap<&'static str, usize>>> = Arc::default();
    let done = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let checkpoint = (runs / 10).max(1);
    let start = figures();
    print("start", 0, start, started);
    let mut marks = vec![(0usize, start)];

    let mut stream = futures::stream::iter(0..runs)
        .map(|index| {
            let executor = executor.clone();
            let provider = provider.clone();
            let kinds = kinds.clone();
            let wrong = wrong.clone();
            let counts = counts.clone();
            async move {
                // A fixed interleaving of the kinds by weight.
                let mut slot = (index * 37) % total_weight;
                let kind = kinds
                    .iter()
                    .find(|(weight, _)| {
                        if slot < *weight {
                            true
                        } else {
                            slot -= weight;
                            false
                        }
                    })
                    .map(|(_, kind)| kind)
                    .expect("a kind for every slot");
                let result = executor
                    .execute(
                        kind.code,
                        Tools::Providers(vec![provider]),
                        ExecuteOptions::new().timeout(Timeout::Millis(kind.timeout_ms)),
                    )
                    .await;
                *counts.lock().unwrap().entry(kind.name).or_default() += 1;
                if !(kind.check)(&result) {
                    let mut wrong = wrong.lock().unwrap();
                    let seen = wrong.entry(kind.name).or_default();
                    if *seen == 0 {
                        let shown = format!("{result:?}");
                        eprintln!(
                            "{}: unexpected {}",
                            kind.name,
                            &shown[..shown.len().min(300)]
                        );
                    }
                    *seen += 1;
                }
            }
        })
        .buffer_unordered(CONCURRENCY);
    while stream.next().await.is_some() {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(checkpoint) && n < runs {
            let now = figures();
            print("checkpoint", n, now, started);
            marks.push((n, now));
        }
    }
    drop(stream);
    let end = figures();
    print("end", runs, end, started);
    marks.push((runs, end));
    println!("runs by kind: {:?}", counts.lock().unwrap());

    let mut failed = false;
    let wrong = wrong.lock().unwrap();
    if !wrong.is_empty() {
        println!("runs that ended otherwise than their kind says: {wrong:?}");
        failed = true;
    }
    // Flat: from the middle checkpoint (pools, allocator arenas and prepared sandboxes are
    // warm by then) to the end, memory may not grow by more than a quarter, threads and
    // descriptors not at all.
    if let Some(&(_, warm)) = marks.get(marks.len() / 2) {
        if end.rss_kib > warm.rss_kib + warm.rss_kib / 4 {
            println!(
                "resident memory grew from {} to {} KiB after warm-up",
                warm.rss_kib, end.rss_kib
            );
            failed = true;
        }
        if end.threads > warm.threads || end.fds > warm.fds {
            println!("threads or descriptors grew after warm-up: {warm:?} -> {end:?}");
            failed = true;
        }
    }
    // The bound: every worker at its limit at once, plus a fixed base.
    let ceiling_kib = (workers * MEMORY_LIMIT * 3 / 1024) as u64 + 256 * 1024;
    let peak = marks.iter().map(|(_, f)| f.rss_kib).max().unwrap_or(0);
    println!(
        "peak resident memory {:.1} MiB; bound {workers} workers x {} MiB x 3 + 256 MiB = {:.1} MiB",
        peak as f64 / 1024.0,
        MEMORY_LIMIT >> 20,
        ceiling_kib as f64 / 1024.0
    );
    if peak > ceiling_kib {
        failed = true;
    }
    failed
}
