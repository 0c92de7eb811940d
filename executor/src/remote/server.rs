//! The daemon side: [`ExecutorServer`] serves any [`Executor`] to Cap'n Web clients.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use subtle::ConstantTimeEq;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;

use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use super::contract::{self, PROTOCOL_VERSION};
use super::outbound::RemoteOutbound;
pub use super::stats::ServerStats;
use super::wire::{
    CallError, RemoteStub, Session, SessionOptions, Stub, Target, WireValue, websocket_config,
};
use crate::Error;
use crate::error::codes;
use crate::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, Outbound, Outcome, Reply, RunError,
    Share, ToolCall,
};

/// How an [`ExecutorServer`] is bounded and how it shares its executor.
///
/// Every field has a default ([`ServerOptions::default`]); set the ones you need with
/// `ServerOptions { token: Some(t), ..ServerOptions::default() }`. The sharing policy
/// (see [`ExecutorServer`]): each connection is a share of the executor
/// ([`Executor::execute_in_share`]), whose queue serves the shares in turn; one connection has at most
/// [`max_concurrent_executions`](Self::max_concurrent_executions) runs in flight (running or
/// waiting) and the daemon at most [`max_queued_executions`](Self::max_queued_executions)
/// waiting; past either bound a run is refused at once with `TOO_MANY_EXECUTIONS` and a
/// sentence naming the bound.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// When set, every WebSocket upgrade must carry `Authorization: Bearer <token>`;
    /// otherwise it is answered HTTP 401 and nothing runs.
    pub token: Option<String>,
    /// The largest incoming message. Default: 32 MiB (Cap'n Web's own default).
    pub max_message_bytes: usize,
    /// Connections served at once; one more is answered HTTP 503. Default: 256.
    pub max_connections: usize,
    /// Executions one connection may have in flight (running or waiting for a worker); one
    /// more is refused with `TOO_MANY_EXECUTIONS`. Default: 64.
    pub max_concurrent_executions: usize,
    /// The executor's worker count (`IsolateOptions::workers`): how many executions run at
    /// once, the rest of those in flight waiting in the executor's queue. The daemon's queue
    /// bound counts past it, and [`ServerStats`] splits the executions in flight into running
    /// and queued by it. Default: the available parallelism (the default worker count).
    pub max_running_executions: usize,
    /// Executions waiting for a place across the whole daemon; one more is refused with
    /// `TOO_MANY_EXECUTIONS`. Default: 1024.
    pub max_queued_executions: usize,
    /// After shutdown is asked for: how long in-flight executions may still run before
    /// every connection is closed. Default: 10 s.
    pub grace_period: Duration,
    /// How long a client may take to complete the TLS handshake and the WebSocket upgrade.
    /// Default: 10 s.
    pub handshake_timeout: Duration,
    /// With a configuration (see [`tls::server_config`](super::tls::server_config)), every
    /// connection speaks TLS first (`wss://`); a failed TLS handshake counts as a failed
    /// handshake. Default: `None` (`ws://`).
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Emit `tracing` events: one per connection (when it ends, with what it ran and why it
    /// closed), one per refusal and one per execution (at `debug`); program text and tool
    /// data are never logged. Default: `true`.
    pub log: bool,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            token: None,
            max_message_bytes: 32 << 20,
            max_connections: 256,
            max_concurrent_executions: 64,
            max_running_executions: std::thread::available_parallelism()
                .map(usize::from)
                .unwrap_or(1),
            max_queued_executions: 1024,
            grace_period: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(10),
            tls: None,
            log: true,
        }
    }
}

/// The server's running counts (what [`ServerStats`] reads).
#[derive(Default)]
struct Counters {
    connections_accepted: AtomicU64,
    refused_unauthorized: AtomicU64,
    refused_over_capacity: AtomicU64,
    failed_handshake: AtomicU64,
    answered: AtomicU64,
    returned: AtomicU64,
    threw: AtomicU64,
    timed_out: AtomicU64,
    out_of_memory: AtomicU64,
    failed: AtomicU64,
    tool_calls: AtomicU64,
    cancelled_queued: AtomicU64,
    cancelled_running: AtomicU64,
    refused_connection_bound: AtomicU64,
    refused_queue_bound: AtomicU64,
    refused_shutting_down: AtomicU64,
}

