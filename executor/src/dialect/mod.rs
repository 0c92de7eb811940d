//! The `@cloudflare/codemode` dialect over any native executor.
//!
//! [`CodemodeExecutor`] implements the dialect's `execute(code, providersOrFns, options?)`
//! over anything implementing [`protocol::Executor`](crate::protocol::Executor), and owns
//! every convention the dialect never declares:
//!
//! - [`tool_name`]: the identifier a tool is exposed under, and the collision text;
//! - [`validation`]: the provider and connector name rules and their texts;
//! - [`normalize`]: the shapes of raw model output that become a runnable arrow;
//! - `plan` (internal): the descriptors that cross and the handlers that stay, connector
//!   markers ([`CONNECTOR_CONTROL_KEY`], [`PAUSE_SENTINEL`]);
//! - `types` (internal, re-exported here): the values `execute` takes and answers with;
//! - `guard` (internal): the completion guard bounding every call to one `execute` (a
//!   panicking tool answers [`PANIC_MESSAGE`]);
//! - `envelope` (internal): the dispatch answering each call from the plan's handlers;
//! - [`render`]: log prefixes and the rendering of errors;
//! - [`module_layout`]: where the program sits in the reference's generated module, for the
//!   location a syntax error reports;
//! - typed tools ([`tool()`], [`tool_positional`], [`ToolError`]) and the builders
//!   ([`Provider::new`], [`ExecuteOptions::new`], [`Connector::new`]).

mod api;
mod builders;
pub(crate) mod envelope;
pub(crate) mod guard;
pub mod module_layout;
pub mod normalize;
pub(crate) mod plan;
pub mod render;
pub mod tool_name;
mod typed;
mod types;
pub mod validation;

pub use api::CodemodeExecutor;
pub use guard::PANIC_MESSAGE;
pub use normalize::{normalize_code, normalize_code_upstream};
pub use plan::{CONNECTOR_CONTROL_KEY, PAUSE_SENTINEL};
pub use tool_name::sanitize_tool_name;
pub use typed::{Tool, ToolError, tool, tool_positional};
pub use types::{
    Connector, ConnectorBinding, DEFAULT_TIMEOUT_MS, DEPRECATION_WARNING, ExecuteOptions,
    ExecuteResult, Provider, Thrown, ToolFn, Tools, WarningSink,
};
