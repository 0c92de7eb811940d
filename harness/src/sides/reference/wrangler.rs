//! One `wrangler dev` process for a column, on free loopback ports, supervised like every
//! process the harness starts ([`crate::sides::process`]).
//!
//! It serves the column's worker as wrangler bundled it once ([`super::bundle`]), with
//! `--no-bundle`, so a start neither bundles nor watches the sources. wrangler's
//! command-line program runs in the one node process ([`Toolchain::wrangler_cli`]). It logs
//! warnings and errors only: at its default level every request's line goes from workerd
//! to node and on to the harness, which reads nothing in it; the line saying workerd crashed
//! is a warning. It writes no debug log file (`WRANGLER_WRITE_LOGS=false`): by default
//! wrangler appends every message between workerd's inspector and itself to a file in the
//! user's home.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use tokio::process::Command;

use super::toolchain::Toolchain;
use crate::sides::process::{LineCounter, Supervised, free_port};

/// What wrangler prints when workerd died under it and it starts a new one.
const RUNTIME_CRASHED: &str = "The Workers runtime crashed unexpectedly";

/// A running `wrangler dev`.
pub struct Wrangler {
    pub process: Supervised,
    pub port: u16,
}

impl Wrangler {
    /// Starts `wrangler dev` for one config serving the bundled `script` on free loopback
    /// ports, with its own persist directory, in a new process group. `crashes` counts the
    /// times wrangler reports that its workerd crashed (wrangler then starts a new one by
    /// itself).
    pub fn start(
        toolchain: &Toolchain,
        config: &Path,
        script: &Path,
        persist: &Path,
        crashes: Arc<AtomicU64>,
    ) -> std::io::Result<Wrangler> {
        let port = free_port()?;
        let inspector = free_port()?;
        let mut command = Command::new(&toolchain.node);
        command
            .arg("--no-warnings")
            // Wrangler's node only serves the dev session; a small young generation keeps its
            // resident memory about 18 MiB lower at the same CPU (measured on one column:
            // 216 against 234 MiB, 2.2 against 2.1 CPU-s), which keeps the main job's peak
            // process under 256 MiB.
            .arg("--max-semi-space-size=2")
            .arg(toolchain.wrangler_cli())
            .arg("dev")
            .arg(script)
            .arg("--no-bundle")
            .args(["--log-level", "warn"])
            .arg("--config")
            .arg(config)
            .args(["--ip", "127.0.0.1", "--port", &port.to_string()])
            .args(["--inspector-port", &inspector.to_string()])
            .arg("--persist-to")
            .arg(persist)
            .arg("--show-interactive-dev-session=false")
            .current_dir(&toolchain.worker_dir)
            .env("CI", "true")
            .env("WRANGLER_SEND_METRICS", "false")
            .env("WRANGLER_WRITE_LOGS", "false")
            .env("NODE_PATH", toolchain.node_modules());
        Ok(Wrangler {
            process: Supervised::spawn_counting(
                command,
                Some(LineCounter {
                    needle: RUNTIME_CRASHED,
                    count: crashes,
                }),
            )?,
            port,
        })
    }
}

/// Whether wrangler gave up because a port was taken after all (then a retry on other ports
/// succeeds).
pub fn port_taken(output: &str) -> bool {
    output.contains("Address already in use")
}