impl Counters {
    /// Counts an answered execution under its outcome.
    fn outcome(&self, kind: &str) {
        bump(match kind {
            "returned" => &self.returned,
            "threw" => &self.threw,
            "timed_out" => &self.timed_out,
            "out_of_memory" => &self.out_of_memory,
            _ => &self.failed,
        });
    }
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

fn read(counter: &AtomicU64) -> u64 {
    counter.load(Ordering::Relaxed)
}

/// Why listening on `address` is refused, when it is: a daemon reachable beyond this
/// machine (any address but loopback) with no token runs anyone's code. `open_door` is the
/// explicit opt-out (the daemon's `--insecure-no-token`).
pub fn exposure_refusal(address: SocketAddr, has_token: bool, open_door: bool) -> Option<String> {
    if has_token || open_door || address.ip().is_loopback() {
        return None;
    }
    Some(format!(
        "refusing to listen on {address} without a token: anyone who can reach it could run code. \
         Give a token with --token-file FILE (a file holding a long random secret, readable by the \
         daemon's user only), listen on loopback (127.0.0.1), or pass --insecure-no-token to serve \
         an open door on purpose"
    ))
}

/// An [`Executor`] behind a box, so the server need not be generic.
trait DynExecutor: Send + Sync {
    fn execute(
        &self,
        request: ExecuteRequest,
        share: Share,
    ) -> BoxFuture<'_, Result<Outcome, Error>>;
}

impl<E: Executor> DynExecutor for E {
    fn execute(
        &self,
        request: ExecuteRequest,
        share: Share,
    ) -> BoxFuture<'_, Result<Outcome, Error>> {
        Box::pin(Executor::execute_in_share(self, request, share))
    }
}

/// Serves an [`Executor`] over Cap'n Web: the main object answers `protocolVersion()` with
/// [`PROTOCOL_VERSION`] and runs `execute(request, dispatch, outbound)`.
///
/// Guarantees: a refused upgrade (wrong token, too many connections) runs nothing and is
/// answered with an HTTP status and a sentence. The executor is shared fairly: every run is
/// handed to it at once in its connection's share ([`Executor::execute_in_share`]); the
/// isolate executor's queue gives a freed worker to the waiting connection that runs the
/// fewest, so a connection's run waits at most for the next free worker, never behind another
/// connection's queue, while a connection alone still gets every worker (with no hand-off
/// between two queues slowing it). Queues are bounded
/// per connection and across the daemon, and a run past a bound is refused at once with a
/// sentence naming it. A run belongs to its connection: when the connection ends, however it
/// ends (close, reset, the peer's abort, a protocol error, shutdown), its waiting runs leave
/// the queue, its running ones are cancelled through the executor (the isolate executor
/// interrupts them within milliseconds), and the stubs they received are released; the
/// connection's log line counts them. On shutdown the listener is dropped first, in-flight
/// executions get the grace period, then every connection is closed.
pub struct ExecutorServer {
    inner: Arc<ServerInner>,
}

struct ServerInner {
    executor: Arc<dyn DynExecutor>,
    options: ServerOptions,
    counters: Counters,
    /// How long answered executions ran.
    durations: Histogram,
    connections: AtomicUsize,
    next_connection: AtomicU64,
    /// Executions accepted and not yet answered or cancelled (queued or running).
    in_flight: AtomicUsize,
    settled: Notify,
    draining: AtomicBool,
}

impl ExecutorServer {
    /// A server for `executor`.
    pub fn new(executor: impl Executor + 'static, options: ServerOptions) -> ExecutorServer {
        ExecutorServer {
            inner: Arc::new(ServerInner {
                executor: Arc::new(executor),
                options,
                counters: Counters::default(),
                durations: super::metrics::run_durations(),
                connections: AtomicUsize::new(0),
                next_connection: AtomicU64::new(1),
                in_flight: AtomicUsize::new(0),
                settled: Notify::new(),
                draining: AtomicBool::new(false),
            }),
        }
    }

