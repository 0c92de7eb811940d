//! One Cap'n Web session over one WebSocket: the read loop, the writer, and calls both ways.
//!
//! Guarantees:
//! - every push we send is followed by its pull, and every answer we receive is released
//!   with `["release", id, 1]`;
//! - every stub the peer sent is released once, with its exact introduction count, when the
//!   last handle to it is dropped or disposed;
//! - a message the subset does not know, a malformed expression, an unknown ID or a release
//!   below zero aborts the session: the peer receives `["abort", error]` naming the reason,
//!   the socket closes, and every pending call fails with [`CallError::Broken`];
//! - once broken, a session stays broken: [`Session::broken`] is the whole liveness signal;
//! - the peer's calls in flight when it breaks are dropped (cancelled), not run to the end.

use std::sync::{Arc, Mutex, Weak};

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{
    Error as WsError, Message as WsMessage, Utf8Bytes, error::CapacityError,
};

use super::codec::{ExpressionError, decode, encode, write_expression};
use super::frame::{self, Incoming};
use super::message::Message;
use super::tables::{Export, Import, TableState};
use super::value::{CallError, Peer, Target, WireValue};
use crate::protocol::BoxFuture;

/// How a session is bounded.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// The largest incoming message; a larger one aborts the session with a text naming
    /// both sizes.
    pub max_message_bytes: usize,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            max_message_bytes: 32 << 20,
        }
    }
}

/// How much a socket reads at once. `tungstenite` zero-fills the free part of its read
/// buffer, up to this size, before every read (one that finds nothing included): at its
/// default of 128 KiB that was a quarter of the daemon's runtime per run, for messages of a
/// few hundred bytes, and at 16 KiB still a few percent of it. A larger message is still
/// read whole, this many bytes per read.
const READ_CHUNK_BYTES: usize = 4 << 10;

/// The WebSocket configuration of both ends: messages and frames up to `max_message_bytes`,
/// read [`READ_CHUNK_BYTES`] at a time.
pub fn websocket_config(max_message_bytes: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_CHUNK_BYTES)
        .max_message_size(Some(max_message_bytes))
        .max_frame_size(Some(max_message_bytes))
}

/// How many entries a session's tables hold (the main object not counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableCounts {
    /// Entries of the imports table: what the peer exported to us and we still hold.
    pub imports: usize,
    /// Entries of the exports table: what we exported and the peer still holds.
    pub exports: usize,
}

enum Outgoing {
    /// A frame's text; an answer's is shared with its export entry, not copied.
    Text(Utf8Bytes),
    Close(u16, String),
}

pub(crate) struct Shared {
    state: Mutex<State>,
    outgoing: mpsc::UnboundedSender<Outgoing>,
    /// Imports whose last handle went away; the read loop releases them under the lock
    /// (a handle may be dropped while the lock is held, so dropping never locks).
    releases: mpsc::UnboundedSender<i64>,
    broken: watch::Sender<Option<String>>,
    /// The peer's calls, in arrival order, to [`run_calls`].
    calls: mpsc::UnboundedSender<BoxFuture<'static, ()>>,
}

struct State {
    tables: TableState,
    broken: Option<String>,
}

impl Peer for Shared {
    fn call_now(
        self: Arc<Self>,
        target: i64,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, CallError>> {
        let started = start_call(&self, target, Vec::new(), args);
        Box::pin(async move { answer(&self, started?).await })
    }

    /// Releases the import: at once when the session's lock is free, else through the read
    /// loop (a handle may be dropped while this thread holds the lock). At once, the release
    /// goes out with whatever the caller sends next (a method's answer after the stubs it
    /// received are disposed) in one write, where the read loop's turn made it a write of its
    /// own.
    fn release(&self, id: i64) {
        match self.state.try_lock() {
            Ok(state) => release_import_locked(self, state, id),
            Err(_) => {
                let _ = self.releases.send(id);
            }
        }
    }
}

/// A Cap'n Web session. Dropping it closes the socket.
pub struct Session {
    shared: Arc<Shared>,
}

impl Session {
    /// Starts a session over an open WebSocket, serving `main` as our main object (ID 0)
    /// when there is one. The read loop and the writer run as tasks of the current runtime.
    pub fn start<S>(
        socket: WebSocketStream<S>,
        main: Option<Arc<dyn Target>>,
        options: SessionOptions,
    ) -> Session
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let (outgoing, outgoing_rx) = mpsc::unbounded_channel();
        let (releases, releases_rx) = mpsc::unbounded_channel();
        let (broken, _) = watch::channel(None);
        let (calls, calls_rx) = mpsc::unbounded_channel();
        tokio::spawn(run_calls(calls_rx, broken.subscribe()));
        let shared = Arc::new_cyclic(|weak: &Weak<Shared>| Shared {
            state: Mutex::new(State {
                tables: TableState::new(weak.clone(), main),
                broken: None,
            }),
            outgoing,
            releases,
            broken,
            calls,
        });
        let (sink, stream) = socket.split();
        tokio::spawn(write_loop(sink, outgoing_rx));
        tokio::spawn(read_loop(shared.clone(), stream, releases_rx, options));
        Session { shared }
    }

