//! The Cap'n Web subset the remote executor speaks, over `tokio-tungstenite`.
//!
//! Any Cap'n Web peer (the npm `capnweb` package in Node, a Worker, a browser) can sit on the
//! other end. What is supported:
//! - framing: WebSocket text frames, one JSON message each (a binary frame aborts);
//! - messages ([`message`]): `push`, `pull`, `resolve`, `reject`, `release`, `abort`
//!   (`stream` and `pipe` abort the session with a text saying so);
//! - expressions ([`value`]): escaped arrays, `undefined`, `inf`/`-inf`/`nan`, `bigint`,
//!   `date`, `bytes` (with its type marker), `error` (with stack and properties), and the
//!   stub forms `export`, `promise`, `import` and `pipeline` (a call on our main object or on
//!   a stub we exported; pipelining on an earlier call's answer is refused for that call);
//! - refcounted import and export tables (`tables`, private), released exactly.
//!
//! Anything else aborts the session with a reason naming it: the peer receives
//! `["abort", ["error", "Error", reason]]` and the socket closes with code 3000.

pub mod message;
mod session;
mod tables;
pub mod value;

pub use message::Message;
pub use session::{CallError, RemoteStub, Session, SessionOptions, TableCounts};
pub use value::{ExpressionError, Stub, Tables, Target, WireValue, decode, encode};
