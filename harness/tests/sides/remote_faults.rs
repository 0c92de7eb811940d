//! The remote executor's failure modes, on the real daemon binary and real sockets: a daemon
//! killed mid-run, rotation with a call in flight, a reopen after a break shared by 50 callers,
//! a server of another protocol version, a wrong token, and peers that send garbage. Every
//! process started here leads its own process group and is stopped by id, also when a test
//! fails (the daemons' and servers' guards stop their groups as they drop).

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use crate::support::children;
use crate::support::remote::{JsServer, Proxy, daemon_binary, start_daemon};
use codemode_compat::sides::process::{group_alive, install_exit_guards};
use codemode_compat::sides::remote::daemon::Daemon;
use codemode_executor::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, JsValue, ProviderDescriptor, ToolCall,
};
use codemode_executor::remote::{ConnectOptions, RemoteExecutor};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{Notify, Semaphore};

fn runtime() -> tokio::runtime::Runtime {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async { install_exit_guards(false) });
    runtime
}

fn options(daemon: &Daemon) -> ConnectOptions {
    ConnectOptions {
        headers: vec![("Authorization".into(), format!("Bearer {}", daemon.token))],
        backoff: Duration::from_millis(50),
        ..ConnectOptions::default()
    }
}

/// A `codemode.wait()` tool: says it started, then answers `1` once released.
#[derive(Clone)]
struct Gate {
    started: Arc<Notify>,
    release: Arc<Semaphore>,
}

impl Default for Gate {
    fn default() -> Self {
        Gate {
            started: Arc::default(),
            release: Arc::new(Semaphore::new(0)),
        }
    }
}

impl Dispatch for Gate {
    fn dispatch(&self, _call: ToolCall) -> BoxFuture<'static, Envelope> {
        let gate = self.clone();
        Box::pin(async move {
            gate.started.notify_one();
            let _ = gate.release.acquire().await.map(|p| p.forget());
            Envelope::Result(JsValue::Number(1.0))
        })
    }
}

fn waiting(gate: &Gate) -> ExecuteRequest {
    ExecuteRequest {
        code: "async () => await codemode.wait()".into(),
        providers: vec![ProviderDescriptor {
            name: "codemode".into(),
            tools: vec!["wait".into()],
            ..ProviderDescriptor::default()
        }],
        dispatch: Some(Arc::new(gate.clone())),
        ..ExecuteRequest::default()
    }
}

fn trivial() -> ExecuteRequest {
    ExecuteRequest {
        code: "async () => 1 + 1".into(),
        ..ExecuteRequest::default()
    }
}

fn is_two(outcome: &codemode_executor::protocol::Outcome) -> bool {
    outcome.error.is_none() && matches!(outcome.result, JsValue::Number(n) if n == 2.0)
}

#[test]
fn a_daemon_killed_mid_run_breaks_that_run_and_the_next_runs_on_its_restart() {
    runtime().block_on(async {
        let mut daemon = start_daemon(&[]).await;
        let address = daemon.address().to_string();
        let remote = RemoteExecutor::connect(&daemon.url, options(&daemon))
            .await
            .expect("connects");
        let gate = Gate::default();
        let run = remote.execute(waiting(&gate));
        let kill = async {
            gate.started.notified().await;
            // SAFETY: killing the process group this test started.
            unsafe { libc::kill(-daemon.pgid(), libc::SIGKILL) };
        };
        let (broken, ()) = tokio::join!(run, kill);
        let error = broken.expect_err("a run whose daemon died fails");
        assert_eq!(error.code(), Some("CONNECTION_BROKEN"), "{error}");
        assert!(error.retryable(), "{error}");
        assert_eq!(
            error.to_string(),
            "Executor connection broke during execution"
        );
        assert!(!group_alive(daemon.pgid()) || daemon.exited().is_some());
        daemon.stop().await;

        // The same port, the same token: the next call reopens the session and runs.
        let mut restarted = Daemon::start(&daemon_binary(), &address, &daemon.token, &[])
            .await
            .expect("the daemon restarts on the same port");
        let outcome = remote
            .execute(trivial())
            .await
            .expect("runs after the restart");
        assert!(is_two(&outcome), "{outcome:?}");
        remote.dispose().await;
        let closed = remote.execute(trivial()).await.expect_err("closed");
        assert_eq!(closed.to_string(), "RemoteExecutor is closed");
        assert_eq!(closed.code(), Some("CONNECTION_BROKEN"));
        restarted.stop().await;
    });
}

