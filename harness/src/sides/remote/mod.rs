//! Ours behind the executor daemon: `CodemodeExecutor` over `RemoteExecutor`, the dialect in
//! the harness's process and the runs in a daemon reached over the remote wire (Cap'n Web over
//! WebSocket), with the case's tools called back over the same socket.
//!
//! Two column kinds: `remote`, a daemon the harness starts itself (the binary built from this
//! workspace, on a free loopback port, with a fresh token), and `remote@ws://HOST:PORT`, a
//! daemon the user runs elsewhere (its token read from `--remote-token-file`; a `wss://` one's
//! certificate checked against the platform's roots, or the CA file that
//! `CODEMODE_REMOTE_CA_FILE` names). A remote cell
//! runs every case (`reference: false` and `skip_on` concern the upstream, not this executor)
//! and is judged as a reference cell is: its outcome must equal ours (`diff` otherwise, both
//! shown) and satisfy the case's `expect`.

pub mod daemon;

use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode_executor::remote::{ConnectOptions, RemoteExecutor};
use serde_json::Value;
use tokio::sync::Mutex;

use crate::catalogue::Case;
use crate::cell::Cell;
use crate::error::{Error, Result};
use crate::sides::ours::OursSide;
use crate::stored::Whole;
use daemon::Daemon;

/// The name of the column whose daemon the harness starts.
pub const REMOTE: &str = "remote";

/// The environment variable naming the CA file (PEM) an external `wss://` daemon's certificate
/// must chain to; unset, the platform's roots.
pub const CA_FILE_VARIABLE: &str = "CODEMODE_REMOTE_CA_FILE";

/// The prefix of a column naming a daemon run elsewhere.
pub const EXTERNAL_PREFIX: &str = "remote@";

/// Where a remote column's daemon is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteTarget {
    /// Started by the harness for the run.
    Local,
    /// Run by the user at this `ws://` or `wss://` URL.
    External(String),
}

/// A remote column to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteColumn {
    /// `remote` or `remote@<url>`.
    pub name: String,
    /// The daemon the column runs on: one the harness starts, or one at a URL.
    pub target: RemoteTarget,
    /// Where an external daemon's token is read from (`--remote-token-file`); without one, no
    /// `Authorization` header is sent. A local daemon gets a fresh token of its own.
    pub token_file: Option<PathBuf>,
}

impl RemoteColumn {
    /// The column a `--columns` entry names, if it is a remote one: `remote`, or
    /// `remote@ws://HOST:PORT` (whose token is read from `token_file`).
    pub fn parse(wanted: &str, token_file: Option<&Path>) -> Option<Result<RemoteColumn>> {
        if wanted == REMOTE {
            return Some(Ok(RemoteColumn::local()));
        }
        let url = wanted.strip_prefix(EXTERNAL_PREFIX)?;
        let valid = ["ws://", "wss://"].iter().any(|scheme| {
            url.strip_prefix(scheme)
                .is_some_and(|rest| !rest.is_empty())
        });
        Some(if valid {
            Ok(RemoteColumn {
                name: wanted.to_string(),
                target: RemoteTarget::External(url.to_string()),
                token_file: token_file.map(Path::to_path_buf),
            })
        } else {
            Err(Error::Usage(format!(
                "\"{wanted}\" is not a remote column: write remote (a daemon the harness starts) or remote@ws://HOST:PORT"
            )))
        })
    }

    /// The `remote` column: a daemon the harness starts.
    pub fn local() -> RemoteColumn {
        RemoteColumn {
            name: REMOTE.into(),
            target: RemoteTarget::Local,
            token_file: None,
        }
    }

    /// What the column's header says runs it.
    pub fn executor_label(&self) -> String {
        let version = env!("CARGO_PKG_VERSION");
        match &self.target {
            RemoteTarget::Local => {
                format!(
                    "codemode-executor {version} over the remote wire (daemon started by the harness)"
                )
            }
            RemoteTarget::External(url) => format!("the executor daemon at {url}"),
        }
    }
}

/// One running remote column.
pub struct RemoteSide {
    /// The column the side runs.
    pub column: RemoteColumn,
    ours: OursSide<RemoteExecutor>,
    daemon: Mutex<Option<Daemon>>,
}

