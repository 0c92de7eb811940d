//! The reference side: the real `DynamicWorkerExecutor` under `wrangler dev`, one process per
//! column, called over HTTP on loopback.

pub mod bisect;
mod budget;
mod columns;
mod deployed;
pub mod releases;
mod toolchain;
mod wire;
mod wrangler;

pub use crate::sides::process::{group_alive, install_exit_guards, stop_all};
pub use budget::{COLUMN_BYTES, column_concurrency, columns_that_fit, mem_available};
pub use columns::{ReferenceColumn, UPSTREAM, discover, select};
pub use deployed::{DEPLOYED_PREFIX, deployed_column};
pub use toolchain::{Toolchain, ensure_installed, install_from_lockfile, npm};

use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{Mutex, Semaphore};

use crate::catalogue::Case;
use crate::error::{Error, Result};
use crate::outcome;
use crate::sides::process::Supervised;
use wrangler::{Wrangler, port_taken};

/// How many times a column is started when a port it was given turns out to be taken.
const START_ATTEMPTS: u32 = 3;

/// How long a column may take to answer its first `/health`.
const READY_TIMEOUT: Duration = Duration::from_secs(120);

/// One running reference column: a `wrangler dev` the harness started, or a reference worker
/// deployed elsewhere (see [`ReferenceSide::deployed`]).
pub struct ReferenceSide {
    pub column: ReferenceColumn,
    client: reqwest::Client,
    base: String,
    /// The column's `wrangler dev`; `None` for a deployed worker.
    process: Mutex<Option<Supervised>>,
    /// Set once the process has died; every later case reports it.
    dead: OnceLock<String>,
    permits: Semaphore,
    pgid: i32,
}

