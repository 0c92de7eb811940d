//! The isolate executor's basic contract: results, console, dispatch, errors, start failures.

use std::sync::Arc;
use std::sync::Mutex;

use codemode_executor::Error;
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{
    Binary, BinaryKind, BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, JsValue, LogLevel,
    LogLine, Outcome, ProviderDescriptor, RunError, ToolCall, decode_codec_json,
};

fn executor() -> IsolateExecutor {
    IsolateExecutor::new(IsolateOptions::default().workers(2))
}

/// Echoes the decoded arguments back; records every call.
#[derive(Default)]
struct Echo {
    calls: Mutex<Vec<ToolCall>>,
}

impl Dispatch for Echo {
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope> {
        self.calls.lock().unwrap().push(call.clone());
        Box::pin(async move {
            match call.tool.as_str() {
                "fail" => Envelope::Error("tool broke".into()),
                "bytes" => Envelope::Result(JsValue::Binary(Binary {
                    kind: BinaryKind::Uint8Array,
                    bytes: vec![5, 6],
                })),
                "echo" | "add" => Envelope::Result(decode_codec_json(&call.args_json).unwrap()),
                other => Envelope::Error(format!("Tool \"{other}\" not found")),
            }
        })
    }
}

fn provider(name: &str) -> ProviderDescriptor {
    ProviderDescriptor {
        name: name.into(),
        tools: vec!["echo".into()],
        ..ProviderDescriptor::default()
    }
}

async fn run(code: &str) -> Result<Outcome, Error> {
    executor()
        .execute(ExecuteRequest {
            code: code.into(),
            ..ExecuteRequest::default()
        })
        .await
}

