//! How the daemon shares its workers, measured on the release daemon binary over loopback
//! (`serve --pool 2` with a token), in three scenarios:
//! - **abandoned**: ten connections each send a spinning run bounded at 5 s and go away at
//!   once; then a new connection's trivial run: how long it waits;
//! - **flood**: one connection keeps 32 runs of one second (spinning) in flight; a second
//!   connection's trivial run: how long it waits;
//! - **alone**: one connection's throughput, in runs per second, with one run in flight at a
//!   time and with 64.
//!
//! Each scenario starts a fresh daemon. With `SHARING_BASELINE=/path/to/another/daemon` the
//! same scenarios also run on that binary (an older build, say), daemon by daemon in turn,
//! and the throughput rounds alternate between the two, so both see the same machine.
//!
//! Run with `cargo bench -p codemode-executor --bench sharing`; `SHARING_ROUNDS=N` sets the
//! throughput rounds (default 6, each 2 s of sequential runs and 20 batches of 64).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bench_support::daemon::DaemonProcess;
use codemode_executor::protocol::{ExecuteRequest, Executor, JsValue, Timeout};
use codemode_executor::remote::RemoteExecutor;
use futures::SinkExt;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const TOKEN: &str = "sharing-bench-token";
const WORKERS: usize = 2;

/// A daemon process, killed when dropped.
struct Daemon(DaemonProcess);

impl Daemon {
    fn start(binary: &Path) -> Daemon {
        Daemon(DaemonProcess::start(
            binary,
            TOKEN,
            &["--pool".into(), WORKERS.to_string()],
        ))
    }

    fn url(&self) -> String {
        self.0.url()
    }

    async fn connect(&self) -> RemoteExecutor {
        RemoteExecutor::connect(&self.url(), self.0.options())
            .await
            .expect("connects")
    }
}

fn request(code: &str, timeout_ms: u64) -> ExecuteRequest {
    ExecuteRequest {
        code: code.into(),
        timeout: Some(Timeout::Millis(timeout_ms)),
        ..ExecuteRequest::default()
    }
}

/// How long a trivial run takes on `remote`.
async fn trivial(remote: &RemoteExecutor) -> Duration {
    let started = Instant::now();
    let outcome = remote
        .execute(request("async () => 2", 60_000))
        .await
        .expect("the trivial run answers");
    assert_eq!(outcome.result, JsValue::Number(2.0));
    started.elapsed()
}

async fn abandoned(daemon: &Daemon) -> Duration {
    for _ in 0..10 {
        let mut call = daemon.url().into_client_request().unwrap();
        call.headers_mut()
            .insert("authorization", format!("Bearer {TOKEN}").parse().unwrap());
        let (mut socket, _) = tokio_tungstenite::connect_async(call).await.unwrap();
        let run = serde_json::json!({"code": "async () => { while (true) {} }", "timeout": 5000});
        let push = serde_json::json!(["push", ["pipeline", 0, ["execute"], [run]]]);
        socket.send(Message::text(push.to_string())).await.unwrap();
        socket.send(Message::text(r#"["pull",1]"#)).await.unwrap();
        drop(socket);
    }
    // The daemon reads the ten calls and sees the ten sockets go.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let remote = daemon.connect().await;
    let waited = trivial(&remote).await;
    remote.dispose().await;
    waited
}

async fn flood(daemon: &Daemon) -> Duration {
    let flood = std::sync::Arc::new(daemon.connect().await);
    let second =
        "async () => { const end = Date.now() + 1000; while (Date.now() < end) {} return 1 }";
    let runs: Vec<_> = (0..32)
        .map(|_| {
            let flood = flood.clone();
            tokio::spawn(async move { flood.execute(request(second, 60_000)).await })
        })
        .collect();
    // The 32 calls reach the daemon, two start, thirty wait.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let light = daemon.connect().await;
    let waited = trivial(&light).await;
    light.dispose().await;
    for run in runs {
        run.abort();
    }
    while std::sync::Arc::strong_count(&flood) > 1 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    if let Some(flood) = std::sync::Arc::into_inner(flood) {
        flood.dispose().await;
    }
    waited
}

/// Runs per second over one connection: sequential for `for_time`, then `batches` batches of
/// 64 at once.
async fn alone(remote: &RemoteExecutor, for_time: Duration, batches: usize) -> (f64, f64) {
    let started = Instant::now();
    let mut runs = 0;
    while started.elapsed() < for_time {
        trivial(remote).await;
        runs += 1;
    }
    let sequential = runs as f64 / started.elapsed().as_secs_f64();
    let started = Instant::now();
    for _ in 0..batches {
        futures::future::join_all((0..64).map(|_| trivial(remote))).await;
    }
    let concurrent = (batches * 64) as f64 / started.elapsed().as_secs_f64();
    (sequential, concurrent)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let current = PathBuf::from(env!("CARGO_BIN_EXE_codemode-executor"));
    let mut daemons = vec![("this build", current)];
    if let Some(baseline) = std::env::var_os("SHARING_BASELINE") {
        daemons.insert(0, ("baseline", PathBuf::from(baseline)));
    }
    let rounds: usize = std::env::var("SHARING_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        for (name, binary) in &daemons {
            println!("{name}: {}", binary.display());
            let daemon = Daemon::start(binary);
            let waited = abandoned(&daemon).await;
            println!("  abandoned: after ten dropped 5 s spins, a trivial run waited {waited:.2?}");
            drop(daemon);
            let daemon = Daemon::start(binary);
            let waited = flood(&daemon).await;
            println!("  flood: beside 32 in-flight 1 s runs, a trivial run waited {waited:.2?}");
            drop(daemon);
        }
        let started: Vec<Daemon> = daemons.iter().map(|(_, b)| Daemon::start(b)).collect();
        let mut remotes = Vec::new();
        for daemon in &started {
            let remote = daemon.connect().await;
            // Warm-up: every worker prepared its sandboxes.
            alone(&remote, Duration::from_millis(300), 2).await;
            remotes.push(remote);
        }
        let mut figures = vec![(Vec::new(), Vec::new()); remotes.len()];
        for _ in 0..rounds {
            for (remote, (sequential, concurrent)) in remotes.iter().zip(&mut figures) {
                let (s, c) = alone(remote, Duration::from_secs(2), 20).await;
                sequential.push(s);
                concurrent.push(c);
            }
        }
        println!("alone: one connection's trivial runs/s, median of {rounds} alternating rounds");
        for ((name, _), (sequential, concurrent)) in daemons.iter().zip(figures) {
            println!(
                "  {name:<10} one in flight {:>7.0} runs/s   64 in flight {:>7.0} runs/s",
                median(sequential),
                median(concurrent)
            );
        }
        for remote in remotes {
            remote.dispose().await;
        }
    });
}
