//! A sandbox restored from its image after a run is as fresh as a newly prepared one.
//!
//! Every test uses one worker with a stock of one, so that every run after the first runs in
//! the sandbox the run before it used, restored; each compares what such a run sees with
//! what the first run of a new executor (a newly prepared sandbox) sees.

use std::collections::BTreeMap;

use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{ExecuteRequest, Executor, JsValue, Outcome, RunError, Timeout};

use crate::support::request;

/// One worker, one sandbox: every run after the first reuses it, restored.
fn one_sandbox() -> IsolateExecutor {
    IsolateExecutor::new(
        IsolateOptions::default()
            .workers(1)
            .prepared_sandboxes(1)
            .memory_limit_bytes(32 << 20),
    )
}

async fn run(executor: &IsolateExecutor, code: &str) -> Outcome {
    executor.execute(request(code)).await.expect("a run")
}

/// What a program sees of the scope: globals, prototypes, built-ins, lazy Web globals,
/// Intl (a Rust class), the console.
const PROBE: &str = "async () => { console.log('probe'); return [typeof leak, ({}).polluted, \
    typeof [].push, JSON.stringify({ a: 1 }), typeof console.log, Math.max(1, 2), typeof URL, \
    typeof ''.trim, new Intl.NumberFormat('en').format(1234.5), \
    new TextEncoder().encode('é').length, Object.getOwnPropertyNames(globalThis).length, \
    typeof globalThis.later].join('|') }";

/// Changes everything `PROBE` looks at, leaves a timer, a pending promise and a collection's
/// worth of garbage behind, and makes the Web globals and Intl instances a run makes.
const POLLUTE: &str = "async () => { \
    new Intl.NumberFormat('en').format(1); new TextEncoder().encode('x'); new URL('https://a.b/'); \
    globalThis.leak = 1; Object.prototype.polluted = 2; Array.prototype.push = null; \
    JSON.stringify = () => 'patched'; Math.max = () => 0; globalThis.URL = 5; \
    String.prototype.trim = null; delete globalThis.console; delete globalThis.TextEncoder; \
    setTimeout(() => { globalThis.later = 1 }, 1); new Promise(() => {}); \
    const junk = []; for (let i = 0; i < 100000; i++) junk[i] = { i, s: 'x' + i }; \
    return junk.length }";

#[tokio::test]
async fn a_run_sees_nothing_the_run_before_it_left() {
    let fresh = run(&one_sandbox(), PROBE).await;
    assert!(fresh.error.is_none(), "{fresh:?}");
    let JsValue::String(seen) = &fresh.result else {
        panic!("the probe answers a string: {fresh:?}");
    };
    assert!(
        seen.to_text()
            .starts_with("undefined||function|{\"a\":1}|function|2|function|function|1,234.5|2|"),
        "{seen}"
    );
    let executor = one_sandbox();
    for round in 0..3 {
        let polluted = run(&executor, POLLUTE).await;
        assert_eq!(
            polluted.result,
            JsValue::Number(100000.0),
            "round {round}: {polluted:?}"
        );
        let restored = run(&executor, PROBE).await;
        assert_eq!(restored.result, fresh.result, "round {round}");
        assert_eq!(
            restored.logs, fresh.logs,
            "round {round}: no late timer logs"
        );
    }
}

#[tokio::test]
async fn math_random_is_seeded_anew_for_every_run() {
    let executor = one_sandbox();
    let mut drawn = Vec::new();
    for _ in 0..6 {
        let outcome = run(&executor, "async () => String(Math.random())").await;
        let JsValue::String(number) = outcome.result else {
            panic!("a number's text: {outcome:?}");
        };
        drawn.push(number);
    }
    let mut distinct = drawn.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        drawn.len(),
        "no run repeats another's: {drawn:?}"
    );
}

#[tokio::test]
async fn a_run_out_of_memory_or_time_leaves_a_whole_sandbox() {
    let executor = one_sandbox();
    let exhausted = run(
        &executor,
        "async () => { const a = []; while (true) a.push(new Array(1000).fill(1)) }",
    )
    .await;
    assert_eq!(
        exhausted.error,
        Some(RunError::OutOfMemory {
            limit_bytes: 32 << 20
        })
    );
    // The next run may use nearly the whole limit again: nothing of the last one is counted.
    let large = run(
        &executor,
        "async () => { const a = []; for (let i = 0; i < 20000; i++) a.push(new Array(40).fill(i)); return a.length }",
    )
    .await;
    assert_eq!(large.result, JsValue::Number(20000.0), "{large:?}");
    let stuck = executor
        .execute(ExecuteRequest {
            timeout: Some(Timeout::Millis(50)),
            ..request("async () => { while (true) {} }")
        })
        .await
        .expect("a run");
    assert_eq!(stuck.error, Some(RunError::TimedOut { bound_ms: 50 }));
    let after = run(&executor, "async () => 1 + 1").await;
    assert_eq!(
        after.result,
        JsValue::Number(2.0),
        "the interrupt is disarmed"
    );
    assert!(after.error.is_none());
}

#[tokio::test]
async fn a_runs_modules_are_gone_for_the_next() {
    let importing =
        "async () => { try { return (await import('lib.js')).x } catch (e) { return e.message } }";
    let fresh = run(&one_sandbox(), importing).await;
    let executor = one_sandbox();
    let with_module = executor
        .execute(ExecuteRequest {
            modules: Some(BTreeMap::from([(
                "lib.js".to_string(),
                "export const x = 'from the module'".to_string(),
            )])),
            ..request(importing)
        })
        .await
        .expect("a run");
    assert_eq!(
        with_module.result,
        JsValue::String("from the module".into())
    );
    let after = run(&executor, importing).await;
    assert_eq!(
        after.result, fresh.result,
        "neither the map nor the loaded module stays"
    );
    assert_ne!(after.result, with_module.result);
}

/// What a program sees of its `this`, its two classes and its module's `import.meta`.
const THIS_PROBE: &str = "async () => [String(this), Object.keys(this).length, this.mark, \
    Object.getPrototypeOf(this).mark, this.constructor.mark, \
    Object.getPrototypeOf(Object.getPrototypeOf(this)).mark, typeof this.evaluate, \
    Reflect.ownKeys(import.meta).length].join('|')";

/// The program's `this` (a `CodeExecutor`, as the reference's) is made once per sandbox,
/// when it is prepared: what a run does to it, its prototypes or its classes is gone for the
/// next run, which sees it as the first run of a new sandbox does.
#[tokio::test]
async fn a_runs_this_is_fresh_for_the_next() {
    let fresh = run(&one_sandbox(), THIS_PROBE).await;
    assert_eq!(
        fresh.result,
        JsValue::String("[object WorkerEntrypoint]|0|||||function|0".into()),
        "{fresh:?}"
    );
    let executor = one_sandbox();
    for round in 0..3 {
        let changed = run(
            &executor,
            "async () => { const proto = Object.getPrototypeOf(this); \
             this.mark = 1; proto.mark = 2; this.constructor.mark = 3; \
             Object.getPrototypeOf(proto).mark = 4; delete proto.evaluate; \
             Object.defineProperty(Object.getPrototypeOf(proto), Symbol.toStringTag, \
               { get: () => 'Changed' }); \
             import.meta.mark = 5; return String(this) }",
        )
        .await;
        assert_eq!(
            changed.result,
            JsValue::String("[object Changed]".into()),
            "round {round}: {changed:?}"
        );
        let after = run(&executor, THIS_PROBE).await;
        assert_eq!(after.result, fresh.result, "round {round}");
    }
}
