//! Builders with defaults for the dialect's types, so that a host names only what it sets
//! and a field added later breaks no one.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::guard::boxed;
use super::tool_name::sanitize_tool_name;
use super::typed::Tool;
use super::types::{
    Connector, ConnectorBinding, ExecuteOptions, ExecuteResult, Provider, Thrown, Tools,
};
use crate::protocol::{BoxFuture, JsValue, Outbound, Timeout, from_js_value};

impl Provider {
    /// A provider with no tools, no prelude, and the dialect's defaults: every argument
    /// crosses, and the generated proxy is bound.
    ///
    /// The name must be a JavaScript identifier that is not reserved; `execute` refuses the
    /// whole call with a text naming the provider otherwise.
    pub fn new(name: impl Into<String>) -> Self {
        Provider {
            name: name.into(),
            fns: Vec::new(),
            prelude: None,
            positional_args: None,
            proxy_source: None,
        }
    }

    /// Adds a tool under its raw name (any string: `get-weather` is called as
    /// `weather.get_weather`, see [`sanitize_tool_name`]). A typed tool's refusals name it
    /// as the program calls it (`weather.get_weather`). A later tool whose name sanitizes
    /// to the same identifier replaces the earlier one, as a repeated object key does.
    pub fn tool(mut self, name: impl Into<String>, tool: impl Into<Tool>) -> Self {
        let name = name.into();
        let label = format!("{}.{}", self.name, sanitize_tool_name(&name));
        self.fns.push((name, tool.into().into_fn(label)));
        self
    }

    /// JavaScript run in the sandbox after every provider's proxy is bound, before the
    /// program (the dialect's `prelude`).
    pub fn prelude(mut self, source: impl Into<String>) -> Self {
        self.prelude = Some(source.into());
        self
    }

    /// `false`: a call sends its first argument only (the dialect before 0.3.7). `true`, as
    /// when unset: every argument crosses, which [`tool_positional`](super::tool_positional)
    /// needs.
    pub fn positional_args(mut self, positional: bool) -> Self {
        self.positional_args = Some(positional);
        self
    }

    /// The source of the provider's own proxy, replacing the generated one: an expression
    /// evaluated where `__dispatch(provider, tool, argsJson)` is in scope.
    pub fn proxy_source(mut self, source: impl Into<String>) -> Self {
        self.proxy_source = Some(source.into());
        self
    }
}

impl From<Provider> for Tools {
    fn from(provider: Provider) -> Self {
        Tools::Providers(vec![provider])
    }
}

impl From<Vec<Provider>> for Tools {
    fn from(providers: Vec<Provider>) -> Self {
        Tools::Providers(providers)
    }
}

impl<const N: usize> From<[Provider; N]> for Tools {
    fn from(providers: [Provider; N]) -> Self {
        Tools::Providers(providers.into())
    }
}

impl Connector {
    /// A connector named `name` (a JavaScript identifier, like a provider's name) whose
    /// calls reach `binding`: any [`ConnectorBinding`], or an async closure
    /// `|tool: String, arg: JsValue| async move { … }` resolving with
    /// `Result<JsValue, Thrown>`.
    pub fn new(name: impl Into<String>, binding: impl ConnectorBinding + 'static) -> Self {
        Connector {
            name: name.into(),
            binding: Arc::new(binding),
        }
    }

    /// A connector over a binding the host keeps a handle to.
    pub fn shared(name: impl Into<String>, binding: Arc<dyn ConnectorBinding>) -> Self {
        Connector {
            name: name.into(),
            binding,
        }
    }
}

impl<F, Fut> ConnectorBinding for F
where
    F: Fn(String, JsValue) -> Fut + Send + Sync,
    Fut: Future<Output = Result<JsValue, Thrown>> + Send + 'static,
{
    fn call_tool(&self, tool: String, arg: JsValue) -> BoxFuture<'static, Result<JsValue, Thrown>> {
        boxed(self(tool, arg))
    }
}

impl ExecuteOptions {
    /// No connectors, no modules, the executor's default bound, outbound blocked: the same
    /// as [`ExecuteOptions::default`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a connector.
    pub fn connector(mut self, connector: Connector) -> Self {
        self.connectors.push(connector);
        self
    }

    /// Adds a module the program may import by exactly this name (`import { x } from
    /// "name"`, or `await import("name")`).
    pub fn module(mut self, name: impl Into<String>, source: impl Into<String>) -> Self {
        self.modules
            .get_or_insert_with(BTreeMap::new)
            .insert(name.into(), source.into());
        self
    }

    /// The run's bound: a [`Timeout`], or a [`Duration`](std::time::Duration) (whole
    /// milliseconds). The native executor clamps it to its own maximum.
    pub fn timeout(mut self, timeout: impl Into<Timeout>) -> Self {
        self.timeout = Some(timeout.into());
        self
    }

    /// What the sandbox's `fetch` may reach.
    pub fn outbound(mut self, outbound: Outbound) -> Self {
        self.outbound = Some(outbound);
        self
    }
}

impl ExecuteResult {
    /// A result with these parts (for a host's own tests, or a native executor of its own:
    /// `execute` builds every result it answers with).
    pub fn new(result: JsValue, error: Option<String>, logs: Vec<String>) -> Self {
        ExecuteResult {
            result,
            error,
            logs,
        }
    }

    /// The result read as `T` (see [`protocol::convert`](crate::protocol::convert)).
    ///
    /// # Errors
    ///
    /// [`Error::Conversion`](crate::Error::Conversion) where the result does not fit `T`,
    /// naming where and what was wrong.
    pub fn result_as<T: DeserializeOwned>(&self) -> Result<T, crate::Error> {
        from_js_value(self.result.clone())
    }
}
