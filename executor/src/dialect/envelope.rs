//! Envelope dispatch: the [`Dispatch`] every dialect request carries, answering each call
//! from the plan's handlers under the execution's completion guard.

use std::sync::Arc;

use super::guard::CompletionGuard;
use super::plan::Handlers;
use crate::protocol::{BoxFuture, Dispatch, Envelope, ToolCall};

/// The dispatch of one `execute`: looks each call up in the plan's handlers and answers with
/// the `{result}` or `{error}` envelope, under the execution's [`CompletionGuard`].
pub struct EnvelopeDispatch {
    handlers: Arc<Handlers>,
    guard: Arc<CompletionGuard>,
}

impl EnvelopeDispatch {
    pub fn new(handlers: Handlers, guard: Arc<CompletionGuard>) -> Self {
        Self {
            handlers: Arc::new(handlers),
            guard,
        }
    }
}

impl Dispatch for EnvelopeDispatch {
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope> {
        self.handlers.handle(call, Arc::clone(&self.guard))
    }
}