impl ReferenceSide {
    /// Starts the column's `wrangler dev` and waits until it answers; a start that loses one of
    /// its ports to another process is retried on other ports.
    pub async fn start(
        toolchain: &Toolchain,
        column: ReferenceColumn,
        state_dir: &Path,
        concurrency: usize,
    ) -> Result<ReferenceSide> {
        let persist = state_dir.join(column.name.replace('@', "-"));
        let fail = |message: String| Error::Reference {
            column: column.name.clone(),
            message,
        };
        let client = reqwest::Client::builder()
            .no_proxy()
            .build()
            .map_err(|e| fail(e.to_string()))?;
        let expected = std::fs::read_to_string(&column.config)
            .ok()
            .and_then(|text| columns::column_var(&text));
        let mut attempts = 0;
        'start: loop {
            attempts += 1;
            let Wrangler {
                process: mut wrangler,
                port,
            } = Wrangler::start(toolchain, &column.config, &persist).map_err(|e| {
                fail(format!(
                    "could not start wrangler dev with {}: {e}",
                    toolchain.node.display()
                ))
            })?;
            let base = format!("http://127.0.0.1:{port}");
            let started = Instant::now();
            loop {
                if let Some(status) = wrangler.exited() {
                    let output = wrangler.output_tail();
                    wrangler.stop().await;
                    // Another process took a port between the check and wrangler's bind.
                    if port_taken(&output) && attempts < START_ATTEMPTS {
                        continue 'start;
                    }
                    let message =
                        format!("wrangler dev exited before it was ready ({status}):\n{output}");
                    return Err(fail(message));
                }
                // The answer must name this column: a port lost to another wrangler would
                // otherwise pass for this one.
                if let Ok(response) = client
                    .get(format!("{base}/health"))
                    .timeout(Duration::from_secs(2))
                    .send()
                    .await
                    && response.status().is_success()
                    && let Ok(health) = response.json::<Value>().await
                    && health.get("column").and_then(Value::as_str) == expected.as_deref()
                {
                    break;
                }
                if started.elapsed() > READY_TIMEOUT {
                    let message = format!(
                        "wrangler dev did not answer within {} s:\n{}",
                        READY_TIMEOUT.as_secs(),
                        wrangler.output_tail()
                    );
                    wrangler.stop().await;
                    return Err(fail(message));
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let pgid = wrangler.pgid();
            return Ok(ReferenceSide {
                column,
                client,
                base,
                process: Mutex::new(Some(wrangler)),
                dead: OnceLock::new(),
                permits: Semaphore::new(concurrency.max(1)),
                pgid,
            });
        }
    }

    /// A reference worker deployed elsewhere (the repository's `reference-worker`, same wire
    /// as the local one) at `base` (`http://HOST:PORT`), checked with its `/health` first.
    /// Its `/health` names the release it runs when it was deployed with an older column's
    /// configuration (`COLUMN = "0.5.2"`); otherwise the column keeps the release
    /// [`deployed_column`] read from the repository's manifest.
    pub async fn deployed(
        mut column: ReferenceColumn,
        base: &str,
        concurrency: usize,
    ) -> Result<Self> {
        let fail = |message: String| Error::Reference {
            column: column.name.clone(),
            message,
        };
        let client = reqwest::Client::builder()
            .no_proxy()
            .build()
            .map_err(|e| fail(e.to_string()))?;
        let base = base.trim_end_matches('/').to_string();
        let health = client
            .get(format!("{base}/health"))
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .map_err(|e| fail(format!("{base}/health did not answer: {e}")))?;
        if !health.status().is_success() {
            return Err(fail(format!(
                "{base}/health answered {}: is it the repository's reference-worker?",
                health.status()
            )));
        }
        if let Ok(health) = health.json::<Value>().await
            && let Some(named) = health.get("column").and_then(Value::as_str)
            && semver::Version::parse(named).is_ok()
        {
            named.clone_into(&mut column.upstream);
        }
        Ok(ReferenceSide {
            column,
            client,
            base,
            process: Mutex::new(None),
            dead: OnceLock::new(),
            permits: Semaphore::new(concurrency.max(1)),
            pgid: 0,
        })
    }

    /// The process group of the column's wrangler (0 for a deployed worker).
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    /// Runs one case (with `code` in place of the case's own, for `eval`) and returns its
    /// normalized outcome, or why the reference could not run it.
    pub async fn run(&self, case: &Case, code: &str) -> Result<Value, String> {
        if let Some(message) = self.dead.get() {
            return Err(message.clone());
        }
        let body = wire::request(case, code)?;
        let _permit = self.permits.acquire().await.map_err(|e| e.to_string())?;
        let limit = Duration::from_millis(case.options.timeout_ms.unwrap_or(60_000))
            + Duration::from_secs(30);
        let response = self
            .client
            .post(format!("{}/execute", self.base))
            .json(&body)
            .timeout(limit)
            .send()
            .await;
        let response = match response {
            Ok(response) => response,
            Err(error) => return Err(self.failure(format!("the request failed: {error}")).await),
        };
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| format!("reading the reference's answer failed: {e}"))?;
        if !status.is_success() {
            return Err(format!("the reference worker answered {status}: {text}"));
        }
        let json: Value = serde_json::from_str(&text)
            .map_err(|e| format!("the reference worker's answer is not JSON ({e}): {text}"))?;
        outcome::from_reference(&json)
    }

    /// Explains a failed request: if the process has died, marks the column dead so every
    /// later case says so at once.
    async fn failure(&self, message: String) -> String {
        let mut process = self.process.lock().await;
        let Some(process) = process.as_mut() else {
            return message;
        };
        match process.exited() {
            Some(status) => {
                let dead = format!(
                    "the reference worker exited ({status}) during the run:\n{}",
                    process.output_tail()
                );
                self.dead.get_or_init(|| dead).clone()
            }
            None => message,
        }
    }

    /// Stops the column's process group (nothing for a deployed worker).
    pub async fn stop(&self) {
        if let Some(process) = self.process.lock().await.as_mut() {
            process.stop().await;
        }
    }
}