impl RemoteSide {
    /// Starts the column: for `remote`, the daemon (see [`daemon::locate`]) on a free loopback
    /// port with a fresh token; then connects to it.
    pub async fn start(column: RemoteColumn) -> Result<RemoteSide> {
        let fail = |message: String| Error::Reference {
            column: column.name.clone(),
            message,
        };
        let mut ca_file = None;
        let (url, token, daemon) = match &column.target {
            RemoteTarget::Local => {
                let binary = tokio::task::spawn_blocking(daemon::locate)
                    .await
                    .map_err(|e| fail(e.to_string()))?
                    .map_err(fail)?;
                let token = daemon::fresh_token().map_err(fail)?;
                let daemon = Daemon::start(&binary, "127.0.0.1:0", &token, &[])
                    .await
                    .map_err(fail)?;
                (daemon.url.clone(), Some(token), Some(daemon))
            }
            RemoteTarget::External(url) => {
                let token = match &column.token_file {
                    Some(file) => Some(read_token(file).map_err(fail)?),
                    None => None,
                };
                ca_file = std::env::var_os(CA_FILE_VARIABLE).map(PathBuf::from);
                (url.clone(), token, None)
            }
        };
        let options = ConnectOptions {
            headers: token
                .map(|t| vec![("Authorization".to_string(), format!("Bearer {t}"))])
                .unwrap_or_default(),
            ca_file,
            ..ConnectOptions::default()
        };
        let executor = match RemoteExecutor::connect(&url, options).await {
            Ok(executor) => executor,
            Err(error) => {
                let mut message = format!("could not connect to {url}: {error}");
                if let Some(mut daemon) = daemon {
                    message.push_str(&format!("\n{}", daemon.output_tail()));
                    daemon.stop().await;
                }
                return Err(fail(message));
            }
        };
        Ok(RemoteSide {
            column,
            ours: OursSide::new(executor),
            daemon: Mutex::new(daemon),
        })
    }

    /// Runs one case (with `code` in place of the case's own) and returns its normalized
    /// outcome, or why the column could not run it: the daemon died, the connection broke, or
    /// no answer came within the case's bound and a margin.
    pub async fn run(&self, case: &Case, code: &str) -> Result<Value, String> {
        let limit = Duration::from_millis(case.options.timeout_ms.unwrap_or(60_000))
            + Duration::from_secs(30);
        let outcome = tokio::time::timeout(limit, self.ours.run(case, code)).await;
        if let Some(daemon) = self.daemon.lock().await.as_mut()
            && let Some(status) = daemon.exited()
        {
            return Err(format!(
                "the executor daemon exited ({status}) during the run:\n{}",
                daemon.output_tail()
            ));
        }
        let outcome = outcome.map_err(|_| {
            format!(
                "the remote executor did not answer within {} s",
                limit.as_secs()
            )
        })?;
        // A broken or refused connection is the column's failure, not the case's outcome.
        if let Some(threw) = outcome.get("threw").and_then(Value::as_str)
            && CONNECTION_TEXTS.iter().any(|text| threw.contains(text))
        {
            return Err(threw.to_string());
        }
        Ok(outcome)
    }

    /// Closes the connection and stops the daemon the column started.
    pub async fn stop(&self) {
        self.ours.dispose().await;
        if let Some(daemon) = self.daemon.lock().await.as_mut() {
            daemon.stop().await;
        }
    }

    /// The daemon's process group, for a column whose daemon the harness started.
    pub async fn pgid(&self) -> Option<i32> {
        self.daemon.lock().await.as_ref().map(Daemon::pgid)
    }
}

/// The design's texts for a connection that failed, which no program can produce through the
/// dialect on a healthy column.
const CONNECTION_TEXTS: [&str; 3] = [
    "Executor connection broke",
    "RemoteExecutor is closed",
    "Failed to open WebSocket to",
];

/// One remote cell: every case runs; the outcome is compared with ours, then with `expect`.
pub async fn remote_cell(case: &Case, side: &RemoteSide, ours: &Value) -> Cell {
    remote_cell_whole(case, side, &Whole::of(ours)).await
}

/// [`remote_cell`] with ours as a run holds it.
pub async fn remote_cell_whole(case: &Case, side: &RemoteSide, ours: &Whole) -> Cell {
    let started = std::time::Instant::now();
    let mut cell = match side.run(case, &case.code).await {
        Ok(outcome) => {
            let whole = Whole::compared_once(&outcome);
            Cell::judge_whole(
                case,
                &outcome,
                whole,
                Some(ours),
                crate::sides::ours::OURS,
                &side.column.name,
            )
        }
        Err(message) => Cell::error(message),
    };
    cell.elapsed_ms = Some(started.elapsed().as_secs_f64() * 1000.0);
    cell
}

/// An external daemon's token: the file's content, surrounding whitespace trimmed.
fn read_token(file: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("could not read the token file {}: {e}", file.display()))?;
    let token = text.trim();
    if token.is_empty() {
        return Err(format!("the token file {} is empty", file.display()));
    }
    Ok(token.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_columns_name_a_local_or_external_daemon() {
        assert_eq!(
            RemoteColumn::parse("remote", None).unwrap().unwrap().target,
            RemoteTarget::Local
        );
        assert_eq!(
            RemoteColumn::parse("remote@ws://10.0.0.2:9000", None)
                .unwrap()
                .unwrap()
                .target,
            RemoteTarget::External("ws://10.0.0.2:9000".into())
        );
        assert!(RemoteColumn::parse("ours", None).is_none());
        assert!(RemoteColumn::parse("reference@0.5.6", None).is_none());
        let error = RemoteColumn::parse("remote@http://x:1", None)
            .unwrap()
            .unwrap_err()
            .to_string();
        assert!(error.contains("remote@ws://HOST:PORT"), "{error}");
    }
}