    /// Calls `path` on the peer's main object.
    pub async fn call_main(
        &self,
        path: &str,
        args: Vec<WireValue>,
    ) -> Result<WireValue, CallError> {
        call(&self.shared, 0, vec![path.to_string()], args).await
    }

    /// Why the session broke, once it has.
    pub fn broken(&self) -> Option<String> {
        self.shared.broken.borrow().clone()
    }

    /// Waits until the session breaks, and answers why.
    pub async fn closed(&self) -> String {
        let mut rx = self.shared.broken.subscribe();
        loop {
            if let Some(reason) = rx.borrow_and_update().clone() {
                return reason;
            }
            if rx.changed().await.is_err() {
                return "The session ended.".into();
            }
        }
    }

    /// Closes the socket normally; pending calls fail with `reason`.
    pub fn close(&self, reason: &str) {
        break_session(
            &self.shared,
            reason.to_string(),
            Some((1000, String::new())),
        );
    }

    /// Aborts the session: the peer receives `["abort", Error(reason)]`, then the socket
    /// closes.
    pub fn abort(&self, reason: &str) {
        abort(&self.shared, reason.to_string());
    }

    /// How many entries the tables hold, for accounting checks.
    pub fn table_counts(&self) -> TableCounts {
        let state = self.shared.state.lock().unwrap();
        let (imports, exports) = state.tables.counts();
        TableCounts { imports, exports }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.close("The session was closed locally.");
    }
}

/// Releases import `id` with its introduction count, unless a live handle to it remains
/// (the peer may have introduced it again since).
fn release_import(shared: &Shared, id: i64) {
    release_import_locked(shared, shared.state.lock().unwrap(), id);
}

/// [`release_import`] with the session's lock held.
fn release_import_locked(shared: &Shared, mut state: std::sync::MutexGuard<'_, State>, id: i64) {
    if state.broken.is_some() {
        return;
    }
    if let Some(Import::Stub { refcount, handle }) = state.tables.imports.get(&id) {
        let live = handle.upgrade().is_some_and(|inner| !inner.is_disposed());
        if !live {
            let count = *refcount;
            state.tables.imports.remove(&id);
            send(shared, &Message::Release(id, count));
        }
    }
}

fn send(shared: &Shared, message: &Message) {
    let _ = shared
        .outgoing
        .send(Outgoing::Text(message.to_text().into()));
}

/// Pushes a call to `target` (an import ID of ours; 0 is the peer's main object) and waits
/// for its answer, with any promises in it settled.
async fn call(
    shared: &Arc<Shared>,
    target: i64,
    path: Vec<String>,
    args: Vec<WireValue>,
) -> Result<WireValue, CallError> {
    let rx = start_call(shared, target, path, args)?;
    answer(shared, rx).await
}

/// Sends a call's `push` and `pull` now, and returns where its answer arrives.
fn start_call(
    shared: &Arc<Shared>,
    target: i64,
    path: Vec<String>,
    args: Vec<WireValue>,
) -> Result<oneshot::Receiver<Result<WireValue, CallError>>, CallError> {
    let rx = {
        let mut state = shared.state.lock().unwrap();
        if let Some(reason) = &state.broken {
            return Err(CallError::Broken(reason.clone()));
        }
        let args: Vec<Value> = args
            .iter()
            .map(|arg| encode(arg, &mut state.tables))
            .collect();
        let id = state.tables.next_push;
        state.tables.next_push += 1;
        let (tx, rx) = oneshot::channel();
        state.tables.imports.insert(id, Import::Call(tx));
        let path = path.into_iter().map(Value::String).collect();
        let expr = Value::Array(vec![
            Value::from("pipeline"),
            Value::from(target),
            Value::Array(path),
            Value::Array(args),
        ]);
        send(shared, &Message::Push(expr));
        send(shared, &Message::Pull(id));
        rx
    };
    Ok(rx)
}

