//! Published upstream releases and the release lines they fall into, and adding a release as
//! a column (`codemode-compat columns`, `columns --add VERSION`).
//!
//! A release line is a run of consecutive releases whose executors behave alike: the lines
//! below were measured by reading every release's `dist/` and running probe programs on each
//! under `wrangler dev` (`docs/releases.md`); `codemode-compat bisect`
//! proves a boundary case by case. A release no line lists has not been measured: it is
//! flagged until a column runs it.

use std::fmt;
use std::path::Path;

use semver::Version;
use serde_json::Value;

use super::columns::{ReferenceColumn, UPSTREAM};
use super::toolchain::run_npm;
use crate::error::{Error, Result};

/// The upstream versions hosts may run: the peer range the dialect supports.
pub const PEER_RANGE: &str = ">=0.2.2 <0.6.0";

/// A run of releases whose executors behave alike, and what sets it apart from the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// The line's first release.
    pub first: &'static str,
    /// The line's last release.
    pub last: &'static str,
    /// What the line's first release changed.
    pub introduced: &'static str,
}

impl Line {
    /// Whether a version lies in the line (its first to its last release, inclusive).
    pub fn contains(&self, version: &Version) -> bool {
        let first = Version::parse(self.first).expect("lines name valid versions");
        let last = Version::parse(self.last).expect("lines name valid versions");
        *version >= first && *version <= last
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}–{}", self.first, self.last)
    }
}

/// The measured release lines, oldest first.
pub const LINES: &[Line] = &[
    Line {
        first: "0.1.0",
        last: "0.2.0",
        introduced: "the executor; execute(code, fns) takes a bare record only",
    },
    Line {
        first: "0.2.2",
        last: "0.3.4",
        introduced: "providers, normalizeCode inside execute, name validation; a tool gets its first argument only",
    },
    Line {
        first: "0.3.7",
        last: "0.3.8",
        introduced: "every argument crosses, the binary codec, sanitize-collision errors",
    },
    Line {
        first: "0.4.0",
        last: "0.4.1",
        introduced: "connectors, preludes, the symbol guard, 16 reserved names",
    },
    Line {
        first: "0.4.2",
        last: "0.5.2",
        introduced: "the 60 s default timeout, eager dispose",
    },
    Line {
        first: "0.5.5",
        last: "0.5.6",
        introduced: "the late-call gate",
    },
];

/// The measured line a release belongs to.
pub fn line_of(version: &Version) -> Option<&'static Line> {
    LINES.iter().find(|line| line.contains(version))
}

/// Whether a release lies in [`PEER_RANGE`].
pub fn in_peer_range(version: &Version) -> bool {
    semver::VersionReq::parse(&PEER_RANGE.replace(' ', ", "))
        .expect("the peer range parses")
        .matches(version)
}

/// Every published release of the upstream package, oldest first, from
/// `npm view @cloudflare/codemode versions --json`.
pub fn published(dir: &Path) -> Result<Vec<Version>> {
    let text = run_npm(dir, &["view", UPSTREAM, "versions", "--json"])?;
    parse_versions(&text)
}

fn parse_versions(text: &str) -> Result<Vec<Version>> {
    let json: Value = serde_json::from_str(text).map_err(|e| {
        Error::Toolchain(format!(
            "npm view answered something that is not JSON ({e})"
        ))
    })?;
    let list = match json {
        Value::Array(list) => list,
        // A package with a single release answers a bare string.
        single @ Value::String(_) => vec![single],
        other => {
            return Err(Error::Toolchain(format!(
                "npm view answered {other} where a list of versions was expected"
            )));
        }
    };
    let mut versions: Vec<Version> = list
        .iter()
        .filter_map(Value::as_str)
        .filter_map(|v| Version::parse(v).ok())
        .collect();
    versions.sort();
    Ok(versions)
}

