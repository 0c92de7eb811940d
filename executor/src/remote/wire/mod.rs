//! The Cap'n Web subset the remote executor speaks, over `tokio-tungstenite`.
//!
//! Any Cap'n Web peer (the npm `capnweb` package in Node, a Worker, a browser) can sit on the
//! other end. What is supported:
//! - framing: WebSocket text frames, one JSON message each (a binary frame aborts);
//! - frames ([`frame`]): an answer evaluated straight from its text, every other message
//!   parsed as a [`Message`];
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
//!
//! `session`, `tables` and `value` import one another, on purpose: their types are one
//! recursive structure. A value can hold a stub of the peer's ([`RemoteStub`]); a stub holds
//! its session, to call and to release through; the session holds its tables; the tables hold
//! the stubs and the calls they handed out, and decode values. Whichever file the stub went
//! to, it would import the tables that import it back: the files divide the structure by what
//! a reader looks for (the session's loop, the reference counts, the expressions), not into
//! layers.

pub mod frame;
pub mod message;
mod session;
mod tables;
pub mod value;

pub use frame::Incoming;
pub use message::Message;
pub use session::{CallError, RemoteStub, Session, SessionOptions, TableCounts, websocket_config};
pub use value::{ExpressionError, Stub, Tables, Target, WireValue, decode, encode, encode_text};
