//! A `codemode-executor serve` process for the benches that drive the daemon over loopback:
//! started with a token file of its own, its address read from the ready line, killed (and
//! its token directory removed) when dropped.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use codemode_executor::remote::ConnectOptions;

/// A running daemon on a loopback port.
pub struct DaemonProcess {
    child: Child,
    address: String,
    token: String,
    dir: PathBuf,
}

impl DaemonProcess {
    /// Starts `binary serve --listen 127.0.0.1:0 --token-file <a file holding token>`, then
    /// `args`, and waits for its ready line. `RUST_LOG` is `warn`, stderr is discarded.
    pub fn start(binary: &Path, token: &str, args: &[String]) -> DaemonProcess {
        static STARTED: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "bench-daemon-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("a token directory");
        let token_file = dir.join("token");
        std::fs::write(&token_file, token).expect("the token file");
        let mut child = Command::new(binary)
            .args(["serve", "--listen", "127.0.0.1:0", "--token-file"])
            .arg(&token_file)
            .args(args)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", binary.display()));
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the ready line");
        let address = line
            .trim()
            .strip_prefix("codemode-executor listening on ws://")
            .unwrap_or_else(|| panic!("an unexpected ready line: {line:?}"))
            .to_string();
        DaemonProcess {
            child,
            address,
            token: token.to_string(),
            dir,
        }
    }

    /// The daemon's `ws://` URL.
    pub fn url(&self) -> String {
        format!("ws://{}", self.address)
    }

    /// The daemon's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Connect options that carry the daemon's token.
    pub fn options(&self) -> ConnectOptions {
        ConnectOptions {
            headers: vec![("Authorization".into(), format!("Bearer {}", self.token))],
            ..ConnectOptions::default()
        }
    }
}

impl Drop for DaemonProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
