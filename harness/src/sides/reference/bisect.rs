//! Bisection over upstream releases: one case on every published release between two
//! versions, each installed on demand into a scratch directory of its own
//! (`target/bisect/<version>`, an exact `npm install` of that release beside the reference's
//! own `ai` and `zod`) and run under the reference's own Node and wrangler, so that only the
//! upstream release changes from one run to the next. It names the first release whose
//! outcome differs from the first one's, with the diff, and the range where the case's
//! `expect` does not hold: the `skip_on` the case needs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use futures::stream::{self, StreamExt};
use semver::Version;
use serde_json::{Value, json};

use super::ReferenceSide;
use super::columns::{ReferenceColumn, UPSTREAM};
use super::toolchain::{Toolchain, run_npm};
use crate::catalogue::Case;
use crate::compare::{matches_expectation, pretty, render_diff};
use crate::error::{Error, Result};

/// One release's outcome for the case.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The release.
    pub version: Version,
    /// The normalized outcome, or why the release could not run the case.
    pub outcome: Result<Value, String>,
}

impl Step {
    /// Whether the outcome satisfies the case's `expect`.
    pub fn meets(&self, case: &Case) -> bool {
        self.outcome
            .as_ref()
            .is_ok_and(|o| matches_expectation(&case.expect.to_outcome_json(), o).is_ok())
    }

    fn comparable(&self) -> Value {
        match &self.outcome {
            Ok(outcome) => outcome.clone(),
            Err(message) => json!({"the release could not run the case": message}),
        }
    }
}

/// The releases a bisection runs: every published one from `from` to `to`, both included.
pub fn releases_between(published: &[Version], from: &Version, to: &Version) -> Vec<Version> {
    published
        .iter()
        .filter(|v| *v >= from && *v <= to)
        .cloned()
        .collect()
}

/// Prepares `scratch/<version>`: the worker's sources, a wrangler config without aliases and
/// an exact install of the release (skipped when it is already there).
pub fn prepare(reference: &Toolchain, scratch: &Path, version: &Version) -> Result<Toolchain> {
    let dir = scratch.join(version.to_string());
    let src = dir.join("src");
    std::fs::create_dir_all(&src).map_err(|e| Error::io(&src, e))?;
    let sources = reference.worker_dir.join("src");
    for entry in std::fs::read_dir(&sources)
        .map_err(|e| Error::io(&sources, e))?
        .flatten()
    {
        let to = src.join(entry.file_name());
        std::fs::copy(entry.path(), &to).map_err(|e| Error::io(&to, e))?;
    }
    let mut dependencies = serde_json::Map::new();
    dependencies.insert(UPSTREAM.into(), json!(version.to_string()));
    for peer in ["ai", "zod"] {
        if let Some(v) = reference.package_version(peer) {
            dependencies.insert(peer.into(), json!(v));
        }
    }
    let manifest = json!({
        "name": format!("codemode-bisect-{}", version.to_string().replace('.', "-")),
        "private": true,
        "type": "module",
        "dependencies": dependencies,
    });
    let manifest_path = dir.join("package.json");
    let text = serde_json::to_string_pretty(&manifest).expect("a manifest serializes") + "\n";
    std::fs::write(&manifest_path, text).map_err(|e| Error::io(&manifest_path, e))?;
    let config = dir.join("wrangler.toml");
    let toml = format!(
        "# Bisection scratch column: {UPSTREAM} {version}, installed unaliased next to this file.\n\
         name = \"codemode-bisect-{slug}\"\n\
         main = \"src/worker.js\"\n\
         compatibility_date = \"2025-06-01\"\n\
         compatibility_flags = [\"nodejs_compat\", \"enable_ctx_exports\"]\n\
         \n\
         [vars]\n\
         COLUMN = \"{version}\"\n\
         \n\
         [[worker_loaders]]\n\
         binding = \"LOADER\"\n",
        slug = version.to_string().replace('.', "-")
    );
    std::fs::write(&config, toml).map_err(|e| Error::io(&config, e))?;
    let toolchain = Toolchain {
        root: dir.clone(),
        worker_dir: dir.clone(),
        node: reference.node.clone(),
        wrangler: reference.wrangler.clone(),
    };
    if toolchain.package_version(UPSTREAM).as_deref() != Some(&version.to_string()) {
        run_npm(
            &dir,
            &[
                "install",
                "--no-audit",
                "--no-fund",
                "--no-package-lock",
                "--loglevel=error",
            ],
        )?;
    }
    Ok(toolchain)
}

