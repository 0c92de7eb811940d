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
//! - [`remote`] (the `remote` feature, on by default): [`remote::RemoteExecutor`], the same
//!   contract served by a daemon over Cap'n Web, and [`remote::ExecutorServer`] that serves it.

pub mod dialect;
pub mod isolate;
pub mod protocol;
#[cfg(feature = "remote")]
pub mod remote;

mod error;

pub use error::{Error, codes};