/// A started call's answer, its promises settled.
async fn answer(
    shared: &Arc<Shared>,
    rx: oneshot::Receiver<Result<WireValue, CallError>>,
) -> Result<WireValue, CallError> {
    let value = match rx.await {
        Ok(answer) => answer?,
        Err(_) => return Err(CallError::Broken(broken_reason(shared))),
    };
    // Most answers hold no promise: they are delivered as they are, not rebuilt.
    if holds_no_promise(&value) {
        return Ok(value);
    }
    settle(shared, value).await
}

fn broken_reason(shared: &Shared) -> String {
    shared
        .broken
        .borrow()
        .clone()
        .unwrap_or_else(|| "The session ended.".into())
}

/// Replaces every promise in `value` by its resolution.
fn settle<'a>(
    shared: &'a Arc<Shared>,
    value: WireValue,
) -> BoxFuture<'a, Result<WireValue, CallError>> {
    Box::pin(async move {
        Ok(match value {
            WireValue::Promise(id) => {
                enum Next {
                    Ready(Result<WireValue, CallError>),
                    Wait(oneshot::Receiver<Result<WireValue, CallError>>),
                }
                let next = {
                    let mut state = shared.state.lock().unwrap();
                    if let Some(reason) = &state.broken {
                        Next::Ready(Err(CallError::Broken(reason.clone())))
                    } else {
                        match state.tables.imports.get_mut(&id) {
                            Some(Import::Promise {
                                settled: Some(result),
                                ..
                            }) => Next::Ready(result.clone()),
                            Some(Import::Promise { waiters, .. }) => {
                                let (tx, rx) = oneshot::channel();
                                waiters.push(tx);
                                Next::Wait(rx)
                            }
                            _ => Next::Ready(Err(CallError::Broken(format!(
                                "Promise {id} is not on the import table."
                            )))),
                        }
                    }
                };
                let result = match next {
                    Next::Ready(result) => result,
                    Next::Wait(rx) => rx
                        .await
                        .map_err(|_| CallError::Broken(broken_reason(shared)))?,
                };
                settle(shared, result?).await?
            }
            WireValue::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(settle(shared, item).await?);
                }
                WireValue::Array(out)
            }
            WireValue::Object(entries) => {
                let mut out = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    out.push((k, settle(shared, v).await?));
                }
                WireValue::Object(out)
            }
            other => other,
        })
    })
}

fn break_session(shared: &Shared, reason: String, close: Option<(u16, String)>) {
    let (imports, exports) = {
        let mut state = shared.state.lock().unwrap();
        if state.broken.is_some() {
            return;
        }
        state.broken = Some(reason.clone());
        (
            std::mem::take(&mut state.tables.imports),
            std::mem::take(&mut state.tables.exports),
        )
    };
    shared.broken.send_replace(Some(reason.clone()));
    for import in imports.into_values() {
        match import {
            Import::Call(tx) => {
                let _ = tx.send(Err(CallError::Broken(reason.clone())));
            }
            Import::Promise { waiters, .. } => {
                for tx in waiters {
                    let _ = tx.send(Err(CallError::Broken(reason.clone())));
                }
            }
            Import::Stub { .. } => {}
        }
    }
    drop(exports);
    let (code, text) = close.unwrap_or((1000, String::new()));
    let _ = shared.outgoing.send(Outgoing::Close(code, text));
}

fn abort(shared: &Shared, reason: String) {
    if shared.state.lock().unwrap().broken.is_some() {
        return;
    }
    let error = serde_json::json!(["error", "Error", reason]);
    send(shared, &Message::Abort(error));
    let mut close_reason = reason.clone();
    // A close frame's reason holds at most 123 bytes.
    while close_reason.len() > 123 {
        close_reason.pop();
    }
    break_session(shared, reason, Some((3000, close_reason)));
}

