//! What the Web globals cost a run. Prints medians.
//!
//! Run with `cargo bench -p codemode-executor --bench web`. "trivial program" runs in a fresh
//! sandbox with every global installed and none touched (workers prepare the next sandbox
//! while idle); "creating a sandbox" and "dropping a sandbox" time that preparation itself
//! (the bound: under 1 ms); "every Web global touched" reads each lazily installed
//! global once, which loads every concept's source.

use std::time::Instant;

use bench_support::median;
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions, time_sandboxes};
use codemode_executor::protocol::{ExecuteRequest, Executor};

async fn time_runs(executor: &IsolateExecutor, label: &str, code: &str, runs: usize) {
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let request = ExecuteRequest {
            code: code.into(),
            ..ExecuteRequest::default()
        };
        let started = Instant::now();
        let outcome = executor.execute(request).await.expect("run");
        samples.push(started.elapsed());
        assert!(outcome.error.is_none(), "{label}: {outcome:?}");
    }
    println!("{label:<40} median {:>10.1?}", median(samples));
}

const TOUCH_ALL: &str = r#"async () => {
  const names = ["URL", "URLSearchParams", "URLPattern", "TextEncoder", "TextDecoder", "atob", "btoa",
    "crypto", "AbortController", "AbortSignal", "structuredClone", "Event", "EventTarget", "Headers",
    "Request", "Response", "Blob", "FormData", "ReadableStream", "TransformStream", "Intl", "navigator",
    "performance", "queueMicrotask", "setTimeout", "fetch"];
  return names.filter((n) => typeof globalThis[n] === "undefined");
}"#;

fn main() {
    let runtime = bench_support::runtime();
    let timings = time_sandboxes(1000).expect("sandboxes");
    let prepare = median(timings.iter().map(|t| t.0).collect());
    let dropped = median(timings.iter().map(|t| t.1).collect());
    println!(
        "{:<40} median {prepare:>10.1?}",
        "creating a sandbox (every Web global)"
    );
    println!("{:<40} median {dropped:>10.1?}", "dropping a sandbox");
    runtime.block_on(async {
        let executor = IsolateExecutor::new(IsolateOptions::default().workers(1));
        time_runs(&executor, "warm-up", "async () => 1", 100).await;
        time_runs(&executor, "trivial program", "async () => 1", 2000).await;
        time_runs(&executor, "every Web global touched", TOUCH_ALL, 500).await;
        if std::env::var_os("WEB_BENCH_CONCEPTS").is_some() {
            for name in ["Event", "AbortSignal", "URL", "TextEncoder", "crypto", "ReadableStream", "Response", "Intl", "structuredClone", "navigator"] {
                let code = format!("async () => typeof {name}");
                time_runs(&executor, &format!("touch {name}"), &code, 300).await;
            }
        }
        time_runs(
            &executor,
            "URL + TextEncoder + crypto in one run",
            "async () => [new URL('https://a.com/x').pathname, new TextEncoder().encode('hi').length, crypto.randomUUID().length]",
            1000,
        )
        .await;
    });
}