/// One published release against the configured columns.
#[derive(Debug, Clone, PartialEq)]
pub struct ReleaseRow {
    /// The release.
    pub version: Version,
    /// The release line it belongs to, when one does.
    pub line: Option<&'static Line>,
    /// The column that runs exactly this release.
    pub column: Option<String>,
    /// The columns that run another release of the same line.
    pub covered_by: Vec<String>,
    /// Whether the release is in the dialect's peer range.
    pub in_peer_range: bool,
}

impl ReleaseRow {
    /// A release in the peer range that no column runs and no column's line covers.
    pub fn uncovered(&self) -> bool {
        self.in_peer_range && self.column.is_none() && self.covered_by.is_empty()
    }
}

/// Every published release, with its line and the columns that run it or its line.
pub fn survey(published: &[Version], columns: &[ReferenceColumn]) -> Vec<ReleaseRow> {
    published
        .iter()
        .map(|version| {
            let line = line_of(version);
            let column = columns
                .iter()
                .find(|c| c.version() == *version)
                .map(|c| c.name.clone());
            let covered_by = match line {
                Some(line) => columns
                    .iter()
                    .filter(|c| c.version() != *version && line.contains(&c.version()))
                    .map(|c| c.name.clone())
                    .collect(),
                None => Vec::new(),
            };
            ReleaseRow {
                version: version.clone(),
                line,
                column,
                covered_by,
                in_peer_range: in_peer_range(version),
            }
        })
        .collect()
}

/// The survey as the text `codemode-compat columns` prints.
pub fn render_survey(rows: &[ReleaseRow]) -> String {
    let mut out = format!("{:<9} {:<13} {:<38} note\n", "release", "line", "column");
    for row in rows {
        let line = row.line.map_or("unmeasured".to_string(), |l| l.to_string());
        let column = match (&row.column, row.covered_by.as_slice()) {
            (Some(name), _) => name.clone(),
            (None, []) => "-".into(),
            (None, covered) => format!("covered by {}", covered.join(", ")),
        };
        let note = if !row.in_peer_range {
            format!("outside the peer range {PEER_RANGE}")
        } else if row.uncovered() {
            match row.line {
                Some(_) => "NOT COVERED: no column runs this line".into(),
                None => "NOT COVERED: a release no line lists; add it as a column (columns --add)"
                    .into(),
            }
        } else {
            String::new()
        };
        out.push_str(
            format!(
                "{:<9} {:<13} {:<38} {note}\n",
                row.version.to_string(),
                line,
                column
            )
            .trim_end(),
        );
        out.push('\n');
    }
    for line in LINES {
        out.push_str(&format!("line {line}: {}\n", line.introduced));
    }
    out
}

/// The npm alias an older column installs its release under.
pub fn alias_name(version: &Version) -> String {
    format!("codemode-{version}")
}

/// The wrangler config of an aliased column.
pub fn aliased_config(version: &Version) -> String {
    let alias = alias_name(version);
    let slug = version.to_string().replace('.', "-");
    format!(
        "# Reference column for {UPSTREAM} {version}, installed as the npm alias {alias} in\n\
         # reference-worker/package.json. Everything else is wrangler.reference.toml (see its comments);\n\
         # the [alias] block rewrites the worker's plain import onto this release.\n\
         name = \"codemode-reference-{slug}\"\n\
         main = \"../reference-worker/src/worker.js\"\n\
         compatibility_date = \"2025-06-01\"\n\
         compatibility_flags = [\"nodejs_compat\", \"enable_ctx_exports\"]\n\
         \n\
         [vars]\n\
         COLUMN = \"{version}\"\n\
         \n\
         [alias]\n\
         \"{UPSTREAM}\" = \"{alias}\"\n\
         \n\
         [[worker_loaders]]\n\
         binding = \"LOADER\"\n"
    )
}

/// What `columns --add` did.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    /// The column that now runs the release.
    pub column: String,
    /// Files written or changed.
    pub changed: Vec<String>,
}

