//! A reference column's worker, bundled once per release and kept: wrangler's own bundler
//! (`wrangler deploy --dry-run --outdir`, which applies the column's `[alias]` and every other
//! setting of its config) writes the worker a column runs, and each `wrangler dev` of the
//! column then serves that file with `--no-bundle`, so a start spends no bundling and no
//! watching of the sources.
//!
//! The bundle is kept under the state directory with the digest of everything it was made
//! from: the column's config, every file of the worker's sources, and the installed packages
//! (npm's record of the install, `node_modules/.package-lock.json`, which names every
//! package's version, the release and wrangler included). When any of them changes, the
//! digest changes and the bundle is made again.

use std::path::{Path, PathBuf};

use super::toolchain::{Toolchain, tail};
use crate::stored::fnv1a64;

/// The bundled worker's file name in a bundle directory.
pub const SCRIPT: &str = "worker.js";

/// How the harness makes a bundle, part of its digest: a bundle made otherwise is made again.
const MADE: &str = "wrangler deploy --dry-run --outdir, without README.md and worker.js.map";

/// The file holding the digest a bundle was made from.
const KEY: &str = "key";

/// The digest of what a column's bundle is made from: how it is made, its config's text, the
/// worker's source files (every file under `sources`, by path relative to it), and the
/// installed packages' record (`installed`). Each part is fed with its name and length, so no two different
/// sets of inputs run together into one text.
pub fn key(config: &Path, sources: &Path, installed: &Path) -> Result<String, String> {
    let mut text: Vec<u8> = Vec::new();
    let mut feed = |name: &str, bytes: &[u8]| {
        text.extend_from_slice(format!("{name}\0{}\0", bytes.len()).as_bytes());
        text.extend_from_slice(bytes);
    };
    let read = |path: &Path| {
        std::fs::read(path).map_err(|e| format!("could not read {}: {e}", path.display()))
    };
    feed("made", MADE.as_bytes());
    feed("config", &read(config)?);
    feed("installed", &read(installed)?);
    let mut files = Vec::new();
    walk(sources, &mut files)?;
    files.sort();
    for file in files {
        let name = file
            .strip_prefix(sources)
            .unwrap_or(&file)
            .to_string_lossy()
            .into_owned();
        feed(&format!("source {name}"), &read(&file)?);
    }
    Ok(fnv1a64(&text))
}

/// Every file under `dir`, recursively.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("could not list {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("could not list {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            walk(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// The bundled script in `dir` when it was made from `key`; otherwise `build` makes it
/// anew (into a fresh directory beside `dir`, given as its argument, where it must leave
/// [`SCRIPT`]), and the finished directory replaces `dir` whole, so a bundle whose making
/// was cut short is never used.
pub fn cached(
    dir: &Path,
    key: &str,
    build: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<PathBuf, String> {
    let script = dir.join(SCRIPT);
    if std::fs::read_to_string(dir.join(KEY)).is_ok_and(|kept| kept == key) && script.is_file() {
        return Ok(script);
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bundle".into());
    let fresh = dir.with_file_name(format!("{name}.making-{}", std::process::id()));
    let io = |what: &str, path: &Path, e: std::io::Error| {
        format!("could not {what} {}: {e}", path.display())
    };
    let _ = std::fs::remove_dir_all(&fresh);
    std::fs::create_dir_all(&fresh).map_err(|e| io("create", &fresh, e))?;
    if let Err(why) = build(&fresh) {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(why);
    }
    if !fresh.join(SCRIPT).is_file() {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(format!(
            "bundling the worker left no {SCRIPT} in {}",
            fresh.display()
        ));
    }
    std::fs::write(fresh.join(KEY), key).map_err(|e| io("write", &fresh.join(KEY), e))?;
    let _ = std::fs::remove_dir_all(dir);
    if let Err(e) = std::fs::rename(&fresh, dir) {
        // Another harness made the same bundle at the same time: use whichever is there.
        let _ = std::fs::remove_dir_all(&fresh);
        if !(std::fs::read_to_string(dir.join(KEY)).is_ok_and(|kept| kept == key)
            && script.is_file())
        {
            return Err(io("move the bundle to", dir, e));
        }
    }
    Ok(script)
}

/// The bundled worker of the column whose config is `config`, kept in `dir`: made with
/// wrangler when missing or made from other inputs ([`key`]).
pub fn ensure(toolchain: &Toolchain, config: &Path, dir: &Path) -> Result<PathBuf, String> {
    let key = key(
        config,
        &toolchain.worker_dir.join("src"),
        &toolchain.node_modules().join(".package-lock.json"),
    )?;
    cached(dir, &key, |out| bundle(toolchain, config, out))
}

/// Runs wrangler's bundler on the column's config, writing the worker into `out`.
fn bundle(toolchain: &Toolchain, config: &Path, out: &Path) -> Result<(), String> {
    let output = std::process::Command::new(&toolchain.node)
        .arg("--no-warnings")
        .arg(toolchain.wrangler_cli())
        .args(["deploy", "--dry-run", "--outdir"])
        .arg(out)
        .arg("--config")
        .arg(config)
        .current_dir(&toolchain.worker_dir)
        .env("CI", "true")
        .env("WRANGLER_SEND_METRICS", "false")
        .env("WRANGLER_WRITE_LOGS", "false")
        .env("NODE_PATH", toolchain.node_modules())
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            format!(
                "could not run wrangler's bundler with {}: {e}",
                toolchain.node.display()
            )
        })?;
    if !output.status.success() {
        return Err(format!(
            "wrangler could not bundle the worker of {} ({}):\n{}\n{}",
            config.display(),
            output.status,
            tail(&String::from_utf8_lossy(&output.stdout), 10),
            tail(&String::from_utf8_lossy(&output.stderr), 20)
        ));
    }
    for left_out in LEFT_OUT {
        let _ = std::fs::remove_file(out.join(left_out));
    }
    Ok(())
}