    /// What the server holds now and has done since it was made.
    pub fn stats(&self) -> ServerStats {
        let inner = &self.inner;
        let c = &inner.counters;
        let in_flight = inner.in_flight.load(Ordering::SeqCst);
        let running = in_flight.min(inner.options.max_running_executions);
        ServerStats {
            connections_open: inner.connections.load(Ordering::SeqCst),
            connections_accepted: read(&c.connections_accepted),
            connections_refused_unauthorized: read(&c.refused_unauthorized),
            connections_refused_over_capacity: read(&c.refused_over_capacity),
            connections_failed_handshake: read(&c.failed_handshake),
            executions_running: running,
            executions_queued: in_flight - running,
            executions_answered: read(&c.answered),
            executions_returned: read(&c.returned),
            executions_threw: read(&c.threw),
            executions_timed_out: read(&c.timed_out),
            executions_out_of_memory: read(&c.out_of_memory),
            executions_failed: read(&c.failed),
            tool_calls: read(&c.tool_calls),
            executions_cancelled_queued: read(&c.cancelled_queued),
            executions_cancelled_running: read(&c.cancelled_running),
            executions_refused_connection_bound: read(&c.refused_connection_bound),
            executions_refused_queue_bound: read(&c.refused_queue_bound),
            executions_refused_shutting_down: read(&c.refused_shutting_down),
        }
    }

    /// Whether the daemon takes new work: `Err` with the reason while it drains (shutdown was
    /// asked for) or while it is saturated (a new connection, or a new run, would be refused
    /// at once: its connections or its queue are at their bound).
    pub fn readiness(&self) -> Result<(), String> {
        let inner = &self.inner;
        let options = &inner.options;
        if inner.draining.load(Ordering::SeqCst) {
            return Err(
                "not ready: the daemon is shutting down and accepts no new executions".into(),
            );
        }
        if inner.connections.load(Ordering::SeqCst) >= options.max_connections {
            return Err(format!(
                "not ready: the daemon serves its maximum of {} connections",
                options.max_connections
            ));
        }
        let stats = self.stats();
        if stats.executions_queued >= options.max_queued_executions {
            return Err(format!(
                "not ready: the daemon queues its maximum of {} executions",
                options.max_queued_executions
            ));
        }
        Ok(())
    }

    /// Registers the server's metrics into `registry` as they are now (see
    /// `remote::metrics`): connections, executions by outcome, cancelled, running and queued,
    /// refusals by reason, tool calls and the execution duration histogram.
    pub fn register_metrics(&self, registry: &mut Registry) {
        super::metrics::register(registry, &self.stats(), &self.inner.durations);
    }

    /// Accepts connections on `listener` until `shutdown` completes, then lets in-flight
    /// executions finish within the grace period, closes every connection and returns.
    pub async fn serve(&self, listener: TcpListener, shutdown: impl Future<Output = ()>) {
        let inner = &self.inner;
        let (close_all, close_rx) = watch::channel(false);
        let mut tasks = JoinSet::new();
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                _ = &mut shutdown => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, peer)) => {
                        let _ = stream.set_nodelay(true);
                        tasks.spawn(inner.clone().connection(stream, peer, close_rx.clone()));
                    }
                    Err(error) => {
                        if inner.options.log {
                            tracing::warn!(%error, "accepting a connection failed");
                        }
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            }
        }
        drop(listener);
        inner.draining.store(true, Ordering::SeqCst);
        let in_flight = inner.in_flight.load(Ordering::SeqCst);
        if inner.options.log {
            tracing::info!(
                in_flight,
                grace_ms = inner.options.grace_period.as_millis() as u64,
                "shutting down: no new connections; the executions in flight get the grace period"
            );
        }
        let drained = tokio::time::timeout(inner.options.grace_period, async {
            loop {
                let notified = inner.settled.notified();
                if inner.in_flight.load(Ordering::SeqCst) == 0 {
                    return;
                }
                notified.await;
            }
        })
        .await;
        if drained.is_ok() {
            // The last runs have answered, but their answers may not be on their sockets yet
            // (a session sends a call's answer after its future completes): a moment for them
            // before every connection closes.
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        if drained.is_err() && inner.options.log {
            tracing::warn!(
                in_flight = inner.in_flight.load(Ordering::SeqCst),
                "the grace period ended with executions still in flight; closing every connection"
            );
        }
        let _ = close_all.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            while tasks.join_next().await.is_some() {}
        })
        .await;
        tasks.abort_all();
    }
}