/// Adds a published release as a column: the npm alias in `reference-worker/package.json`,
/// `wrangler/wrangler.<version>.toml`, and the lockfile entry (`npm install`). A release newer
/// than the newest column becomes the newest column, the unaliased dependency; the release it
/// replaces there stays a column, through an alias of its own.
pub fn add(
    root: &Path,
    version: &Version,
    published: &[Version],
    columns: &[ReferenceColumn],
) -> Result<Added> {
    if !published.contains(version) {
        return Err(Error::Usage(format!(
            "{UPSTREAM} {version} is not published; `codemode-compat columns` lists the releases"
        )));
    }
    if let Some(column) = columns.iter().find(|c| c.version() == *version) {
        return Err(Error::Usage(format!(
            "{version} is already a column: {}",
            column.name
        )));
    }
    let worker_dir = root.join("reference-worker");
    let wrangler_dir = root.join("wrangler");
    let newest = columns.iter().find(|c| c.latest);
    let manifest_path = worker_dir.join("package.json");
    let mut manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(&manifest_path).map_err(|e| Error::io(&manifest_path, e))?,
    )
    .map_err(|e| Error::Toolchain(format!("{} is not JSON: {e}", manifest_path.display())))?;
    let mut changed = Vec::new();
    let mut aliased = Vec::new();
    let mut dependencies: Vec<(String, String)> = Vec::new();
    match newest {
        Some(newest) if *version > newest.version() => {
            aliased.push(newest.version());
            dependencies.push((UPSTREAM.into(), version.to_string()));
        }
        _ => aliased.push(version.clone()),
    }
    for old in &aliased {
        dependencies.push((alias_name(old), format!("npm:{UPSTREAM}@{old}")));
    }
    set_dependencies(&mut manifest, &dependencies)?;
    let original = std::fs::read(&manifest_path).map_err(|e| Error::io(&manifest_path, e))?;
    let text = serde_json::to_string_pretty(&manifest).expect("a manifest serializes") + "\n";
    std::fs::write(&manifest_path, text).map_err(|e| Error::io(&manifest_path, e))?;
    // The configs come after the install: a config whose alias is not installed would stop
    // every later run from discovering the columns. A failed install restores the manifest.
    if let Err(error) = run_npm(
        &worker_dir,
        &["install", "--no-audit", "--no-fund", "--loglevel=error"],
    ) {
        let _ = std::fs::write(&manifest_path, original);
        return Err(error);
    }
    for old in &aliased {
        let config = wrangler_dir.join(format!("wrangler.{old}.toml"));
        std::fs::write(&config, aliased_config(old)).map_err(|e| Error::io(&config, e))?;
        changed.push(format!("wrangler/wrangler.{old}.toml"));
    }
    changed.push("reference-worker/package.json".into());
    changed.push("reference-worker/package-lock.json".into());
    Ok(Added {
        column: format!("reference@{version}"),
        changed,
    })
}

