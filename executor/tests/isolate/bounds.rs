//! The isolate executor's bounds, timers, modules, value crossing and pool.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_executor::Error;
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{
    Binary, BinaryKind, BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, JsValue, LogLevel,
    LogLine, ProviderDescriptor, RunError, Timeout, ToolCall,
};

fn executor(workers: usize) -> IsolateExecutor {
    IsolateExecutor::new(IsolateOptions::default().workers(workers))
}

fn request(code: &str, timeout_ms: u64) -> ExecuteRequest {
    ExecuteRequest {
        code: code.into(),
        timeout: Some(Timeout::Millis(timeout_ms)),
        ..ExecuteRequest::default()
    }
}

/// Answers every call after `delay`.
struct Sleepy(Duration);

impl Dispatch for Sleepy {
    fn dispatch(&self, _call: ToolCall) -> BoxFuture<'static, Envelope> {
        let delay = self.0;
        Box::pin(async move {
            tokio::time::sleep(delay).await;
            Envelope::Result(JsValue::String("slept".into()))
        })
    }
}

fn with_slow_tool(code: &str, timeout_ms: u64, count_host_waits: bool) -> ExecuteRequest {
    ExecuteRequest {
        providers: vec![ProviderDescriptor {
            name: "codemode".into(),
            ..ProviderDescriptor::default()
        }],
        dispatch: Some(Arc::new(Sleepy(Duration::from_millis(400)))),
        count_host_waits,
        ..request(code, timeout_ms)
    }
}

#[tokio::test]
async fn a_spin_times_out_and_the_worker_serves_the_next_run() {
    let executor = executor(1);
    let started = Instant::now();
    let outcome = executor
        .execute(request(
            "async () => { console.log(\"before\"); while (true) {} }",
            200,
        ))
        .await
        .unwrap();
    assert_eq!(outcome.error, Some(RunError::TimedOut { bound_ms: 200 }));
    assert_eq!(
        outcome.logs,
        vec![LogLine {
            level: LogLevel::Log,
            text: "before".into()
        }]
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    let outcome = executor
        .execute(request("async () => 7", 200))
        .await
        .unwrap();
    assert_eq!(outcome.result, JsValue::Number(7.0));
}

#[tokio::test]
async fn a_spin_after_await_inside_try_still_times_out() {
    let outcome = executor(1)
        .execute(request(
            "async () => { await null; try { for (;;) {} } catch (e) { return 'caught' } }",
            150,
        ))
        .await
        .unwrap();
    assert_eq!(outcome.error, Some(RunError::TimedOut { bound_ms: 150 }));
}

#[tokio::test]
async fn a_promise_that_never_settles_times_out() {
    let started = Instant::now();
    let outcome = executor(1)
        .execute(request("async () => await new Promise(() => {})", 150))
        .await
        .unwrap();
    assert_eq!(outcome.error, Some(RunError::TimedOut { bound_ms: 150 }));
    assert!(started.elapsed() >= Duration::from_millis(150));
}

#[tokio::test]
async fn host_waits_do_not_count_by_default() {
    let outcome = executor(1)
        .execute(with_slow_tool(
            "async () => await codemode.slow()",
            200,
            false,
        ))
        .await
        .unwrap();
    assert_eq!(outcome.error, None);
    assert_eq!(outcome.result, JsValue::String("slept".into()));
}

#[tokio::test]
async fn host_waits_count_when_asked() {
    let outcome = executor(1)
        .execute(with_slow_tool(
            "async () => await codemode.slow()",
            200,
            true,
        ))
        .await
        .unwrap();
    assert_eq!(outcome.error, Some(RunError::TimedOut { bound_ms: 200 }));
}

/// A one-worker executor with a 16 MiB limit, and what `code` ended with on it.
async fn under_sixteen_mib(code: &str) -> (IsolateExecutor, Option<RunError>) {
    let executor = IsolateExecutor::new(
        IsolateOptions::default()
            .workers(1)
            .memory_limit_bytes(16 << 20),
    );
    let outcome = executor.execute(request(code, 10_000)).await.unwrap();
    (executor, outcome.error)
}

#[tokio::test]
async fn memory_exhaustion_is_reported() {
    let (executor, error) = under_sixteen_mib(
        "async () => { const a = []; while (true) a.push(new Array(1000).fill(1)) }",
    )
    .await;
    assert_eq!(
        error,
        Some(RunError::OutOfMemory {
            limit_bytes: 16 << 20
        })
    );
    let outcome = executor
        .execute(request("async () => 1", 1000))
        .await
        .unwrap();
    assert_eq!(outcome.result, JsValue::Number(1.0));
}

#[tokio::test]
async fn timers_run_on_the_host_clock() {
    let outcome = executor(1)
        .execute(request(
            r#"async () => {
                const order = [];
                const cancelled = setTimeout(() => order.push("cancelled"), 5);
                clearTimeout(cancelled);
                queueMicrotask(() => order.push("micro"));
                await new Promise((resolve) => setTimeout(resolve, 20));
                order.push("timeout");
                let ticks = 0;
                await new Promise((resolve) => {
                    const id = setInterval(() => { ticks += 1; if (ticks === 3) { clearInterval(id); resolve(); } }, 2);
                });
                order.push("ticks " + ticks);
                setTimeout(() => console.log("never"), 10_000);
                return order;
            }"#,
            5_000,
        ))
        .await
        .unwrap();
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![
            JsValue::String("micro".into()),
            JsValue::String("timeout".into()),
            JsValue::String("ticks 3".into()),
        ])
    );
    assert!(outcome.logs.is_empty());
}

