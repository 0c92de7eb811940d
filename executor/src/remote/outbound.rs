//! Host-routed outbound across the socket: the host's [`OutboundHandler`] crosses as a live
//! stub (`execute`'s third argument, with the request's `outbound: "stub"`), and the daemon
//! calls it back for every `fetch()` the sandbox makes, as it calls `dispatch` for every tool
//! call.
//!
//! The function is called `outbound(request)` and answers a response object (or rejects,
//! which fails the sandbox's `fetch` with the rejection's message):
//!
//! - `request`: `{method, url, headers: [[name, value], …], body}`: header names lower-cased
//!   and sorted, `body` bytes (`["bytes", base64]`) or `null` when the request has none;
//! - the answer: `{status, statusText?, headers?, body?}`: `status` 200–599; `statusText`
//!   absent means the runtime's default text for the status; `headers` `[[name, value], …]`
//!   or an object of name to string; `body` bytes, a string (sent as UTF-8) or absent/`null`
//!   for an empty body.

use std::sync::Arc;

use super::wire::{CallError, RemoteStub, Stub, Target, WireValue};
use crate::protocol::{BoxFuture, OutboundHandler, OutboundRequest, OutboundResponse};

/// The outbound mode string of host-routed outbound.
pub const STUB_MODE: &str = "stub";

/// The request object the outbound function receives.
pub fn request_to_wire(request: &OutboundRequest) -> WireValue {
    WireValue::Object(vec![
        ("method".into(), WireValue::string(&request.method)),
        ("url".into(), WireValue::string(&request.url)),
        ("headers".into(), pairs_to_wire(&request.headers)),
        (
            "body".into(),
            match &request.body {
                Some(bytes) => WireValue::Bytes {
                    bytes: bytes.clone(),
                    kind: None,
                },
                None => WireValue::Null,
            },
        ),
    ])
}

/// Reads the request object; the text names what is wrong.
pub fn request_from_wire(value: &WireValue) -> Result<OutboundRequest, String> {
    let text = |key: &str| -> Result<String, String> {
        value
            .get(key)
            .and_then(WireValue::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("the outbound request's \"{key}\" must be a string"))
    };
    Ok(OutboundRequest {
        method: text("method")?,
        url: text("url")?,
        headers: pairs_from_wire(value.get("headers"), "the outbound request's \"headers\"")?,
        body: match value.get("body") {
            None | Some(WireValue::Null | WireValue::Undefined) => None,
            Some(WireValue::Bytes { bytes, .. }) => Some(bytes.clone()),
            Some(other) => {
                return Err(format!(
                    "the outbound request's \"body\" must be bytes or null, not {}",
                    other.describe()
                ));
            }
        },
    })
}

/// The response object the outbound function answers.
pub fn response_to_wire(response: &OutboundResponse) -> WireValue {
    WireValue::Object(vec![
        (
            "status".into(),
            WireValue::Number(f64::from(response.status)),
        ),
        (
            "statusText".into(),
            WireValue::string(&response.status_text),
        ),
        ("headers".into(), pairs_to_wire(&response.headers)),
        (
            "body".into(),
            WireValue::Bytes {
                bytes: response.body.clone(),
                kind: None,
            },
        ),
    ])
}

/// Reads the outbound function's answer; the text names what is wrong.
pub fn response_from_wire(value: &WireValue) -> Result<OutboundResponse, String> {
    if !matches!(value, WireValue::Object(_)) {
        return Err(format!(
            "the host's outbound function answered {}, not a response object {{status, statusText?, headers?, body?}}",
            value.describe()
        ));
    }
    let status = match value.get("status") {
        Some(WireValue::Number(n)) if n.fract() == 0.0 && (200.0..=599.0).contains(n) => *n as u16,
        other => {
            return Err(format!(
                "the outbound response's \"status\" must be a whole number from 200 to 599, not {}",
                other.map_or_else(|| "absent".to_string(), WireValue::describe)
            ));
        }
    };
    let mut response = OutboundResponse::new(status);
    match value.get("statusText") {
        None | Some(WireValue::Undefined | WireValue::Null) => {}
        Some(WireValue::String(text)) => response.status_text = text.clone(),
        Some(other) => {
            return Err(format!(
                "the outbound response's \"statusText\" must be a string, not {}",
                other.describe()
            ));
        }
    }
    response.headers =
        pairs_from_wire(value.get("headers"), "the outbound response's \"headers\"")?;
    response.body = match value.get("body") {
        None | Some(WireValue::Undefined | WireValue::Null) => Vec::new(),
        Some(WireValue::Bytes { bytes, .. }) => bytes.clone(),
        Some(WireValue::String(text)) => text.as_bytes().to_vec(),
        Some(other) => {
            return Err(format!(
                "the outbound response's \"body\" must be bytes, a string or null, not {}",
                other.describe()
            ));
        }
    };
    Ok(response)
}

