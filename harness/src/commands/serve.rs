//! The executor daemon served by the harness's own executable: `codemode-compat serve` (a
//! hidden command) is `codemode_executor::daemon`, the code path of `codemode-executor serve`,
//! flags included, so the remote column needs nothing built beyond the harness (see
//! `sides::remote::daemon`).

use std::process::ExitCode;

pub use codemode_executor::daemon::ServeArgs as Serve;

/// Serves until SIGTERM or SIGINT, as `codemode-executor serve` does.
pub fn run(args: Serve) -> ExitCode {
    codemode_executor::daemon::run(args, "codemode-compat serve")
}