fn with_modules(code: &str) -> ExecuteRequest {
    let mut modules = BTreeMap::new();
    modules.insert(
        "lib.js".to_string(),
        "import { base } from 'base.js'; export const x = base + 1;".to_string(),
    );
    modules.insert("base.js".to_string(), "export const base = 41;".to_string());
    modules.insert(
        "util/helper.js".to_string(),
        "export default () => 'helped';".to_string(),
    );
    ExecuteRequest {
        modules: Some(modules),
        ..request(code, 5_000)
    }
}

#[tokio::test]
async fn modules_import_statically_dynamically_and_nested() {
    let outcome = executor(1)
        .execute(with_modules(
            "import { x } from 'lib.js'\nasync () => { const h = await import('util/helper.js'); return [x, h.default()] }",
        ))
        .await
        .unwrap();
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![
            JsValue::Number(42.0),
            JsValue::String("helped".into())
        ])
    );
}

#[tokio::test]
async fn a_missing_module_fails_clearly() {
    let error = executor(1)
        .execute(with_modules("import { y } from 'nope.js'\nasync () => y"))
        .await
        .unwrap_err();
    assert_eq!(
        error,
        Error::StartFailed(
            "Failed to start Worker:\nUncaught Error: No such module \"nope.js\".\n  imported from \"executor.js\"".into()
        )
    );
    let outcome = executor(1)
        .execute(with_modules("async () => { await import('gone.js') }"))
        .await
        .unwrap();
    assert_eq!(outcome.error.unwrap().text(), "No such module \"gone.js\".");
}

/// Two imports made together (measured on the reference: catalogue case
/// modules/result-is-sent-before-a-later-import-settles): both modules evaluate before either
/// import settles, each settling in an event of its own, and the result is taken three
/// reactions after the program settles, before the second import's event runs.
#[tokio::test]
async fn imports_made_together_settle_in_events_of_their_own() {
    let mut modules = BTreeMap::new();
    modules.insert(
        "a.js".to_string(),
        r#"globalThis.ev.push("a"); export const x = 1"#.to_string(),
    );
    modules.insert(
        "b.js".to_string(),
        r#"globalThis.ev.push("b"); export const x = 2"#.to_string(),
    );
    let code = r#"async () => { globalThis.ev = []; const log = []; const first = import("a.js").then(() => log.push("first")); import("b.js").then(() => log.push("second")); await first; await null; return [log, globalThis.ev] }"#;
    let outcome = executor(1)
        .execute(ExecuteRequest {
            modules: Some(modules),
            ..request(code, 5_000)
        })
        .await
        .unwrap();
    let strings = |items: &[&str]| {
        JsValue::Array(
            items
                .iter()
                .map(|item| JsValue::String((*item).into()))
                .collect(),
        )
    };
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![strings(&["first"]), strings(&["a", "b"])])
    );
}

/// The result is taken three reactions after the program settles, as the reference's
/// method and Workers RPC take it (catalogue case
/// results/sent-as-it-is-three-reactions-after-the-program-settles), and the console lines
/// with it.
#[tokio::test]
async fn the_result_is_taken_three_reactions_after_the_program_settles() {
    let outcome = executor(1)
        .execute(request(
            "async () => { const log = []; Promise.resolve().then(() => log.push(1)).then(() => log.push(2)).then(() => log.push(3)).then(() => log.push(4)).then(() => { log.push(5); console.log(5) }); return log }",
            5_000,
        ))
        .await
        .unwrap();
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![
            JsValue::Number(1.0),
            JsValue::Number(2.0),
            JsValue::Number(3.0)
        ])
    );
    assert!(outcome.logs.is_empty(), "{:?}", outcome.logs);
}

