//! The native contract: what a host hands any native executor, and what it gets back.
//!
//! Nothing here knows about QuickJS or about the dialect. A native executor takes an
//! [`ExecuteRequest`] (an arrow expression, provider descriptors, a [`Dispatch`] callback, and
//! bounds) and answers with an [`Outcome`]: the result as a [`JsValue`], the error if the run
//! failed, and log lines that keep their level.

mod codec;
pub mod convert;
mod dispatch;
mod imports;
pub mod js_string;
mod outbound;
mod outcome;
mod request;
pub mod texts;
mod value;

pub use codec::{CodecError, decode_codec_json, encode_codec_json};
pub use convert::{from_js_value, to_js_value};
pub use dispatch::{BoxFuture, Dispatch, Envelope, Reply, ToolCall, answer_after};
pub use imports::separate_imports;
pub use js_string::{JsString, lone_surrogates_as_text};
pub use outbound::{
    Outbound, OutboundHandler, OutboundRequest, OutboundResponse, default_status_text,
};
pub use outcome::{LogLevel, LogLine, Outcome, RunError};
pub use request::{ExecuteRequest, ProviderDescriptor, Timeout};
pub use value::{Binary, BinaryKind, JsValue, iso_string, number_json, number_to_js_string};

use std::future::Future;

/// A native executor: runs one request in a sandbox of its own and reports the outcome.
///
/// Guarantees every implementation gives:
/// - nothing one execution sets is visible to the next;
/// - every tool call of a run goes through the request's [`Dispatch`], never elsewhere;
/// - the future resolves once the run has settled, timed out or failed, never later than the
///   request's bound plus the executor's own overhead.
pub trait Executor: Send + Sync {
    /// Runs one request.
    fn execute(
        &self,
        request: ExecuteRequest,
    ) -> impl Future<Output = Result<Outcome, crate::Error>> + Send;

    /// Releases whatever the executor holds (its pool, its sockets). Every later
    /// [`execute`](Executor::execute) fails: with [`Error::Disposed`](crate::Error::Disposed)
    /// in process, and for a remote executor with the `CONNECTION_BROKEN` text
    /// `RemoteExecutor is closed`.
    fn dispose(&self) -> impl Future<Output = ()> + Send;
}
