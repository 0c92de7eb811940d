//! The dispatch callback: how a sandbox's tool call reaches the host, and the envelope it
//! gets back.

use std::future::Future;
use std::pin::Pin;

use super::JsValue;

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One tool call, as it leaves the sandbox.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The provider (namespace) the program called through.
    pub provider: String,
    /// The property the program called, as the sandbox spelled it (`String(key)`).
    pub tool: String,
    /// The arguments, as one codec-JSON array (see [`decode_codec_json`](super::decode_codec_json)).
    pub args_json: String,
}

/// What the host answers a tool call with.
///
/// Inside the sandbox the call resolves with `result` unless `error` is a non-empty text, in
/// which case it rejects with `new Error(error)`: the reference reads `if (data.error)`, so
/// an empty error text reads as success with an `undefined` result.
#[derive(Debug, Clone, PartialEq)]
pub enum Envelope {
    /// The call resolves with this value (after the codec's round trip).
    Result(JsValue),
    /// The call rejects with `new Error(text)`.
    Error(String),
}

/// The host side of every tool call a run makes.
pub trait Dispatch: Send + Sync {
    /// Answers one call. The future may outlive the run; the executor then drops it or lets
    /// it finish, but never delivers its answer to a later run.
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope>;
}
