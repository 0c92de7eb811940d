//! The daemon side: [`ExecutorServer`] serves any [`Executor`] to Cap'n Web clients.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::contract::{self, PROTOCOL_VERSION};
use super::outbound::RemoteOutbound;
use super::wire::{CallError, RemoteStub, Session, SessionOptions, Stub, Target, WireValue};
use crate::Error;
use crate::error::codes;
use crate::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, Outbound, Outcome, ToolCall,
};

/// How an [`ExecutorServer`] is bounded.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// When set, every WebSocket upgrade must carry `Authorization: Bearer <token>`;
    /// otherwise it is answered HTTP 401 and nothing runs.
    pub token: Option<String>,
    /// The largest incoming message. Default: 32 MiB (Cap'n Web's own default).
    pub max_message_bytes: usize,
    /// Connections served at once; one more is answered HTTP 503. Default: 256.
    pub max_connections: usize,
    /// Executions one connection may run at once; one more is refused with
    /// `TOO_MANY_EXECUTIONS`. Default: 64.
    pub max_concurrent_executions: usize,
    /// After shutdown is asked for: how long in-flight executions may still run before
    /// every connection is closed. Default: 10 s.
    pub grace_period: Duration,
    /// How long a client may take to complete the WebSocket upgrade. Default: 10 s.
    pub handshake_timeout: Duration,
    /// Log on stderr one line per connection (when it ends, with what it ran and why it
    /// closed) and one per refusal. Default: `true`.
    pub log: bool,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            token: None,
            max_message_bytes: 32 << 20,
            max_connections: 256,
            max_concurrent_executions: 64,
            grace_period: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(10),
            log: true,
        }
    }
}

/// An [`Executor`] behind a box, so the server need not be generic.
trait DynExecutor: Send + Sync {
    fn execute(&self, request: ExecuteRequest) -> BoxFuture<'_, Result<Outcome, Error>>;
}

impl<E: Executor> DynExecutor for E {
    fn execute(&self, request: ExecuteRequest) -> BoxFuture<'_, Result<Outcome, Error>> {
        Box::pin(Executor::execute(self, request))
    }
}

/// Serves an [`Executor`] over Cap'n Web: the main object answers `protocolVersion()` with
/// [`PROTOCOL_VERSION`] and runs `execute(request, dispatch, outbound)`.
///
/// Guarantees: a refused upgrade (wrong token, too many connections) runs nothing and is
/// answered with an HTTP status and a sentence; a connection runs at most
/// [`max_concurrent_executions`](ServerOptions::max_concurrent_executions) at once; on
/// shutdown the listener is dropped first, in-flight executions get the grace period, then
/// every connection is closed.
pub struct ExecutorServer {
    inner: Arc<ServerInner>,
}

struct ServerInner {
    executor: Arc<dyn DynExecutor>,
    options: ServerOptions,
    connections: AtomicUsize,
    next_connection: AtomicU64,
    running: AtomicUsize,
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
                connections: AtomicUsize::new(0),
                next_connection: AtomicU64::new(1),
                running: AtomicUsize::new(0),
                settled: Notify::new(),
                draining: AtomicBool::new(false),
            }),
        }
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
                        inner.log(format!("accepting a connection failed: {error}"));
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            }
        }
        drop(listener);
        inner.draining.store(true, Ordering::SeqCst);
        let running = inner.running.load(Ordering::SeqCst);
        inner.log(format!(
            "shutting down: no new connections; {running} execution(s) in flight get up to {} ms",
            inner.options.grace_period.as_millis()
        ));
        let drained = tokio::time::timeout(inner.options.grace_period, async {
            loop {
                let notified = inner.settled.notified();
                if inner.running.load(Ordering::SeqCst) == 0 {
                    return;
                }
                notified.await;
            }
        })
        .await;
        if drained.is_err() {
            inner.log(format!(
                "the grace period ended with {} execution(s) still running; closing every connection",
                inner.running.load(Ordering::SeqCst)
            ));
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
    fn log(&self, line: String) {
        if self.options.log {
            eprintln!("codemode-executor: {line}");
        }
    }

    async fn connection(
        self: Arc<Self>,
        stream: TcpStream,
        peer: SocketAddr,
        mut close_all: watch::Receiver<bool>,
    ) {
        let id = self.next_connection.fetch_add(1, Ordering::SeqCst);
        let open = self.connections.fetch_add(1, Ordering::SeqCst) + 1;
        let _count = CountGuard(&self.connections);
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
        let refused = Arc::new(std::sync::Mutex::new(None::<String>));
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
                (given != Some(expected.as_str())).then(|| {
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
                    *refused_in.lock().unwrap() = Some(format!("{} {}", status.as_u16(), text));
                    let mut error = ErrorResponse::new(Some(text));
                    *error.status_mut() = status;
                    Err(error)
                }
            }
        };
        let config = WebSocketConfig::default()
            .max_message_size(Some(self.options.max_message_bytes))
            .max_frame_size(Some(self.options.max_message_bytes));
        let handshake =
            tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(config));
        let socket = match tokio::time::timeout(self.options.handshake_timeout, handshake).await {
            Ok(Ok(socket)) => socket,
            Ok(Err(error)) => {
                let reason = refused
                    .lock()
                    .unwrap()
                    .clone()
                    .unwrap_or_else(|| format!("the WebSocket handshake failed: {error}"));
                self.log(format!("refused connection {id} from {peer}: {reason}"));
                return;
            }
            Err(_) => {
                self.log(format!(
                    "refused connection {id} from {peer}: the WebSocket upgrade did not complete within {} ms",
                    self.options.handshake_timeout.as_millis()
                ));
                return;
            }
        };
        let opened = std::time::Instant::now();
        let served = Arc::new(AtomicU64::new(0));
        let main = Arc::new(DaemonMain {
            server: self.clone(),
            running: Arc::new(AtomicUsize::new(0)),
            served: served.clone(),
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
        self.log(format!(
            "connection {id} from {peer}: {} execution(s) in {} ms; closed: {reason}",
            served.load(Ordering::SeqCst),
            opened.elapsed().as_millis()
        ));
    }
}

