//! The commands about upstream releases: `columns` (published releases against the configured
//! columns, `--add`), `bisect` (one case across releases) and `merge` (per-column CI reports
//! into one).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codemode_compat::catalogue::Case;
use codemode_compat::matrix::{self, Matrix, OURS};
use codemode_compat::sides::reference::bisect;
use codemode_compat::sides::reference::releases::{self, PEER_RANGE};
use codemode_compat::sides::reference::{column_concurrency, discover, ensure_installed};
use codemode_compat::sides::remote::REMOTE;
use codemode_compat::{Error, Result};
use semver::Version;

fn parse_version(text: &str) -> Result<Version> {
    Version::parse(text.trim_start_matches('v')).map_err(|e| {
        Error::Usage(format!(
            "\"{text}\" is not a release version such as 0.3.8 ({e})"
        ))
    })
}

async fn toolchain(root: &Path) -> Result<codemode_compat::sides::reference::Toolchain> {
    let root = root.to_path_buf();
    tokio::task::spawn_blocking(move || ensure_installed(&root))
        .await
        .map_err(|e| Error::Toolchain(e.to_string()))?
}

/// `codemode-compat columns [--add VERSION | --json]`. The JSON list has ours, remote (CI
/// builds the daemon beside the harness) and every configured reference column.
pub async fn columns(root: &Path, add: Option<String>, json: bool) -> Result<ExitCode> {
    let toolchain = toolchain(root).await?;
    let configured = discover(&toolchain)?;
    if json {
        let mut names = vec![OURS.to_string(), REMOTE.to_string()];
        names.extend(configured.iter().map(|c| c.name.clone()));
        println!(
            "{}",
            serde_json::to_string(&names).expect("names serialize")
        );
        return Ok(ExitCode::SUCCESS);
    }
    let worker_dir = toolchain.worker_dir.clone();
    let published = tokio::task::spawn_blocking(move || releases::published(&worker_dir))
        .await
        .map_err(|e| Error::Toolchain(e.to_string()))??;
    if let Some(add) = add {
        let version = if add == "newest" {
            let newest = published
                .iter()
                .rfind(|v| releases::in_peer_range(v))
                .cloned()
                .ok_or_else(|| {
                    Error::Usage(format!("no published release lies in {PEER_RANGE}"))
                })?;
            if configured.iter().any(|c| c.version() == newest) {
                println!("the newest release, {newest}, is already a column");
                return Ok(ExitCode::SUCCESS);
            }
            newest
        } else {
            parse_version(&add)?
        };
        if let Some(column) = configured.iter().find(|c| c.version() == version) {
            println!("{version} is already a column: {}", column.name);
            return Ok(ExitCode::SUCCESS);
        }
        let root = root.to_path_buf();
        let added = tokio::task::spawn_blocking(move || {
            releases::add(&root, &version, &published, &configured)
        })
        .await
        .map_err(|e| Error::Toolchain(e.to_string()))??;
        println!("added the column {}", added.column);
        for file in added.changed {
            println!("changed {file}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let rows = releases::survey(&published, &configured);
    print!("{}", releases::render_survey(&rows));
    let uncovered: Vec<String> = rows
        .iter()
        .filter(|r| r.uncovered())
        .map(|r| r.version.to_string())
        .collect();
    if uncovered.is_empty() {
        println!("every release in {PEER_RANGE} is run by a column or covered by its line");
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "not covered: {} (codemode-compat columns --add VERSION)",
            uncovered.join(", ")
        );
        Ok(ExitCode::FAILURE)
    }
}

/// `codemode-compat bisect CASE --from A --to B`.
pub async fn bisect(
    root: &Path,
    case: Case,
    from: &str,
    to: &str,
    concurrency: Option<usize>,
) -> Result<ExitCode> {
    let (from, to) = (parse_version(from)?, parse_version(to)?);
    if from > to {
        return Err(Error::Usage(format!(
            "--from {from} is newer than --to {to}"
        )));
    }
    if !case.reference {
        return Err(Error::Usage(format!(
            "{} does not run on the reference: {}",
            case.id,
            case.reason.clone().unwrap_or_default()
        )));
    }
    let toolchain = toolchain(root).await?;
    let worker_dir = toolchain.worker_dir.clone();
    let published = tokio::task::spawn_blocking(move || releases::published(&worker_dir))
        .await
        .map_err(|e| Error::Toolchain(e.to_string()))??;
    let between = bisect::releases_between(&published, &from, &to);
    if between.len() < 2 {
        return Err(Error::Usage(format!(
            "fewer than two published releases lie between {from} and {to}: {:?}",
            between.iter().map(Version::to_string).collect::<Vec<_>>()
        )));
    }
    let concurrency = column_concurrency(concurrency.or(Some(4)), between.len())
        .min(column_concurrency(None, between.len()));
    eprintln!(
        "{} on {} releases ({}), {concurrency} at a time",
        case.id,
        between.len(),
        between
            .iter()
            .map(Version::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let scratch: PathBuf = root.join("target/bisect");
    let progress = |step: &bisect::Step| match &step.outcome {
        Ok(_) => eprintln!("  ran {}", step.version),
        Err(message) => eprintln!(
            "  {} could not run the case: {}",
            step.version,
            message.lines().next().unwrap_or_default()
        ),
    };
    let steps = bisect::run(
        &toolchain,
        &scratch,
        &case,
        &between,
        concurrency,
        &progress,
    )
    .await;
    let finding = bisect::judge(&case, &steps);
    print!("{}", bisect::render(&case, &steps, &finding));
    Ok(if steps.iter().all(|s| s.outcome.is_ok()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `codemode-compat merge REPORT...`: the merged matrix.
pub fn merge(reports: &[PathBuf]) -> Result<Matrix> {
    let mut parts = Vec::new();
    for path in reports {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            Error::Usage(format!(
                "{} is not a matrix.json report: {e}",
                path.display()
            ))
        })?;
        parts.push(matrix::from_report(&json).map_err(|e| {
            Error::Usage(format!(
                "{} is not a matrix.json report: {e}",
                path.display()
            ))
        })?);
    }
    matrix::merge(parts).map_err(Error::Usage)
}
