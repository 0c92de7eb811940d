//! The executor daemon as the harness runs it: by default the harness's own executable
//! (`codemode-compat serve`, a hidden command serving the executor's server exactly as
//! `codemode-executor serve` does), so a run builds nothing; `CODEMODE_EXECUTOR_BIN` selects a
//! separately built `codemode-executor` instead. Either is started as `<binary> serve` on a
//! loopback port with a fresh bearer token in a private token file, supervised like every
//! process the harness starts ([`crate::sides::process`]): its own process group, stopped on a
//! normal end, an error, a panic, SIGINT/SIGTERM, and killed by the kernel if the harness dies.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tokio::process::Command;

use crate::sides::process::Supervised;

/// The separately built daemon's binary, as cargo names it.
pub const BINARY: &str = "codemode-executor";

/// The harness's binary, which serves the daemon too.
pub const HARNESS_BINARY: &str = "codemode-compat";

/// The one stdout line the daemon prints once it accepts connections, before its URL.
const READY_PREFIX: &str = "codemode-executor listening on ";

/// How long the daemon may take to print its ready line.
const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// Overrides where the daemon binary is taken from.
pub const BINARY_VAR: &str = "CODEMODE_EXECUTOR_BIN";

/// The daemon binary to run: `$CODEMODE_EXECUTOR_BIN`; otherwise the harness's own
/// executable when it is `codemode-compat`; otherwise (a test or bench executable)
/// `codemode-compat` in the profile directory it was built in (above its `deps/`), which
/// cargo builds with every integration test and bench of the harness. Nothing is built here:
/// a missing binary is a sentence saying what to build.
pub fn locate() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os(BINARY_VAR) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "{BINARY_VAR} names {}, which is not a file",
                path.display()
            ))
        };
    }
    let exe = std::env::current_exe()
        .map_err(|e| format!("could not tell where the harness's executable is: {e}"))?;
    if exe.file_stem().and_then(|n| n.to_str()) == Some(HARNESS_BINARY) {
        return Ok(exe);
    }
    let mut profile_dir = exe
        .parent()
        .ok_or("the harness's executable has no directory")?
        .to_path_buf();
    if profile_dir.ends_with("deps") || profile_dir.ends_with("examples") {
        profile_dir.pop();
    }
    let binary = profile_dir.join(HARNESS_BINARY);
    if binary.is_file() {
        Ok(binary)
    } else {
        Err(format!(
            "the executor daemon's executable is missing: {} is not built; run `cargo build -p codemode-compat --bin {HARNESS_BINARY}` (with --release for a release harness) in the workspace, or set {BINARY_VAR} to a `codemode-executor` binary",
            binary.display()
        ))
    }
}

/// A fresh bearer token: 32 random bytes from the kernel, hex.
pub fn fresh_token() -> Result<String, String> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("could not read /dev/urandom for a token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A running daemon.
pub struct Daemon {
    process: Supervised,
    /// `ws://HOST:PORT` (`wss://` when it serves TLS), as the daemon printed it.
    pub url: String,
    /// The bearer token every upgrade must carry.
    pub token: String,
    /// The private directory holding the token file; removed when the daemon stops.
    dir: PathBuf,
}

impl Daemon {
    /// Starts `binary serve --listen LISTEN --token-file FILE ARGS…` with `token` written to a
    /// fresh file only this user can read, and waits for its ready line.
    pub async fn start(
        binary: &Path,
        listen: &str,
        token: &str,
        args: &[String],
    ) -> Result<Daemon, String> {
        let dir = private_dir()?;
        let token_file = dir.join("token");
        write_private(&token_file, token)?;
        let mut command = Command::new(binary);
        command
            .arg("serve")
            .args(["--listen", listen])
            .arg("--token-file")
            .arg(&token_file)
            .args(args);
        let mut process = Supervised::spawn(command).map_err(|e| {
            let _ = std::fs::remove_dir_all(&dir);
            format!("could not start {}: {e}", binary.display())
        })?;
        let started = Instant::now();
        let url = loop {
            if let Some(url) =
                process.find_line(|line| line.strip_prefix(READY_PREFIX).map(str::to_string))
            {
                break url;
            }
            let failure = if let Some(status) = process.exited() {
                Some(format!(
                    "the executor daemon exited before it was ready ({status})"
                ))
            } else if started.elapsed() > READY_TIMEOUT {
                Some(format!(
                    "the executor daemon printed no ready line within {} s",
                    READY_TIMEOUT.as_secs()
                ))
            } else {
                None
            };
            if let Some(failure) = failure {
                // Let the output readers catch up with what it printed before it died.
                tokio::time::sleep(Duration::from_millis(50)).await;
                let tail = process.output_tail();
                process.stop().await;
                let _ = std::fs::remove_dir_all(&dir);
                return Err(format!("{failure}:\n{tail}"));
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        Ok(Daemon {
            process,
            url,
            token: token.to_string(),
            dir,
        })
    }

    /// The file holding the daemon's token (only this user can read it).
    pub fn token_file(&self) -> PathBuf {
        self.dir.join("token")
    }

    /// The `HOST:PORT` the daemon listens on.
    pub fn address(&self) -> &str {
        self.url
            .strip_prefix("wss://")
            .or_else(|| self.url.strip_prefix("ws://"))
            .unwrap_or(&self.url)
    }

    /// The daemon's process group.
    pub fn pgid(&self) -> i32 {
        self.process.pgid()
    }

    /// `Some(status)` once the daemon has exited.
    pub fn exited(&mut self) -> Option<String> {
        self.process.exited()
    }

    /// The last lines the daemon printed (its ready line, one line per connection and per
    /// refusal).
    pub fn output_tail(&self) -> String {
        self.process.output_tail()
    }

    /// Stops the daemon's process group (SIGTERM: it drains, then exits) and removes the
    /// token file.
    pub async fn stop(&mut self) {
        self.process.stop().await;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A fresh directory only this user can enter.
fn private_dir() -> Result<PathBuf, String> {
    use std::os::unix::fs::DirBuilderExt;
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "codemode-daemon-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&dir)
        .map_err(|e| format!("could not create {}: {e}", dir.display()))?;
    Ok(dir)
}

/// Writes a file only this user can read.
fn write_private(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("could not write the token file {}: {e}", path.display()))
}
