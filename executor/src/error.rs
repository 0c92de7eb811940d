//! The crate's one error type.

use std::fmt;

/// Why an execution could not produce an outcome at all.
///
/// A program that throws, times out or runs out of memory still produces an
/// [`Outcome`](crate::protocol::Outcome); this error is for the cases where the executor
/// itself refuses or fails, and each message reads as a sentence a host can act on.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The program could not be loaded: it does not parse, or a module it imports statically
    /// is missing. The text is what the runtime reported.
    StartFailed(String),
    /// The program does not parse. `text` is what the runtime reported, as for
    /// [`Error::StartFailed`]; `line` and `column` (1-based) locate the error in the request's
    /// `code`, so that a dialect can point into the module it stands for (the reference's
    /// `at executor.js:57`). Executors that cannot locate an error report `StartFailed`.
    SyntaxError {
        /// What the runtime reported, as [`Error::StartFailed`] carries it.
        text: String,
        /// The 1-based line of the error in the request's `code`.
        line: usize,
        /// The 1-based column of the error on that line.
        column: usize,
    },
    /// The executor was disposed; it accepts no more work.
    Disposed,
    /// A request field is outside what the executor accepts (the text says which).
    InvalidRequest(String),
    /// The executor failed internally; the text says where.
    Internal(String),
    /// The dialect's own `execute()` rejected (for example a thrown `null`, whose `message`
    /// the dialect cannot read). The text is the rejection's message.
    Rejected(String),
    /// A value could not be converted between a [`JsValue`](crate::protocol::JsValue) and a
    /// Rust type (see [`protocol::from_js_value`](crate::protocol::from_js_value)). The text is
    /// a whole sentence naming where in the value and what was wrong.
    Conversion(String),
    /// A failure that carries a code of its own: the remote executor's connection failures
    /// (see [`codes`]), and any code a remote peer sent that this crate does not know, passed
    /// through as it came. `text` is the whole message; `cause`, when there is one, says what
    /// lay underneath (a refused connection, an HTTP status, the peer's abort reason).
    Coded {
        /// The code ([`codes`], or a peer's own).
        code: String,
        /// The whole message, as [`Display`](std::fmt::Display) prints it.
        text: String,
        /// Whether the same request may succeed if sent again.
        retryable: bool,
        /// What lay underneath, when something did.
        cause: Option<String>,
    },
}

/// The codes [`Error::code`] gives. Each is contract: a remote executor sends them on the
/// wire and rebuilds the typed error from them.
pub mod codes {
    /// [`Error::StartFailed`](super::Error::StartFailed).
    pub const START_FAILED: &str = "START_FAILED";
    /// [`Error::Disposed`](super::Error::Disposed).
    pub const DISPOSED: &str = "DISPOSED";
    /// [`Error::InvalidRequest`](super::Error::InvalidRequest).
    pub const INVALID_REQUEST: &str = "INVALID_REQUEST";
    /// [`Error::Internal`](super::Error::Internal).
    pub const INTERNAL: &str = "INTERNAL";
    /// [`Error::Rejected`](super::Error::Rejected).
    pub const REJECTED: &str = "REJECTED";
    /// [`Error::Conversion`](super::Error::Conversion).
    pub const CONVERSION: &str = "CONVERSION";
    /// The WebSocket could not be opened: a bad URL, a refused connection, an HTTP refusal
    /// (401 for a wrong token), or a handshake that failed otherwise.
    pub const CONNECTION_REJECTED: &str = "CONNECTION_REJECTED";
    /// The daemon speaks another protocol version. Never retried.
    pub const PROTOCOL_MISMATCH: &str = "PROTOCOL_MISMATCH";
    /// The connection broke under a call, or the remote executor is closed.
    pub const CONNECTION_BROKEN: &str = "CONNECTION_BROKEN";
    /// The daemon refused an execution because the connection already runs its maximum.
    pub const TOO_MANY_EXECUTIONS: &str = "TOO_MANY_EXECUTIONS";
    /// The daemon is shutting down and refused a new execution.
    pub const SHUTTING_DOWN: &str = "SHUTTING_DOWN";
}

impl Error {
    /// The error's code: one of [`codes`] for this crate's own failures, or the code a remote
    /// peer sent.
    pub fn code(&self) -> Option<&str> {
        Some(match self {
            Error::StartFailed(_) | Error::SyntaxError { .. } => codes::START_FAILED,
            Error::Disposed => codes::DISPOSED,
            Error::InvalidRequest(_) => codes::INVALID_REQUEST,
            Error::Internal(_) => codes::INTERNAL,
            Error::Rejected(_) => codes::REJECTED,
            Error::Conversion(_) => codes::CONVERSION,
            Error::Coded { code, .. } => code,
        })
    }

    /// `true` where the same request may succeed if sent again (a connection that broke, a
    /// concurrency bound); `false` for everything the request itself caused.
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            Error::Coded {
                retryable: true,
                ..
            }
        )
    }

    /// What lay underneath a [`Error::Coded`] failure, when something did.
    pub fn cause(&self) -> Option<&str> {
        match self {
            Error::Coded { cause, .. } => cause.as_deref(),
            _ => None,
        }
    }

    /// `CONNECTION_REJECTED`: `Failed to open WebSocket to <url>`, with why as the cause.
    pub fn connection_rejected(url: &str, cause: impl Into<String>) -> Error {
        Error::Coded {
            code: codes::CONNECTION_REJECTED.into(),
            text: format!("Failed to open WebSocket to {url}"),
            retryable: false,
            cause: Some(cause.into()),
        }
    }

    /// `PROTOCOL_MISMATCH`: `Executor protocol mismatch: client speaks v1, server speaks v2`.
    pub fn protocol_mismatch(client: &str, server: &str) -> Error {
        Error::Coded {
            code: codes::PROTOCOL_MISMATCH.into(),
            text: format!(
                "Executor protocol mismatch: client speaks v{client}, server speaks v{server}"
            ),
            retryable: false,
            cause: None,
        }
    }

    /// `CONNECTION_BROKEN`, retryable: `Executor connection broke during execution`. The call
    /// is never replayed; the next one opens a fresh session.
    pub fn connection_broken(cause: impl Into<String>) -> Error {
        Error::Coded {
            code: codes::CONNECTION_BROKEN.into(),
            text: "Executor connection broke during execution".into(),
            retryable: true,
            cause: Some(cause.into()),
        }
    }

    /// `CONNECTION_BROKEN`, not retryable: `RemoteExecutor is closed` (after `dispose`, and
    /// for an attempt a `dispose` interrupted).
    pub fn remote_closed() -> Error {
        Error::Coded {
            code: codes::CONNECTION_BROKEN.into(),
            text: "RemoteExecutor is closed".into(),
            retryable: false,
            cause: None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::StartFailed(text) | Error::SyntaxError { text, .. } => write!(f, "{text}"),
            Error::Disposed => write!(
                f,
                "The executor has been disposed and accepts no more executions."
            ),
            Error::InvalidRequest(text) => write!(f, "The request is invalid: {text}"),
            Error::Internal(text) => write!(f, "The executor failed internally: {text}"),
            Error::Rejected(text) => write!(f, "{text}"),
            Error::Coded { text, .. } => write!(f, "{text}"),
            Error::Conversion(text) => write!(f, "{text}"),
        }
    }
}

impl std::error::Error for Error {}
