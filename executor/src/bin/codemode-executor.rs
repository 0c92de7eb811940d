//! `codemode-executor serve`: the executor daemon, an `IsolateExecutor` served over Cap'n Web
//! on a WebSocket (see `docs/remote-protocol.md`); the serving itself is
//! `codemode_executor::daemon`, which documents what the daemon prints and how it stops.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use codemode_executor::daemon::{self, ServeArgs};

#[derive(Parser)]
#[command(name = "codemode-executor", about = "The codemode executor daemon")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve an IsolateExecutor over Cap'n Web on a WebSocket.
    Serve(ServeArgs),
}

fn main() -> ExitCode {
    let Command::Serve(args) = Cli::parse().command;
    daemon::run(args, "codemode-executor")
}
