//! What the remote executor's tests share: the daemon binary, the npm `capnweb` peers of
//! `interop/` under the reference toolchain's Node, and a TCP proxy that counts connections.
//! Every process started here leads its own process group and is stopped by id.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode_compat::sides::process::Supervised;
use codemode_compat::sides::reference::{ensure_installed, install_from_lockfile};
use codemode_compat::sides::remote::daemon::{self, Daemon};
use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use super::root;

/// The daemon binary, built if needed.
pub fn daemon_binary() -> PathBuf {
    daemon::locate().expect("the executor daemon binary")
}

/// A daemon on a free loopback port with a fresh token.
pub async fn start_daemon(args: &[&str]) -> Daemon {
    let token = daemon::fresh_token().unwrap();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    Daemon::start(&daemon_binary(), "127.0.0.1:0", &token, &args)
        .await
        .expect("the daemon starts")
}

/// The reference toolchain's Node (>= 22, which capnweb needs for its global WebSocket) and
/// the `interop/` package, installed from its lockfile.
pub fn node_and_interop() -> (PathBuf, PathBuf) {
    let toolchain = ensure_installed(&root()).expect("the reference toolchain installs");
    let interop = root().join("interop");
    install_from_lockfile(&interop).expect("interop/ installs from its lockfile");
    (toolchain.node, interop)
}

/// Runs one scenario of `interop/client.mjs` against `url` and returns what it observed.
pub async fn js_client(url: &str, token_file: Option<&Path>, scenario: &str) -> Value {
    js_client_with(url, token_file, scenario, &[]).await
}

/// [`js_client`] with these environment variables set for Node (`NODE_EXTRA_CA_CERTS`).
pub async fn js_client_with(
    url: &str,
    token_file: Option<&Path>,
    scenario: &str,
    env: &[(&str, &Path)],
) -> Value {
    let (node, interop) = node_and_interop();
    let mut command = tokio::process::Command::new(node);
    for (name, value) in env {
        command.env(name, value);
    }
    command
        .arg(interop.join("client.mjs"))
        .arg(url)
        .arg(token_file.map_or("-".into(), |f| f.display().to_string()))
        .arg(scenario)
        .current_dir(&interop)
        .process_group(0)
        .kill_on_drop(true);
    let output = tokio::time::timeout(Duration::from_secs(30), command.output())
        .await
        .expect("the JS client ends within 30 s")
        .expect("the JS client runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "the JS client printed no JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// `interop/server.mjs`, a Cap'n Web executor server written with the npm `capnweb`.
pub struct JsServer {
    pub process: Supervised,
    pub url: String,
}

impl JsServer {
    /// Starts it with these flags (`--version 2`, `--garbage`, `--token T`) and waits for its
    /// ready line.
    pub async fn start(args: &[&str]) -> JsServer {
        let (node, interop) = node_and_interop();
        let mut command = tokio::process::Command::new(node);
        command
            .arg(interop.join("server.mjs"))
            .args(args)
            .current_dir(&interop);
        let mut process = Supervised::spawn(command).expect("the JS server starts");
        let started = Instant::now();
        loop {
            if let Some(url) =
                process.find_line(|line| line.strip_prefix("listening on ").map(str::to_string))
            {
                return JsServer { process, url };
            }
            assert!(
                process.exited().is_none() && started.elapsed() < Duration::from_secs(20),
                "the JS server did not get ready:\n{}",
                process.output_tail()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A loopback TCP proxy in front of an address: counts the connections it accepts, and can
/// cut every connection it carries (a break the client sees while the server stays up).
pub struct Proxy {
    pub address: SocketAddr,
    accepted: Arc<AtomicUsize>,
    cut: Arc<Notify>,
    generation: Arc<AtomicUsize>,
}

impl Proxy {
    pub async fn start(upstream: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let cut = Arc::new(Notify::new());
        let generation = Arc::new(AtomicUsize::new(0));
        let upstream = upstream.to_string();
        let (counter, notify, generations) = (accepted.clone(), cut.clone(), generation.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                let upstream = upstream.clone();
                let notify = notify.clone();
                let born = generations.load(Ordering::SeqCst);
                let generations = generations.clone();
                tokio::spawn(async move {
                    let Ok(mut server) = TcpStream::connect(&upstream).await else {
                        return;
                    };
                    loop {
                        if generations.load(Ordering::SeqCst) != born {
                            return;
                        }
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut client, &mut server) => return,
                            _ = notify.notified() => {}
                        }
                    }
                });
            }
        });
        Proxy {
            address,
            accepted,
            cut,
            generation,
        }
    }

    /// `ws://` URL of the proxy.
    pub fn url(&self) -> String {
        format!("ws://{}", self.address)
    }

    /// Connections accepted so far.
    pub fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }

    /// Drops every connection the proxy carries now (both sides see the socket close).
    pub fn cut_all(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.cut.notify_waiters();
    }
}
