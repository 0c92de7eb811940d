//! The host side: [`RemoteExecutor`], a native [`Executor`] whose runs happen in an executor
//! daemon, while the host's dispatch stays in the host's process and is called back over the
//! same socket.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures::FutureExt;
use futures::future::Shared;
use tokio::sync::watch;
use tokio_tungstenite::Connector;
use tokio_tungstenite::tungstenite::Error as WsError;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::{HeaderName, HeaderValue};

use super::contract::{self, PROTOCOL_VERSION};
use super::outbound::OutboundTarget;
use super::tls;
use super::wire::{CallError, Session, SessionOptions, Stub, Target, WireValue, websocket_config};
use crate::Error;
use crate::error::codes;
use crate::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, Outbound, Outcome, Reply, ToolCall,
};

/// How a [`RemoteExecutor`] connects, and reconnects.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// Headers of every WebSocket upgrade; the daemon's bearer token goes here:
    /// `("Authorization", "Bearer <token>")`.
    pub headers: Vec<(String, String)>,
    /// Retire the session after this many executions (counted whether they succeeded or
    /// not); the next execution opens a fresh one, and the retired session is closed once its
    /// last in-flight call settles. `None` (the default): never.
    pub rotate_after_executions: Option<u64>,
    /// Reopen a broken (or retired) session on the next call. `false`: a reopen makes one
    /// attempt. Default: `true`.
    pub reconnect: bool,
    /// The linear backoff unit: attempt `n` (from 0) that fails waits `backoff × (n + 1)`
    /// before the next. Default: 100 ms.
    pub backoff: Duration,
    /// Attempts per reopen when `reconnect` is set. Default: 3.
    pub max_attempts: u32,
    /// How long opening a session (TCP, upgrade, version handshake) may take. Default: 10 s.
    pub handshake_timeout: Duration,
    /// The largest message accepted from the daemon. Default: 32 MiB.
    pub max_message_bytes: usize,
    /// For a `wss://` URL: trust the certificates of this PEM file (the daemon's CA, or its
    /// self-signed certificate) instead of the platform's roots. Default: `None`.
    pub ca_file: Option<std::path::PathBuf>,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            headers: Vec::new(),
            rotate_after_executions: None,
            reconnect: true,
            backoff: Duration::from_millis(100),
            max_attempts: 3,
            handshake_timeout: Duration::from_secs(10),
            max_message_bytes: 32 << 20,
            ca_file: None,
        }
    }
}

/// A native executor whose runs happen in an executor daemon (see [`super::ExecutorServer`]
/// and the `codemode-executor serve` binary).
///
/// Guarantees (`docs/dialect.md`, "The remote executor's texts"):
/// - [`connect`](RemoteExecutor::connect) returns once the session is open and the version
///   handshake agreed (exact equality), so a refused connection (`CONNECTION_REJECTED`,
///   `Failed to open WebSocket to <url>`) or a version disagreement (`PROTOCOL_MISMATCH`)
///   surfaces there;
/// - liveness is the session's broken signal: the next call after a break reopens, and
///   concurrent callers share that one attempt (one socket); attempts back off linearly;
///   a version mismatch is never retried; a `dispose` during an attempt ends it with
///   `CONNECTION_BROKEN`;
/// - a call broken in flight fails `CONNECTION_BROKEN` (retryable, `Executor connection broke
///   during execution`) and is never replayed, since a tool call is not idempotent;
/// - after [`dispose`](Executor::dispose), every call fails `CONNECTION_BROKEN` with
///   `RemoteExecutor is closed` (not [`Error::Disposed`]: the dialect's text wins);
/// - errors the daemon sends are rebuilt from their code; unknown codes pass through.
pub struct RemoteExecutor {
    inner: Arc<ClientInner>,
}

type Opening = Shared<BoxFuture<'static, Result<Arc<LiveSession>, Error>>>;

struct ClientInner {
    url: String,
    options: ConnectOptions,
    state: Mutex<ClientState>,
    closed: watch::Sender<bool>,
    sessions_opened: AtomicU64,
}

