//! What a native executor reports back.

use super::JsValue;
use super::texts;

/// How one run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// What the program's promise resolved with; [`JsValue::Undefined`] when it failed.
    pub result: JsValue,
    /// Why the run failed, when it did.
    pub error: Option<RunError>,
    /// Every captured console line, in order, each with its level.
    pub logs: Vec<LogLine>,
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// The program threw (or its promise rejected). `message` is what reading `.message` off
    /// the thrown value gave; `None` where the thrown value was `null` or `undefined`, whose
    /// `message` cannot be read. `thrown` is the thrown value itself, as far as it clones.
    Threw {
        /// What reading `.message` off the thrown value gave.
        message: Option<JsValue>,
        /// The thrown value.
        thrown: JsValue,
    },
    /// The run exceeded its time bound.
    TimedOut {
        /// The bound, in milliseconds.
        bound_ms: u64,
    },
    /// The run exhausted its memory limit.
    OutOfMemory {
        /// The limit, in bytes.
        limit_bytes: usize,
    },
}

impl RunError {
    /// The text a host reads: the thrown message as `String()` renders it (empty where there
    /// is none), or the bound's text.
    pub fn text(&self) -> String {
        match self {
            RunError::Threw {
                message: Some(JsValue::Undefined),
                ..
            }
            | RunError::Threw { message: None, .. } => String::new(),
            RunError::Threw {
                message: Some(message),
                ..
            } => message.to_js_string(),
            RunError::TimedOut { bound_ms } => texts::timeout_text(*bound_ms),
            RunError::OutOfMemory { limit_bytes } => texts::out_of_memory_text(*limit_bytes),
        }
    }
}

/// One console line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// Which console method wrote it.
    pub level: LogLevel,
    /// The arguments rendered and joined with single spaces, without any prefix.
    pub text: String,
}

/// A console line's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogLevel {
    /// `console.log`, `console.info`, `console.debug`.
    Log,
    /// `console.warn`.
    Warn,
    /// `console.error`.
    Error,
}