fn pairs_to_wire(pairs: &[(String, String)]) -> WireValue {
    WireValue::Array(
        pairs
            .iter()
            .map(|(name, value)| {
                WireValue::Array(vec![WireValue::string(name), WireValue::string(value)])
            })
            .collect(),
    )
}

/// `[[name, value], …]` or an object of name to string; absent is none.
fn pairs_from_wire(value: Option<&WireValue>, what: &str) -> Result<Vec<(String, String)>, String> {
    let wrong = || format!("{what} must be [[name, value], …] or an object of strings");
    match value {
        None | Some(WireValue::Undefined | WireValue::Null) => Ok(Vec::new()),
        Some(WireValue::Array(items)) => items
            .iter()
            .map(|item| match item {
                WireValue::Array(pair) => match pair.as_slice() {
                    [WireValue::String(name), WireValue::String(value)] => {
                        Ok((name.clone(), value.clone()))
                    }
                    _ => Err(wrong()),
                },
                _ => Err(wrong()),
            })
            .collect(),
        Some(WireValue::Object(entries)) => entries
            .iter()
            .map(|(name, value)| match value {
                WireValue::String(value) => Ok((name.clone(), value.clone())),
                _ => Err(wrong()),
            })
            .collect(),
        Some(_) => Err(wrong()),
    }
}

/// The daemon's side: the host's outbound function, called back over the socket for every
/// request the sandbox makes.
pub struct RemoteOutbound {
    pub(crate) stub: RemoteStub,
}

impl OutboundHandler for RemoteOutbound {
    fn fetch(
        &self,
        request: OutboundRequest,
    ) -> BoxFuture<'static, Result<OutboundResponse, String>> {
        // Sent now, in the order the sandbox made its requests.
        let answer = self.stub.call_now(vec![request_to_wire(&request)]);
        Box::pin(async move {
            match answer.await {
                Ok(value) => response_from_wire(&value),
                Err(CallError::Rejected(WireValue::Error { message, .. })) => Err(message),
                Err(CallError::Rejected(other)) => Err(other.describe()),
                Err(CallError::Broken(reason)) => {
                    Err(format!("The outbound request failed: {reason}"))
                }
            }
        })
    }
}

/// The host's side: its outbound handler, exported to the daemon as a function
/// `(request)` answering the response object.
pub struct OutboundTarget {
    pub(crate) handler: Arc<dyn OutboundHandler>,
}

impl OutboundTarget {
    /// The handler as the stub `execute`'s third argument carries.
    pub fn stub(handler: Arc<dyn OutboundHandler>) -> WireValue {
        WireValue::Stub(Stub::Local(Arc::new(OutboundTarget { handler })))
    }
}

impl Target for OutboundTarget {
    fn call(
        &self,
        path: Vec<String>,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>> {
        let request = match (path.is_empty(), args.as_slice()) {
            (true, [request]) => request_from_wire(request),
            _ => Err("The outbound function takes one argument, the request object.".into()),
        };
        let request = match request {
            Ok(request) => request,
            Err(text) => {
                return Box::pin(async move { Err(WireValue::error("TypeError", text)) });
            }
        };
        let future = self.handler.fetch(request);
        Box::pin(async move {
            use futures::FutureExt;
            match std::panic::AssertUnwindSafe(future).catch_unwind().await {
                Ok(Ok(response)) => Ok(response_to_wire(&response)),
                Ok(Err(text)) => Err(WireValue::error("Error", text)),
                Err(_) => Err(WireValue::error("Error", "The outbound handler panicked.")),
            }
        })
    }
}