#[derive(Default)]
struct ClientState {
    session: Option<Arc<LiveSession>>,
    opening: Option<Opening>,
    executions: u64,
    closed: bool,
    /// Retired sessions still finishing calls, closed by `dispose` too.
    retired: Vec<Weak<LiveSession>>,
}

/// A session and its running calls.
struct LiveSession {
    session: Session,
    calls: Mutex<Calls>,
}

#[derive(Default)]
struct Calls {
    running: usize,
    retired: bool,
}

impl LiveSession {
    fn is_broken(&self) -> bool {
        self.session.broken().is_some()
    }

    fn start(&self) {
        self.calls.lock().unwrap().running += 1;
    }

    fn settle(&self) {
        let mut calls = self.calls.lock().unwrap();
        calls.running -= 1;
        if calls.retired && calls.running == 0 {
            self.session.close("The session was retired.");
        }
    }

    fn retire(&self) {
        let mut calls = self.calls.lock().unwrap();
        calls.retired = true;
        if calls.running == 0 {
            self.session.close("The session was retired.");
        }
    }
}

impl RemoteExecutor {
    /// Opens a session to the daemon at `url` (`ws://HOST:PORT`, or `wss://HOST:PORT` over TLS,
    /// trusting the platform's roots or [`ConnectOptions::ca_file`]) and agrees the protocol
    /// version, in one attempt.
    pub async fn connect(url: &str, options: ConnectOptions) -> Result<RemoteExecutor, Error> {
        let inner = Arc::new(ClientInner {
            url: url.to_string(),
            options,
            state: Mutex::new(ClientState::default()),
            closed: watch::channel(false).0,
            sessions_opened: AtomicU64::new(0),
        });
        let session = inner.open().await?;
        inner.state.lock().unwrap().session = Some(Arc::new(session));
        Ok(RemoteExecutor { inner })
    }

    /// How many sessions (sockets) this executor has opened so far, the first included.
    pub fn sessions_opened(&self) -> u64 {
        self.inner.sessions_opened.load(Ordering::SeqCst)
    }

    /// The daemon's URL.
    pub fn url(&self) -> &str {
        &self.inner.url
    }
}

impl ClientInner {
    fn is_closed(&self) -> bool {
        *self.closed.borrow()
    }