#[test]
fn rotation_lets_the_call_in_flight_finish_on_the_retired_session() {
    runtime().block_on(async {
        let mut daemon = start_daemon(&[]).await;
        let proxy = Proxy::start(daemon.address()).await;
        let remote = RemoteExecutor::connect(
            &proxy.url(),
            ConnectOptions {
                rotate_after_executions: Some(1),
                ..options(&daemon)
            },
        )
        .await
        .expect("connects");
        let gate = Gate::default();
        let in_flight = remote.execute(waiting(&gate));
        let others = async {
            gate.started.notified().await;
            // This one settles first: the count reaches 1 and the session retires while the
            // first call still runs on it; the next call opens a fresh session.
            let second = remote.execute(trivial()).await.expect("runs");
            let third = remote
                .execute(trivial())
                .await
                .expect("runs on a fresh session");
            gate.release.add_permits(1);
            (second, third)
        };
        let (first, (second, third)) = tokio::join!(in_flight, others);
        let first = first.expect("the call in flight finishes on the retired session");
        assert!(
            matches!(first.result, JsValue::Number(n) if n == 1.0),
            "{first:?}"
        );
        assert!(is_two(&second) && is_two(&third));
        assert!(
            proxy.accepted() == 2,
            "rotation opened a fresh session: {} connections",
            proxy.accepted()
        );
        remote.dispose().await;
        daemon.stop().await;
    });
}

#[test]
fn fifty_concurrent_executes_after_a_break_open_one_socket() {
    runtime().block_on(async {
        let mut daemon = start_daemon(&["--max-concurrent", "64"]).await;
        let proxy = Proxy::start(daemon.address()).await;
        let remote = RemoteExecutor::connect(&proxy.url(), options(&daemon))
            .await
            .expect("connects");
        assert!(is_two(&remote.execute(trivial()).await.expect("runs")));
        assert_eq!(proxy.accepted(), 1);
        proxy.cut_all();
        // Let the client see the socket close (its broken signal).
        tokio::time::sleep(Duration::from_millis(300)).await;
        let outcomes = futures::future::join_all((0..50).map(|_| remote.execute(trivial()))).await;
        for outcome in &outcomes {
            let outcome = outcome.as_ref().expect("every call after the break runs");
            assert!(is_two(outcome), "{outcome:?}");
        }
        assert_eq!(
            proxy.accepted(),
            2,
            "the 50 callers after the break shared one reopen"
        );
        remote.dispose().await;
        daemon.stop().await;
    });
}

#[test]
fn a_server_of_another_protocol_version_is_refused_once() {
    runtime().block_on(async {
        let mut server = JsServer::start(&["--version", "2"]).await;
        let error = RemoteExecutor::connect(&server.url, ConnectOptions::default())
            .await
            .err()
            .expect("a v2 server is refused");
        assert_eq!(error.code(), Some("PROTOCOL_MISMATCH"), "{error}");
        assert_eq!(
            error.to_string(),
            "Executor protocol mismatch: client speaks v1, server speaks v2"
        );
        assert!(!error.retryable());
        tokio::time::sleep(Duration::from_millis(100)).await;
        let connections = server.process.output_tail().matches("connection ").count();
        assert_eq!(connections, 1, "a mismatch is never retried");
        server.process.stop().await;
    });
}