/// Sets dependencies in a manifest, keeping them sorted by name as npm writes them.
fn set_dependencies(manifest: &mut Value, entries: &[(String, String)]) -> Result<()> {
    let object = manifest
        .as_object_mut()
        .ok_or_else(|| Error::Toolchain("reference-worker/package.json is not an object".into()))?;
    let dependencies = object
        .entry("dependencies")
        .or_insert_with(|| Value::Object(serde_json::Map::new()))
        .as_object_mut()
        .ok_or_else(|| {
            Error::Toolchain(
                "the dependencies of reference-worker/package.json are not an object".into(),
            )
        })?;
    for (name, spec) in entries {
        dependencies.insert(name.clone(), Value::String(spec.clone()));
    }
    let mut sorted: Vec<(String, Value)> = std::mem::take(dependencies).into_iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    dependencies.extend(sorted);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap()
    }

    #[test]
    fn lines_are_ordered_and_disjoint() {
        for pair in LINES.windows(2) {
            assert!(
                v(pair[0].last) < v(pair[1].first),
                "{} {}",
                pair[0],
                pair[1]
            );
            assert!(v(pair[0].first) <= v(pair[0].last));
        }
    }

    #[test]
    fn releases_fall_into_their_measured_line() {
        assert_eq!(line_of(&v("0.3.1")).map(|l| l.first), Some("0.2.2"));
        assert_eq!(line_of(&v("0.3.7")).map(|l| l.first), Some("0.3.7"));
        assert_eq!(line_of(&v("0.4.4")).map(|l| l.last), Some("0.5.2"));
        assert_eq!(line_of(&v("0.5.7")), None);
        assert_eq!(line_of(&v("0.0.7")), None);
    }

    #[test]
    fn the_peer_range_starts_at_the_first_providers_release() {
        assert!(!in_peer_range(&v("0.2.0")));
        assert!(in_peer_range(&v("0.2.2")));
        assert!(in_peer_range(&v("0.5.6")));
        assert!(!in_peer_range(&v("0.6.0")));
    }

    #[test]
    fn npm_view_output_is_sorted_by_version() {
        let versions = parse_versions("[\"0.10.0\", \"0.2.2\", \"0.3.8\"]").unwrap();
        assert_eq!(versions, vec![v("0.2.2"), v("0.3.8"), v("0.10.0")]);
        assert_eq!(parse_versions("\"0.1.0\"").unwrap(), vec![v("0.1.0")]);
        assert!(parse_versions("not json").is_err());
    }

    fn column(version: &str, latest: bool) -> ReferenceColumn {
        ReferenceColumn {
            name: format!("reference@{version}"),
            upstream: version.into(),
            wrangler: "4.164.0".into(),
            workerd: "1.20261117.1".into(),
            latest,
            config: Default::default(),
        }
    }

    #[test]
    fn a_release_no_column_covers_is_flagged() {
        let published = [v("0.2.0"), v("0.3.1"), v("0.3.8"), v("0.4.0"), v("0.5.7")];
        let rows = survey(&published, &[column("0.3.4", false), column("0.3.8", true)]);
        let by = |ver: &str| rows.iter().find(|r| r.version == v(ver)).unwrap();
        assert!(!by("0.2.0").uncovered(), "outside the peer range");
        assert_eq!(by("0.3.1").covered_by, vec!["reference@0.3.4".to_string()]);
        assert_eq!(by("0.3.8").column.as_deref(), Some("reference@0.3.8"));
        assert!(by("0.4.0").uncovered());
        assert!(by("0.5.7").uncovered());
        let text = render_survey(&rows);
        assert!(text.contains("0.5.7     unmeasured"), "{text}");
        assert!(
            text.contains("NOT COVERED: a release no line lists"),
            "{text}"
        );
    }

    #[test]
    fn dependencies_are_set_in_npm_order() {
        let mut manifest = serde_json::json!({
            "name": "x",
            "dependencies": {"@cloudflare/codemode": "0.5.6", "wrangler": "4.164.0"}
        });
        set_dependencies(
            &mut manifest,
            &[
                (
                    "codemode-0.5.6".into(),
                    "npm:@cloudflare/codemode@0.5.6".into(),
                ),
                (UPSTREAM.into(), "0.5.7".into()),
            ],
        )
        .unwrap();
        let names: Vec<&String> = manifest["dependencies"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(
            names,
            ["@cloudflare/codemode", "codemode-0.5.6", "wrangler"]
        );
        assert_eq!(manifest["dependencies"][UPSTREAM], "0.5.7");
        assert_eq!(
            manifest
                .as_object()
                .unwrap()
                .keys()
                .next()
                .map(String::as_str),
            Some("name")
        );
    }

    #[test]
    fn aliased_configs_rewrite_the_import() {
        let text = aliased_config(&v("0.4.1"));
        assert!(text.contains("[alias]\n\"@cloudflare/codemode\" = \"codemode-0.4.1\""));
        assert!(text.contains("COLUMN = \"0.4.1\""));
        assert!(text.contains("name = \"codemode-reference-0-4-1\""));
    }
}
