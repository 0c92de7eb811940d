//! Run model-written JavaScript as Cloudflare's `@cloudflare/codemode` executor does, in an
//! embedded QuickJS, with your host's tools.
//!
//! A model writes an async arrow that calls tools; the executor runs it in a fresh sandbox,
//! answers each tool call from your Rust functions, and hands back the result, the error
//! and the console lines, exactly as the dialect's `DynamicWorkerExecutor` reports them.
//!
//! ```
//! use codemode_executor::{CodemodeExecutor, ExecuteOptions, IsolateExecutor, Provider, ToolError, tool};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize)]
//! struct Args { city: String }
//!
//! #[derive(Serialize)]
//! #[serde(rename_all = "camelCase")]
//! struct Weather { city: String, temp_c: f64 }
//!
//! #[derive(Deserialize, Debug, PartialEq)]
//! struct Report { city: String, warm: bool }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), codemode_executor::Error> {
//!     // One executor for the process: a pool of QuickJS workers, each run in a fresh sandbox.
//!     let executor = CodemodeExecutor::new(IsolateExecutor::default());
//!
//!     // A provider is a global in the sandbox; `get-weather` is called as `weather.get_weather`.
//!     let weather = Provider::new("weather").tool("get-weather", tool(|args: Args| async move {
//!         if args.city.is_empty() {
//!             return Err(ToolError::new("Which city?"));
//!         }
//!         Ok(Weather { city: args.city, temp_c: 21.5 })
//!     }));
//!
//!     // A program as a model writes it, and what it resolves with, read as a Rust type.
//!     let code = r#"async () => {
//!         const w = await weather.get_weather({ city: "Paris" });
//!         console.log("fetched", w.city);
//!         return { city: w.city, warm: w.tempC > 20 };
//!     }"#;
//!     let outcome = executor.execute(code, weather.clone(), ExecuteOptions::new()).await?;
//!     assert_eq!(outcome.error, None);
//!     assert_eq!(outcome.logs, ["fetched Paris"]);
//!     assert_eq!(outcome.result_as::<Report>()?, Report { city: "Paris".into(), warm: true });
//!
//!     // A run that fails is an outcome too: its error is a text, and its logs are kept.
//!     let code = r#"async () => {
//!         console.warn("asking without a city");
//!         return await weather.get_weather({ city: "" });
//!     }"#;
//!     let outcome = executor.execute(code, weather, ExecuteOptions::new()).await?;
//!     assert_eq!(outcome.error.as_deref(), Some("Which city?"));
//!     assert_eq!(outcome.logs, ["[warn] asking without a city"]);
//!     Ok(())
//! }
//! ```
//!
//! `execute` answers `Err` only where the executor itself refuses (see [`Error`]); a program
//! that throws, times out or runs out of memory answers `Ok` with
//! [`error`](ExecuteResult::error) set. More in `examples/`: connectors, a module map, time
//! and memory bounds, reading errors.
//!
//! # Layers
//!
//! The native contract and three layers over it; each layer knows the contract and none
//! knows another's insides:
//!
//! - [`protocol`]: the native contract any executor implements: the request, provider
//!   descriptors, the dispatch callback and its envelope, the outcome with leveled logs, the
//!   values that cross, and the texts both sides share.
//! - [`isolate`]: [`isolate::IsolateExecutor`], the QuickJS implementation of that contract.
//! - [`dialect`]: [`dialect::CodemodeExecutor`], the dialect's conventions over any native
//!   executor: validation texts, tool names, raw-output normalization, log and error rendering.
//! - [`remote`] (the `remote` feature, on by default): [`remote::RemoteExecutor`], the same
//!   contract served by a daemon over Cap'n Web, and [`remote::ExecutorServer`] that serves it.
//! - [`daemon`] (the `remote` feature): the daemon itself, an `IsolateExecutor` behind an
//!   `ExecutorServer`, with its flags; `codemode-executor serve` is this module.
//!
//! [`js_words`] holds the words JavaScript reserves, in the sets the dialect's name rules and
//! the isolate's syntax-error texts read.
//!
//! The items a host needs first are re-exported here.
//!
//! # The engine
//!
//! Programs run on QuickJS (quickjs-ng) through rquickjs 0.14, with a patch series that makes
//! the engine word its errors as V8 does and lets a used sandbox be restored. The patched
//! engine is its own crates, `codemode-quickjs-sys` (rquickjs-sys plus the series),
//! `codemode-rquickjs-core`, `codemode-rquickjs-macro` and `codemode-rquickjs`, ordinary
//! dependencies of this one: a host needs no `[patch]` to get the texts this crate's tests
//! check. The patches and how they are reapplied live in the repository's `vendor/`
//! directory (`vendor/README.md` there).

#[cfg(feature = "remote")]
pub mod daemon;
pub mod dialect;
pub mod isolate;
pub mod js_words;
pub mod protocol;
#[cfg(feature = "remote")]
pub mod remote;

mod error;

pub use dialect::{
    CodemodeExecutor, Connector, ExecuteOptions, ExecuteResult, Provider, Thrown, Tool, ToolError,
    ToolFn, Tools, tool, tool_positional,
};
pub use error::{Error, codes};
pub use isolate::{IsolateExecutor, IsolateOptions};
pub use protocol::{JsValue, Outbound, Timeout, from_js_value, to_js_value};

/// The crate README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
