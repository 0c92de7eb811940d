//! The dispatch callback: how a sandbox's tool call reaches the host, and the envelope it
//! gets back.

use std::future::Future;
use std::pin::Pin;

use super::{CodecError, JsValue, decode_codec_json, encode_codec_json};

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

impl Envelope {
    /// The envelope as the sandbox's dispatch promise receives it, in codec JSON:
    /// `{"result":…}` (`{}` for an `undefined` result), or `{"error":"…"}`. A result the
    /// codec refuses (a BigInt) becomes the codec's error text.
    pub fn to_json(&self) -> String {
        match self {
            Envelope::Result(value) => match encode_codec_json(value) {
                Ok(Some(json)) => format!("{{\"result\":{json}}}"),
                Ok(None) => "{}".into(),
                Err(e) => serde_json::json!({ "error": e.0 }).to_string(),
            },
            Envelope::Error(text) => serde_json::json!({ "error": text }).to_string(),
        }
    }

    /// Reads an envelope back from [`to_json`](Envelope::to_json)'s form. A string `error`
    /// (even empty) is an [`Envelope::Error`]; a truthy non-string `error` is rendered as
    /// `String()` renders it, as the sandbox's `new Error(data.error)` would; otherwise the
    /// `result` (absent: `undefined`) after the codec's decoding.
    pub fn from_json(text: &str) -> Result<Envelope, CodecError> {
        // The codec's own reader: a lone surrogate escape (`"\ud83d"`) in a result or an
        // error reads as that code unit (serde_json refuses it).
        let envelope = decode_codec_json(text)
            .map_err(|e| CodecError(format!("The envelope is not JSON: {}", e.0)))?;
        let JsValue::Object(entries) = envelope else {
            return Err(CodecError(format!(
                "The envelope is not a JSON object: {text}"
            )));
        };
        let field = |key: &str| entries.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        match field("error") {
            Some(JsValue::String(error)) => {
                return Ok(Envelope::Error(error.to_text().into_owned()));
            }
            Some(other) if other.is_truthy() => {
                return Ok(Envelope::Error(other.to_js_string()));
            }
            _ => {}
        }
        Ok(Envelope::Result(
            field("result").cloned().unwrap_or(JsValue::Undefined),
        ))
    }
}

/// The host side of every tool call a run makes.
pub trait Dispatch: Send + Sync {
    /// Answers one call. The future may outlive the run; the executor then drops it or lets
    /// it finish, but never delivers its answer to a later run.
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope>;
}
