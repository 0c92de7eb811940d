//! Outbound requests: what the sandbox's `fetch` may reach, and the host function that answers
//! it when the host routes `fetch` through itself (the reference's `globalOutbound`).

use std::fmt;
use std::sync::Arc;

use super::BoxFuture;

/// What the sandbox's `fetch` may reach.
///
/// A host routes a sandbox's `fetch` through its own function (an allow-list, credentials the
/// sandbox never sees, a log), never handing the sandbox the network:
///
/// ```
/// use codemode_executor::dialect::{CodemodeExecutor, ExecuteOptions, Tools};
/// use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
/// use codemode_executor::protocol::{
///     BoxFuture, JsValue, Outbound, OutboundRequest, OutboundResponse,
/// };
///
/// // The host's policy: one API, with a credential the program never sees.
/// fn proxy(request: OutboundRequest) -> BoxFuture<'static, Result<OutboundResponse, String>> {
///     Box::pin(async move {
///         let Some(path) = request.url.strip_prefix("https://api.example.com/") else {
///             return Err(format!("{} is not on the allow-list", request.url));
///         };
///         // Here the host would call the API with its own credential; this one answers.
///         let token = "secret";
///         Ok(OutboundResponse::new(200)
///             .header("content-type", "application/json")
///             .body(format!(r#"{{"path":"{path}","authorized":{}}}"#, !token.is_empty())))
///     })
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let executor = CodemodeExecutor::new(IsolateExecutor::new(IsolateOptions::default()));
/// let options = ExecuteOptions::new().outbound(Outbound::host(proxy));
/// let code = r#"async () => {
///     const r = await fetch("https://api.example.com/users/1");
///     const body = await r.json();
///     let refused;
///     try { await fetch("https://elsewhere.test/"); } catch (e) { refused = e.message; }
///     return [r.status, body.path, body.authorized, refused];
/// }"#;
/// let result = executor.execute(code, Tools::Providers(vec![]), options).await.unwrap();
/// assert_eq!(result.error, None);
/// assert_eq!(
///     result.result,
///     JsValue::Array(vec![
///         JsValue::Number(200.0),
///         JsValue::String("users/1".into()),
///         JsValue::Bool(true),
///         JsValue::String("https://elsewhere.test/ is not on the allow-list".into()),
///     ])
/// );
/// executor.dispose().await;
/// # });
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum Outbound {
    /// Every outbound request fails, with the reference's text (`This worker is not
    /// permitted to access the internet via global functions like fetch(). …`).
    #[default]
    Blocked,
    /// Every outbound request goes to this host function, never to the network. The sandbox
    /// follows redirects itself (each hop is one more request to the handler), as the
    /// reference's runtime does with a `globalOutbound` fetcher.
    Host(Arc<dyn OutboundHandler>),
}

impl fmt::Debug for Outbound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outbound::Blocked => f.write_str("Blocked"),
            Outbound::Host(_) => f.write_str("Host(<handler>)"),
        }
    }
}

/// Two modes are equal when both block, or both route to the same handler (the same `Arc`).
impl PartialEq for Outbound {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Outbound::Blocked, Outbound::Blocked) => true,
            (Outbound::Host(a), Outbound::Host(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Outbound {
    /// Routes every `fetch` through `handler`.
    pub fn host(handler: impl OutboundHandler + 'static) -> Self {
        Outbound::Host(Arc::new(handler))
    }
}

/// One request the sandbox's `fetch` made, as the handler receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboundRequest {
    /// The method, upper-cased when it is one of the standard ones (`GET`, `POST`, …), as
    /// the program spelled it otherwise.
    pub method: String,
    /// The absolute URL, serialized.
    pub url: String,
    /// The headers, lower-cased names in sorted order (as `Headers` iterates them). A request
    /// with a body carries `content-length` (or `transfer-encoding: chunked` when the program
    /// gave a stream), as the reference's fetcher sees it.
    pub headers: Vec<(String, String)>,
    /// The body, whole (a streamed body is read to its end first); `None` when the request
    /// has none.
    pub body: Option<Vec<u8>>,
}

/// The handler's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboundResponse {
    /// The status, 200 to 599.
    pub status: u16,
    /// The status text, exactly as the program reads it (`response.statusText`).
    pub status_text: String,
    /// The headers, in any order and case (the sandbox lower-cases and sorts them).
    pub headers: Vec<(String, String)>,
    /// The body (the program may read it whole or as a stream).
    pub body: Vec<u8>,
}

impl OutboundResponse {
    /// A response with `status`, the status text the reference's runtime gives a response
    /// built without one ([`default_status_text`]), no headers and an empty body.
    pub fn new(status: u16) -> Self {
        Self {
            status,
            status_text: default_status_text(status).to_string(),
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Sets the body.
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }
}

/// The host side of every `fetch` a run makes in [`Outbound::Host`] mode.
///
/// An `Err(text)` fails the sandbox's `fetch` with `new Error(text)`, as a fetcher that
/// throws does on the reference. The future may outlive the run (a handler that never
/// answers is bounded by the run's clock); the executor then drops it, and its answer is
/// never delivered to a later run.
pub trait OutboundHandler: Send + Sync {
    /// Answers one request.
    fn fetch(
        &self,
        request: OutboundRequest,
    ) -> BoxFuture<'static, Result<OutboundResponse, String>>;
}

impl<F> OutboundHandler for F
where
    F: Fn(OutboundRequest) -> BoxFuture<'static, Result<OutboundResponse, String>> + Send + Sync,
{
    fn fetch(
        &self,
        request: OutboundRequest,
    ) -> BoxFuture<'static, Result<OutboundResponse, String>> {
        self(request)
    }
}

/// The status text workerd's `Response` carries across a fetcher when it was built without
/// one: the registered reason phrase, else the status class's name (measured on the
/// reference for every status 200–599; 425 has no phrase there).
pub fn default_status_text(status: u16) -> &'static str {
    reason_phrase(status).unwrap_or(match status {
        100..=199 => "Informational",
        200..=299 => "Successful",
        300..=399 => "Redirection",
        400..=499 => "Client Error",
        _ => "Server Error",
    })
}

/// The registered reason phrase of a status, as workerd knows it.
fn reason_phrase(status: u16) -> Option<&'static str> {
    Some(match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        205 => "Reset Content",
        206 => "Partial Content",
        207 => "Multi-Status",
        208 => "Already Reported",
        226 => "IM Used",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        305 => "Use Proxy",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        407 => "Proxy Authentication Required",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Payload Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        416 => "Range Not Satisfiable",
        417 => "Expectation Failed",
        418 => "I'm a teapot",
        421 => "Misdirected Request",
        422 => "Unprocessable Entity",
        423 => "Locked",
        424 => "Failed Dependency",
        426 => "Upgrade Required",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        451 => "Unavailable For Legal Reasons",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        506 => "Variant Also Negotiates",
        507 => "Insufficient Storage",
        508 => "Loop Detected",
        510 => "Not Extended",
        511 => "Network Authentication Required",
        _ => return None,
    })
}
