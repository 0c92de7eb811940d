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
mod share;
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
pub use share::Share;
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

    /// Runs one request as part of `share`: an executor that queues runs (the isolate
    /// executor's pool) serves the waiting runs of different shares in turn, so one share's
    /// backlog never queues another share's run behind it, while a share alone still gets every
    /// worker. The executor daemon gives each connection a share of its own. The default runs
    /// [`execute`](Executor::execute), ignoring the share.
    /// The executor marks the share started when a worker takes the run; the default marks it
    /// at once.
    fn execute_in_share(
        &self,
        request: ExecuteRequest,
        share: Share,
    ) -> impl Future<Output = Result<Outcome, crate::Error>> + Send {
        share.mark_started();
        self.execute(request)
    }

    /// Releases whatever the executor holds (its pool, its sockets). Every later
    /// [`execute`](Executor::execute) fails: with [`Error::Disposed`](crate::Error::Disposed)
    /// in process, and for a remote executor with the `CONNECTION_BROKEN` text
    /// `RemoteExecutor is closed`.
    fn dispose(&self) -> impl Future<Output = ()> + Send;
}

/// An executor shared behind an `Arc` (a daemon that also reads the executor's own figures)
/// is an executor.
impl<E: Executor> Executor for std::sync::Arc<E> {
    fn execute(
        &self,
        request: ExecuteRequest,
    ) -> impl Future<Output = Result<Outcome, crate::Error>> + Send {
        E::execute(self, request)
    }

    fn execute_in_share(
        &self,
        request: ExecuteRequest,
        share: Share,
    ) -> impl Future<Output = Result<Outcome, crate::Error>> + Send {
        E::execute_in_share(self, request, share)
    }

    fn dispose(&self) -> impl Future<Output = ()> + Send {
        E::dispose(self)
    }
}
