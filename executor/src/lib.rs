//! A codemode executor that speaks the `@cloudflare/codemode` dialect over an embedded QuickJS.
//!
//! Three layers, each knowing only the one beneath it:
//!
//! - [`protocol`]: the native contract any executor implements: the request, provider
//!   descriptors, the dispatch callback and its envelope, the outcome with leveled logs, the
//!   values that cross, and the texts both sides share.
//! - [`isolate`]: [`isolate::IsolateExecutor`], the QuickJS implementation of that contract.
//! - [`dialect`]: [`dialect::CodemodeExecutor`], the dialect's conventions over any native
//!   executor: validation texts, tool names, raw-output normalization, log and error rendering.

pub mod dialect;
pub mod isolate;
pub mod protocol;

mod error;

pub use error::Error;