impl ServerInner {
    /// Serves one accepted TCP connection: its TLS handshake (with a TLS configuration),
    /// then its WebSocket upgrade and session.
    async fn connection(
        self: Arc<Self>,
        stream: TcpStream,
        peer: SocketAddr,
        close_all: watch::Receiver<bool>,
    ) {
        let id = self.next_connection.fetch_add(1, Ordering::SeqCst);
        let open = self.connections.fetch_add(1, Ordering::SeqCst);
        let _count = CountGuard(&self.connections);
        let Some(tls) = self.options.tls.clone() else {
            return self
                .clone()
                .upgrade(stream, id, open + 1, peer, close_all)
                .await;
        };
        let accepting = tokio_rustls::TlsAcceptor::from(tls).accept(stream);
        let reason = match tokio::time::timeout(self.options.handshake_timeout, accepting).await {
            Ok(Ok(stream)) => {
                return self
                    .clone()
                    .upgrade(stream, id, open + 1, peer, close_all)
                    .await;
            }
            Ok(Err(error)) => format!("the TLS handshake failed: {error}"),
            Err(_) => format!(
                "the TLS handshake did not complete within {} ms",
                self.options.handshake_timeout.as_millis()
            ),
        };
        bump(&self.counters.failed_handshake);
        if self.options.log {
            tracing::warn!(connection = id, %peer, %reason, "connection refused");
        }
    }

