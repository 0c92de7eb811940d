//! Reference columns the user deployed elsewhere: `reference@http://HOST:PORT` names a running
//! copy of the repository's `reference-worker` (same wire as the local columns), which the
//! harness calls and never starts or stops.

use std::path::{Path, PathBuf};

use super::columns::{ReferenceColumn, UPSTREAM};
use crate::error::{Error, Result};

/// The prefix of a deployed reference column's name.
pub const DEPLOYED_PREFIX: &str = "reference@http";

/// The column a `reference@http://HOST:PORT` (or `https://`) selection names, with the URL it
/// calls; `None` when `wanted` names no deployed worker. Its release (for `skip_on`) is the one
/// the repository's `reference-worker/package.json` pins, until the worker's `/health` names
/// another (see [`super::ReferenceSide::deployed`]).
pub fn deployed_column(root: &Path, wanted: &str) -> Option<Result<(ReferenceColumn, String)>> {
    if !wanted.starts_with(DEPLOYED_PREFIX) {
        return None;
    }
    let url = &wanted["reference@".len()..];
    Some(parse(root, wanted, url))
}

fn parse(root: &Path, wanted: &str, url: &str) -> Result<(ReferenceColumn, String)> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| {
            Error::Usage(format!(
                "\"{wanted}\" is not a deployed reference column: write reference@http://HOST:PORT"
            ))
        })?;
    let host = rest.trim_end_matches('/');
    if host.is_empty() || host.contains('/') {
        return Err(Error::Usage(format!(
            "\"{wanted}\": a deployed reference column is the worker's origin, reference@http://HOST:PORT, without a path"
        )));
    }
    let manifest = root.join("reference-worker/package.json");
    let upstream = pinned_upstream(&manifest)?;
    Ok((
        ReferenceColumn {
            name: wanted.to_string(),
            upstream,
            wrangler: "deployed".into(),
            workerd: "deployed".into(),
            latest: false,
            config: PathBuf::new(),
        },
        url.trim_end_matches('/').to_string(),
    ))
}

/// The exact `@cloudflare/codemode` release a manifest pins.
fn pinned_upstream(manifest: &Path) -> Result<String> {
    let text = std::fs::read_to_string(manifest).map_err(|e| Error::io(manifest, e))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::Toolchain(format!("{} is not JSON: {e}", manifest.display())))?;
    json.pointer(&format!("/dependencies/{}", UPSTREAM.replace('/', "~1")))
        .and_then(serde_json::Value::as_str)
        .filter(|v| semver::Version::parse(v).is_ok())
        .map(str::to_string)
        .ok_or_else(|| {
            Error::Toolchain(format!(
                "{} pins no exact {UPSTREAM} release",
                manifest.display()
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    #[test]
    fn a_deployed_column_names_its_origin_and_the_pinned_release() {
        let (column, url) = deployed_column(&root(), "reference@http://127.0.0.1:8787/")
            .unwrap()
            .unwrap();
        assert_eq!(column.name, "reference@http://127.0.0.1:8787/");
        assert_eq!(url, "http://127.0.0.1:8787");
        assert!(semver::Version::parse(&column.upstream).is_ok());
        assert!(deployed_column(&root(), "reference@0.5.6").is_none());
    }

    #[test]
    fn a_deployed_column_with_a_path_is_refused_with_the_form_to_write() {
        let error = deployed_column(&root(), "reference@http://example.com/execute")
            .unwrap()
            .unwrap_err()
            .to_string();
        assert!(error.contains("reference@http://HOST:PORT"), "{error}");
        let error = deployed_column(&root(), "reference@httpx:")
            .unwrap()
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("is not a deployed reference column"),
            "{error}"
        );
    }
}