struct CountGuard<'a>(&'a AtomicUsize);

impl Drop for CountGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One connection's main object.
struct DaemonMain {
    server: Arc<ServerInner>,
    /// Executions this connection runs now.
    running: Arc<AtomicUsize>,
    /// Executions this connection started.
    served: Arc<AtomicU64>,
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
                let server = self.server.clone();
                let running = self.running.clone();
                self.served.fetch_add(1, Ordering::SeqCst);
                Box::pin(async move {
                    execute(server, running, args)
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

async fn execute(
    server: Arc<ServerInner>,
    running: Arc<AtomicUsize>,
    mut args: Vec<WireValue>,
) -> Result<WireValue, Error> {
    args.resize(3, WireValue::Undefined);
    let outbound_fn = args.pop().expect("three arguments");
    let dispatch = args.pop().expect("three arguments");
    let mut request = contract::request_from_wire(&args[0])?;
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
    if server.draining.load(Ordering::SeqCst) {
        release(&stub);
        release(&outbound_stub);
        return Err(Error::Coded {
            code: codes::SHUTTING_DOWN.into(),
            text: "The executor daemon is shutting down and accepts no new executions.".into(),
            retryable: true,
            cause: None,
        });
    }
    let max = server.options.max_concurrent_executions;
    if running.fetch_add(1, Ordering::SeqCst) >= max {
        running.fetch_sub(1, Ordering::SeqCst);
        release(&stub);
        release(&outbound_stub);
        return Err(Error::Coded {
            code: codes::TOO_MANY_EXECUTIONS.into(),
            text: format!(
                "This connection already runs its maximum of {max} concurrent executions; await one before starting another."
            ),
            retryable: true,
            cause: None,
        });
    }
    server.running.fetch_add(1, Ordering::SeqCst);
    request.dispatch = stub
        .clone()
        .map(|stub| Arc::new(RemoteDispatch { stub }) as Arc<dyn Dispatch>);
    let outcome = server.executor.execute(request).await;
    // As a Cap'n Web server does when a method returns: the stubs it received are released.
    release(&stub);
    release(&outbound_stub);
    running.fetch_sub(1, Ordering::SeqCst);
    server.running.fetch_sub(1, Ordering::SeqCst);
    server.settled.notify_waiters();
    Ok(contract::outcome_to_wire(&outcome?))
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
}

impl Dispatch for RemoteDispatch {
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope> {
        // Sent now, not when the future is first polled: the executor may run each call's
        // future on a task of its own, and the host must see calls in the program's order.
        let answer = self.stub.call_now(vec![
            WireValue::String(call.provider),
            WireValue::String(call.tool),
            WireValue::String(call.args_json),
        ]);
        Box::pin(async move {
            match answer.await {
                Ok(WireValue::String(json)) => {
                    Envelope::from_json(&json).unwrap_or_else(|e| Envelope::Error(e.0))
                }
                Ok(other) => Envelope::Error(format!(
                    "The host's dispatch answered {}, not an envelope JSON string.",
                    other.describe()
                )),
                Err(CallError::Rejected(WireValue::Error { message, .. })) => {
                    Envelope::Error(message)
                }
                Err(CallError::Rejected(other)) => Envelope::Error(other.describe()),
                Err(CallError::Broken(reason)) => {
                    Envelope::Error(format!("The tool call failed: {reason}"))
                }
            }
        })
    }
}