/// What the bundler writes beside the script and the bundle leaves out: its README, and the
/// source map, which `wrangler dev` would otherwise load into node to map the stack traces
/// it prints of the worker's exceptions (for the older releases' 2 MB maps, about 90 MB more
/// node at the first exception). What the worker answers is the same either way; the
/// harness reads none of what wrangler prints but the line saying workerd crashed.
const LEFT_OUT: [&str; 2] = ["README.md", "worker.js.map"];

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A scratch directory of its own for each test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "codemode-bundle-{name}-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(dir.join("src/nested")).unwrap();
        std::fs::write(dir.join("config.toml"), "[alias]\n\"x\" = \"x-0.5.2\"\n").unwrap();
        std::fs::write(dir.join("installed.json"), r#"{"codemode-0.5.2":"0.5.2"}"#).unwrap();
        std::fs::write(dir.join("src/worker.js"), "export default {}").unwrap();
        std::fs::write(dir.join("src/nested/tools.js"), "export const a = 1").unwrap();
        dir
    }

    fn key_of(dir: &Path) -> String {
        key(
            &dir.join("config.toml"),
            &dir.join("src"),
            &dir.join("installed.json"),
        )
        .unwrap()
    }

    /// Builds into the bundle directory, counting the builds.
    fn build_counting<'a>(
        builds: &'a Cell<u32>,
        text: &'a str,
    ) -> impl FnOnce(&Path) -> Result<(), String> + 'a {
        move |out: &Path| {
            builds.set(builds.get() + 1);
            std::fs::write(out.join(SCRIPT), text).map_err(|e| e.to_string())
        }
    }

    #[test]
    fn the_key_follows_the_sources_the_release_and_the_config() {
        let dir = scratch("key");
        let first = key_of(&dir);
        assert_eq!(key_of(&dir), first, "the same inputs give the same key");
        std::fs::write(dir.join("src/nested/tools.js"), "export const a = 2").unwrap();
        let source_changed = key_of(&dir);
        assert_ne!(source_changed, first, "a worker source changed");
        std::fs::write(dir.join("src/added.js"), "").unwrap();
        let source_added = key_of(&dir);
        assert_ne!(source_added, source_changed, "a worker source was added");
        std::fs::write(dir.join("installed.json"), r#"{"codemode-0.5.2":"0.5.3"}"#).unwrap();
        let release_changed = key_of(&dir);
        assert_ne!(
            release_changed, source_added,
            "the installed release changed"
        );
        std::fs::write(dir.join("config.toml"), "[alias]\n\"x\" = \"x-0.4.1\"\n").unwrap();
        assert_ne!(key_of(&dir), release_changed, "the config changed");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_kept_bundle_is_used_while_its_key_holds_and_made_again_when_stale() {
        let dir = scratch("cache");
        let bundle = dir.join("bundles/reference-0.5.2");
        let builds = Cell::new(0);
        let key = key_of(&dir);
        let script = cached(&bundle, &key, build_counting(&builds, "one")).unwrap();
        assert_eq!(builds.get(), 1, "nothing kept: bundled");
        assert_eq!(std::fs::read_to_string(&script).unwrap(), "one");
        cached(&bundle, &key, build_counting(&builds, "two")).unwrap();
        assert_eq!(builds.get(), 1, "kept and fresh: not bundled again");
        assert_eq!(std::fs::read_to_string(&script).unwrap(), "one");

        std::fs::write(dir.join("src/worker.js"), "export default { fetch() {} }").unwrap();
        let source_changed = key_of(&dir);
        cached(&bundle, &source_changed, build_counting(&builds, "three")).unwrap();
        assert_eq!(builds.get(), 2, "a source changed: bundled again");
        assert_eq!(std::fs::read_to_string(&script).unwrap(), "three");

        std::fs::write(dir.join("installed.json"), r#"{"codemode-0.5.2":"0.5.3"}"#).unwrap();
        let release_changed = key_of(&dir);
        cached(&bundle, &release_changed, build_counting(&builds, "four")).unwrap();
        assert_eq!(builds.get(), 3, "the release changed: bundled again");
        assert_eq!(std::fs::read_to_string(&script).unwrap(), "four");

        std::fs::remove_file(&script).unwrap();
        cached(&bundle, &release_changed, build_counting(&builds, "five")).unwrap();
        assert_eq!(builds.get(), 4, "the script went missing: bundled again");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_bundling_keeps_nothing_and_says_why() {
        let dir = scratch("failed");
        let bundle = dir.join("bundles/reference-0.5.2");
        let error = cached(&bundle, "k", |_| Err("the bundler failed".into())).unwrap_err();
        assert_eq!(error, "the bundler failed");
        let error = cached(&bundle, "k", |_| Ok(())).unwrap_err();
        assert!(
            error.starts_with("bundling the worker left no worker.js in "),
            "{error}"
        );
        assert!(!bundle.exists(), "nothing kept after a failed bundling");
        let leftovers: Vec<_> = std::fs::read_dir(dir.join("bundles")).unwrap().collect();
        assert!(leftovers.is_empty(), "no scratch directory left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
