//! `codemode-compat`: runs a YAML catalogue of cases on our codemode executor and on the
//! real `DynamicWorkerExecutor` under `wrangler dev`, one column per upstream release,
//! normalizes both outcomes through JSON, diffs them whole, and writes matrix reports.

pub mod baseline;
pub mod catalogue;
pub mod cell;
pub mod compare;
pub mod error;
pub mod explore;
pub mod matrix;
pub mod outbound;
pub mod outcome;
pub mod progress;
pub mod report;
pub mod sampling;
pub mod shard;
pub mod sides;
pub mod stored;
pub mod surface;
pub mod test262;
pub mod tools;
pub mod transitions;
pub mod usage;
pub mod wpt;

pub use error::{Error, Result};
