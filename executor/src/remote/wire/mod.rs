//! The Cap'n Web subset the remote executor speaks, over `tokio-tungstenite`.
//!
//! Any Cap'n Web peer (the npm `capnweb` package in Node, a Worker, a browser) can sit on the
//! other end. What is supported:
//! - framing: WebSocket text frames, one JSON message each (a binary frame aborts);
//! - frames ([`frame`]): an answer evaluated straight from its text, every other message
//!   parsed as a [`Message`];
//! - messages ([`message`]): `push`, `pull`, `resolve`, `reject`, `release`, `abort`
//!   (`stream` and `pipe` abort the session with a text saying so);
//! - expressions ([`codec`]): escaped arrays, `undefined`, `inf`/`-inf`/`nan`, `bigint`,
//!   `date`, `bytes` (with its type marker), `error` (with stack and properties), and the
//!   stub forms `export`, `promise`, `import` and `pipeline` (a call on our main object or on
//!   a stub we exported; pipelining on an earlier call's answer is refused for that call);
//! - refcounted import and export tables (`tables`, private), released exactly.
//!
//! Anything else aborts the session with a reason naming it: the peer receives
//! `["abort", ["error", "Error", reason]]` and the socket closes with code 3000.
//!
//! The files are layers, each importing only those below it: [`value`] (values, stubs and
//! call errors; a stub reaches its session through a trait the session implements), then
//! [`codec`] and [`message`], then [`frame`] and the tables, then the session.

pub mod codec;
pub mod frame;
pub mod message;
mod session;
mod tables;
pub mod value;

pub use codec::{ExpressionError, Tables, decode, encode, encode_text};
pub use frame::Incoming;
pub use message::Message;
pub use session::{Session, SessionOptions, TableCounts, websocket_config};
pub use value::{CallError, RemoteStub, Stub, Target, WireValue};
