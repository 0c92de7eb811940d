//! The dialect's values: what `execute` takes (providers and their tool functions,
//! connectors, options) and what it answers with. Plain data, imported by every other part of
//! the dialect; it imports none of them.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::protocol::{BoxFuture, JsValue, Outbound, Timeout};

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