    /// Opens one session: the upgrade, then the version handshake.
    async fn open(&self) -> Result<LiveSession, Error> {
        let url = &self.url;
        let mut request = url
            .as_str()
            .into_client_request()
            .map_err(|e| Error::connection_rejected(url, format!("the URL is not usable: {e}")))?;
        for (name, value) in &self.options.headers {
            let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
                Error::connection_rejected(url, format!("the header name {name:?} is invalid"))
            })?;
            let value = HeaderValue::from_str(value).map_err(|_| {
                Error::connection_rejected(url, format!("the value of header {name:?} is invalid"))
            })?;
            request.headers_mut().insert(header, value);
        }
        let config = websocket_config(self.options.max_message_bytes);
        let timeout = self.options.handshake_timeout;
        let connector = if url.starts_with("wss://") {
            let trust = tls::client_config(self.options.ca_file.as_deref())
                .map_err(|e| Error::connection_rejected(url, e))?;
            Connector::Rustls(trust)
        } else {
            Connector::Plain
        };
        let connecting = tokio_tungstenite::connect_async_tls_with_config(
            request,
            Some(config),
            true,
            Some(connector),
        );
        let socket = match tokio::time::timeout(timeout, connecting).await {
            Ok(Ok((socket, _))) => socket,
            Ok(Err(WsError::Http(response))) => {
                let body = response
                    .body()
                    .as_deref()
                    .map(|b| format!(": {}", String::from_utf8_lossy(b)))
                    .unwrap_or_default();
                return Err(Error::connection_rejected(
                    url,
                    format!("the server answered HTTP {}{body}", response.status()),
                ));
            }
            Ok(Err(error)) if is_certificate_error(&error) => {
                let trusted = match &self.options.ca_file {
                    Some(file) => format!("the CA file {}", file.display()),
                    None => "the platform's roots".to_string(),
                };
                return Err(Error::connection_rejected(
                    url,
                    format!(
                        "the daemon's TLS certificate was refused ({error}): it must be signed by {trusted} and name the URL's host"
                    ),
                ));
            }
            Ok(Err(error)) => return Err(Error::connection_rejected(url, error.to_string())),
            Err(_) => {
                return Err(Error::connection_rejected(
                    url,
                    format!(
                        "the upgrade did not complete within {} ms",
                        timeout.as_millis()
                    ),
                ));
            }
        };
        self.sessions_opened.fetch_add(1, Ordering::SeqCst);
        let session = Session::start(
            socket,
            None,
            SessionOptions {
                max_message_bytes: self.options.max_message_bytes,
            },
        );
        let version =
            match tokio::time::timeout(timeout, session.call_main("protocolVersion", Vec::new()))
                .await
            {
                Ok(Ok(version)) => version,
                Ok(Err(CallError::Rejected(error))) => {
                    return Err(Error::connection_rejected(
                        url,
                        format!(
                            "protocolVersion() was rejected: {}",
                            contract::error_from_wire(&error)
                        ),
                    ));
                }
                Ok(Err(CallError::Broken(reason))) => {
                    return Err(Error::connection_rejected(url, reason));
                }
                Err(_) => {
                    return Err(Error::connection_rejected(
                        url,
                        format!(
                            "protocolVersion() was not answered within {} ms",
                            timeout.as_millis()
                        ),
                    ));
                }
            };
        if version != WireValue::Number(PROTOCOL_VERSION as f64) {
            session.close("The protocol versions disagree.");
            let server = match &version {
                WireValue::Number(n) if n.fract() == 0.0 => format!("{}", *n as i64),
                WireValue::Number(n) => n.to_string(),
                WireValue::String(s) => s.clone(),
                other => other.describe(),
            };
            return Err(Error::protocol_mismatch(
                &PROTOCOL_VERSION.to_string(),
                &server,
            ));
        }
        Ok(LiveSession {
            session,
            calls: Mutex::new(Calls::default()),
        })
    }

    /// The live session, reopening (single-flight) when there is none or it broke.
    async fn ensure_session(self: &Arc<Self>) -> Result<Arc<LiveSession>, Error> {
        let opening = {
            let mut state = self.state.lock().unwrap();
            if state.closed {
                return Err(Error::remote_closed());
            }
            if let Some(session) = &state.session
                && !session.is_broken()
            {
                return Ok(session.clone());
            }
            match &state.opening {
                Some(opening) => opening.clone(),
                None => {
                    let old = state.session.take();
                    let opening = self.clone().reopen(old).boxed().shared();
                    state.opening = Some(opening.clone());
                    opening
                }
            }
        };
        opening.await
    }

    /// Disposes what it had, then opens with linear backoff; records the outcome.
    async fn reopen(
        self: Arc<Self>,
        old: Option<Arc<LiveSession>>,
    ) -> Result<Arc<LiveSession>, Error> {
        if let Some(old) = old {
            old.session
                .close("The session broke and is being replaced.");
        }
        let result = self.attempts().await.map(Arc::new);
        let mut state = self.state.lock().unwrap();
        state.opening = None;
        match &result {
            Ok(session) if state.closed => {
                session.session.close("RemoteExecutor is closed");
                return Err(Error::remote_closed());
            }
            Ok(session) => state.session = Some(session.clone()),
            Err(_) => {}
        }
        result
    }

    async fn attempts(&self) -> Result<LiveSession, Error> {
        let attempts = if self.options.reconnect {
            self.options.max_attempts.max(1)
        } else {
            1
        };
        let mut closed = self.closed.subscribe();
        let mut last = None;
        for attempt in 0..attempts {
            if self.is_closed() {
                return Err(Error::remote_closed());
            }
            let opened = tokio::select! {
                opened = self.open() => opened,
                _ = closed.wait_for(|closed| *closed) => return Err(Error::remote_closed()),
            };
            match opened {
                Ok(session) if self.is_closed() => {
                    session.session.close("RemoteExecutor is closed");
                    return Err(Error::remote_closed());
                }
                Ok(session) => return Ok(session),
                Err(error) if error.code() == Some(codes::PROTOCOL_MISMATCH) => return Err(error),
                Err(error) => last = Some(error),
            }
            if attempt + 1 < attempts {
                let wait = self.options.backoff * (attempt + 1);
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = closed.wait_for(|closed| *closed) => return Err(Error::remote_closed()),
                }
            }
        }
        Err(last.expect("at least one attempt"))
    }

    /// Counts one execution toward rotation, retiring the current session at the bound.
    fn count_execution(&self) {
        let Some(bound) = self.options.rotate_after_executions else {
            return;
        };
        let mut state = self.state.lock().unwrap();
        state.executions += 1;
        if state.executions >= bound.max(1) {
            state.executions = 0;
            if let Some(session) = state.session.take() {
                state.retired.retain(|weak| weak.strong_count() > 0);
                state.retired.push(Arc::downgrade(&session));
                session.retire();
            }
        }
    }
}

