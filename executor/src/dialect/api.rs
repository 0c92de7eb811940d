//! The dialect's entry point: [`CodemodeExecutor`], which validates a call, plans it, runs it
//! on the native executor under the completion guard, and renders the outcome.

use std::sync::Arc;

use super::envelope::EnvelopeDispatch;
use super::guard::CompletionGuard;
use super::module_layout::{start_failure_location, start_failure_message};
use super::normalize::normalize_code;
use super::plan::plan_execution;
use super::render::render_outcome;
use super::types::{
    DEFAULT_TIMEOUT_MS, DEPRECATION_WARNING, ExecuteOptions, ExecuteResult, Provider, Tools,
    WarningSink,
};
use super::validation::{ProviderNames, validate_execution};
use crate::protocol::{ExecuteRequest, Executor, JsValue, Timeout};

/// The dialect's `Executor` over a native executor `N`.
///
/// Guarantees of [`execute`](CodemodeExecutor::execute):
/// - a request refused by validation answers `{result: undefined, error, logs: []}` without
///   touching the native executor;
/// - every native request carries a dispatch, `count_host_waits: true`, and a bound (the
///   call's, or [`with_default_timeout`](CodemodeExecutor::with_default_timeout)'s);
/// - no tool call of one execution is answered with anything but the late-call text once that
///   execution has finished (or its future was dropped).
pub struct CodemodeExecutor<N> {
    native: N,
    default_timeout: Timeout,
    warn: WarningSink,
}

impl<N: Executor> CodemodeExecutor<N> {
    /// Wraps a native executor, with the reference's 60 s default bound and warnings to
    /// stderr.
    pub fn new(native: N) -> Self {
        Self {
            native,
            default_timeout: Timeout::Millis(DEFAULT_TIMEOUT_MS),
            warn: Arc::new(|text| eprintln!("{text}")),
        }
    }

    /// The bound a call gets when its options set none (the reference's constructor
    /// `timeout`).
    pub fn with_default_timeout(mut self, timeout: Timeout) -> Self {
        self.default_timeout = timeout;
        self
    }

    /// Where host-side warnings (the deprecation text) go instead of stderr.
    pub fn with_warning_sink(mut self, sink: WarningSink) -> Self {
        self.warn = sink;
        self
    }

    /// The native executor underneath.
    pub fn native(&self) -> &N {
        &self.native
    }

    /// The dialect's `execute`. `Err` is a rejection of `execute()` itself: a thrown `null`
    /// or `undefined` (whose `message` the reference cannot read), or a native failure.
    ///
    /// `tools` is a [`Tools`], or anything that converts into one: a [`Provider`], a `Vec`
    /// or an array of them.
    pub async fn execute(
        &self,
        code: &str,
        tools: impl Into<Tools>,
        options: ExecuteOptions,
    ) -> Result<ExecuteResult, crate::Error> {
        let providers = match tools.into() {
            Tools::Providers(providers) => providers,
            Tools::Fns(fns) => {
                (self.warn)(DEPRECATION_WARNING);
                let mut provider = Provider::new("codemode");
                provider.fns = fns;
                vec![provider]
            }
        };
        let normalized = normalize_code(code);
        let names: Vec<ProviderNames<'_>> = providers
            .iter()
            .map(|p| ProviderNames {
                name: &p.name,
                tools: p.fns.iter().map(|(raw, _)| raw.as_str()).collect(),
            })
            .collect();
        let connector_names: Vec<&str> =
            options.connectors.iter().map(|c| c.name.as_str()).collect();
        if let Some(error) = validate_execution(&names, &connector_names) {
            return Ok(ExecuteResult {
                result: JsValue::Undefined,
                error: Some(error),
                logs: Vec::new(),
            });
        }
        let plan = plan_execution(&providers, &options.connectors);
        let guard = Arc::new(CompletionGuard::new());
        let _close_on_exit = CloseOnDrop(Arc::clone(&guard));
        let request = ExecuteRequest {
            code: normalized,
            providers: plan.descriptors,
            dispatch: Some(Arc::new(EnvelopeDispatch::new(plan.handlers, guard))),
            count_host_waits: true,
            modules: options.modules,
            timeout: Some(options.timeout.unwrap_or(self.default_timeout)),
            outbound: options.outbound,
        };
        let outcome = match self.native.execute(request).await {
            Ok(outcome) => outcome,
            Err(crate::Error::SyntaxError { text, line, column }) => {
                let location =
                    start_failure_location(&text, line, column, &providers, &options.connectors);
                let text = start_failure_message(&text);
                return Err(crate::Error::StartFailed(format!("{text}{location}")));
            }
            Err(error) => return Err(error),
        };
        render_outcome(outcome)
    }

    /// Releases the native executor.
    pub async fn dispose(&self) {
        self.native.dispose().await
    }
}

/// Closes the execution's guard when `execute` finishes, however it finishes (the
/// reference's `finally { gate.close() }`).
struct CloseOnDrop(Arc<CompletionGuard>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}