/// Writes the outgoing frames. Every frame already queued when the writer wakes goes out in
/// one write (a call's `push` and `pull`, an answer and a release): one system call and one
/// TCP segment for them, where a flush per frame made one each.
async fn write_loop<S>(
    mut sink: futures::stream::SplitSink<WebSocketStream<S>, WsMessage>,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    'writing: while let Some(first) = rx.recv().await {
        let mut next = Some(first);
        while let Some(outgoing) = next.take() {
            match outgoing {
                Outgoing::Text(text) => {
                    if sink.feed(WsMessage::text(text)).await.is_err() {
                        break 'writing;
                    }
                }
                Outgoing::Close(code, reason) => {
                    let frame = CloseFrame {
                        code: CloseCode::from(code),
                        reason: reason.into(),
                    };
                    let _ = sink.send(WsMessage::Close(Some(frame))).await;
                    break 'writing;
                }
            }
            next = rx.try_recv().ok();
        }
        if sink.flush().await.is_err() {
            break;
        }
    }
    let _ = sink.close().await;
}

async fn read_loop<S>(
    shared: Arc<Shared>,
    mut stream: futures::stream::SplitStream<WebSocketStream<S>>,
    mut releases: mpsc::UnboundedReceiver<i64>,
    options: SessionOptions,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut broken = shared.broken.subscribe();
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            Some(id) = releases.recv() => {
                release_import(&shared, id);
                continue;
            }
            _ = broken.wait_for(Option::is_some) => return,
        };
        let outcome = match frame {
            None => Err((false, "The peer closed the connection.".to_string())),
            Some(Err(WsError::Capacity(CapacityError::MessageTooLong { size, .. }))) => Err((
                true,
                format!(
                    "A message of {size} bytes exceeds the session's {}-byte bound.",
                    options.max_message_bytes
                ),
            )),
            Some(Err(error)) => Err((false, format!("The connection failed: {error}."))),
            Some(Ok(WsMessage::Text(text))) => {
                handle(&shared, text.as_str()).map_err(|e| (true, e))
            }
            Some(Ok(WsMessage::Binary(_))) => Err((
                true,
                "A binary frame arrived; the protocol carries one JSON message per text frame."
                    .to_string(),
            )),
            Some(Ok(WsMessage::Close(frame))) => Err((
                false,
                match frame {
                    Some(frame) if !frame.reason.is_empty() => format!(
                        "The peer closed the connection ({} {}).",
                        u16::from(frame.code),
                        frame.reason
                    ),
                    Some(frame) => format!(
                        "The peer closed the connection ({}).",
                        u16::from(frame.code)
                    ),
                    None => "The peer closed the connection.".to_string(),
                },
            )),
            Some(Ok(_)) => Ok(()),
        };
        if let Err((protocol_error, reason)) = outcome {
            if protocol_error {
                abort(&shared, reason);
            } else {
                break_session(&shared, reason, None);
            }
            return;
        }
    }
}

/// Handles one incoming message. The error is the abort reason.
fn handle(shared: &Arc<Shared>, text: &str) -> Result<(), String> {
    let mut state = shared.state.lock().unwrap();
    if state.broken.is_some() {
        return Ok(());
    }
    // An answer is evaluated as it is read, under the lock: its stubs enter the tables.
    let message = match frame::read(text, &mut state.tables)? {
        Incoming::Answer {
            id,
            rejected,
            value,
        } => return settle_import(shared, state, id, rejected, value),
        Incoming::Message(message) => message,
    };
    let tables = &mut state.tables;
    match message {
        Message::Push(expr) => {
            let id = tables.next_peer_push;
            tables.next_peer_push += 1;
            let call = decode_push(&expr, tables).map_err(|e| e.0)?;
            tables.exports.insert(
                id,
                Export::Answer {
                    pulled: false,
                    settled: None,
                    refcount: 1,
                },
            );
            drop(state);
            let session = shared.clone();
            let started = start_push(shared, call);
            let _ = shared.calls.send(Box::pin(async move {
                let result = started.await;
                complete(&session, id, result);
            }));
        }
        Message::Pull(id) => match tables.exports.get_mut(&id) {
            Some(Export::Answer {
                pulled, settled, ..
            }) => {
                *pulled = true;
                if let Some(text) = settled.clone() {
                    let _ = shared.outgoing.send(Outgoing::Text(text));
                }
            }
            _ => {
                return Err(format!(
                    "A pull names export {id}, which is not a pending call."
                ));
            }
        },
        // `frame::read` evaluates every answer itself; a tree of one is evaluated here.
        Message::Resolve(id, expr) => {
            let value = decode(&expr, tables).map_err(|e| e.0)?;
            return settle_import(shared, state, id, false, value);
        }
        Message::Reject(id, expr) => {
            let value = decode(&expr, tables).map_err(|e| e.0)?;
            return settle_import(shared, state, id, true, value);
        }
        Message::Release(id, count) => tables.release_export(id, count)?,
        Message::Abort(expr) => {
            let reason = match decode(&expr, tables) {
                Ok(WireValue::Error { message, .. }) => message,
                Ok(WireValue::String(text)) => text,
                Ok(other) => other.describe(),
                Err(_) => expr.to_string(),
            };
            drop(state);
            break_session(
                shared,
                format!("The peer aborted the session: {reason}"),
                None,
            );
        }
    }
    Ok(())
}

