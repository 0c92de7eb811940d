//! The `@cloudflare/codemode` dialect over any native executor.
//!
//! [`CodemodeExecutor`] implements the dialect's `execute(code, providersOrFns, options?)`
//! over anything implementing [`protocol::Executor`](crate::protocol::Executor), and owns
//! every convention the dialect never declares: validation texts, tool identifiers,
//! raw-output normalization, log prefixes and the rendering of a timed-out run.

mod api;

pub use api::{
    CodemodeExecutor, Connector, ConnectorBinding, ExecuteOptions, ExecuteResult, Provider, Thrown,
    ToolFn, Tools,
};