#[tokio::test]
async fn results_cross_as_structured_clone() {
    let outcome = executor(1)
        .execute(request(
            r#"async () => ({
                map: new Map([[1, "a"]]), set: new Set([2]), date: new Date(0), re: /x/gi,
                err: new TypeError("t"), big: 10n, holes: [1, , 3], fn: () => 1,
                bytes: new Uint8Array([1, 2, 3, 4]).subarray(1, 3), i16: new Int16Array([-1]),
                buf: new ArrayBuffer(2), view: new DataView(new ArrayBuffer(1)),
            })"#,
            5_000,
        ))
        .await
        .unwrap();
    let JsValue::Object(entries) = outcome.result else {
        panic!("{outcome:?}")
    };
    let get = |key: &str| entries.iter().find(|(k, _)| k == key).unwrap().1.clone();
    assert_eq!(
        get("map"),
        JsValue::Map(vec![(JsValue::Number(1.0), JsValue::String("a".into()))])
    );
    assert_eq!(get("set"), JsValue::Set(vec![JsValue::Number(2.0)]));
    assert_eq!(get("date"), JsValue::Date(0.0));
    assert_eq!(
        get("re"),
        JsValue::RegExp {
            source: "x".into(),
            flags: "gi".into()
        }
    );
    assert_eq!(
        get("err"),
        JsValue::Error {
            name: "TypeError".into(),
            message: "t".into()
        }
    );
    assert_eq!(get("big"), JsValue::BigInt("10".into()));
    assert_eq!(
        get("holes"),
        JsValue::Array(vec![
            JsValue::Number(1.0),
            JsValue::Undefined,
            JsValue::Number(3.0)
        ])
    );
    assert_eq!(get("fn"), JsValue::Function);
    let binary = |kind, bytes: &[u8]| {
        JsValue::Binary(Binary {
            kind,
            bytes: bytes.to_vec(),
        })
    };
    assert_eq!(get("bytes"), binary(BinaryKind::Uint8Array, &[2, 3]));
    assert_eq!(get("i16"), binary(BinaryKind::Int16Array, &[0xff, 0xff]));
    assert_eq!(get("buf"), binary(BinaryKind::ArrayBuffer, &[0, 0]));
    assert_eq!(get("view"), binary(BinaryKind::DataView, &[0]));
}

#[tokio::test]
async fn uncloneable_results_reject_like_the_reference() {
    let error = executor(1)
        .execute(request("async () => ({ p: Promise.resolve(1) })", 5_000))
        .await
        .unwrap_err();
    assert_eq!(
        error,
        Error::Rejected("#<Promise> could not be cloned.".into())
    );
    let error = executor(1)
        .execute(request(
            "async () => { class A { constructor() { this.x = 1 } }; return new A() }",
            5_000,
        ))
        .await
        .unwrap_err();
    assert_eq!(
        error,
        Error::Rejected(
            "Could not serialize object of type \"A\". This type does not support serialization."
                .into()
        )
    );
}

#[tokio::test]
async fn cycles_end_without_hanging() {
    let outcome = executor(1)
        .execute(request(
            "async () => { const o = { a: 1 }; o.self = o; return o }",
            5_000,
        ))
        .await
        .unwrap();
    assert_eq!(
        outcome.result,
        JsValue::Object(vec![
            ("a".into(), JsValue::Number(1.0)),
            ("self".into(), JsValue::Undefined)
        ])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_concurrent_executions_all_complete() {
    let executor = Arc::new(executor(2));
    let mut handles = Vec::new();
    for i in 0..64 {
        let executor = executor.clone();
        handles.push(tokio::spawn(async move {
            let code = format!(
                "async () => {{ await new Promise(r => setTimeout(r, 1)); return {i} * 2 }}"
            );
            executor.execute(request(&code, 10_000)).await
        }));
    }
    for (i, handle) in handles.into_iter().enumerate() {
        let outcome = handle.await.unwrap().unwrap();
        assert_eq!(outcome.result, JsValue::Number(i as f64 * 2.0));
    }
}

#[tokio::test]
async fn memory_exhaustion_is_reported_even_when_the_program_catches_it() {
    let (_, error) = under_sixteen_mib(
        "async () => { let a = []; try { while (true) a.push(new Array(1000).fill(1)) } catch (e) { a = null; return 'survived' } }",
    )
    .await;
    assert_eq!(
        error,
        Some(RunError::OutOfMemory {
            limit_bytes: 16 << 20
        })
    );
}

/// A dropped `execute` future takes its run with it: a spinning run, a run waiting on a
/// promise that never settles and a queued run all stop, and the one worker serves the next
/// run at once instead of after their 30 s bounds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_execute_stops_its_run_and_frees_the_worker() {
    let executor = Arc::new(executor(1));
    for code in [
        "async () => { while (true) {} }",
        "async () => { await new Promise(() => {}); }",
    ] {
        let running = {
            let executor = executor.clone();
            tokio::spawn(async move { executor.execute(request(code, 30_000)).await })
        };
        let queued = {
            let executor = executor.clone();
            tokio::spawn(async move { executor.execute(request(code, 30_000)).await })
        };
        // Both submitted: one runs on the only worker, the other waits behind it.
        tokio::time::sleep(Duration::from_millis(200)).await;
        running.abort();
        queued.abort();
        let started = Instant::now();
        let outcome = executor
            .execute(request("async () => 2", 30_000))
            .await
            .unwrap();
        assert_eq!(outcome.result, JsValue::Number(2.0), "{code}");
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "{code}: the next run waited {:?}",
            started.elapsed()
        );
    }
}