    /// The WebSocket upgrade of connection `id` (the `open`-th served now) and its session.
    async fn upgrade<S>(
        self: Arc<Self>,
        stream: S,
        id: u64,
        open: usize,
        peer: SocketAddr,
        mut close_all: watch::Receiver<bool>,
    ) where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let refusal = if open > self.options.max_connections {
            Some((
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "The executor daemon is serving its maximum of {} connections; try again later.",
                    self.options.max_connections
                ),
            ))
        } else {
            None
        };
        let token = self.options.token.clone();
        let refused = Arc::new(std::sync::Mutex::new(None::<(StatusCode, String)>));
        let refused_in = refused.clone();
        // The error type is tungstenite's callback contract, not ours to shrink.
        #[allow(clippy::result_large_err)]
        let callback = move |request: &Request, response: Response| {
            let refusal = refusal.or_else(|| {
                let token = token?;
                let expected = format!("Bearer {token}");
                let given = request
                    .headers()
                    .get("authorization")
                    .and_then(|v| v.to_str().ok());
                // In constant time: how much of a guess matches must not show in the timing.
                let matches = given.is_some_and(|given| {
                    bool::from(given.as_bytes().ct_eq(expected.as_bytes()))
                });
                (!matches).then(|| {
                    (
                        StatusCode::UNAUTHORIZED,
                        match given {
                            None => "The upgrade carries no Authorization header; this daemon requires a bearer token.".to_string(),
                            Some(_) => "The upgrade's bearer token is not this daemon's token.".to_string(),
                        },
                    )
                })
            });
            match refusal {
                None => Ok(response),
                Some((status, text)) => {
                    *refused_in.lock().unwrap() = Some((status, text.clone()));
                    let mut error = ErrorResponse::new(Some(text));
                    *error.status_mut() = status;
                    Err(error)
                }
            }
        };
        let config = websocket_config(self.options.max_message_bytes);
        let handshake =
            tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(config));
        let socket = match tokio::time::timeout(self.options.handshake_timeout, handshake).await {
            Ok(Ok(socket)) => socket,
            Ok(Err(error)) => {
                let refusal = refused.lock().unwrap().clone();
                let reason = match refusal {
                    Some((status, text)) => {
                        bump(if status == StatusCode::UNAUTHORIZED {
                            &self.counters.refused_unauthorized
                        } else {
                            &self.counters.refused_over_capacity
                        });
                        format!("{} {text}", status.as_u16())
                    }
                    None => {
                        bump(&self.counters.failed_handshake);
                        format!("the WebSocket handshake failed: {error}")
                    }
                };
                if self.options.log {
                    tracing::warn!(connection = id, %peer, %reason, "connection refused");
                }
                return;
            }
            Err(_) => {
                bump(&self.counters.failed_handshake);
                if self.options.log {
                    tracing::warn!(
                        connection = id,
                        %peer,
                        reason = format!(
                            "the WebSocket upgrade did not complete within {} ms",
                            self.options.handshake_timeout.as_millis()
                        ),
                        "connection refused"
                    );
                }
                return;
            }
        };
        bump(&self.counters.connections_accepted);
        let opened = std::time::Instant::now();
        let connection = Arc::new(Connection {
            id,
            ..Connection::default()
        });
        let main = Arc::new(DaemonMain {
            server: self.clone(),
            connection: connection.clone(),
        });
        let session = Session::start(
            socket,
            Some(main),
            SessionOptions {
                max_message_bytes: self.options.max_message_bytes,
            },
        );
        let reason = tokio::select! {
            reason = session.closed() => reason,
            _ = close_all.wait_for(|close| *close) => {
                session.close("The executor daemon shut down.");
                "the daemon shut down".to_string()
            }
        };
        // The session's calls are dropped as it breaks: wait (briefly) until every run of
        // the connection has been answered or cancelled, so the line counts them.
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            loop {
                let notified = connection.settled.notified();
                if connection.live.load(Ordering::SeqCst) == 0 {
                    return;
                }
                notified.await;
            }
        })
        .await;
        let c = &connection.counts;
        let (queued, running) = (read(&c.cancelled_queued), read(&c.cancelled_running));
        if self.options.log {
            tracing::info!(
                connection = id,
                %peer,
                executions = read(&connection.received),
                duration_ms = opened.elapsed().as_millis() as u64,
                answered = read(&c.answered),
                refused = read(&c.refused_connection_bound)
                    + read(&c.refused_queue_bound)
                    + read(&c.refused_shutting_down),
                cancelled_queued = queued,
                cancelled_running = running,
                closed = %reason,
                "connection ended"
            );
        }
    }
}

struct CountGuard<'a>(&'a AtomicUsize);

impl Drop for CountGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One connection's runs, as its log line counts them.
#[derive(Default)]
struct Connection {
    id: u64,
    /// Executions received.
    received: AtomicU64,
    /// What became of them (the same counters as the server's).
    counts: Counters,
    /// Executions in flight (queued or running), for the connection's bound.
    in_flight: AtomicUsize,
    /// Executions received and not yet answered, refused or cancelled.
    live: AtomicUsize,
    settled: Notify,
}

/// One connection's main object.
struct DaemonMain {
    server: Arc<ServerInner>,
    connection: Arc<Connection>,
}

impl Target for DaemonMain {
    fn call(
        &self,
        path: Vec<String>,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>> {
        let method = path.join(".");
        match method.as_str() {
            "protocolVersion" => {
                Box::pin(async { Ok::<_, WireValue>(WireValue::Number(PROTOCOL_VERSION as f64)) })
            }
            "execute" => {
                // Recorded now: a call dropped before it is first polled (its connection
                // ended at once) still counts as cancelled.
                let record = RunRecord::new(self.server.clone(), self.connection.clone());
                Box::pin(async move {
                    execute(record, args)
                        .await
                        .map_err(|e| contract::error_to_wire(&e))
                })
            }
            _ => Box::pin(async move {
                Err::<WireValue, _>(WireValue::error(
                    "TypeError",
                    format!("The executor daemon has no method \"{method}\"."),
                ))
            }),
        }
    }
}

/// Where one execution is; what its drop counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Received, not yet admitted or refused.
    Received,
    /// Admitted and handed to the executor in its share: queued until the share says a
    /// worker started it.
    Handed,
    /// Answered or refused (counted when it happened).
    Done,
}