/// Delivers the answer to one of our imports (a call, or a promise the peer sent).
fn settle_import(
    shared: &Arc<Shared>,
    mut state: std::sync::MutexGuard<'_, State>,
    id: i64,
    rejected: bool,
    value: WireValue,
) -> Result<(), String> {
    let result = if rejected {
        Err(CallError::Rejected(value))
    } else {
        Ok(value)
    };
    let tables = &mut state.tables;
    match tables.imports.remove(&id) {
        Some(Import::Call(tx)) => {
            send(shared, &Message::Release(id, 1));
            drop(state);
            let _ = tx.send(result);
        }
        Some(Import::Promise {
            refcount, waiters, ..
        }) => {
            send(shared, &Message::Release(id, refcount));
            // Kept settled, so every occurrence of the promise in a value reads it.
            tables.imports.insert(
                id,
                Import::Promise {
                    refcount: 0,
                    settled: Some(result.clone()),
                    waiters: Vec::new(),
                },
            );
            drop(state);
            for tx in waiters {
                let _ = tx.send(result.clone());
            }
        }
        Some(stub @ Import::Stub { .. }) => {
            tables.imports.insert(id, stub);
            return Err(format!(
                "A resolve names import {id}, which is a stub, not a promise."
            ));
        }
        // Released already: the answer is dropped (with any stubs it carried).
        None => {}
    }
    Ok(())
}

/// What a push asks for.
enum PushCall {
    /// Call `path` on `target` with `args`.
    Call {
        target: Arc<dyn Target>,
        path: Vec<String>,
        args: Vec<WireValue>,
    },
    /// A push that is not a call: its value is its answer (or the text is its rejection).
    Value(Result<WireValue, String>),
}

fn decode_push(expr: &Value, tables: &mut TableState) -> Result<PushCall, ExpressionError> {
    let Value::Array(parts) = expr else {
        return Ok(PushCall::Value(Ok(decode(expr, tables)?)));
    };
    let is_reference = matches!(
        parts.first().and_then(Value::as_str),
        Some("pipeline" | "import")
    ) && parts.len() >= 3;
    if !is_reference {
        return Ok(PushCall::Value(Ok(decode(expr, tables)?)));
    }
    let malformed = || {
        ExpressionError(format!(
            "Malformed call expression {}.",
            super::message::excerpt(&expr.to_string())
        ))
    };
    let id = parts[1].as_i64().ok_or_else(malformed)?;
    let Value::Array(path) = &parts[2] else {
        return Err(malformed());
    };
    let path: Vec<String> = path
        .iter()
        .map(|part| match part {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            _ => Err(malformed()),
        })
        .collect::<Result<_, _>>()?;
    let args = match parts.get(3) {
        None => None,
        Some(Value::Array(args)) => Some(
            args.iter()
                .map(|arg| decode(arg, tables))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(_) => return Err(malformed()),
    };
    if parts.len() > 4 {
        return Err(malformed());
    }
    let target = match tables.exports.get(&id) {
        Some(Export::Main(target)) | Some(Export::Target { target, .. }) => target.clone(),
        Some(Export::Answer { .. }) => {
            return Ok(PushCall::Value(Err(format!(
                "Pipelining on the answer to push {id} is not supported by this peer; await it first."
            ))));
        }
        None => {
            return Err(ExpressionError(format!(
                "A call targets export {id}, which does not exist."
            )));
        }
    };
    match args {
        Some(args) => Ok(PushCall::Call { target, path, args }),
        None => Ok(PushCall::Value(Err(format!(
            "Reading the property {path:?} without calling it is not supported by this peer."
        )))),
    }
}

/// Runs the peer's calls concurrently, each first polled in the order it arrived: a host
/// function sees concurrent tool calls in the order the program made them, as in process (a
/// task per call would let the scheduler start the newest first).
///
/// The calls belong to the session: once it breaks (however: the peer closed or reset the
/// socket, aborted, broke the protocol, or we closed it) every call still in flight is
/// dropped, which cancels what it was doing (its answer could never be sent).
async fn run_calls(
    mut incoming: mpsc::UnboundedReceiver<BoxFuture<'static, ()>>,
    mut broken: watch::Receiver<Option<String>>,
) {
    let mut running = futures::stream::FuturesUnordered::new();
    loop {
        tokio::select! {
            biased;
            _ = broken.wait_for(Option::is_some) => break,
            call = incoming.recv() => match call {
                Some(call) => running.push(call),
                None => break,
            },
            Some(()) = running.next(), if !running.is_empty() => {}
        }
    }
    drop(running);
    // Calls that arrived after the break are dropped unpolled.
    incoming.close();
    while incoming.try_recv().is_ok() {}
}

/// Starts a push. A call whose arguments hold no promise enters its target here, on the read
/// loop, before any later message is read: a host's tool is dispatched (and its call recorded)
/// before the answer of the run that made the call can arrive, as in process. Arguments that
/// wait for promises are settled on the calls task first.
fn start_push(
    shared: &Arc<Shared>,
    call: PushCall,
) -> BoxFuture<'static, Result<WireValue, WireValue>> {
    match call {
        PushCall::Call { target, path, args } if args.iter().all(holds_no_promise) => {
            target.call(path, args)
        }
        call => {
            let session = shared.clone();
            Box::pin(async move { run_push(&session, call).await })
        }
    }
}