async fn run_with(code: &str, dispatch: Arc<Echo>) -> Outcome {
    executor()
        .execute(ExecuteRequest {
            code: code.into(),
            providers: vec![provider("codemode")],
            dispatch: Some(dispatch),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn a_trivial_program_returns_its_value() {
    let outcome = run("async () => 1 + 1").await.unwrap();
    assert_eq!(outcome.result, JsValue::Number(2.0));
    assert_eq!(outcome.error, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn works_from_a_multi_thread_runtime() {
    let outcome = run("() => 'sync'").await.unwrap();
    assert_eq!(outcome.result, JsValue::String("sync".into()));
}

#[tokio::test]
async fn console_captures_log_warn_and_error_only() {
    let outcome = run(
        r#"async () => { console.log("hello", 1, {a:1}); console.warn("careful", 42); console.error("bad"); console.info("i"); console.debug("d"); return "ok" }"#,
    )
    .await
    .unwrap();
    assert_eq!(
        outcome.logs,
        vec![
            LogLine {
                level: LogLevel::Log,
                text: "hello 1 [object Object]".into()
            },
            LogLine {
                level: LogLevel::Warn,
                text: "careful 42".into()
            },
            LogLine {
                level: LogLevel::Error,
                text: "bad".into()
            },
        ]
    );
}

#[tokio::test]
async fn logged_errors_read_as_v8() {
    let outcome = run("async () => { try { null.x } catch (e) { console.log(e) } }")
        .await
        .unwrap();
    assert_eq!(
        outcome.logs[0].text,
        "TypeError: Cannot read properties of null (reading 'x')"
    );
}

#[tokio::test]
async fn tool_calls_dispatch_with_positional_args() {
    let echo = Arc::new(Echo::default());
    let outcome = run_with("async () => await codemode.add(1, \"b\")", echo.clone()).await;
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![JsValue::Number(1.0), JsValue::String("b".into())])
    );
    let calls = echo.calls.lock().unwrap();
    assert_eq!(calls[0].provider, "codemode");
    assert_eq!(calls[0].tool, "add");
    assert_eq!(calls[0].args_json, "[1,\"b\"]");
}

#[tokio::test]
async fn tool_errors_throw_and_unknown_tools_still_dispatch() {
    let echo = Arc::new(Echo::default());
    let outcome = run_with(
        "async () => { try { await codemode.fail() } catch (e) { return e.message } }",
        echo.clone(),
    )
    .await;
    assert_eq!(outcome.result, JsValue::String("tool broke".into()));
    let outcome = run_with("async () => await codemode.nope()", echo).await;
    assert_eq!(
        outcome.error.unwrap().text(),
        "Tool \"nope\" not found".to_string()
    );
}

#[tokio::test]
async fn without_dispatch_every_call_is_not_found() {
    let outcome = executor()
        .execute(ExecuteRequest {
            code: "async () => await codemode.x()".into(),
            providers: vec![provider("codemode")],
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(outcome.error.unwrap().text(), "Tool \"x\" not found");
}

#[tokio::test]
async fn the_proxy_answers_then_but_not_symbols() {
    let echo = Arc::new(Echo::default());
    let outcome = run_with(
        "async () => [typeof codemode.then, typeof codemode[Symbol.toPrimitive]]",
        echo,
    )
    .await;
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![
            JsValue::String("function".into()),
            JsValue::String("undefined".into())
        ])
    );
}

#[tokio::test]
async fn binary_crosses_both_ways() {
    let echo = Arc::new(Echo::default());
    let outcome = run_with(
        "async () => { const back = await codemode.echo(new Uint8Array([1,2]), new Uint16Array([3]).buffer); const got = await codemode.bytes(); return [back, got instanceof Uint8Array, got] }",
        echo.clone(),
    )
    .await;
    assert_eq!(
        echo.calls.lock().unwrap()[0].args_json,
        r#"[{"__codemode_binary_v1__":"Uint8Array","data":"AQI="},{"__codemode_binary_v1__":"ArrayBuffer","data":"AwA="}]"#
    );
    let JsValue::Array(items) = outcome.result else {
        panic!("{outcome:?}")
    };
    assert_eq!(items[1], JsValue::Bool(true));
    assert_eq!(
        items[2],
        JsValue::Binary(Binary {
            kind: BinaryKind::Uint8Array,
            bytes: vec![5, 6]
        })
    );
}

#[tokio::test]
async fn first_argument_only_when_not_positional() {
    let echo = Arc::new(Echo::default());
    executor()
        .execute(ExecuteRequest {
            code: "async () => { await codemode.echo(); await codemode.echo({a: 1}, 2) }".into(),
            providers: vec![ProviderDescriptor {
                positional_args: Some(false),
                ..provider("codemode")
            }],
            dispatch: Some(echo.clone()),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    let calls = echo.calls.lock().unwrap();
    assert_eq!(calls[0].args_json, "[{}]");
    assert_eq!(calls[1].args_json, "[{\"a\":1}]");
}

#[tokio::test]
async fn proxy_source_and_prelude() {
    let echo = Arc::new(Echo::default());
    let outcome = executor()
        .execute(ExecuteRequest {
            code: "async () => [await mine.go(3), await codemode.local()]".into(),
            providers: vec![
                ProviderDescriptor {
                    name: "mine".into(),
                    proxy_source: Some(
                        "{ go: async (n) => JSON.parse(await __dispatch('mine', 'echo', JSON.stringify([n]))).result }"
                            .into(),
                    ),
                    ..ProviderDescriptor::default()
                },
                ProviderDescriptor {
                    prelude: Some("codemode.local = async () => 42".into()),
                    ..provider("codemode")
                },
            ],
            dispatch: Some(echo),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![
            JsValue::Array(vec![JsValue::Number(3.0)]),
            JsValue::Number(42.0)
        ])
    );
}

#[tokio::test]
async fn throws_report_the_message() {
    let outcome = run("async () => { throw new Error(\"boom\") }")
        .await
        .unwrap();
    assert_eq!(
        outcome.error,
        Some(RunError::Threw {
            message: Some(JsValue::String("boom".into())),
            thrown: JsValue::Error {
                name: "Error".into(),
                message: "boom".into()
            }
        })
    );
    let outcome = run("async () => { throw null }").await.unwrap();
    assert!(matches!(
        outcome.error,
        Some(RunError::Threw { message: None, .. })
    ));
    let outcome = run("async () => { throw { message: 42 } }").await.unwrap();
    assert!(matches!(
        outcome.error,
        Some(RunError::Threw { message: Some(JsValue::Number(n)), .. }) if n == 42.0
    ));
}

#[tokio::test]
async fn runtime_errors_read_as_v8() {
    for (code, text) in [
        (
            "async () => { const o = undefined; return o.y }",
            "Cannot read properties of undefined (reading 'y')",
        ),
        (
            "async () => { null.x }",
            "Cannot read properties of null (reading 'x')",
        ),
        (
            "async () => { const o = {}; return o.f() }",
            "o.f is not a function",
        ),
        (
            "async () => undefinedVariable",
            "undefinedVariable is not defined",
        ),
        (
            "async () => JSON.parse(\"{bad\")",
            "Expected property name or '}' in JSON at position 1 (line 1 column 2)",
        ),
    ] {
        let outcome = run(code).await.unwrap();
        assert_eq!(outcome.error.unwrap().text(), text, "{code}");
    }
}

#[tokio::test]
async fn syntax_errors_fail_to_start_as_v8_words_them() {
    let Error::SyntaxError { text, line, .. } = run("class {").await.unwrap_err() else {
        panic!("a syntax error must fail the start")
    };
    assert!(
        text.starts_with("Failed to start Worker:\nUncaught SyntaxError: Unexpected token '"),
        "{text}"
    );
    // `class {` runs into the line after the program.
    assert_eq!(line, 2, "the error is located in the request's code");
    assert_eq!(
        run("async () => { const class = 1 }").await.unwrap_err(),
        Error::SyntaxError {
            text: "Failed to start Worker:\nUncaught SyntaxError: Unexpected token 'class'".into(),
            line: 1,
            column: 21,
        }
    );
}

#[tokio::test]
async fn fetch_is_blocked_with_the_reference_text() {
    let outcome = run("async () => { try { await fetch(\"https://example.com\") } catch (e) { return String(e) } }")
        .await
        .unwrap();
    assert_eq!(
        outcome.result,
        JsValue::String("Error: This worker is not permitted to access the internet via global functions like fetch(). It must use capabilities (such as bindings in 'env') to talk to the outside world.".into())
    );
}

#[tokio::test]
async fn disposed_executors_refuse_work() {
    let executor = executor();
    executor.dispose().await;
    let error = executor
        .execute(ExecuteRequest {
            code: "async () => 1".into(),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap_err();
    assert_eq!(error, Error::Disposed);
}

#[tokio::test]
async fn nothing_leaks_between_runs() {
    let executor = IsolateExecutor::new(IsolateOptions::default().workers(1));
    let request = |code: &str| ExecuteRequest {
        code: code.into(),
        ..ExecuteRequest::default()
    };
    executor
        .execute(request("async () => { globalThis.leak = 1 }"))
        .await
        .unwrap();
    let outcome = executor
        .execute(request("async () => typeof leak"))
        .await
        .unwrap();
    assert_eq!(outcome.result, JsValue::String("undefined".into()));
}

#[tokio::test]
async fn late_calls_do_not_block_completion() {
    struct Slow;
    impl Dispatch for Slow {
        fn dispatch(&self, _call: ToolCall) -> BoxFuture<'static, Envelope> {
            Box::pin(async {
                tokio::time::sleep(std::time::Duration::from_secs(30)).await;
                Envelope::Result(JsValue::Null)
            })
        }
    }
    let started = std::time::Instant::now();
    let outcome = executor()
        .execute(ExecuteRequest {
            code: "async () => { const a = codemode.slow(); return 1 }".into(),
            providers: vec![provider("codemode")],
            dispatch: Some(Arc::new(Slow)),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(outcome.result, JsValue::Number(1.0));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn execute_futures_are_send() {
    fn assert_send<T: Send>(_: &T) {}
    let executor = executor();
    let future = executor.execute(ExecuteRequest::default());
    assert_send(&future);
}

#[tokio::test]
async fn a_finished_run_releases_its_sandbox() {
    // The request's dispatch lives in the run's sandbox (with a pending timer and a promise
    // that never settles holding on to it); once the worker restores the sandbox, only this
    // test's handle remains.
    let executor = IsolateExecutor::new(IsolateOptions::default().workers(1));
    let dispatch = Arc::new(Echo::default());
    let outcome = executor
        .execute(ExecuteRequest {
            code: "async () => { setTimeout(() => codemode.echo(1), 60000); new Promise(() => {}); return await codemode.echo(2) }".into(),
            providers: vec![provider("codemode")],
            dispatch: Some(dispatch.clone()),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(outcome.result, JsValue::Array(vec![JsValue::Number(2.0)]));
    let released = async {
        while Arc::strong_count(&dispatch) > 1 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(5), released)
        .await
        .expect("the run's sandbox was never freed");
}

#[tokio::test]
async fn every_run_gets_a_sandbox_of_its_own_whatever_the_stock() {
    // With sandboxes prepared ahead (none asked for means one), restored after each run or
    // replaced, a run never sees what an earlier run set, nor a prototype it patched.
    for (prepared_sandboxes, restore) in [(0, true), (1, true), (3, true), (1, false), (3, false)] {
        let executor = IsolateExecutor::new(
            IsolateOptions::default()
                .workers(2)
                .prepared_sandboxes(prepared_sandboxes)
                .restore_sandboxes(restore),
        );
        for round in 0..12 {
            let code = format!(
                "async () => {{ const seen = [typeof leak, typeof Array.prototype.leak]; \
                 globalThis.leak = {round}; Array.prototype.leak = 1; return seen }}"
            );
            let outcome = executor
                .execute(ExecuteRequest {
                    code,
                    ..ExecuteRequest::default()
                })
                .await
                .unwrap();
            assert_eq!(
                outcome.result,
                JsValue::Array(vec![
                    JsValue::String("undefined".into()),
                    JsValue::String("undefined".into())
                ]),
                "stock {prepared_sandboxes}, restored {restore}, round {round}"
            );
        }
    }
}

/// Answers `echo` after a short sleep (its first poll is pending), panics on `panic`.
struct Later;

impl Dispatch for Later {
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope> {
        Box::pin(async move {
            if call.tool == "panic" {
                panic!("the tool broke");
            }
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            Envelope::Result(decode_codec_json(&call.args_json).unwrap())
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_reach_spinning_and_parked_workers_alike() {
    // Whether an idle worker looks for the next run or parks at once, every run is answered:
    // back to back, after a pause (every worker idle), many at once, with calls answered at
    // once, later, or by a panic; and a disposed pool refuses the next run.
    for spin in [0, 20] {
        let executor = Arc::new(IsolateExecutor::new(
            IsolateOptions::default()
                .workers(2)
                .idle_spin(std::time::Duration::from_millis(spin)),
        ));
        let request = |code: &str, dispatch: Arc<dyn Dispatch>| ExecuteRequest {
            code: code.into(),
            providers: vec![provider("codemode")],
            dispatch: Some(dispatch),
            ..ExecuteRequest::default()
        };
        for pause in [0, 0, 30, 0] {
            tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
            let outcome = executor
                .execute(request(
                    "async () => [await codemode.echo(1), await codemode.echo(2)]",
                    Arc::new(Later),
                ))
                .await
                .unwrap();
            assert_eq!(
                outcome.result,
                JsValue::Array(vec![
                    JsValue::Array(vec![JsValue::Number(1.0)]),
                    JsValue::Array(vec![JsValue::Number(2.0)])
                ]),
                "spin {spin} ms, pause {pause} ms"
            );
        }
        let runs: Vec<_> = (0..24)
            .map(|i| {
                let executor = executor.clone();
                let code = format!("async () => (await codemode.echo({i}))[0]");
                let dispatch: Arc<dyn Dispatch> = Arc::new(Echo::default());
                tokio::spawn(async move { executor.execute(request(&code, dispatch)).await })
            })
            .collect();
        for (i, run) in runs.into_iter().enumerate() {
            let outcome = run.await.unwrap().unwrap();
            assert_eq!(outcome.result, JsValue::Number(i as f64), "spin {spin} ms");
        }
        let outcome = executor
            .execute(request(
                "async () => { try { await codemode.panic() } catch (e) { return e.message } }",
                Arc::new(Later),
            ))
            .await
            .unwrap();
        let JsValue::String(text) = &outcome.result else {
            panic!("spin {spin} ms: {outcome:?}");
        };
        assert!(
            text.to_text().starts_with("The tool call failed"),
            "{text:?}"
        );
        executor.dispose().await;
        let refused = executor
            .execute(request("async () => 1", Arc::new(Echo::default())))
            .await;
        assert!(matches!(refused, Err(Error::Disposed)), "{refused:?}");
    }
}
