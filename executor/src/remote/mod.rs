//! The remote executor: the native contract served over Cap'n Web on a WebSocket.
//!
//! [`RemoteExecutor::connect`] builds a native [`Executor`](crate::protocol::Executor) whose
//! runs happen in an executor daemon elsewhere ([`ExecutorServer`], or the
//! `codemode-executor serve` binary), while the host's dispatch (and its outbound handler)
//! stay in the host's process: they cross the socket as live stubs and the daemon calls them
//! back over the same socket.
//! `CodemodeExecutor` over a `RemoteExecutor` behaves as over the executor the daemon serves.
//!
//! The remote layer knows the executor it serves only as an `Executor`. Modules:
//! - [`wire`]: the Cap'n Web subset (messages, expressions, import and export tables, the
//!   session loop over `tokio-tungstenite`);
//! - [`contract`]: the request, the answer, values and error codes as they cross;
//! - [`outbound`]: the host's outbound handler crossing as a stub, and its request and
//!   response objects;
//! - [`server`]: [`ExecutorServer`], its bounds, refusals and counts;
//! - `stats` (private, re-exported by [`server`]): [`ServerStats`], what the server counts;
//! - `metrics` (private): the server's counts and run durations for a Prometheus scrape;
//! - [`client`]: [`RemoteExecutor`], sessions, rotation and reconnection;
//! - [`tls`]: rustls configurations for `wss://`, the server's from PEM files and the
//!   client's trust.
//!
//! The wire contract, for a third party writing a client or a server, is
//! `docs/remote-protocol.md`.

pub mod client;
pub mod contract;
mod metrics;
pub mod outbound;
pub mod server;
mod stats;
pub mod tls;
pub mod wire;

pub use client::{ConnectOptions, RemoteExecutor};
pub use contract::PROTOCOL_VERSION;
pub use server::{ExecutorServer, ServerOptions, ServerStats, exposure_refusal};