/// Runs the case on one release (installing it first when needed).
pub async fn run_release(
    reference: &Toolchain,
    scratch: &Path,
    case: &Case,
    version: &Version,
) -> Step {
    let outcome = async {
        let owned = reference.clone();
        let scratch_dir = scratch.to_path_buf();
        let v = version.clone();
        let toolchain = tokio::task::spawn_blocking(move || prepare(&owned, &scratch_dir, &v))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let column = ReferenceColumn {
            name: format!("reference@{version}"),
            upstream: version.to_string(),
            wrangler: reference.package_version("wrangler").unwrap_or_default(),
            workerd: reference.package_version("workerd").unwrap_or_default(),
            latest: false,
            config: toolchain.worker_dir.join("wrangler.toml"),
        };
        let state: PathBuf = toolchain.worker_dir.join(".wrangler-state");
        let side = ReferenceSide::start(&toolchain, column, &state, 1)
            .await
            .map_err(|e| e.to_string())?;
        let outcome = side.run(case, &case.code).await;
        side.stop().await;
        outcome
    }
    .await;
    Step {
        version: version.clone(),
        outcome,
    }
}

/// Runs the case on every release, `concurrency` releases at a time, in version order.
pub async fn run(
    reference: &Toolchain,
    scratch: &Path,
    case: &Case,
    releases: &[Version],
    concurrency: usize,
    progress: &(dyn Fn(&Step) + Sync),
) -> Vec<Step> {
    stream::iter(releases)
        .map(|version| async move {
            let step = run_release(reference, scratch, case, version).await;
            progress(&step);
            step
        })
        .buffered(concurrency.max(1))
        .collect()
        .await
}

/// What a bisection found.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The first release whose outcome differs from the first release's, and the diff.
    pub first_change: Option<(Version, String)>,
    /// Every release where the outcome differs from the one before it.
    pub changes: Vec<Version>,
    /// The releases where the case's `expect` does not hold.
    pub failing: Vec<Version>,
    /// The `skip_on` range those releases make, when they are a run at either end.
    pub skip_on: Option<String>,
}

/// Reads the steps: where the outcome first changed, and where `expect` fails.
pub fn judge(case: &Case, steps: &[Step]) -> Finding {
    let Some(first) = steps.first() else {
        return Finding {
            first_change: None,
            changes: Vec::new(),
            failing: Vec::new(),
            skip_on: None,
        };
    };
    let first_change = steps
        .iter()
        .find(|s| s.comparable() != first.comparable())
        .map(|s| {
            (
                s.version.clone(),
                render_diff(
                    &format!("{UPSTREAM}@{}", first.version),
                    &first.comparable(),
                    &format!("{UPSTREAM}@{}", s.version),
                    &s.comparable(),
                ),
            )
        });
    let changes = steps
        .windows(2)
        .filter(|w| w[0].comparable() != w[1].comparable())
        .map(|w| w[1].version.clone())
        .collect();
    let meets: Vec<bool> = steps.iter().map(|s| s.meets(case)).collect();
    let failing: Vec<Version> = steps
        .iter()
        .zip(&meets)
        .filter(|(_, ok)| !**ok)
        .map(|(s, _)| s.version.clone())
        .collect();
    let skip_on = if failing.is_empty() || failing.len() == steps.len() {
        None
    } else if let Some(pass) = meets.iter().position(|ok| *ok)
        && meets[pass..].iter().all(|ok| *ok)
    {
        Some(format!("<{}", steps[pass].version))
    } else if let Some(fail) = meets.iter().position(|ok| !*ok)
        && meets[fail..].iter().all(|ok| !*ok)
    {
        Some(format!(">={}", steps[fail].version))
    } else {
        None
    };
    Finding {
        first_change,
        changes,
        failing,
        skip_on,
    }
}

