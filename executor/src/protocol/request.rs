//! What a host hands a native executor.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use super::{Dispatch, Outbound};

/// One execution.
#[derive(Clone, Default)]
pub struct ExecuteRequest {
    /// An arrow expression, optionally preceded by static import declarations (from the
    /// request's module map; without a map, a static import fails to start as it does on the
    /// reference, `Unexpected identifier 'x'`). Nothing rewrites it on the way in.
    pub code: String,
    /// The namespaces the program sees, one proxy object each.
    pub providers: Vec<ProviderDescriptor>,
    /// Where tool calls go. `None` answers every call with
    /// [`tool_not_found`](super::texts::tool_not_found).
    pub dispatch: Option<Arc<dyn Dispatch>>,
    /// `false` (the default): the run clock stops while a tool call is in flight, so only the
    /// sandbox's own time counts. `true`: wall-clock time counts, host waits included, as the
    /// dialect measures it.
    pub count_host_waits: bool,
    /// Modules the program may import, statically or with `import()`, by exact name.
    pub modules: Option<BTreeMap<String, String>>,
    /// The bound. `None`: the executor's default.
    pub timeout: Option<Timeout>,
    /// What `fetch` may reach. `None`: the executor's default, [`Outbound::Blocked`].
    pub outbound: Option<Outbound>,
}

impl fmt::Debug for ExecuteRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExecuteRequest")
            .field("code", &self.code)
            .field("providers", &self.providers)
            .field("dispatch", &self.dispatch.as_ref().map(|_| "<dispatch>"))
            .field("count_host_waits", &self.count_host_waits)
            .field("modules", &self.modules)
            .field("timeout", &self.timeout)
            .field("outbound", &self.outbound)
            .finish()
    }
}

/// A run's time bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// This many milliseconds.
    Millis(u64),
    /// The longest bound the executor allows.
    Maximum,
}

impl From<std::time::Duration> for Timeout {
    /// Whole milliseconds (a fraction is dropped; a bound beyond `u64::MAX` ms saturates).
    fn from(duration: std::time::Duration) -> Self {
        Timeout::Millis(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX))
    }
}

/// One namespace inside the sandbox: a global object whose properties are async functions
/// that call the host.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProviderDescriptor {
    /// The global's name. Validated by the executor as well as by the dialect.
    pub name: String,
    /// The tool identifiers the host declared (already sanitized by the dialect).
    pub tools: Vec<String>,
    /// `Some(false)`: a call sends its first argument only. Otherwise every argument crosses
    /// positionally, as the reference has done since 0.3.7.
    pub positional_args: Option<bool>,
    /// Source of the host's own proxy, replacing the generated one. It is an expression
    /// evaluated where `__dispatch(provider, tool, argsJson)` is in scope.
    pub proxy_source: Option<String>,
    /// Raw JavaScript run after every proxy is bound, before the program (the dialect's
    /// `prelude`, from 0.4.0 on).
    pub prelude: Option<String>,
}
