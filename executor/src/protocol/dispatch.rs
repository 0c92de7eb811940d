//! The dispatch callback: how a sandbox's tool call reaches the host, the envelope it gets
//! back, and the [`Reply`] that says when the envelope is there (at once, as a host timer, or
//! later), which the executor's event loop orders answers by.

use std::cell::Cell;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

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

    /// Answers one call with its [`Reply`], resolving as soon as the host has entered the
    /// call (the executor waits for the replies of a batch before it delivers any answer).
    /// By default: [`Reply::first_poll`] of [`dispatch`](Dispatch::dispatch), at once.
    fn reply(&self, call: ToolCall) -> BoxFuture<'static, Reply> {
        let reply = Reply::first_poll(|| self.dispatch(call));
        Box::pin(std::future::ready(reply))
    }
}

/// When a host call's answer is there, as the executor's event loop orders answers (see
/// `docs/event-loop.md`).
pub enum Reply {
    /// There when the call arrived: delivered with the calls answered with it (its batch),
    /// before any timer.
    Now(Envelope),
    /// There when the call arrived, and due this long after the call: a host timer, ordered
    /// with the sandbox's timers by deadline (the loop's clock when the call was made, plus
    /// the delay in whole milliseconds), then by the order timers were set.
    After(Duration, Envelope),
    /// Not there yet: delivered when the future resolves, in the order answers arrive.
    Later(BoxFuture<'static, Envelope>),
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Now(envelope) => f.debug_tuple("Now").field(envelope).finish(),
            Reply::After(delay, envelope) => {
                f.debug_tuple("After").field(delay).field(envelope).finish()
            }
            Reply::Later(_) => f.write_str("Later(<future>)"),
        }
    }
}

thread_local! {
    /// Inside [`Reply::first_poll`]: the delay a host declared with [`answer_after`], if any.
    /// Outside: `None`.
    static DECLARED_DELAY: Cell<Option<Option<Duration>>> = const { Cell::new(None) };
}

/// Declares, from a host tool while its answer is first polled, that the answer is due
/// `delay` after the call: a host timer, as a host's `setTimeout` around its answer is. The
/// tool then answers at once, and the executor holds the answer until the delay has passed
/// on its loop's clock, ordered with the sandbox's timers. `false` when no executor is
/// listening (outside a first poll): the tool should then wait the delay itself.
pub fn answer_after(delay: Duration) -> bool {
    DECLARED_DELAY.with(|declared| match declared.get() {
        Some(_) => {
            declared.set(Some(Some(delay)));
            true
        }
        None => false,
    })
}

impl Reply {
    /// Makes the host's answer and polls it once, in place: ready, it is [`Reply::Now`], or
    /// [`Reply::After`] when the host declared a delay with [`answer_after`] meanwhile;
    /// otherwise [`Reply::Later`] with the future (a declared delay is then ignored). A
    /// panic while making or polling it answers an error envelope saying so.
    pub fn first_poll(make: impl FnOnce() -> BoxFuture<'static, Envelope>) -> Reply {
        let outer = DECLARED_DELAY.with(|declared| declared.replace(Some(None)));
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let mut future = make();
            match future
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()))
            {
                Poll::Ready(envelope) => Ok(envelope),
                Poll::Pending => Err(future),
            }
        }));
        let declared = DECLARED_DELAY
            .with(|declared| declared.replace(outer))
            .flatten();
        match polled {
            Ok(Ok(envelope)) => match declared {
                Some(delay) => Reply::After(delay, envelope),
                None => Reply::Now(envelope),
            },
            Ok(Err(future)) => Reply::Later(future),
            Err(_) => Reply::Now(Envelope::Error(
                "The tool call failed: its dispatch panicked".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_poll_tells_now_after_and_later_apart() {
        let now = Reply::first_poll(|| Box::pin(async { Envelope::Error("x".into()) }));
        assert!(matches!(now, Reply::Now(Envelope::Error(text)) if text == "x"));
        let after = Reply::first_poll(|| {
            Box::pin(async {
                assert!(answer_after(Duration::from_millis(30)));
                Envelope::Result(JsValue::Number(1.0))
            })
        });
        assert!(
            matches!(after, Reply::After(delay, _) if delay == Duration::from_millis(30)),
            "{after:?}"
        );
        let later = Reply::first_poll(|| Box::pin(std::future::pending()));
        assert!(matches!(later, Reply::Later(_)));
        assert!(
            !answer_after(Duration::from_millis(1)),
            "no executor listens here"
        );
    }
}