/// The report `codemode-compat bisect` prints.
pub fn render(case: &Case, steps: &[Step], finding: &Finding) -> String {
    let mut out = String::new();
    let mut groups: Vec<Value> = Vec::new();
    let _ = writeln!(
        out,
        "{} ({}) on {} releases:",
        case.id,
        case.location(),
        steps.len()
    );
    for step in steps {
        let comparable = step.comparable();
        let index = match groups.iter().position(|g| *g == comparable) {
            Some(index) => index,
            None => {
                groups.push(comparable.clone());
                groups.len() - 1
            }
        };
        let compact = serde_json::to_string(&comparable).unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:<8} outcome {}  expect {}  {}",
            step.version.to_string(),
            (b'A' + (index % 26) as u8) as char,
            if step.meets(case) { "holds " } else { "FAILS " },
            shorten(&compact, 110)
        );
    }
    match &finding.first_change {
        None => {
            let _ = writeln!(
                out,
                "every release gives the same outcome:\n{}",
                steps
                    .first()
                    .map(|s| pretty(&s.comparable()))
                    .unwrap_or_default()
            );
        }
        Some((version, diff)) => {
            let _ = writeln!(
                out,
                "first release whose outcome differs from {}: {version}",
                steps[0].version
            );
            out.push_str(diff);
            if !diff.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    if finding.changes.len() > 1 {
        let list: Vec<String> = finding.changes.iter().map(Version::to_string).collect();
        let _ = writeln!(out, "the outcome changes at: {}", list.join(", "));
    }
    match (&finding.skip_on, finding.failing.is_empty()) {
        (_, true) => {
            let _ = writeln!(out, "expect holds on every release: no skip_on needed");
        }
        (Some(range), false) => {
            let _ = writeln!(
                out,
                "expect fails exactly on {}: skip_on versions \"{range}\"",
                finding
                    .failing
                    .iter()
                    .map(Version::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        (None, false) => {
            let _ = writeln!(
                out,
                "expect fails on {} (not a single range at either end)",
                finding
                    .failing
                    .iter()
                    .map(Version::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    out
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap()
    }

    fn case() -> Case {
        let mut case = Case::program(
            "dispatch/x",
            "async () => 1",
            "cases/dispatch.yaml".into(),
            1,
        );
        case.expect.result = Some(json!([1, "b"]));
        case
    }

    fn step(version: &str, result: Value) -> Step {
        Step {
            version: v(version),
            outcome: Ok(json!({"result": result, "logs": [], "calls": []})),
        }
    }

    #[test]
    fn releases_between_includes_both_ends() {
        let published = [v("0.2.0"), v("0.2.2"), v("0.3.4"), v("0.3.7"), v("0.4.0")];
        assert_eq!(
            releases_between(&published, &v("0.2.2"), &v("0.3.7")),
            vec![v("0.2.2"), v("0.3.4"), v("0.3.7")]
        );
    }

    #[test]
    fn the_first_change_and_the_skip_range_are_named() {
        let steps = [
            step("0.3.3", json!([1])),
            step("0.3.4", json!([1])),
            step("0.3.7", json!([1, "b"])),
            step("0.3.8", json!([1, "b"])),
        ];
        let finding = judge(&case(), &steps);
        let (version, diff) = finding.first_change.clone().unwrap();
        assert_eq!(version, v("0.3.7"));
        assert!(diff.contains("+    \"b\""), "{diff}");
        assert_eq!(finding.changes, vec![v("0.3.7")]);
        assert_eq!(finding.failing, vec![v("0.3.3"), v("0.3.4")]);
        assert_eq!(finding.skip_on.as_deref(), Some("<0.3.7"));
        let text = render(&case(), &steps, &finding);
        assert!(text.contains("first release whose outcome differs from 0.3.3: 0.3.7"));
        assert!(text.contains("skip_on versions \"<0.3.7\""), "{text}");
    }

    #[test]
    fn a_release_that_cannot_run_is_a_change_of_its_own() {
        let steps = [
            step("0.4.0", json!([1, "b"])),
            Step {
                version: v("0.4.1"),
                outcome: Err("wrangler dev exited".into()),
            },
        ];
        let finding = judge(&case(), &steps);
        assert_eq!(finding.first_change.map(|(v, _)| v), Some(v("0.4.1")));
        assert_eq!(finding.skip_on.as_deref(), Some(">=0.4.1"));
    }

    #[test]
    fn no_change_and_no_failure_need_no_skip() {
        let steps = [
            step("0.4.0", json!([1, "b"])),
            step("0.4.1", json!([1, "b"])),
        ];
        let finding = judge(&case(), &steps);
        assert!(finding.first_change.is_none() && finding.failing.is_empty());
        assert!(render(&case(), &steps, &finding).contains("no skip_on needed"));
    }
}