impl Executor for RemoteExecutor {
    async fn execute(&self, request: ExecuteRequest) -> Result<Outcome, Error> {
        let inner = &self.inner;
        let live = inner.ensure_session().await?;
        let dispatch = match &request.dispatch {
            Some(dispatch) => WireValue::Stub(Stub::Local(Arc::new(DispatchTarget {
                dispatch: dispatch.clone(),
            }))),
            None => WireValue::Null,
        };
        // Outbound: the mode rides the request; the third argument is the host's outbound
        // handler for the mode "stub", `null` otherwise.
        let outbound = match &request.outbound {
            Some(Outbound::Host(handler)) => OutboundTarget::stub(handler.clone()),
            _ => WireValue::Null,
        };
        // The dispatch gives prompt replies (see `DispatchTarget`), so that the daemon delivers
        // answers in the order the host gives them in process.
        let wire = contract::with_prompt_replies(contract::request_to_wire(&request));
        let args = vec![wire, dispatch, outbound];
        live.start();
        let answer = live.session.call_main("execute", args).await;
        live.settle();
        inner.count_execution();
        match answer {
            Ok(value) => contract::outcome_from_wire(value),
            Err(_) if inner.is_closed() => Err(Error::remote_closed()),
            Err(CallError::Broken(reason)) => Err(Error::connection_broken(reason)),
            Err(CallError::Rejected(_)) if live.is_broken() => Err(Error::connection_broken(
                live.session.broken().unwrap_or_default(),
            )),
            Err(CallError::Rejected(error)) => Err(contract::error_from_wire(&error)),
        }
    }

    async fn dispose(&self) {
        let (session, retired) = {
            let mut state = self.inner.state.lock().unwrap();
            state.closed = true;
            state.opening = None;
            (state.session.take(), std::mem::take(&mut state.retired))
        };
        self.inner.closed.send_replace(true);
        if let Some(session) = session {
            session.session.close("RemoteExecutor is closed");
        }
        for weak in retired {
            if let Some(session) = weak.upgrade() {
                session.session.close("RemoteExecutor is closed");
            }
        }
    }
}

impl Drop for RemoteExecutor {
    fn drop(&mut self) {
        self.inner.closed.send_replace(true);
    }
}

/// The host's dispatch, exported to the daemon as a function `(provider, tool, argsJson)`
/// answering the envelope JSON; called with the fourth argument `"prompt"` (the request
/// asked for [`contract::PROMPT_REPLIES`]), it answers as soon as the host has entered the
/// call: the envelope, `{envelope, afterMs}`, or a function that answers it later.
struct DispatchTarget {
    dispatch: Arc<dyn Dispatch>,
}

