//! Cap'n Web values: what a message carries once evaluated, the stubs inside it, and what a
//! call over a session answers.
//!
//! A value can hold a stub of the peer's ([`RemoteStub`]), and a stub's calls take and answer
//! values, so the two live here together. A stub reaches its session only through [`Peer`],
//! which the session implements: this file imports nothing of the session, the tables or the
//! codec, and they all import it.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use crate::protocol::BoxFuture;

/// A value as it crosses a Cap'n Web session, after evaluation.
#[derive(Clone, PartialEq)]
pub enum WireValue {
    /// `undefined` (`["undefined"]` on the wire).
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// Any number, `NaN` and the infinities included.
    Number(f64),
    /// A BigInt by its decimal digits.
    BigInt(String),
    /// A string.
    String(String),
    /// An array (escaped as `[[...]]` on the wire).
    Array(Vec<WireValue>),
    /// A plain object, in key order.
    Object(Vec<(String, WireValue)>),
    /// A `Date` by its time value (`NaN` for an invalid date).
    Date(f64),
    /// A byte container; `kind` is the type marker (`None`: the peer sent none, which means a
    /// `Uint8Array`).
    Bytes {
        /// The bytes.
        bytes: Vec<u8>,
        /// The type marker.
        kind: Option<String>,
    },
    /// An error with its extra properties.
    Error {
        /// The error's class name (`Error`, `TypeError`, `ExecutorError`…).
        name: String,
        /// Its message.
        message: String,
        /// Its stack, when the peer sent one.
        stack: Option<String>,
        /// Its own properties (`code`, `retryable`…), in order.
        props: Vec<(String, WireValue)>,
    },
    /// A live reference: to something the peer exported, or to something of ours.
    Stub(Stub),
    /// A promise the peer exported (`["promise", id]`), replaced by its resolution before
    /// the value is delivered (see `Session::settle`).
    Promise(i64),
}

impl fmt::Debug for WireValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireValue::Undefined => write!(f, "undefined"),
            WireValue::Null => write!(f, "null"),
            WireValue::Bool(b) => write!(f, "{b}"),
            WireValue::Number(n) => write!(f, "{n}"),
            WireValue::BigInt(d) => write!(f, "{d}n"),
            WireValue::String(s) => write!(f, "{s:?}"),
            WireValue::Array(items) => f.debug_list().entries(items).finish(),
            WireValue::Object(entries) => f
                .debug_map()
                .entries(entries.iter().map(|(k, v)| (k, v)))
                .finish(),
            WireValue::Date(t) => write!(f, "Date({t})"),
            WireValue::Bytes { bytes, kind } => write!(f, "Bytes({kind:?}, {bytes:?})"),
            WireValue::Error {
                name,
                message,
                props,
                ..
            } => write!(f, "{name}({message:?}, {props:?})"),
            WireValue::Stub(stub) => write!(f, "{stub:?}"),
            WireValue::Promise(id) => write!(f, "Promise({id})"),
        }
    }
}

impl WireValue {
    /// A string value.
    pub fn string(text: impl Into<String>) -> WireValue {
        WireValue::String(text.into())
    }

    /// A plain `Error` with no extra properties.
    pub fn error(name: &str, message: impl Into<String>) -> WireValue {
        WireValue::Error {
            name: name.into(),
            message: message.into(),
            stack: None,
            props: Vec::new(),
        }
    }