/// Whether `value` is delivered as it is (no promise inside to wait for).
fn holds_no_promise(value: &WireValue) -> bool {
    match value {
        WireValue::Promise(_) => false,
        WireValue::Array(items) => items.iter().all(holds_no_promise),
        WireValue::Object(entries) => entries.iter().all(|(_, v)| holds_no_promise(v)),
        _ => true,
    }
}

async fn run_push(shared: &Arc<Shared>, call: PushCall) -> Result<WireValue, WireValue> {
    match call {
        PushCall::Value(Ok(value)) => settle(shared, value).await.map_err(call_error_value),
        PushCall::Value(Err(text)) => Err(WireValue::error("TypeError", text)),
        PushCall::Call { target, path, args } => {
            let mut settled = Vec::with_capacity(args.len());
            for arg in args {
                settled.push(settle(shared, arg).await.map_err(call_error_value)?);
            }
            target.call(path, settled).await
        }
    }
}

fn call_error_value(error: CallError) -> WireValue {
    match error {
        CallError::Rejected(value) => value,
        CallError::Broken(reason) => WireValue::error("Error", reason),
    }
}

/// Records a push's answer, and sends it if the peer pulled it. The answer is written
/// straight to its message's text, which the export entry and the outgoing frame share: a
/// large answer is held as its value until written, then as one text.
fn complete(shared: &Arc<Shared>, id: i64, result: Result<WireValue, WireValue>) {
    let mut state = shared.state.lock().unwrap();
    if state.broken.is_some() || !state.tables.exports.contains_key(&id) {
        return;
    }
    let (rejected, value) = match result {
        Ok(value) => (false, value),
        Err(value) => (true, strip_stubs(value)),
    };
    let kind = if rejected { "reject" } else { "resolve" };
    let mut text = format!("[\"{kind}\",{id},").into_bytes();
    write_expression(&mut text, &value, &mut state.tables);
    text.push(b']');
    drop(value);
    let text = Utf8Bytes::from(String::from_utf8(text).expect("JSON text is UTF-8"));
    if let Some(Export::Answer {
        pulled, settled, ..
    }) = state.tables.exports.get_mut(&id)
    {
        if *pulled {
            let _ = shared.outgoing.send(Outgoing::Text(text.clone()));
        }
        *settled = Some(text);
    }
}

/// A rejection may not carry stubs: they become `undefined`.
fn strip_stubs(value: WireValue) -> WireValue {
    match value {
        WireValue::Stub(_) | WireValue::Promise(_) => WireValue::Undefined,
        WireValue::Array(items) => WireValue::Array(items.into_iter().map(strip_stubs).collect()),
        WireValue::Object(entries) => WireValue::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k, strip_stubs(v)))
                .collect(),
        ),
        WireValue::Error {
            name,
            message,
            stack,
            props,
        } => WireValue::Error {
            name,
            message,
            stack,
            props: props
                .into_iter()
                .map(|(k, v)| (k, strip_stubs(v)))
                .collect(),
        },
        other => other,
    }
}
