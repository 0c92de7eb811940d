//! The two sides a case runs on: ours (in process) and the reference (over HTTP).

pub mod ours;
pub mod reference;
