//! The daemon and the client in one process, on loopback: `CodemodeExecutor` over a
//! `RemoteExecutor` answers as over the `IsolateExecutor` it serves, and the connection's
//! states, codes and texts are those of `docs/dialect.md`.
#![cfg(feature = "remote")]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, oneshot};

use codemode_executor::Error;
use codemode_executor::codes;
use codemode_executor::dialect::{
    CodemodeExecutor, ExecuteOptions, ExecuteResult, Provider, Thrown, ToolFn, Tools,
};
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{
    BoxFuture, ExecuteRequest, Executor, JsValue, Timeout, answer_after,
};
use codemode_executor::remote::wire::{Session, SessionOptions, Target, WireValue};
use codemode_executor::remote::{
    ConnectOptions, ExecutorServer, RemoteExecutor, ServerOptions, ServerStats,
};

use crate::support::tool;

fn isolate() -> IsolateExecutor {
    IsolateExecutor::new(IsolateOptions::default().workers(2))
}

/// A daemon on a free loopback port; dropping `stop` (or sending on it) shuts it down.
struct Daemon {
    address: SocketAddr,
    server: Arc<ExecutorServer>,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

impl Daemon {
    async fn start(options: ServerOptions) -> Daemon {
        Daemon::start_at("127.0.0.1:0".parse().unwrap(), options).await
    }

    async fn start_at(address: SocketAddr, options: ServerOptions) -> Daemon {
        Daemon::serving(address, isolate(), options).await
    }

    /// A daemon of `workers` workers, `max_running_executions` set to match.
    async fn with_workers(workers: usize, options: ServerOptions) -> Daemon {
        let isolate = IsolateExecutor::new(IsolateOptions::default().workers(workers));
        let options = ServerOptions {
            max_running_executions: workers,
            ..options
        };
        Daemon::serving("127.0.0.1:0".parse().unwrap(), isolate, options).await
    }

    async fn serving(
        address: SocketAddr,
        isolate: impl Executor + 'static,
        options: ServerOptions,
    ) -> Daemon {
        let listener = tokio::net::TcpListener::bind(address).await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = Arc::new(ExecutorServer::new(isolate, options));
        let serving = server.clone();
        let (stop, stopped) = oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            serving
                .serve(listener, async {
                    let _ = stopped.await;
                })
                .await
        });
        Daemon {
            address,
            server,
            stop: Some(stop),
            done,
        }
    }

    fn url(&self) -> String {
        format!("ws://{}", self.address)
    }

    async fn stop(mut self) {
        drop(self.stop.take());
        tokio::time::timeout(Duration::from_secs(10), &mut self.done)
            .await
            .expect("the daemon stops within its grace period")
            .unwrap();
    }
}

/// The daemon's options for the two workers of [`isolate`], without its log.
fn quiet() -> ServerOptions {
    ServerOptions {
        log: false,
        max_running_executions: 2,
        ..ServerOptions::default()
    }
}

async fn connect(url: &str, options: ConnectOptions) -> RemoteExecutor {
    RemoteExecutor::connect(url, options).await.unwrap()
}

fn providers() -> Tools {
    let number = |v: &JsValue| match v {
        JsValue::Number(n) => *n,
        _ => f64::NAN,
    };
    Tools::Providers(vec![{
        let mut provider = Provider::new("codemode");
        provider.fns = vec![
            (
                "add".into(),
                tool(move |args| Ok(JsValue::Number(number(&args[0]) + number(&args[1])))),
            ),
            ("fail".into(), tool(|_| Err(Thrown::Error("nope".into())))),
            (
                "bytes".into(),
                tool(|_| {
                    Ok(JsValue::Binary(codemode_executor::protocol::Binary {
                        kind: codemode_executor::protocol::BinaryKind::Uint8Array,
                        bytes: vec![9, 8, 7],
                    }))
                }),
            ),
            ("echo".into(), tool(|args| Ok(JsValue::Array(args)))),
        ];
        provider
    }])
}

/// Programs whose answers must not depend on where the isolate runs.
fn programs() -> Vec<(&'static str, ExecuteOptions)> {
    let timeout = ExecuteOptions::new().timeout(Timeout::Millis(100));
    let mut modules = ExecuteOptions::new();
    modules.modules = Some(BTreeMap::from([(
        "helper".to_string(),
        "export const triple = (x) => x * 3;".to_string(),
    )]));
    vec![
        ("async () => 1 + 1", ExecuteOptions::default()),
        (
            "async () => await codemode.add(2, 3)",
            ExecuteOptions::default(),
        ),
        (
            "async () => { const a = await codemode.add(1, 1); const b = await codemode.echo({x: [a, null, 'z']}, 7); return b }",
            ExecuteOptions::default(),
        ),
        (
            "async () => await codemode.fail()",
            ExecuteOptions::default(),
        ),
        (
            "async () => await codemode.missing()",
            ExecuteOptions::default(),
        ),
        (
            "async () => { const b = await codemode.bytes(); return [b.length, b[0], b instanceof Uint8Array] }",
            ExecuteOptions::default(),
        ),
        (
            "async () => { console.log('a', 1, {b: 2}); console.warn('w'); console.error('e'); console.info('i'); return null }",
            ExecuteOptions::default(),
        ),
        (
            "async () => { throw new TypeError('boom') }",
            ExecuteOptions::default(),
        ),
        ("async () => { throw null }", ExecuteOptions::default()),
        (
            "async () => { throw { message: 0 } }",
            ExecuteOptions::default(),
        ),
        ("async () => { while (true) {} }", timeout.clone()),
        ("async () => await new Promise(() => {})", timeout),
        (
            "async () => ({ u: undefined, n: NaN, inf: -Infinity, z: -0, d: new Date(0), bad: new Date(NaN), big: 10n ** 30n, m: new Map([[1, {a: 2}]]), s: new Set(['x']), r: /a+/gi, e: new RangeError('r'), f: () => 1, u8: new Uint8Array([1, 2]), ab: new Uint16Array([513]).buffer, f64: new Float64Array([1.5]), dv: new DataView(new ArrayBuffer(2)), nested: [[1, [2, [3]]], []], tagged: { __codemode_value_v1__: 'Map' } })",
            ExecuteOptions::default(),
        ),
        ("async () => undefined", ExecuteOptions::default()),
        ("async () => {", ExecuteOptions::default()),
        (
            "import { triple } from 'helper';\nasync () => triple(await codemode.add(1, 1))",
            modules,
        ),
        ("return 6 * 7", ExecuteOptions::default()),
    ]
}

async fn run<N: Executor>(
    executor: &CodemodeExecutor<N>,
    code: &str,
    options: ExecuteOptions,
) -> Result<ExecuteResult, Error> {
    executor.execute(code, providers(), options).await
}

/// Compares two answers, reading NaN as equal to itself.
fn same(a: &Result<ExecuteResult, Error>, b: &Result<ExecuteResult, Error>) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dialect_answers_the_same_over_the_remote_executor_as_in_process() {
    let daemon = Daemon::start(quiet()).await;
    let local = CodemodeExecutor::new(isolate());
    let remote = CodemodeExecutor::new(connect(&daemon.url(), ConnectOptions::default()).await);
    for (code, options) in programs() {
        let expected = run(&local, code, options.clone()).await;
        let got = run(&remote, code, options).await;
        assert!(
            same(&got, &expected),
            "{code}\nremote: {got:?}\nlocal:  {expected:?}"
        );
    }
    remote.dispose().await;
    daemon.stop().await;
}