    /// The property `key` of an object.
    pub fn get(&self, key: &str) -> Option<&WireValue> {
        match self {
            WireValue::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            WireValue::Error { props, .. } => props.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            WireValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// A short description for error texts: the type and, for scalars, the value.
    pub fn describe(&self) -> String {
        match self {
            WireValue::Undefined => "undefined".into(),
            WireValue::Null => "null".into(),
            WireValue::Bool(b) => format!("the boolean {b}"),
            WireValue::Number(n) => format!("the number {n}"),
            WireValue::BigInt(d) => format!("the bigint {d}"),
            WireValue::String(s) => format!("the string {s:?}"),
            WireValue::Array(_) => "an array".into(),
            WireValue::Object(_) => "an object".into(),
            WireValue::Date(_) => "a date".into(),
            WireValue::Bytes { .. } => "bytes".into(),
            WireValue::Error { .. } => "an error".into(),
            WireValue::Stub(_) => "a stub".into(),
            WireValue::Promise(_) => "a promise".into(),
        }
    }
}

/// Something that can be called over a session: the main object, or a function passed as an
/// argument.
pub trait Target: Send + Sync {
    /// Calls `path` (a method name, or empty for the target itself) with `args`. `Err` is the
    /// rejection value (usually a [`WireValue::Error`]).
    fn call(
        &self,
        path: Vec<String>,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>>;
}

/// A stub inside a value.
#[derive(Clone)]
pub enum Stub {
    /// Something the peer exported to us; calls cross the socket.
    Remote(RemoteStub),
    /// Something of ours: exported when the value is sent, called in place when it comes
    /// back.
    Local(Arc<dyn Target>),
}

impl PartialEq for Stub {
    fn eq(&self, other: &Stub) -> bool {
        match (self, other) {
            (Stub::Remote(a), Stub::Remote(b)) => a.id() == b.id(),
            (Stub::Local(a), Stub::Local(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl fmt::Debug for Stub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stub::Remote(stub) => write!(f, "RemoteStub({})", stub.id()),
            Stub::Local(_) => write!(f, "LocalStub"),
        }
    }
}

/// Why a call over the session did not resolve.
#[derive(Debug, Clone, PartialEq)]
pub enum CallError {
    /// The peer rejected it with this value (usually an error).
    Rejected(WireValue),
    /// The session broke before the answer arrived; the text says why.
    Broken(String),
}

/// The session a [`RemoteStub`] calls and releases through.
pub(crate) trait Peer: Send + Sync {
    /// Sends a call of import `target` (the function itself) now; the future answers it, its
    /// promises settled.
    fn call_now(
        self: Arc<Self>,
        target: i64,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, CallError>>;
    /// Import `id` lost its last handle: release it with its introduction count.
    fn release(&self, id: i64);
}

/// The peer of a stub bound to no session (there is none: the handle never upgrades).
enum Detached {}

impl Peer for Detached {
    fn call_now(
        self: Arc<Self>,
        _: i64,
        _: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, CallError>> {
        match *self {}
    }

    fn release(&self, _: i64) {
        match *self {}
    }
}

/// A stub the peer exported to us. Clones share one import entry; when the last clone is
/// dropped (or [`dispose`](RemoteStub::dispose) is called), the import is released with its
/// introduction count.
#[derive(Clone)]
pub struct RemoteStub {
    inner: Arc<StubInner>,
}

pub(crate) struct StubInner {
    id: i64,
    session: Weak<dyn Peer>,
    disposed: AtomicBool,
}

impl RemoteStub {
    pub(super) fn new(id: i64, session: Weak<dyn Peer>) -> RemoteStub {
        RemoteStub {
            inner: Arc::new(StubInner {
                id,
                session,
                disposed: AtomicBool::new(false),
            }),
        }
    }

    pub(super) fn from_inner(inner: Arc<StubInner>) -> RemoteStub {
        RemoteStub { inner }
    }

    pub(super) fn downgrade(&self) -> Weak<StubInner> {
        Arc::downgrade(&self.inner)
    }

    /// A stub bound to no session: every call fails as broken. For tests of the expression
    /// codec.
    pub fn detached(id: i64) -> RemoteStub {
        RemoteStub::new(id, Weak::<Detached>::new())
    }

    /// The import ID.
    pub fn id(&self) -> i64 {
        self.inner.id
    }

    /// Calls the stub itself (a function) with `args`.
    pub async fn call(&self, args: Vec<WireValue>) -> Result<WireValue, CallError> {
        self.call_now(args).await
    }

    /// Calls the function the stub stands for, sending the call before returning: calls
    /// started one after another reach the peer in that order, however their answers are
    /// awaited.
    pub fn call_now(
        &self,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, CallError>> {
        if self.inner.disposed.load(Ordering::SeqCst) {
            return Box::pin(async { Err(CallError::Broken("The stub was disposed.".into())) });
        }
        let Some(session) = self.inner.session.upgrade() else {
            return Box::pin(async {
                Err(CallError::Broken("The stub's session has ended.".into()))
            });
        };
        session.call_now(self.inner.id, args)
    }

    /// Releases the import now (every clone stops working).
    pub fn dispose(&self) {
        self.inner.release();
    }
}

impl StubInner {
    fn release(&self) {
        if self.disposed.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Some(session) = self.session.upgrade() {
            session.release(self.id);
        }
    }

    pub(super) fn is_disposed(&self) -> bool {
        self.disposed.load(Ordering::SeqCst)
    }
}

impl Drop for StubInner {
    fn drop(&mut self) {
        self.release();
    }
}
