//! The sides a case runs on: ours (in process), the reference (over HTTP), and ours behind
//! the executor daemon (over the remote wire); and the child processes they start.

pub mod ours;
pub mod process;
pub mod reference;
pub mod remote;