/// Tools answered three ways: at once, at once with a declared host delay of 30 ms, and
/// after 150 ms of real waiting.
fn timed_tools() -> Tools {
    let first = |args: Vec<JsValue>| args.into_iter().next().unwrap_or(JsValue::Undefined);
    let mut provider = Provider::new("api");
    let now: ToolFn = Arc::new(move |args| Box::pin(async move { Ok(first(args)) }));
    let after: ToolFn = Arc::new(move |args| {
        Box::pin(async move {
            if !answer_after(Duration::from_millis(30)) {
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
            Ok(first(args))
        })
    });
    let later: ToolFn = Arc::new(move |args| {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(150)).await;
            Ok(first(args))
        })
    });
    provider.fns = vec![
        ("now".into(), now),
        ("after".into(), after),
        ("later".into(), later),
    ];
    Tools::Providers(vec![provider])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompt_replies_keep_the_in_process_order_behind_the_daemon() {
    // The batch's last call first, then the other immediate one; the sandbox's 10 ms timer,
    // the host's 30 ms timer, the 50 ms timer, then the answer that came late.
    let code = "async () => { const o = []; const t = (ms, v) => new Promise(r => setTimeout(() => r(v), ms)); \
        await Promise.all([api.after('a'), api.now('b'), api.later('c'), api.now('d'), t(10, 't10'), t(50, 't50')].map(p => p.then(v => o.push(v)))); return o }";
    let expected = JsValue::Array(
        ["d", "b", "t10", "a", "t50", "c"]
            .into_iter()
            .map(|s| JsValue::String(s.into()))
            .collect(),
    );
    let daemon = Daemon::start(quiet()).await;
    let local = CodemodeExecutor::new(isolate());
    let remote = CodemodeExecutor::new(connect(&daemon.url(), ConnectOptions::default()).await);
    for _ in 0..5 {
        let answer = local
            .execute(code, timed_tools(), ExecuteOptions::default())
            .await
            .unwrap();
        assert_eq!(answer.result, expected, "in process: {answer:?}");
        let answer = remote
            .execute(code, timed_tools(), ExecuteOptions::default())
            .await
            .unwrap();
        assert_eq!(answer.result, expected, "remote: {answer:?}");
    }
    remote.dispose().await;
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_runs_over_one_connection_each_get_their_own_answer() {
    let daemon = Daemon::start(quiet()).await;
    let remote = Arc::new(CodemodeExecutor::new(
        connect(&daemon.url(), ConnectOptions::default()).await,
    ));
    let runs = (0..16).map(|i| {
        let remote = remote.clone();
        tokio::spawn(async move {
            let code = format!(
                "async () => {{ console.log('run {i}'); return await codemode.add({i}, 1000) }}"
            );
            let answer = run(&remote, &code, ExecuteOptions::default())
                .await
                .unwrap();
            assert_eq!(answer.result, JsValue::Number(1000.0 + i as f64));
            assert_eq!(answer.logs, vec![format!("run {i}")]);
        })
    });
    for run in runs.collect::<Vec<_>>() {
        run.await.unwrap();
    }
    assert_eq!(remote.native().sessions_opened(), 1);
    daemon.stop().await;
}

/// A Cap'n Web server whose main object answers `protocolVersion()` with `version`.
struct Versioned(f64);

impl Target for Versioned {
    fn call(
        &self,
        _path: Vec<String>,
        _args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>> {
        let version = self.0;
        Box::pin(async move { Ok::<_, WireValue>(WireValue::Number(version)) })
    }
}

async fn versioned_server(version: f64) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let socket = tokio_tungstenite::accept_async(stream).await.unwrap();
                let session = Session::start(
                    socket,
                    Some(Arc::new(Versioned(version))),
                    SessionOptions::default(),
                );
                session.closed().await;
            });
        }
    });
    (url, accepted)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_disagreement_is_protocol_mismatch_and_never_retried() {
    let (url, accepted) = versioned_server(2.0).await;
    let error = RemoteExecutor::connect(&url, ConnectOptions::default())
        .await
        .err()
        .unwrap();
    assert_eq!(
        error.to_string(),
        "Executor protocol mismatch: client speaks v1, server speaks v2"
    );
    assert_eq!(error.code(), Some(codes::PROTOCOL_MISMATCH));
    assert!(!error.retryable());
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_or_missing_token_is_refused_with_401_and_nothing_runs() {
    let daemon = Daemon::start(ServerOptions {
        token: Some("s3cret".into()),
        ..quiet()
    })
    .await;
    let url = daemon.url();
    for headers in [
        vec![],
        vec![("Authorization".to_string(), "Bearer wrong".to_string())],
    ] {
        let error = RemoteExecutor::connect(
            &url,
            ConnectOptions {
                headers,
                ..ConnectOptions::default()
            },
        )
        .await
        .err()
        .unwrap();
        assert_eq!(
            error.to_string(),
            format!("Failed to open WebSocket to {url}")
        );
        assert_eq!(error.code(), Some(codes::CONNECTION_REJECTED));
        assert!(
            error.cause().unwrap().contains("401"),
            "{:?}",
            error.cause()
        );
    }
    let remote = connect(
        &url,
        ConnectOptions {
            headers: vec![("Authorization".into(), "Bearer s3cret".into())],
            ..ConnectOptions::default()
        },
    )
    .await;
    let answer = CodemodeExecutor::new(remote)
        .execute("async () => 'in'", providers(), ExecuteOptions::default())
        .await
        .unwrap();
    assert_eq!(answer.result, JsValue::String("in".into()));
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_connection_or_a_bad_url_is_connection_rejected() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    drop(listener);
    for url in [url.as_str(), "http://example.invalid/", "not a url"] {
        let error = RemoteExecutor::connect(url, ConnectOptions::default())
            .await
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            format!("Failed to open WebSocket to {url}")
        );
        assert_eq!(error.code(), Some(codes::CONNECTION_REJECTED));
    }
}

/// Tools whose `wait` call blocks until the test lets it go, counting calls.
fn gated_tools(gate: Arc<Notify>, calls: Arc<AtomicUsize>) -> Tools {
    let wait: ToolFn = Arc::new(move |_| {
        let gate = gate.clone();
        calls.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            gate.notified().await;
            Ok(JsValue::String("released".into()))
        }) as BoxFuture<'static, Result<JsValue, Thrown>>
    });
    Tools::Providers(vec![{
        let mut provider = Provider::new("codemode");
        provider.fns = vec![("wait".into(), wait)];
        provider
    }])
}

