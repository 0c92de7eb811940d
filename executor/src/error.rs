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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::StartFailed(text) => write!(f, "{text}"),
            Error::Disposed => write!(
                f,
                "The executor has been disposed and accepts no more executions."
            ),
            Error::InvalidRequest(text) => write!(f, "The request is invalid: {text}"),
            Error::Internal(text) => write!(f, "The executor failed internally: {text}"),
            Error::Rejected(text) => write!(f, "{text}"),
            Error::Conversion(text) => write!(f, "{text}"),
        }
    }
}

impl std::error::Error for Error {}