/// One execution's accounting: counted when it is refused or answered, and when it is dropped
/// before that (its connection ended), counted cancelled.
struct RunRecord {
    server: Arc<ServerInner>,
    connection: Arc<Connection>,
    phase: Phase,
    /// Its share of the executor (its connection's), which tells whether it started.
    share: Share,
    /// Whether it counts toward the connection's and the server's executions in flight.
    in_flight: bool,
}

impl RunRecord {
    fn new(server: Arc<ServerInner>, connection: Arc<Connection>) -> RunRecord {
        bump(&connection.received);
        connection.live.fetch_add(1, Ordering::SeqCst);
        let share = Share::new(connection.id);
        RunRecord {
            server,
            connection,
            phase: Phase::Received,
            share,
            in_flight: false,
        }
    }

    /// Counts under `pick` for the connection and the server.
    fn count(&self, pick: impl Fn(&Counters) -> &AtomicU64) {
        bump(pick(&self.connection.counts));
        bump(pick(&self.server.counters));
    }

    /// Refuses the execution: `pick` names the reason's counter.
    fn refuse(&mut self, pick: impl Fn(&Counters) -> &AtomicU64, error: Error) -> Error {
        self.count(pick);
        self.phase = Phase::Done;
        if self.server.options.log {
            tracing::info!(
                connection = self.connection.id,
                reason = %error,
                "execution refused"
            );
        }
        error
    }

    /// Admits it within the connection's bound and the daemon's queue bound, or refuses it.
    fn admit(&mut self) -> Result<(), Error> {
        let options = &self.server.options;
        let max = options.max_concurrent_executions;
        if self.connection.in_flight.fetch_add(1, Ordering::SeqCst) >= max {
            self.connection.in_flight.fetch_sub(1, Ordering::SeqCst);
            return Err(self.refuse(
                |c| &c.refused_connection_bound,
                Error::Coded {
                    code: codes::TOO_MANY_EXECUTIONS.into(),
                    text: format!(
                        "This connection already runs its maximum of {max} concurrent executions; await one before starting another."
                    ),
                    retryable: true,
                    cause: None,
                },
            ));
        }
        let max_queued = options.max_queued_executions;
        let places = options.max_running_executions.saturating_add(max_queued);
        if self.server.in_flight.fetch_add(1, Ordering::SeqCst) >= places {
            self.server.in_flight.fetch_sub(1, Ordering::SeqCst);
            self.connection.in_flight.fetch_sub(1, Ordering::SeqCst);
            return Err(self.refuse(
                |c| &c.refused_queue_bound,
                Error::Coded {
                    code: codes::TOO_MANY_EXECUTIONS.into(),
                    text: format!(
                        "The executor daemon already queues its maximum of {max_queued} executions across all connections; try again later."
                    ),
                    retryable: true,
                    cause: None,
                },
            ));
        }
        self.in_flight = true;
        self.phase = Phase::Handed;
        Ok(())
    }
}

impl Drop for RunRecord {
    fn drop(&mut self) {
        match self.phase {
            Phase::Handed if self.share.started() => self.count(|c| &c.cancelled_running),
            Phase::Received | Phase::Handed => self.count(|c| &c.cancelled_queued),
            Phase::Done => {}
        }
        if self.in_flight {
            self.connection.in_flight.fetch_sub(1, Ordering::SeqCst);
            self.server.in_flight.fetch_sub(1, Ordering::SeqCst);
            self.server.settled.notify_waiters();
        }
        self.connection.live.fetch_sub(1, Ordering::SeqCst);
        self.connection.settled.notify_waiters();
    }
}