#[test]
fn a_wrong_token_is_rejected_and_nothing_runs() {
    runtime().block_on(async {
        let mut daemon = start_daemon(&[]).await;
        for headers in [
            vec![("Authorization".to_string(), "Bearer wrong".to_string())],
            Vec::new(),
        ] {
            let error = RemoteExecutor::connect(
                &daemon.url,
                ConnectOptions {
                    headers,
                    ..ConnectOptions::default()
                },
            )
            .await
            .err()
            .expect("refused");
            assert_eq!(error.code(), Some("CONNECTION_REJECTED"), "{error}");
            assert!(
                error
                    .to_string()
                    .starts_with(&format!("Failed to open WebSocket to {}", daemon.url)),
                "{error}"
            );
        }
        daemon.stop().await;
    });
}

#[test]
fn peers_that_send_garbage_are_refused_and_the_daemon_serves_on() {
    runtime().block_on(async {
        // A server that answers the upgrade, then sends text that is not Cap'n Web.
        let mut server = JsServer::start(&["--garbage"]).await;
        let error = RemoteExecutor::connect(&server.url, ConnectOptions::default())
            .await
            .err()
            .expect("a garbage server is refused");
        assert_eq!(error.code(), Some("CONNECTION_REJECTED"), "{error}");
        server.process.stop().await;

        // A client that sends the daemon bytes that are not HTTP, then one that is not a
        // WebSocket upgrade: each is dropped, and the daemon keeps serving.
        let mut daemon = start_daemon(&[]).await;
        for junk in [
            &b"\x00\x01\x02 not http at all\r\n\r\n"[..],
            &b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"[..],
        ] {
            let mut socket = tokio::net::TcpStream::connect(daemon.address())
                .await
                .unwrap();
            socket.write_all(junk).await.unwrap();
            let mut answer = Vec::new();
            let _ = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut answer))
                .await
                .expect("the daemon closes a garbage connection");
        }
        let remote = RemoteExecutor::connect(&daemon.url, options(&daemon))
            .await
            .expect("connects after the garbage");
        assert!(is_two(&remote.execute(trivial()).await.expect("runs")));
        assert!(daemon.exited().is_none(), "the daemon survived the garbage");
        remote.dispose().await;
        daemon.stop().await;
    });
}

/// The harness started on the `remote` column, then signalled once its daemon runs: the
/// daemon's process group is gone after SIGINT (the exit guard) and after SIGKILL (the
/// kernel's parent-death signal).
#[test]
fn an_interrupted_or_killed_harness_leaves_no_daemon_behind() {
    for signal in [libc::SIGINT, libc::SIGKILL] {
        let out = support::scratch("remote-signal");
        // One case that keeps the daemon busy for a while.
        std::fs::write(
            out.join("slow.yaml"),
            "- id: slow/sleep\n  code: async () => { await new Promise((r) => setTimeout(r, 3000)); return 1; }\n  options:\n    timeout_ms: 20000\n  expect:\n    result: 1\n",
        )
        .unwrap();
        let mut harness = std::process::Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
            .args(["--root", support::root().to_str().unwrap(), "matrix"])
            .args(["--columns", "remote", "--cases"])
            .arg(&out)
            .arg("--out")
            .arg(out.join("out"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let groups = loop {
            // The daemon leads its own group; cargo (building it) does not.
            let daemons: Vec<i32> = children(harness.id())
                .into_iter()
                .filter(|pid| {
                    std::fs::read_to_string(format!("/proc/{pid}/cmdline"))
                        .is_ok_and(|cmd| cmd.contains("serve"))
                })
                .collect();
            if !daemons.is_empty() {
                break daemons;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "the daemon never started"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(groups.iter().all(|g| group_alive(*g)));
        // SAFETY: signalling the child this test spawned.
        unsafe { libc::kill(harness.id() as i32, signal) };
        let status = harness.wait().unwrap();
        assert!(!status.success(), "a signalled run does not report success");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while groups.iter().any(|g| group_alive(*g)) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let left: Vec<_> = groups.iter().filter(|g| group_alive(**g)).collect();
        assert!(
            left.is_empty(),
            "daemon groups {left:?} outlived the harness ({signal})"
        );
        let _ = std::fs::remove_dir_all(&out);
    }
}