async fn until(what: &str, condition: impl Fn() -> bool) {
    let started = Instant::now();
    while !condition() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A call the program does not await still reaches the host's tool before the run's answer
/// does, as in process: the client enters the tool when it reads the call, not later on
/// another task (the catalogue's production/unawaited-call-then-a-tick failed about one run
/// in six before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unawaited_call_reaches_the_host_before_the_runs_answer() {
    let daemon = Daemon::start(quiet()).await;
    let remote = CodemodeExecutor::new(connect(&daemon.url(), ConnectOptions::default()).await);
    let gate = Arc::new(Notify::new());
    let calls = Arc::new(AtomicUsize::new(0));
    for round in 1..=40 {
        let result = remote
            .execute(
                "async () => { codemode.wait(); await new Promise(r => setTimeout(r, 0)); return 1 }",
                gated_tools(gate.clone(), calls.clone()),
                ExecuteOptions::new(),
            )
            .await
            .expect("the run answers");
        assert_eq!(result.result, JsValue::Number(1.0));
        assert_eq!(
            calls.load(Ordering::SeqCst),
            round,
            "round {round}: the tool was entered before the answer arrived"
        );
    }
    gate.notify_waiters();
    remote.dispose().await;
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rotation_while_a_call_is_in_flight_lets_it_finish_on_the_retired_session() {
    let daemon = Daemon::start(quiet()).await;
    let remote = Arc::new(CodemodeExecutor::new(
        connect(
            &daemon.url(),
            ConnectOptions {
                rotate_after_executions: Some(1),
                ..ConnectOptions::default()
            },
        )
        .await,
    ));
    let gate = Arc::new(Notify::new());
    let calls = Arc::new(AtomicUsize::new(0));
    let slow = {
        let remote = remote.clone();
        let tools = gated_tools(gate.clone(), calls.clone());
        tokio::spawn(async move {
            remote
                .execute(
                    "async () => await codemode.wait()",
                    tools,
                    ExecuteOptions::default(),
                )
                .await
        })
    };
    until("the slow run's tool call", || {
        calls.load(Ordering::SeqCst) == 1
    })
    .await;
    // A quick run on the same session reaches the rotation bound and retires the session.
    let quick = run(&remote, "async () => 'quick'", ExecuteOptions::default())
        .await
        .unwrap();
    assert_eq!(quick.result, JsValue::String("quick".into()));
    assert_eq!(remote.native().sessions_opened(), 1);
    // The slow run still finishes on the retired session.
    gate.notify_one();
    let slow = slow.await.unwrap().unwrap();
    assert_eq!(slow.result, JsValue::String("released".into()));
    // The next run opens a fresh session.
    run(&remote, "async () => 1", ExecuteOptions::default())
        .await
        .unwrap();
    assert_eq!(remote.native().sessions_opened(), 2);
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_broken_in_flight_fails_connection_broken_and_is_never_replayed() {
    let daemon = Daemon::start(ServerOptions {
        grace_period: Duration::ZERO,
        ..quiet()
    })
    .await;
    let address = daemon.address;
    let remote = Arc::new(CodemodeExecutor::new(
        connect(&daemon.url(), ConnectOptions::default()).await,
    ));
    let gate = Arc::new(Notify::new());
    let calls = Arc::new(AtomicUsize::new(0));
    let pending = {
        let remote = remote.clone();
        let tools = gated_tools(gate.clone(), calls.clone());
        tokio::spawn(async move {
            remote
                .execute(
                    "async () => await codemode.wait()",
                    tools,
                    ExecuteOptions::default(),
                )
                .await
        })
    };
    until("the tool call", || calls.load(Ordering::SeqCst) == 1).await;
    daemon.stop().await;
    let error = pending.await.unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        "Executor connection broke during execution"
    );
    assert_eq!(error.code(), Some(codes::CONNECTION_BROKEN));
    assert!(error.retryable());

    // A daemon back on the same address: the next call reopens, and the broken one was not
    // replayed (its tool ran once).
    let daemon = Daemon::start_at(address, quiet()).await;
    let answer = run(&remote, "async () => 'again'", ExecuteOptions::default())
        .await
        .unwrap();
    assert_eq!(answer.result, JsValue::String("again".into()));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(remote.native().sessions_opened(), 2);
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_after_a_break_share_one_reopen_and_one_socket() {
    let daemon = Daemon::start(quiet()).await;
    let address = daemon.address;
    let remote = Arc::new(CodemodeExecutor::new(
        connect(&daemon.url(), ConnectOptions::default()).await,
    ));
    daemon.stop().await;
    // Long enough for the session to notice the close frame.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let daemon = Daemon::start_at(address, quiet()).await;
    let runs: Vec<_> = (0..50)
        .map(|i| {
            let remote = remote.clone();
            tokio::spawn(async move {
                run(
                    &remote,
                    &format!("async () => {i}"),
                    ExecuteOptions::default(),
                )
                .await
            })
        })
        .collect();
    for (i, run) in runs.into_iter().enumerate() {
        assert_eq!(
            run.await.unwrap().unwrap().result,
            JsValue::Number(i as f64)
        );
    }
    assert_eq!(remote.native().sessions_opened(), 2);
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopen_backs_off_linearly_and_reconnect_false_makes_one_attempt() {
    let daemon = Daemon::start(quiet()).await;
    let url = daemon.url();
    let patient = connect(
        &url,
        ConnectOptions {
            backoff: Duration::from_millis(150),
            max_attempts: 3,
            ..ConnectOptions::default()
        },
    )
    .await;
    let hasty = connect(
        &url,
        ConnectOptions {
            backoff: Duration::from_millis(150),
            reconnect: false,
            ..ConnectOptions::default()
        },
    )
    .await;
    daemon.stop().await;
    tokio::time::sleep(Duration::from_millis(100)).await;

    let started = Instant::now();
    let error = patient.execute(Default::default()).await.unwrap_err();
    let waited = started.elapsed();
    assert_eq!(error.code(), Some(codes::CONNECTION_REJECTED));
    // Three attempts: waits of 150 ms and 300 ms between them.
    assert!(waited >= Duration::from_millis(450), "{waited:?}");

    let started = Instant::now();
    let error = hasty.execute(Default::default()).await.unwrap_err();
    assert_eq!(error.code(), Some(codes::CONNECTION_REJECTED));
    assert!(
        started.elapsed() < Duration::from_millis(150),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_dispose_every_call_fails_closed_and_a_dispose_ends_an_attempt() {
    let daemon = Daemon::start(quiet()).await;
    let remote = Arc::new(
        connect(
            &daemon.url(),
            ConnectOptions {
                backoff: Duration::from_secs(30),
                max_attempts: 5,
                ..ConnectOptions::default()
            },
        )
        .await,
    );
    let trivial = || ExecuteRequest {
        code: "async () => 1".into(),
        ..ExecuteRequest::default()
    };
    assert_eq!(
        remote.execute(trivial()).await.unwrap().result,
        JsValue::Number(1.0)
    );
    daemon.stop().await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    // This call's reopen fails its first attempt and waits 30 s before the next.
    let attempt = {
        let remote = remote.clone();
        tokio::spawn(async move { remote.execute(trivial()).await })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    remote.dispose().await;
    let error = attempt.await.unwrap().unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(error.code(), Some(codes::CONNECTION_BROKEN));
    assert_eq!(error.to_string(), "RemoteExecutor is closed");
    let error = remote.execute(trivial()).await.unwrap_err();
    assert_eq!(error.code(), Some(codes::CONNECTION_BROKEN));
    assert_eq!(error.to_string(), "RemoteExecutor is closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daemons_bounds_refuse_with_a_sentence() {
    let daemon = Daemon::start(ServerOptions {
        max_concurrent_executions: 1,
        max_message_bytes: 4096,
        ..quiet()
    })
    .await;
    let remote = Arc::new(CodemodeExecutor::new(
        connect(&daemon.url(), ConnectOptions::default()).await,
    ));
    let gate = Arc::new(Notify::new());
    let calls = Arc::new(AtomicUsize::new(0));
    let first = {
        let remote = remote.clone();
        let tools = gated_tools(gate.clone(), calls.clone());
        tokio::spawn(async move {
            remote
                .execute(
                    "async () => await codemode.wait()",
                    tools,
                    ExecuteOptions::default(),
                )
                .await
        })
    };
    until("the first run's tool call", || {
        calls.load(Ordering::SeqCst) == 1
    })
    .await;
    let error = run(&remote, "async () => 2", ExecuteOptions::default())
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(codes::TOO_MANY_EXECUTIONS));
    assert_eq!(
        error.to_string(),
        "This connection already runs its maximum of 1 concurrent executions; await one before starting another."
    );
    assert!(error.retryable());
    gate.notify_one();
    first.await.unwrap().unwrap();

    // A message over the bound aborts the session; the call fails as broken, with the
    // daemon's reason underneath.
    let big = format!("async () => '{}'", "x".repeat(10_000));
    let error = run(&remote, &big, ExecuteOptions::default())
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(codes::CONNECTION_BROKEN));
    assert!(
        error
            .cause()
            .unwrap()
            .contains("exceeds the session's 4096-byte bound"),
        "{:?}",
        error.cause()
    );
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_lets_an_in_flight_run_finish_within_the_grace_period() {
    let daemon = Daemon::start(ServerOptions {
        grace_period: Duration::from_secs(10),
        ..quiet()
    })
    .await;
    let url = daemon.url();
    let remote = Arc::new(CodemodeExecutor::new(
        connect(&url, ConnectOptions::default()).await,
    ));
    let gate = Arc::new(Notify::new());
    let calls = Arc::new(AtomicUsize::new(0));
    let pending = {
        let remote = remote.clone();
        let tools = gated_tools(gate.clone(), calls.clone());
        tokio::spawn(async move {
            remote
                .execute(
                    "async () => await codemode.wait()",
                    tools,
                    ExecuteOptions::default(),
                )
                .await
        })
    };
    until("the tool call", || calls.load(Ordering::SeqCst) == 1).await;
    let stopping = tokio::spawn(daemon.stop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    // No new connections once shutdown began.
    let refused = RemoteExecutor::connect(&url, ConnectOptions::default()).await;
    assert_eq!(
        refused
            .err()
            .and_then(|e| e.code().map(str::to_string))
            .as_deref(),
        Some(codes::CONNECTION_REJECTED)
    );
    assert!(
        !stopping.is_finished(),
        "the daemon waits for the in-flight run"
    );
    gate.notify_one();
    let answer = pending.await.unwrap().unwrap();
    assert_eq!(answer.result, JsValue::String("released".into()));
    stopping.await.unwrap();
}

/// A host outbound handler that records each request and answers by its path: `/json`
/// echoes the request as JSON with a header, `/fail` fails, `/bytes` answers binary.
fn recording_outbound(
    seen: Arc<std::sync::Mutex<Vec<codemode_executor::protocol::OutboundRequest>>>,
) -> codemode_executor::protocol::Outbound {
    use codemode_executor::protocol::{Outbound, OutboundRequest, OutboundResponse};
    Outbound::Host(Arc::new(
        move |request: OutboundRequest| -> BoxFuture<'static, Result<OutboundResponse, String>> {
            seen.lock().unwrap().push(request.clone());
            Box::pin(async move {
                if request.url.ends_with("/fail") {
                    return Err("the policy refused it".into());
                }
                if request.url.ends_with("/bytes") {
                    return Ok(OutboundResponse::new(201).body(vec![0, 255, 7]));
                }
                let body = String::from_utf8_lossy(request.body.as_deref().unwrap_or_default());
                Ok(OutboundResponse::new(200)
                    .header("Content-Type", "application/json")
                    .header("X-Seen", request.method.as_str())
                    .body(
                        format!(
                            "{{\"url\":{:?},\"body\":{:?},\"headers\":{}}}",
                            request.url,
                            body,
                            request.headers.len()
                        )
                        .into_bytes(),
                    ))
            })
        },
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_outbound_handler_answers_the_sandboxs_fetch_over_the_socket() {
    let daemon = Daemon::start(quiet()).await;
    let local = CodemodeExecutor::new(isolate());
    let remote = CodemodeExecutor::new(connect(&daemon.url(), ConnectOptions::default()).await);
    let programs = [
        "async () => { const r = await fetch('https://api.example/json', { method: 'POST', body: 'hi', headers: { 'X-A': '1' } }); return [r.status, r.statusText, r.headers.get('x-seen'), await r.json()] }",
        "async () => { const r = await fetch('https://api.example/bytes'); return [r.status, r.statusText, [...new Uint8Array(await r.arrayBuffer())]] }",
        "async () => { try { await fetch('https://api.example/fail'); return 'no' } catch (e) { return [e.constructor.name, e.message] } }",
        "async () => (await Promise.all([1, 2, 3].map(i => fetch('https://api.example/json?' + i).then(r => r.json())))).map(j => j.url)",
    ];
    for code in programs {
        let local_seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let remote_seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let expected = local
            .execute(
                code,
                providers(),
                ExecuteOptions::new().outbound(recording_outbound(local_seen.clone())),
            )
            .await;
        let got = remote
            .execute(
                code,
                providers(),
                ExecuteOptions::new().outbound(recording_outbound(remote_seen.clone())),
            )
            .await;
        assert!(
            same(&got, &expected),
            "{code}\nremote: {got:?}\nlocal:  {expected:?}"
        );
        assert_eq!(got.as_ref().unwrap().error, None, "{code}: {got:?}");
        assert_eq!(
            *remote_seen.lock().unwrap(),
            *local_seen.lock().unwrap(),
            "{code}: the handler saw other requests over the socket"
        );
        assert!(!remote_seen.lock().unwrap().is_empty(), "{code}");
    }
    // The first program's answer, read whole.
    let first = remote
        .execute(
            programs[0],
            providers(),
            ExecuteOptions::new().outbound(recording_outbound(Default::default())),
        )
        .await
        .unwrap();
    assert_eq!(
        first.result,
        JsValue::Array(vec![
            JsValue::from(200.0),
            JsValue::from("OK"),
            JsValue::from("POST"),
            JsValue::Object(vec![
                ("url".into(), JsValue::from("https://api.example/json")),
                ("body".into(), JsValue::from("hi")),
                ("headers".into(), JsValue::from(3.0)),
            ]),
        ])
    );
    remote.dispose().await;
    daemon.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stub_mode_without_its_function_and_a_function_without_it_are_refused() {
    let daemon = Daemon::start(quiet()).await;
    let (socket, _) = tokio_tungstenite::connect_async(daemon.url())
        .await
        .unwrap();
    let session = Session::start(socket, None, SessionOptions::default());
    let request = |mode: &str| {
        WireValue::Object(vec![
            ("code".into(), WireValue::string("async () => 1")),
            ("providers".into(), WireValue::Array(vec![])),
            ("outbound".into(), WireValue::string(mode)),
        ])
    };
    let refused = session
        .call_main(
            "execute",
            vec![request("stub"), WireValue::Null, WireValue::Null],
        )
        .await
        .unwrap_err();
    assert!(
        format!("{refused:?}").contains(
            "the outbound mode \\\"stub\\\" needs the host's outbound function as execute's third argument"
        ),
        "{refused:?}"
    );
    let refused = session
        .call_main(
            "execute",
            vec![request("proxy"), WireValue::Null, WireValue::Null],
        )
        .await
        .unwrap_err();
    assert!(
        format!("{refused:?}").contains("(\\\"blocked\\\" or \\\"stub\\\")"),
        "{refused:?}"
    );
    daemon.stop().await;
}

/// A raw WebSocket to the daemon that has sent one `execute` of `code` (with its pull) and
/// reads nothing: a client that goes away is this socket dropped.
async fn raw_execute(
    url: &str,
    code: &str,
    timeout_ms: u64,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use futures::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let request = serde_json::json!({"code": code, "timeout": timeout_ms});
    let push = serde_json::json!(["push", ["pipeline", 0, ["execute"], [request]]]);
    socket.send(Message::text(push.to_string())).await.unwrap();
    socket
        .send(Message::text(r#"["pull",1]"#.to_string()))
        .await
        .unwrap();
    socket
}

async fn stats_until(daemon: &Daemon, what: &str, condition: impl Fn(&ServerStats) -> bool) {
    until(what, || condition(&daemon.server.stats())).await;
}

/// Ten clients each start a 5 s spin and go away (half with a close frame, half by dropping
/// the socket): the two running spins are interrupted, the eight waiting leave the queue, and
/// the next honest run answers at once instead of after 25 s of abandoned work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_of_a_connection_that_went_away_stop_and_free_the_workers() {
    // The daemon's own counts call a run running once admitted within its running bound; the
    // pool's say when a worker has taken it, which is what makes a cancellation a running one.
    let isolate = Arc::new(isolate());
    let daemon = Daemon::serving("127.0.0.1:0".parse().unwrap(), isolate.clone(), quiet()).await;
    let url = daemon.url();
    let mut sockets = Vec::new();
    for _ in 0..10 {
        sockets.push(raw_execute(&url, "async () => { while (true) {} }", 5000).await);
    }
    stats_until(&daemon, "two spins running and eight queued", |s| {
        s.executions_running == 2 && s.executions_queued == 8
    })
    .await;
    until("both workers spinning", || isolate.occupancy().running == 2).await;
    for (index, mut socket) in sockets.into_iter().enumerate() {
        if index % 2 == 0 {
            let _ = socket.close(None).await;
        }
    }
    stats_until(&daemon, "every spin counted cancelled", |s| {
        s.executions_cancelled() == 10
    })
    .await;
    let stats = daemon.server.stats();
    // As the sockets go one by one, a freed worker may start a queued spin of a socket not
    // yet gone: at least the two first running were interrupted, none answered.
    assert!(stats.executions_cancelled_running >= 2, "{stats:?}");
    assert_eq!(
        (
            stats.executions_running,
            stats.executions_queued,
            stats.executions_answered,
        ),
        (0, 0, 0),
        "{stats:?}"
    );
    let remote = connect(&url, ConnectOptions::default()).await;
    let started = Instant::now();
    let outcome = remote
        .execute(ExecuteRequest {
            code: "async () => 2".into(),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    let waited = started.elapsed();
    assert_eq!(outcome.result, JsValue::Number(2.0));
    assert!(
        waited < Duration::from_secs(1),
        "the honest run waited {waited:?} behind abandoned work"
    );
    remote.dispose().await;
    daemon.stop().await;
}

/// A connection with 32 runs of a second in flight takes both workers while alone; a second
/// connection's trivial run then takes the next free worker (within about a second), not a
/// place behind the 30 queued; and the flooding connection's runs are cancelled when it goes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_connection_does_not_queue_a_light_one_behind_it() {
    let daemon = Daemon::start(quiet()).await;
    let url = daemon.url();
    let flood = Arc::new(connect(&url, ConnectOptions::default()).await);
    let second =
        "async () => { const end = Date.now() + 1000; while (Date.now() < end) {} return 1 }";
    let runs: Vec<_> = (0..32)
        .map(|_| {
            let flood = flood.clone();
            tokio::spawn(async move {
                flood
                    .execute(ExecuteRequest {
                        code: second.into(),
                        ..ExecuteRequest::default()
                    })
                    .await
            })
        })
        .collect();
    stats_until(&daemon, "the flood on both workers with 30 queued", |s| {
        s.executions_running == 2 && s.executions_queued == 30
    })
    .await;
    let light = connect(&url, ConnectOptions::default()).await;
    let started = Instant::now();
    let outcome = light
        .execute(ExecuteRequest {
            code: "async () => 2".into(),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    let waited = started.elapsed();
    assert_eq!(outcome.result, JsValue::Number(2.0));
    assert!(
        waited < Duration::from_millis(1500),
        "the light connection's run waited {waited:?} behind the flood"
    );
    // The flood goes away: what it still has queued or running is cancelled.
    for run in &runs {
        run.abort();
    }
    drop(runs);
    until("the flood's aborted calls dropped", || {
        Arc::strong_count(&flood) == 1
    })
    .await;
    Arc::into_inner(flood)
        .expect("the only handle")
        .dispose()
        .await;
    stats_until(&daemon, "the flood cancelled", |s| {
        s.executions_running == 0 && s.executions_queued == 0
    })
    .await;
    let stats = daemon.server.stats();
    assert!(
        stats.executions_cancelled_queued >= 25,
        "most of the flood was still queued: {stats:?}"
    );
    assert_eq!(
        stats.executions_answered + stats.executions_cancelled(),
        33,
        "{stats:?}"
    );
    light.dispose().await;
    daemon.stop().await;
}

/// Past the daemon's queue bound a run is refused at once, with a sentence naming the bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_daemons_queue_bound_a_run_is_refused_at_once() {
    let daemon = Daemon::with_workers(
        1,
        ServerOptions {
            max_queued_executions: 1,
            ..quiet()
        },
    )
    .await;
    let url = daemon.url();
    let holding = raw_execute(&url, "async () => { while (true) {} }", 10_000).await;
    // The spinning run must hold the one worker before the trivial run arrives: sent together,
    // the trivial run may be admitted first and finish, leaving nothing queued.
    stats_until(&daemon, "the spinning run running", |s| {
        s.executions_running == 1
    })
    .await;
    let waiting = raw_execute(&url, "async () => 1", 10_000).await;
    stats_until(&daemon, "one running and one queued", |s| {
        s.executions_running == 1 && s.executions_queued == 1
    })
    .await;
    let third = connect(&url, ConnectOptions::default()).await;
    let started = Instant::now();
    let error = third
        .execute(ExecuteRequest {
            code: "async () => 2".into(),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(error.code(), Some(codes::TOO_MANY_EXECUTIONS));
    assert!(error.retryable());
    assert_eq!(
        error.to_string(),
        "The executor daemon already queues its maximum of 1 executions across all connections; try again later."
    );
    assert_eq!(daemon.server.stats().executions_refused_queue_bound, 1);
    // The queued run goes first: were the spinning run dropped first, the freed worker could
    // take the queued run and answer it before its own connection's end was seen.
    drop(waiting);
    stats_until(&daemon, "the queued run cancelled", |s| {
        s.executions_cancelled() == 1
    })
    .await;
    drop(holding);
    stats_until(&daemon, "the two raw runs cancelled", |s| {
        s.executions_cancelled() == 2
    })
    .await;
    third.dispose().await;
    daemon.stop().await;
}

/// What a hostile peer does, and what the daemon must answer.
enum Hostile {
    /// Frames on an authorized socket; the session aborts with a reason holding `abort`.
    Frames {
        frames: Vec<tokio_tungstenite::tungstenite::Message>,
        abort: &'static str,
    },
    /// One `execute` call with these arguments: rejected (that call only) with this code,
    /// and the session serves on.
    Execute {
        args: serde_json::Value,
        code: &'static str,
    },
    /// An upgrade with this `Authorization` header (or none): answered with this status.
    Upgrade {
        authorization: Option<&'static str>,
        status: u16,
    },
    /// Bytes on a raw TCP socket: the daemon answers with this status line (or closes) and
    /// hangs up.
    RawTcp {
        bytes: &'static [u8],
        status: Option<u16>,
    },
    /// More connections than the daemon serves: the extra ones are answered 503.
    Crowd { connections: usize },
    /// Sockets opened and torn down at once, by reset (`rst`) or by close.
    Storm { sockets: usize, rst: bool },
}

const TOKEN: &str = "hostile-wire-token";

async fn authorized_socket(
    url: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {TOKEN}").parse().unwrap());
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// The next text frame as JSON, or `["<close>", reason]`.
async fn next_message(
    socket: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> serde_json::Value {
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("the daemon answers within 5 s");
        match frame {
            Some(Ok(Message::Text(text))) => return serde_json::from_str(text.as_str()).unwrap(),
            Some(Ok(Message::Close(frame))) => {
                return serde_json::json!(["<close>", frame.map(|f| f.reason.to_string())]);
            }
            Some(Ok(_)) => continue,
            None | Some(Err(_)) => return serde_json::json!(["<close>", null]),
        }
    }
}

/// The status an upgrade with `authorization` is answered with.
async fn upgrade_status(url: &str, authorization: Option<&str>) -> u16 {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = url.into_client_request().unwrap();
    if let Some(value) = authorization {
        request
            .headers_mut()
            .insert("authorization", value.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((_, response)) => response.status().as_u16(),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(other) => panic!("the upgrade failed without a status: {other}"),
    }
}

/// What the daemon says to `hostile`; panics when it is not the expected answer.
async fn provoke(address: SocketAddr, hostile: &Hostile) {
    use futures::SinkExt;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = format!("ws://{address}");
    match hostile {
        Hostile::Frames { frames, abort } => {
            let mut socket = authorized_socket(&url).await;
            for frame in frames {
                // The daemon may hang up before the last frame is written.
                let _ = socket.send(frame.clone()).await;
            }
            let message = next_message(&mut socket).await;
            assert_eq!(message[0], "abort", "{message}");
            let reason = message[1][2].as_str().unwrap();
            assert!(reason.contains(abort), "{reason}");
            assert_eq!(next_message(&mut socket).await[0], "<close>");
        }
        Hostile::Execute { args, code } => {
            let mut socket = authorized_socket(&url).await;
            let push = serde_json::json!(["push", ["pipeline", 0, ["execute"], args]]);
            socket
                .send(tokio_tungstenite::tungstenite::Message::text(
                    push.to_string(),
                ))
                .await
                .unwrap();
            socket
                .send(tokio_tungstenite::tungstenite::Message::text(
                    r#"["pull",1]"#,
                ))
                .await
                .unwrap();
            let message = next_message(&mut socket).await;
            assert_eq!(message[0], "reject", "{message}");
            assert_eq!(message[2][4]["code"], *code, "{message}");
            // The session serves on: the next call answers.
            let push = serde_json::json!(["push", ["pipeline", 0, ["protocolVersion"], []]]);
            socket
                .send(tokio_tungstenite::tungstenite::Message::text(
                    push.to_string(),
                ))
                .await
                .unwrap();
            socket
                .send(tokio_tungstenite::tungstenite::Message::text(
                    r#"["pull",2]"#,
                ))
                .await
                .unwrap();
            assert_eq!(
                next_message(&mut socket).await,
                serde_json::json!(["resolve", 2, 1])
            );
        }
        Hostile::Upgrade {
            authorization,
            status,
        } => assert_eq!(upgrade_status(&url, *authorization).await, *status),
        Hostile::RawTcp { bytes, status } => {
            let mut socket = tokio::net::TcpStream::connect(address).await.unwrap();
            let _ = socket.write_all(bytes).await;
            let _ = socket.shutdown().await;
            let mut answer = Vec::new();
            tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut answer))
                .await
                .expect("the daemon hangs up within 5 s")
                .ok();
            let answer = String::from_utf8_lossy(&answer);
            match status {
                Some(status) => assert!(
                    answer.starts_with(&format!("HTTP/1.1 {status}")),
                    "{answer:?}"
                ),
                None => assert!(answer.is_empty(), "{answer:?}"),
            }
        }
        Hostile::Crowd { connections } => {
            let mut open = Vec::new();
            let mut refused = 0;
            for _ in 0..*connections {
                use tokio_tungstenite::tungstenite::client::IntoClientRequest;
                let mut request = url.as_str().into_client_request().unwrap();
                request
                    .headers_mut()
                    .insert("authorization", format!("Bearer {TOKEN}").parse().unwrap());
                match tokio_tungstenite::connect_async(request).await {
                    Ok((socket, _)) => open.push(socket),
                    Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                        assert_eq!(response.status().as_u16(), 503);
                        refused += 1;
                    }
                    Err(other) => panic!("a crowd connection failed otherwise: {other}"),
                }
            }
            assert_eq!(open.len(), HOSTILE_MAX_CONNECTIONS);
            assert_eq!(refused, connections - HOSTILE_MAX_CONNECTIONS);
        }
        Hostile::Storm { sockets, rst } => {
            let mut storm = Vec::new();
            for _ in 0..*sockets {
                let socket = tokio::net::TcpStream::connect(address).await.unwrap();
                if *rst {
                    // A zero linger turns the close into a reset (and never blocks: the
                    // deprecation warns of a non-zero linger).
                    #[allow(deprecated)]
                    socket.set_linger(Some(Duration::ZERO)).unwrap();
                }
                storm.push(socket);
            }
            drop(storm);
        }
    }
}

const HOSTILE_MAX_CONNECTIONS: usize = 12;

/// The hostile wire, kind by kind, against one daemon with a token: each kind gets its abort,
/// its rejection or its HTTP status, and an honest run answers after each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_hostile_wire_kind_gets_its_answer_and_an_honest_run_follows() {
    use tokio_tungstenite::tungstenite::Message;
    let daemon = Daemon::start(ServerOptions {
        token: Some(TOKEN.into()),
        max_message_bytes: 1 << 20,
        max_connections: HOSTILE_MAX_CONNECTIONS,
        handshake_timeout: Duration::from_secs(2),
        ..quiet()
    })
    .await;
    let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    let random: String = (0..4096u32)
        .map(|i| char::from_u32(0x20 + (i.wrapping_mul(2_654_435_761) >> 7) % 0x5e).unwrap())
        .collect();
    let table: Vec<(&str, Hostile)> = vec![
        (
            "a random text frame",
            Hostile::Frames {
                frames: vec![Message::text(random)],
                abort: "not JSON",
            },
        ),
        (
            "a binary frame",
            Hostile::Frames {
                frames: vec![Message::binary(vec![0u8, 159, 146, 150])],
                abort: "binary frame",
            },
        ),
        (
            "invalid JSON",
            Hostile::Frames {
                frames: vec![Message::text("[\"push\", {")],
                abort: "not JSON",
            },
        ),
        (
            "a message of the wrong shape",
            Hostile::Frames {
                frames: vec![Message::text(r#"{"push": 1}"#)],
                abort: "malformed message",
            },
        ),
        (
            "a message with too many parts",
            Hostile::Frames {
                frames: vec![Message::text(r#"["pull", 1, 2]"#)],
                abort: "malformed message",
            },
        ),
        (
            "an unknown message type",
            Hostile::Frames {
                frames: vec![Message::text(r#"["shout", 1]"#)],
                abort: "malformed message",
            },
        ),
        (
            "a pull of an unknown id",
            Hostile::Frames {
                frames: vec![Message::text(r#"["pull", 4242]"#)],
                abort: "export 4242",
            },
        ),
        (
            "a release of an unknown id",
            Hostile::Frames {
                frames: vec![Message::text(r#"["release", 77, 1]"#)],
                abort: "export 77",
            },
        ),
        (
            "a negative release count",
            Hostile::Frames {
                frames: vec![Message::text(r#"["release", 0, -1]"#)],
                abort: "malformed message",
            },
        ),
        (
            "a call on an unknown export",
            Hostile::Frames {
                frames: vec![Message::text(
                    r#"["push", ["pipeline", 99, ["execute"], []]]"#,
                )],
                abort: "export 99",
            },
        ),
        (
            "a 200,000-deep nesting",
            Hostile::Frames {
                frames: vec![Message::text(deep)],
                abort: "not JSON",
            },
        ),
        (
            "a frame over the message bound",
            Hostile::Frames {
                frames: vec![Message::text("x".repeat(2 << 20))],
                abort: "exceeds the session's 1048576-byte bound",
            },
        ),
        (
            "an execute whose request is a number",
            Hostile::Execute {
                args: serde_json::json!([7]),
                code: "INVALID_REQUEST",
            },
        ),
        (
            "an execute whose code is an object",
            Hostile::Execute {
                args: serde_json::json!([{"code": {"a": 1}}]),
                code: "INVALID_REQUEST",
            },
        ),
        (
            "an execute with a negative timeout",
            Hostile::Execute {
                args: serde_json::json!([{"code": "async () => 1", "timeout": -5}]),
                code: "INVALID_REQUEST",
            },
        ),
        (
            "an execute with an unknown field",
            Hostile::Execute {
                args: serde_json::json!([{"code": "async () => 1", "evil": true}]),
                code: "INVALID_REQUEST",
            },
        ),
        (
            "an execute whose dispatch is a string",
            Hostile::Execute {
                args: serde_json::json!([{"code": "async () => 1"}, "not a function"]),
                code: "INVALID_REQUEST",
            },
        ),
        (
            "an execute whose providers are garbage",
            Hostile::Execute {
                args: serde_json::json!([{"code": "async () => 1", "providers": [[1, 2]]}]),
                code: "INVALID_REQUEST",
            },
        ),
        (
            "an upgrade without a token",
            Hostile::Upgrade {
                authorization: None,
                status: 401,
            },
        ),
        (
            "an upgrade with the wrong token",
            Hostile::Upgrade {
                authorization: Some("Bearer not-the-token"),
                status: 401,
            },
        ),
        (
            "an upgrade with another scheme",
            Hostile::Upgrade {
                authorization: Some("Basic aG9zdGlsZQ=="),
                status: 401,
            },
        ),
        (
            "bytes that are not HTTP",
            Hostile::RawTcp {
                bytes: b"\x00\x01\x02 not http at all\r\n\r\n",
                status: None,
            },
        ),
        (
            "a GET that is not an upgrade",
            Hostile::RawTcp {
                bytes: b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                status: None,
            },
        ),
        (
            "an upgrade cut in the middle",
            Hostile::RawTcp {
                bytes: b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConn",
                status: None,
            },
        ),
        (
            "more connections than the bound",
            Hostile::Crowd {
                connections: HOSTILE_MAX_CONNECTIONS + 8,
            },
        ),
        (
            "a storm of resets",
            Hostile::Storm {
                sockets: 200,
                rst: true,
            },
        ),
        (
            "a storm of closes",
            Hostile::Storm {
                sockets: 200,
                rst: false,
            },
        ),
    ];
    let honest = ConnectOptions {
        headers: vec![("Authorization".into(), format!("Bearer {TOKEN}"))],
        ..ConnectOptions::default()
    };
    for (kind, hostile) in &table {
        stats_until(&daemon, "the last honest connection closed", |s| {
            s.connections_open == 0
        })
        .await;
        tokio::time::timeout(Duration::from_secs(20), provoke(daemon.address, hostile))
            .await
            .unwrap_or_else(|_| panic!("{kind}: the daemon did not answer"));
        // Every connection of the kind is gone before the honest one opens (the crowd fills
        // the connection bound).
        stats_until(&daemon, "the hostile connections closed", |s| {
            s.connections_open == 0
        })
        .await;
        let remote = connect(&daemon.url(), honest.clone()).await;
        let started = Instant::now();
        let outcome = remote
            .execute(ExecuteRequest {
                code: "async () => 2".into(),
                ..ExecuteRequest::default()
            })
            .await
            .unwrap_or_else(|e| panic!("{kind}: the honest run failed: {e}"));
        assert_eq!(outcome.result, JsValue::Number(2.0), "{kind}");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{kind}: the honest run took {:?}",
            started.elapsed()
        );
        remote.dispose().await;
    }
    let stats = daemon.server.stats();
    assert_eq!(stats.connections_refused_unauthorized, 3, "{stats:?}");
    assert_eq!(stats.connections_refused_over_capacity, 8, "{stats:?}");
    daemon.stop().await;
}

/// No open door: the daemon binary refuses to listen beyond loopback without a token, with a
/// sentence saying how to give one; `--insecure-no-token` is the loud opt-out; a token file
/// others can read draws a warning.
#[cfg(unix)]
#[test]
fn the_daemon_refuses_an_open_door_and_warns_of_a_readable_token_file() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::fs::PermissionsExt;
    use std::process::{Command, Stdio};
    let binary = env!("CARGO_BIN_EXE_codemode-executor");
    let refused = Command::new(binary)
        .args(["serve", "--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let text = String::from_utf8_lossy(&refused.stderr);
    assert!(
        text.contains("refusing to listen on 0.0.0.0:0 without a token")
            && text.contains("--token-file FILE")
            && text.contains("--insecure-no-token"),
        "{text}"
    );
    assert_eq!(
        codemode_executor::remote::exposure_refusal("127.0.0.1:0".parse().unwrap(), false, false),
        None
    );
    assert_eq!(
        codemode_executor::remote::exposure_refusal("[::]:0".parse().unwrap(), true, false),
        None
    );

    // A token others can read: the daemon starts, and warns. (Loopback, so nothing is exposed.)
    let dir = std::env::temp_dir().join(format!("open-door-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let token = dir.join("token");
    std::fs::write(&token, "a-token").unwrap();
    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut child = Command::new(binary)
        .args(["serve", "--listen", "127.0.0.1:0", "--token-file"])
        .arg(&token)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(
        line.starts_with("codemode-executor listening on ws://127.0.0.1:"),
        "{line}"
    );
    child.kill().unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(
        text.contains("can be read by other users (mode 644)") && text.contains("chmod 600"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `GET path` on the admin endpoint at `address`: the status and the body.
async fn admin_get(address: &str, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: admin\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"));
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default();
    (status, body)
}

/// Whether the admin endpoint's busy-worker gauge reads `count` within 200 scrapes 5 ms apart.
async fn busy_workers_reach(address: &str, count: f64) -> bool {
    for _ in 0..200 {
        if scrape(address).await["codemode_executor_pool_busy_workers"] == count {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    false
}

/// The admin endpoint's `/metrics`, read with a Prometheus text parser: each sample's value
/// by its name and labels (`name{label="value"}`, labels in order), histograms by their count.
async fn scrape(address: &str) -> BTreeMap<String, f64> {
    let (status, body) = admin_get(address, "/metrics").await;
    assert_eq!(status, 200, "{body}");
    let lines = body.lines().map(|line| Ok(line.to_string()));
    let scrape = prometheus_parse::Scrape::parse(lines).expect("Prometheus text");
    scrape
        .samples
        .into_iter()
        .map(|sample| {
            let mut labels: Vec<String> = sample
                .labels
                .iter()
                .map(|(name, value)| format!("{name}=\"{value}\""))
                .collect();
            labels.sort();
            let key = if labels.is_empty() {
                sample.metric
            } else {
                format!("{}{{{}}}", sample.metric, labels.join(","))
            };
            let value = match sample.value {
                prometheus_parse::Value::Counter(v)
                | prometheus_parse::Value::Gauge(v)
                | prometheus_parse::Value::Untyped(v) => v,
                prometheus_parse::Value::Histogram(buckets) => {
                    buckets.last().map_or(0.0, |bucket| bucket.count)
                }
                prometheus_parse::Value::Summary(_) => f64::NAN,
            };
            (key, value)
        })
        .collect()
}

/// The admin endpoint of the daemon binary: `/healthz` answers, `/metrics` parses as
/// Prometheus text and its counters move with runs (by outcome, tool calls, durations), and
/// `/readyz` answers 503 with the reason as soon as SIGTERM starts the drain, while a run is
/// still in flight; an unknown path is a 404 with a sentence.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_endpoint_reports_health_metrics_and_readiness_while_draining() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let binary = env!("CARGO_BIN_EXE_codemode-executor");
    let mut child = Command::new(binary)
        .args([
            "serve",
            "--pool",
            "1",
            "--admin-listen",
            "127.0.0.1:0",
            "--grace-ms",
            "5000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ready = String::new();
    stdout.read_line(&mut ready).unwrap();
    let mut admin = String::new();
    stdout.read_line(&mut admin).unwrap();
    let url = ready
        .trim()
        .strip_prefix("codemode-executor listening on ")
        .unwrap_or_else(|| panic!("{ready}"))
        .to_string();
    let admin = admin
        .trim()
        .strip_prefix("codemode-executor admin on http://")
        .unwrap_or_else(|| panic!("{admin}"))
        .to_string();

    assert_eq!(admin_get(&admin, "/healthz").await, (200, "ok\n".into()));
    assert_eq!(admin_get(&admin, "/readyz").await, (200, "ready\n".into()));
    let (status, text) = admin_get(&admin, "/nowhere").await;
    assert_eq!(status, 404);
    assert!(text.contains("has no path /nowhere"), "{text}");
    let before = scrape(&admin).await;
    let returned = "codemode_executor_executions_total{outcome=\"returned\"}";
    let threw = "codemode_executor_executions_total{outcome=\"threw\"}";
    let calls = "codemode_executor_tool_calls_total";
    let durations = "codemode_executor_execution_duration_seconds";
    assert_eq!(before.get(returned), Some(&0.0), "{before:#?}");
    assert_eq!(before.get(calls), Some(&0.0), "{before:#?}");

    let remote = Arc::new(connect(&url, ConnectOptions::default()).await);
    let options = |code: &str| ExecuteRequest {
        code: code.into(),
        ..ExecuteRequest::default()
    };
    remote.execute(options("async () => 1")).await.unwrap();
    remote
        .execute(options("async () => { throw new Error('no') }"))
        .await
        .unwrap();
    let dialect = CodemodeExecutor::new(remote.clone());
    let result = run(
        &dialect,
        "async () => await codemode.add(1, 2)",
        ExecuteOptions::new(),
    )
    .await
    .unwrap();
    assert_eq!(result.result, JsValue::Number(3.0), "{result:?}");
    let after = scrape(&admin).await;
    assert_eq!(after[returned] - before[returned], 2.0, "{after:#?}");
    assert_eq!(after[threw] - before[threw], 1.0, "{after:#?}");
    assert_eq!(after[calls] - before[calls], 1.0, "{after:#?}");
    assert_eq!(after[durations] - before[durations], 3.0, "{after:#?}");
    assert_eq!(
        after["codemode_executor_connections_open"], 1.0,
        "{after:#?}"
    );
    assert_eq!(after["codemode_executor_pool_workers"], 1.0, "{after:#?}");
    assert!(
        after["codemode_executor_resident_memory_bytes"] > 1e6,
        "{after:#?}"
    );

    // A run in flight holds the drain open; SIGTERM flips readiness at once. The worker
    // answers a run before it counts itself free, so the last run may still show as busy:
    // wait for it to be free, so that busy below is the spinning run and nothing earlier.
    assert!(
        busy_workers_reach(&admin, 0.0).await,
        "the worker never came free after the last run"
    );
    let spinning = {
        let remote = remote.clone();
        tokio::spawn(async move {
            remote
                .execute(ExecuteRequest {
                    code: "async () => { const end = Date.now() + 800; while (Date.now() < end) {} return 1 }".into(),
                    ..ExecuteRequest::default()
                })
                .await
        })
    };
    assert!(
        busy_workers_reach(&admin, 1.0).await,
        "the spinning run never held the worker"
    );
    // SAFETY: kill sends a signal to the child this test started; no memory is involved.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let started = Instant::now();
    let (status, reason) = loop {
        let (status, reason) = admin_get(&admin, "/readyz").await;
        if status != 200 || started.elapsed() > Duration::from_secs(2) {
            break (status, reason);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    assert_eq!(status, 503, "{reason}");
    assert!(reason.contains("shutting down"), "{reason}");
    assert_eq!(admin_get(&admin, "/healthz").await.0, 200);
    let outcome = spinning.await.unwrap().expect("the in-flight run finishes");
    assert_eq!(outcome.result, JsValue::Number(1.0));
    let exit = tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(exit.success(), "{exit:?}");
}

/// A CA and a certificate for `127.0.0.1` and `localhost` signed by it, as PEM files in
/// `dir`: (`ca.pem`, `cert.pem`, `key.pem`).
fn certificates(
    dir: &std::path::Path,
    name: &str,
) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    // Names of their own: a certificate whose issuer's name is its own reads as self-signed.
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "codemode test CA");
    let ca_key = KeyPair::generate().unwrap();
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let leaf_key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])
        .unwrap()
        .signed_by(&leaf_key, &ca, &ca_key)
        .unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let files = (
        dir.join(format!("{name}-ca.pem")),
        dir.join(format!("{name}-cert.pem")),
        dir.join(format!("{name}-key.pem")),
    );
    std::fs::write(&files.0, ca.pem()).unwrap();
    std::fs::write(&files.1, leaf.pem()).unwrap();
    std::fs::write(&files.2, leaf_key.serialize_pem()).unwrap();
    files
}

/// TLS on both ends, with certificates the test makes: a `wss://` client trusting the daemon's
/// CA runs; one trusting another CA is refused with a sentence naming its CA file; a `ws://`
/// client on the TLS port fails (its upgrade is not a TLS handshake) and runs nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_tls_the_daemons_ca_is_trusted_and_another_ca_is_refused() {
    let dir = std::env::temp_dir().join(format!("tls-loopback-{}", std::process::id()));
    let (ca, cert, key) = certificates(&dir, "daemon");
    let (other_ca, _, _) = certificates(&dir, "other");
    let tls = codemode_executor::remote::tls::server_config(&cert, &key).unwrap();
    let daemon = Daemon::start(ServerOptions {
        tls: Some(tls),
        ..quiet()
    })
    .await;
    let url = format!("wss://{}", daemon.address);
    let trusting = |ca_file: &std::path::Path| ConnectOptions {
        ca_file: Some(ca_file.to_path_buf()),
        reconnect: false,
        ..ConnectOptions::default()
    };
    let remote = connect(&url, trusting(&ca)).await;
    let outcome = remote
        .execute(ExecuteRequest {
            code: "async () => 2".into(),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(outcome.result, JsValue::Number(2.0));
    remote.dispose().await;

    let error = RemoteExecutor::connect(&url, trusting(&other_ca))
        .await
        .err()
        .expect("another CA is refused");
    assert_eq!(error.code(), Some(codes::CONNECTION_REJECTED));
    assert_eq!(
        error.to_string(),
        format!("Failed to open WebSocket to {url}")
    );
    let cause = error.cause().unwrap_or_default();
    assert!(
        cause.starts_with("the daemon's TLS certificate was refused (")
            && cause.contains(&format!(
                "it must be signed by the CA file {} and name the URL's host",
                other_ca.display()
            )),
        "{cause}"
    );
    let plain = RemoteExecutor::connect(&format!("ws://{}", daemon.address), trusting(&ca)).await;
    assert_eq!(
        plain
            .err()
            .and_then(|e| e.code().map(str::to_string))
            .as_deref(),
        Some(codes::CONNECTION_REJECTED)
    );
    stats_until(&daemon, "both refused handshakes counted", |s| {
        s.connections_failed_handshake == 2
    })
    .await;
    assert_eq!(daemon.server.stats().executions_answered, 1);
    daemon.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