async fn execute(mut record: RunRecord, mut args: Vec<WireValue>) -> Result<WireValue, Error> {
    args.resize(3, WireValue::Undefined);
    let outbound_fn = args.pop().expect("three arguments");
    let dispatch = args.pop().expect("three arguments");
    let prompt = contract::asks_prompt_replies(&args[0]);
    let parsed = parse(&args[0], dispatch, outbound_fn);
    let (mut request, stub, outbound_stub) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => {
            // An answer (the executor's refusal of the request), not a bound.
            record.count(|c| &c.answered);
            record.server.counters.outcome("error");
            record.phase = Phase::Done;
            return Err(error);
        }
    };
    let server = record.server.clone();
    if server.draining.load(Ordering::SeqCst) {
        release(&stub);
        release(&outbound_stub);
        return Err(record.refuse(
            |c| &c.refused_shutting_down,
            Error::Coded {
                code: codes::SHUTTING_DOWN.into(),
                text: "The executor daemon is shutting down and accepts no new executions.".into(),
                retryable: true,
                cause: None,
            },
        ));
    }
    if let Err(error) = record.admit() {
        release(&stub);
        release(&outbound_stub);
        return Err(error);
    }
    request.dispatch = stub.clone().map(|stub| {
        Arc::new(RemoteDispatch {
            stub,
            prompt,
            server: server.clone(),
        }) as Arc<dyn Dispatch>
    });
    let started = std::time::Instant::now();
    let outcome = server.executor.execute(request, record.share.clone()).await;
    let took = started.elapsed();
    // As a Cap'n Web server does when a method returns: the stubs it received are released.
    // (Dropped before it returns, the future drops them too, which releases them.)
    release(&stub);
    release(&outbound_stub);
    record.count(|c| &c.answered);
    let kind = match &outcome {
        Ok(Outcome { error: None, .. }) => "returned",
        Ok(Outcome {
            error: Some(RunError::Threw { .. }),
            ..
        }) => "threw",
        Ok(Outcome {
            error: Some(RunError::TimedOut { .. }),
            ..
        }) => "timed_out",
        Ok(Outcome {
            error: Some(RunError::OutOfMemory { .. }),
            ..
        }) => "out_of_memory",
        Err(_) => "error",
    };
    server.counters.outcome(kind);
    server.durations.observe(took.as_secs_f64());
    record.phase = Phase::Done;
    if server.options.log {
        tracing::debug!(
            connection = record.connection.id,
            outcome = kind,
            duration_us = took.as_micros() as u64,
            "execution answered"
        );
    }
    Ok(contract::outcome_to_wire(outcome?))
}

/// The request, its dispatch stub and its outbound stub, from `execute`'s arguments; every
/// refusal names the argument. A refused request releases the stubs it came with.
fn parse(
    request: &WireValue,
    dispatch: WireValue,
    outbound_fn: WireValue,
) -> Result<(ExecuteRequest, Option<RemoteStub>, Option<RemoteStub>), Error> {
    let mut request = contract::request_from_wire(request)?;
    let stub = match dispatch {
        WireValue::Null | WireValue::Undefined => None,
        WireValue::Stub(Stub::Remote(stub)) => Some(stub),
        other => {
            return Err(Error::InvalidRequest(format!(
                "dispatch must be a function or null, not {}",
                other.describe()
            )));
        }
    };
    let wants_function = matches!(request.outbound, Some(Outbound::Host(_)));
    let outbound_stub = match outbound_fn {
        WireValue::Null | WireValue::Undefined if wants_function => {
            release(&stub);
            return Err(Error::InvalidRequest(
                "the outbound mode \"stub\" needs the host's outbound function as execute's third argument, and none was passed"
                    .into(),
            ));
        }
        WireValue::Null | WireValue::Undefined => None,
        WireValue::Stub(Stub::Remote(outbound)) if wants_function => Some(outbound),
        WireValue::Stub(Stub::Remote(outbound)) => {
            outbound.dispose();
            release(&stub);
            return Err(Error::InvalidRequest(
                "an outbound function was passed, but the outbound mode \"blocked\" takes none"
                    .into(),
            ));
        }
        other => {
            release(&stub);
            return Err(Error::InvalidRequest(format!(
                "outbound must be a function or null, not {}",
                other.describe()
            )));
        }
    };
    if let Some(outbound) = &outbound_stub {
        request.outbound = Some(Outbound::Host(Arc::new(RemoteOutbound {
            stub: outbound.clone(),
        })));
    }
    Ok((request, stub, outbound_stub))
}

