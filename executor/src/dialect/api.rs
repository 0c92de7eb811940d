//! The dialect's public surface: [`CodemodeExecutor`] and the types its `execute` takes and
//! answers with.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::envelope::{CompletionGuard, EnvelopeDispatch};
use super::module_layout::start_location;
use super::normalize::normalize_code;
use super::plan::plan_execution;
use super::render::render_outcome;
use super::validation::{ProviderNames, validate_execution};
use crate::protocol::{BoxFuture, ExecuteRequest, Executor, JsValue, Outbound, Timeout};

/// A host tool function: it receives every argument the call sent, decoded from the codec,
/// and resolves or rejects.
pub type ToolFn =
    Arc<dyn Fn(Vec<JsValue>) -> BoxFuture<'static, Result<JsValue, Thrown>> + Send + Sync>;

/// What a host function rejected with.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Thrown {
    /// An `Error`, by its message (the dialect reads `err.message`).
    Error(String),
    /// Any other value (the dialect reads `String(value)`).
    Value(JsValue),
}

/// A namespace of host tools (the dialect's `ResolvedProvider`, widened with the native
/// descriptor's `positional_args` and `proxy_source`).
///
/// Built with [`Provider::new`] and its setters; the fields stay readable.
#[derive(Clone)]
#[non_exhaustive]
pub struct Provider {
    /// The global the program calls through (`weather` in `weather.get_weather()`).
    pub name: String,
    /// Raw tool names (any string) and their functions, in declaration order.
    pub fns: Vec<(String, ToolFn)>,
    /// Raw JavaScript run in the sandbox after the proxies are bound.
    pub prelude: Option<String>,
    /// `Some(false)`: a call sends its first argument only. Otherwise every argument
    /// crosses.
    pub positional_args: Option<bool>,
    /// Source of the provider's own proxy, replacing the generated one.
    pub proxy_source: Option<String>,
}

/// The second argument of `execute`: an array of providers, or the older bare record of
/// functions, which is wrapped as one provider named `codemode` after a deprecation warning.
///
/// A [`Provider`], a `Vec` or an array of them converts into `Tools::Providers`.
#[derive(Clone)]
pub enum Tools {
    /// Namespaces of tools (`ResolvedProvider[]`).
    Providers(Vec<Provider>),
    /// The deprecated bare record of functions, by raw name.
    Fns(Vec<(String, ToolFn)>),
}

/// A connector's binding: every call of `connector.<tool>(arg, ...)` reaches
/// `call_tool(tool, arg)` with the first argument only.
///
/// An async closure `Fn(String, JsValue) -> impl Future<Output = Result<JsValue, Thrown>>` is
/// a binding. Resolving with the control marker `{"__codemode_control__": "pause"}` rejects
/// the call with [`PAUSE_SENTINEL`](super::PAUSE_SENTINEL), and
/// `{"__codemode_control__": "error", "message": …}` with `String(message)`.
pub trait ConnectorBinding: Send + Sync {
    /// Answers `connector.<tool>(arg)`; `arg` is `undefined` for a call without arguments.
    fn call_tool(&self, tool: String, arg: JsValue) -> BoxFuture<'static, Result<JsValue, Thrown>>;
}

/// A named connector, built with [`Connector::new`].
#[derive(Clone)]
#[non_exhaustive]
pub struct Connector {
    /// The global the program calls through.
    pub name: String,
    /// Where every call goes.
    pub binding: Arc<dyn ConnectorBinding>,
}

/// The third argument of `execute`: the dialect's `connectors`, plus `modules`, `timeout` and
/// `outbound` (the extension: upstream takes those three at construction). `outbound` is the
/// reference's `globalOutbound`: `None` or [`Outbound::Blocked`] blocks `fetch` with the
/// reference's text, [`Outbound::Host`] routes every `fetch` through the host's handler.
///
/// Built with [`ExecuteOptions::new`] (or `default()`) and its setters; the fields stay
/// readable.
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct ExecuteOptions {
    /// Connectors, each bound as a global whose every property is a tool.
    pub connectors: Vec<Connector>,
    /// Modules the program may import, by exact name. `None`: no module map.
    pub modules: Option<BTreeMap<String, String>>,
    /// The run's bound. `None`: the executor's default (see
    /// [`CodemodeExecutor::with_default_timeout`]).
    pub timeout: Option<Timeout>,
    /// What `fetch` may reach. `None`: the native executor's default (blocked).
    pub outbound: Option<Outbound>,
}

/// What `execute` resolves with: `{result, error?, logs?}`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ExecuteResult {
    /// What the program resolved with; `undefined` when it failed (see
    /// [`result_as`](ExecuteResult::result_as) to read it as a Rust type).
    pub result: JsValue,
    /// Why the run failed, as the dialect reports it (`"Execution timed out"`, a thrown
    /// error's message); `None` on success.
    pub error: Option<String>,
    /// The rendered log lines (`[warn] `, `[error] ` prefixes). Empty where the call was
    /// refused before anything ran.
    pub logs: Vec<String>,
}

/// The reference's deprecation text for a bare functions record, written to the host's
/// warning sink (never into a run's logs).
pub const DEPRECATION_WARNING: &str = "[@cloudflare/codemode] Passing raw fns to executor.execute() is deprecated. Use ResolvedProvider[] instead. This will be removed in the next major version.";

/// The reference's default bound (`DEFAULT_DYNAMIC_WORKER_EXECUTION_TIMEOUT_MS`, 0.4.2 on).
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;

/// Where host-side warnings go (the reference's `console.warn` on the host).
pub type WarningSink = Arc<dyn Fn(&str) + Send + Sync>;

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
                let location = start_location(line, column, &providers, &options.connectors);
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
