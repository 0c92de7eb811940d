//! The dialect's public surface.
//!
//! PLACEHOLDER BODIES: the types are the contract the harness codes against; the bodies are
//! being written under the dialect-adapter issue.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::protocol::{BoxFuture, Executor, JsValue, Outbound, Timeout};

/// A host tool function: it receives every argument the call sent, decoded from the codec,
/// and resolves or rejects.
pub type ToolFn =
    Arc<dyn Fn(Vec<JsValue>) -> BoxFuture<'static, Result<JsValue, Thrown>> + Send + Sync>;

/// What a host function rejected with.
#[derive(Debug, Clone, PartialEq)]
pub enum Thrown {
    /// An `Error`, by its message (the dialect reads `err.message`).
    Error(String),
    /// Any other value (the dialect reads `String(value)`).
    Value(JsValue),
}

/// A namespace of host tools (the dialect's `ResolvedProvider`, widened with the native
/// descriptor's `positional_args` and `proxy_source`).
#[derive(Clone)]
pub struct Provider {
    pub name: String,
    /// Raw tool names (any string) and their functions, in declaration order.
    pub fns: Vec<(String, ToolFn)>,
    /// Raw JavaScript run in the sandbox after the proxies are bound.
    pub prelude: Option<String>,
    pub positional_args: Option<bool>,
    pub proxy_source: Option<String>,
}

/// The second argument of `execute`: an array of providers, or the older bare record of
/// functions, which is wrapped as one provider named `codemode` after a deprecation warning.
#[derive(Clone)]
pub enum Tools {
    Providers(Vec<Provider>),
    Fns(Vec<(String, ToolFn)>),
}

/// A connector's binding: every call of `connector.<tool>(arg, ...)` reaches
/// `call_tool(tool, arg)` with the first argument only.
pub trait ConnectorBinding: Send + Sync {
    fn call_tool(&self, tool: String, arg: JsValue) -> BoxFuture<'static, Result<JsValue, Thrown>>;
}

/// A named connector.
#[derive(Clone)]
pub struct Connector {
    pub name: String,
    pub binding: Arc<dyn ConnectorBinding>,
}

/// The third argument of `execute`: the dialect's `connectors`, plus `modules`, `timeout` and
/// `outbound` (the extension: upstream takes those three at construction).
#[derive(Clone, Default)]
pub struct ExecuteOptions {
    pub connectors: Vec<Connector>,
    pub modules: Option<BTreeMap<String, String>>,
    pub timeout: Option<Timeout>,
    pub outbound: Option<Outbound>,
}

/// What `execute` resolves with: `{result, error?, logs?}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecuteResult {
    pub result: JsValue,
    pub error: Option<String>,
    /// The rendered log lines (`[warn] `, `[error] ` prefixes). Empty where the call was
    /// refused before anything ran.
    pub logs: Vec<String>,
}

/// The dialect's `Executor` over a native executor `N`.
pub struct CodemodeExecutor<N> {
    native: N,
}

impl<N: Executor> CodemodeExecutor<N> {
    /// Wraps a native executor.
    pub fn new(native: N) -> Self {
        Self { native }
    }

    /// The dialect's `execute`. `Err` is a rejection of `execute()` itself (its message is
    /// the `threw` of an outcome).
    pub async fn execute(
        &self,
        code: &str,
        tools: Tools,
        options: ExecuteOptions,
    ) -> Result<ExecuteResult, crate::Error> {
        let _ = (code, tools, options, &self.native);
        Err(crate::Error::Internal(
            "the dialect adapter is not written yet".into(),
        ))
    }

    /// Releases the native executor.
    pub async fn dispose(&self) {
        self.native.dispose().await
    }
}
