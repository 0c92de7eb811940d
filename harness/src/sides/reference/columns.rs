//! Reference columns: one `wrangler/wrangler.<name>.toml` each. `wrangler.reference.toml` is
//! the newest release, whatever `reference-worker/package.json` installs, unaliased; every
//! other config names its release by an npm alias in an `[alias]` block.

use std::path::PathBuf;

use serde::Serialize;

use super::toolchain::Toolchain;
use crate::error::{Error, Result};

/// The upstream package.
pub const UPSTREAM: &str = "@cloudflare/codemode";

/// One reference column, resolved against the installed toolchain.
#[derive(Debug, Clone, Serialize)]
pub struct ReferenceColumn {
    /// `reference@<exact upstream version>`.
    pub name: String,
    /// The upstream package's exact version.
    pub upstream: String,
    /// The wrangler version the column runs under.
    pub wrangler: String,
    /// The workerd version the column runs on.
    pub workerd: String,
    /// `true` for the unaliased newest column.
    pub latest: bool,
    /// The column's wrangler config.
    #[serde(skip)]
    pub config: PathBuf,
}

impl ReferenceColumn {
    /// The upstream version, parsed.
    pub fn version(&self) -> semver::Version {
        semver::Version::parse(&self.upstream).unwrap_or(semver::Version::new(0, 0, 0))
    }
}

/// Every configured column, newest first.
pub fn discover(toolchain: &Toolchain) -> Result<Vec<ReferenceColumn>> {
    let dir = toolchain.root.join("wrangler");
    let mut configs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| Error::io(&dir, e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("wrangler.") && n.ends_with(".toml"))
        })
        .collect();
    configs.sort();
    let wrangler = toolchain
        .package_version("wrangler")
        .unwrap_or_else(|| "unknown".into());
    let workerd = toolchain
        .package_version("workerd")
        .unwrap_or_else(|| "unknown".into());
    let mut columns = Vec::new();
    for config in configs {
        let text = std::fs::read_to_string(&config).map_err(|e| Error::io(&config, e))?;
        let (package, latest) = match alias_target(&text) {
            Some(alias) => (alias, false),
            None => (UPSTREAM.to_string(), true),
        };
        let upstream = toolchain.package_version(&package).ok_or_else(|| {
            Error::Toolchain(format!(
                "{} runs the package {package}, which is not installed in {}",
                config.display(),
                toolchain.node_modules().display()
            ))
        })?;
        columns.push(ReferenceColumn {
            name: format!("reference@{upstream}"),
            upstream,
            wrangler: wrangler.clone(),
            workerd: workerd.clone(),
            latest,
            config,
        });
    }
    columns.sort_by_key(|c| std::cmp::Reverse(c.version()));
    Ok(columns)
}

/// The npm alias an `[alias]` block maps the upstream import onto.
fn alias_target(toml: &str) -> Option<String> {
    let mut in_alias = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_alias = line == "[alias]";
            continue;
        }
        if in_alias
            && let Some((key, value)) = line.split_once('=')
            && key.trim().trim_matches('"') == UPSTREAM
        {
            return Some(value.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// The `[vars] COLUMN` of a config: what the worker's `/health` answers as its column.
pub(crate) fn column_var(toml: &str) -> Option<String> {
    let mut in_vars = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_vars = line == "[vars]";
            continue;
        }
        if in_vars
            && let Some((key, value)) = line.split_once('=')
            && key.trim() == "COLUMN"
        {
            return Some(value.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// Resolves a `--columns` selection (`ours`, `reference@<version>`, `reference@latest`)
/// against the configured columns.
pub fn select<'a>(available: &'a [ReferenceColumn], wanted: &str) -> Result<&'a ReferenceColumn> {
    let version = wanted.strip_prefix("reference@").ok_or_else(|| {
        Error::Usage(format!(
            "\"{wanted}\" is not a column (ours, reference@<version>, reference@latest)"
        ))
    })?;
    let found = if version == "latest" {
        available
            .iter()
            .find(|c| c.latest)
            .or_else(|| available.first())
    } else {
        available.iter().find(|c| c.upstream == version)
    };
    found.ok_or_else(|| {
        Error::Usage(format!(
            "no column {wanted} is configured; configured: {}",
            available
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_blocks_name_the_release() {
        let toml = "name = \"x\"\n[vars]\nCOLUMN = \"0.3.8\"\n[alias]\n\"@cloudflare/codemode\" = \"cm-0-3-8\"\n";
        assert_eq!(alias_target(toml), Some("cm-0-3-8".into()));
        assert_eq!(alias_target("name = \"x\"\n"), None);
        assert_eq!(column_var(toml), Some("0.3.8".into()));
        assert_eq!(column_var("[alias]\nCOLUMN = \"no\"\n"), None);
    }
}