/// Releases a stub `execute` received, if any.
fn release(stub: &Option<RemoteStub>) {
    if let Some(stub) = stub {
        stub.dispose();
    }
}

/// The host's dispatch function, called back over the socket.
struct RemoteDispatch {
    stub: RemoteStub,
    /// The client gives prompt replies ([`contract::PROMPT_REPLIES`]).
    prompt: bool,
    /// Where tool calls are counted.
    server: Arc<ServerInner>,
}

/// The envelope a dispatch answered (a JSON string), or an error envelope saying what came
/// instead.
fn envelope_answer(answer: Result<WireValue, CallError>) -> Envelope {
    match answer {
        Ok(WireValue::String(json)) => {
            Envelope::from_json(&json).unwrap_or_else(|e| Envelope::Error(e.0))
        }
        Ok(other) => Envelope::Error(format!(
            "The host's dispatch answered {}, not an envelope JSON string.",
            other.describe()
        )),
        Err(CallError::Rejected(WireValue::Error { message, .. })) => Envelope::Error(message),
        Err(CallError::Rejected(other)) => Envelope::Error(other.describe()),
        Err(CallError::Broken(reason)) => {
            Envelope::Error(format!("The tool call failed: {reason}"))
        }
    }
}

/// A prompt reply, read: an envelope string (there at once), `{envelope, afterMs}` (there at
/// once, due `afterMs` after the call), or a function answering the envelope later.
fn prompt_reply(answer: Result<WireValue, CallError>) -> Reply {
    match answer {
        Ok(WireValue::Stub(Stub::Remote(later))) => Reply::Later(Box::pin(async move {
            let answer = later.call_now(Vec::new()).await;
            later.dispose();
            envelope_answer(answer)
        })),
        Ok(WireValue::Object(entries)) => {
            let field = |key: &str| entries.iter().find(|(k, _)| k == key).map(|(_, v)| v);
            match (field("envelope"), field("afterMs")) {
                (Some(WireValue::String(json)), Some(WireValue::Number(ms)))
                    if ms.is_finite() && *ms >= 0.0 =>
                {
                    let envelope =
                        Envelope::from_json(json).unwrap_or_else(|e| Envelope::Error(e.0));
                    Reply::After(Duration::from_millis(ms.min(1e12) as u64), envelope)
                }
                _ => Reply::Now(Envelope::Error(
                    "The host's dispatch answered an object that is not {envelope: string, afterMs: number of milliseconds}."
                        .into(),
                )),
            }
        }
        other => Reply::Now(envelope_answer(other)),
    }
}

impl Dispatch for RemoteDispatch {
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope> {
        bump(&self.server.counters.tool_calls);
        // Sent now, not when the future is first polled: the executor may run each call's
        // future on a task of its own, and the host must see calls in the program's order.
        let answer = self.stub.call_now(vec![
            WireValue::String(call.provider),
            WireValue::String(call.tool),
            WireValue::String(call.args_json),
        ]);
        Box::pin(async move { envelope_answer(answer.await) })
    }

    fn reply(&self, call: ToolCall) -> BoxFuture<'static, Reply> {
        if !self.prompt {
            // A client that answers when its tool is done: every answer arrives late.
            return Box::pin(std::future::ready(Reply::Later(self.dispatch(call))));
        }
        bump(&self.server.counters.tool_calls);
        let answer = self.stub.call_now(vec![
            WireValue::String(call.provider),
            WireValue::String(call.tool),
            WireValue::String(call.args_json),
            WireValue::string(contract::PROMPT_MARK),
        ]);
        Box::pin(async move { prompt_reply(answer.await) })
    }
}
