//! The `@cloudflare/codemode` dialect over any native executor.
//!
//! [`CodemodeExecutor`] implements the dialect's `execute(code, providersOrFns, options?)`
//! over anything implementing [`protocol::Executor`](crate::protocol::Executor), and owns
//! every convention the dialect never declares:
//!
//! - [`tool_name`]: the identifier a tool is exposed under, and the collision text;
//! - [`validation`]: the provider and connector name rules and their texts;
//! - [`normalize`]: the shapes of raw model output that become a runnable arrow;
//! - [`plan`]: the descriptors that cross and the handlers that stay, connector markers;
//! - [`envelope`]: the dispatch answering each call, under the completion guard;
//! - [`render`]: log prefixes and the rendering of errors;
//! - [`module_layout`]: where the program sits in the reference's generated module, for the
//!   location a syntax error reports.

mod api;
pub mod envelope;
pub mod module_layout;
pub mod normalize;
pub mod plan;
pub mod render;
pub mod tool_name;
pub mod validation;

pub use api::{
    CodemodeExecutor, Connector, ConnectorBinding, DEFAULT_TIMEOUT_MS, DEPRECATION_WARNING,
    ExecuteOptions, ExecuteResult, Provider, Thrown, ToolFn, Tools, WarningSink,
};
pub use normalize::{normalize_code, normalize_code_upstream};
pub use tool_name::sanitize_tool_name;