impl Target for DispatchTarget {
    fn call(
        &self,
        path: Vec<String>,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>> {
        let (call, prompt) = match (path.is_empty(), args.as_slice()) {
            (
                true,
                [
                    WireValue::String(provider),
                    WireValue::String(tool),
                    WireValue::String(args_json),
                    rest @ ..,
                ],
            ) if rest.len() <= 1 => (
                ToolCall {
                    provider: provider.clone(),
                    tool: tool.clone(),
                    args_json: args_json.clone(),
                },
                rest.first().and_then(WireValue::as_str) == Some(contract::PROMPT_MARK),
            ),
            _ => {
                return Box::pin(async {
                    Err::<WireValue, _>(WireValue::error(
                        "TypeError",
                        "The dispatch function takes (provider, tool, argsJson), three strings, and optionally the mark \"prompt\".",
                    ))
                });
            }
        };
        // The host enters the call here, on the session's read task, so concurrent calls
        // reach the host in the order they arrived; a panicking host function is contained.
        let reply = self.dispatch.reply(call);
        Box::pin(async move {
            let reply = std::panic::AssertUnwindSafe(reply)
                .catch_unwind()
                .await
                .unwrap_or_else(|_| {
                    Reply::Now(Envelope::Error("The tool call failed: it panicked".into()))
                });
            Ok::<_, WireValue>(match (reply, prompt) {
                (Reply::Now(envelope), _) => WireValue::String(envelope.to_json()),
                (Reply::After(delay, envelope), true) => WireValue::Object(vec![
                    ("envelope".into(), WireValue::String(envelope.to_json())),
                    (
                        "afterMs".into(),
                        WireValue::Number(delay.as_millis() as f64),
                    ),
                ]),
                (Reply::After(delay, envelope), false) => {
                    // A server that did not ask for prompt replies: the host's delay is
                    // waited here, as the host would have.
                    tokio::time::sleep(delay).await;
                    WireValue::String(envelope.to_json())
                }
                (Reply::Later(answer), true) => {
                    // Running now, so that the answer is on its way before the daemon asks.
                    let running = tokio::spawn(std::panic::AssertUnwindSafe(answer).catch_unwind());
                    WireValue::Stub(Stub::Local(Arc::new(LateAnswer {
                        running: Mutex::new(Some(running)),
                    })))
                }
                (Reply::Later(answer), false) => {
                    let envelope = std::panic::AssertUnwindSafe(answer)
                        .catch_unwind()
                        .await
                        .unwrap_or_else(|_| {
                            Envelope::Error("The tool call failed: it panicked".into())
                        });
                    WireValue::String(envelope.to_json())
                }
            })
        })
    }
}

/// A prompt reply's later answer: the function the daemon calls (once, without arguments)
/// for the envelope JSON of a call whose answer was not there when it arrived.
struct LateAnswer {
    running: Mutex<Option<tokio::task::JoinHandle<std::thread::Result<Envelope>>>>,
}

impl Target for LateAnswer {
    fn call(
        &self,
        _path: Vec<String>,
        _args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>> {
        let running = self.running.lock().unwrap().take();
        Box::pin(async move {
            let Some(running) = running else {
                return Err(WireValue::error(
                    "Error",
                    "This call's answer was already taken; a later answer is taken once.",
                ));
            };
            let envelope = match running.await {
                Ok(Ok(envelope)) => envelope,
                Ok(Err(_)) => Envelope::Error("The tool call failed: it panicked".into()),
                Err(e) => Envelope::Error(format!("The tool call failed: {e}")),
            };
            Ok(WireValue::String(envelope.to_json()))
        })
    }
}

impl Drop for LateAnswer {
    fn drop(&mut self) {
        // Released without being asked (the run ended): the host's work stops.
        if let Some(running) = self.running.lock().unwrap().take() {
            running.abort();
        }
    }
}

/// Whether the TLS handshake failed on the daemon's certificate.
fn is_certificate_error(error: &WsError) -> bool {
    let certificate = |e: &rustls::Error| {
        matches!(
            e,
            rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented
        )
    };
    match error {
        WsError::Tls(tokio_tungstenite::tungstenite::error::TlsError::Rustls(e)) => certificate(e),
        WsError::Io(io) => io
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            .is_some_and(certificate),
        _ => false,
    }
}
