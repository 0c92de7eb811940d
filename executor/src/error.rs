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
        text: String,
        line: usize,
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
        }
    }
}

impl std::error::Error for Error {}
