//! The reference side: the real `DynamicWorkerExecutor` under `wrangler dev`, one process per
//! column, called over HTTP on loopback; or a copy of the reference worker deployed elsewhere
//! (`reference@http://HOST:PORT`), which the harness calls and never starts or stops.

pub mod bisect;
mod budget;
mod bundle;
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

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use codemode_executor::protocol::lone_surrogates_as_text;
use serde_json::Value;
use tokio::sync::{Mutex, RwLock, Semaphore};

use crate::catalogue::Case;
use crate::error::{Error, Result};
use crate::outcome;
use crate::sides::process::Supervised;
use wrangler::{Wrangler, port_taken};

/// How many times a column is started when a port it was given turns out to be taken.
const START_ATTEMPTS: u32 = 3;

/// How long a column may take to answer its first `/health`.
const READY_TIMEOUT: Duration = Duration::from_secs(120);

/// How many times a column's worker is restarted after it crashed or stopped answering,
/// unless [`ReferenceSide::limit_restarts`] says otherwise. Past it, the column is given up:
/// every later case is an `error` saying so.
pub const RESTARTS: u32 = 3;

/// How long `/health` may take to answer when the harness checks whether a worker whose
/// request failed is still alive.
const HEALTH_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a crashed worker may take to answer again (wrangler starts a new workerd by
/// itself) before the side restarts the column's `wrangler dev`.
const RECOVERY_TIMEOUT: Duration = Duration::from_secs(30);

/// The sentence that starts the reason of a case that crashed the reference worker twice:
/// once among the cases in flight, once alone on a fresh worker.
pub const CRASHED_ON_THIS_CASE: &str = "the reference worker crashed on this case";

/// One running reference column.
///
/// Crash recovery (wptrunner's CRASH status and browser restart are the model): when a
/// request fails, the side checks whether the worker went down with it: wrangler reported a
/// workerd crash since the request left, wrangler exited, or `/health` does not answer. A
/// worker that went down is recovered once for all the requests it took down: wrangler
/// starts a new workerd by itself after a crash, so the side first waits for `/health` to
/// answer again ([`RECOVERY_TIMEOUT`]), and otherwise restarts the column's `wrangler dev`
/// on fresh ports. Every case that was in flight is then run again, one at a time, on the
/// fresh worker. A case that takes that fresh worker down too is an `error` whose reason
/// starts with [`CRASHED_ON_THIS_CASE`]; the worker is recovered once more for the cases
/// after it. After [`RESTARTS`] recoveries the column is given up and every later case says
/// so.
pub struct ReferenceSide {
    /// The column the side runs.
    pub column: ReferenceColumn,
    client: reqwest::Client,
    /// The toolchain and persist directory a restart uses; `None` for a deployed worker.
    local: Option<(Toolchain, PathBuf)>,
    /// The `COLUMN` var `/health` must name.
    expected: Option<String>,
    worker: Mutex<Worker>,
    /// How many times the side recovered the worker; with `runtime_crashes`, a request
    /// remembers the worker it was sent to.
    generation: AtomicU64,
    /// How many times wrangler reported that its workerd crashed (and started another).
    runtime_crashes: Arc<AtomicU64>,
    restarts: AtomicU32,
    restart_limit: AtomicU32,
    /// The epoch of the worker the side last recovered.
    recovered: AtomicU64,
    /// Requests share it; a case rerun after a crash holds it alone.
    alone: RwLock<()>,
    /// Set once the column is given up; every later case reports it.
    dead: OnceLock<String>,
    permits: Semaphore,
    pgid: AtomicI32,
}

/// The current `wrangler dev` of a column (`None` for a deployed worker) and where it answers.
struct Worker {
    process: Option<Supervised>,
    base: String,
}

impl Worker {
    /// `Some(status)` once the column's `wrangler dev` has exited (never for a deployed worker).
    fn exited(&mut self) -> Option<String> {
        self.process.as_mut().and_then(Supervised::exited)
    }

    /// The last lines the column's `wrangler dev` printed (nothing for a deployed worker).
    fn output_tail(&self) -> String {
        self.process
            .as_ref()
            .map(Supervised::output_tail)
            .unwrap_or_default()
    }

    async fn stop(&mut self) {
        if let Some(process) = self.process.as_mut() {
            process.stop().await;
        }
    }
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
        let runtime_crashes = Arc::new(AtomicU64::new(0));
        let worker = launch(
            toolchain,
            &column,
            &persist,
            &client,
            expected.as_deref(),
            &runtime_crashes,
        )
        .await
        .map_err(fail)?;
        let pgid = worker.process.as_ref().map_or(0, Supervised::pgid);
        Ok(ReferenceSide {
            column,
            client,
            local: Some((toolchain.clone(), persist)),
            expected,
            worker: Mutex::new(worker),
            generation: AtomicU64::new(0),
            runtime_crashes,
            restarts: AtomicU32::new(0),
            restart_limit: AtomicU32::new(RESTARTS),
            recovered: AtomicU64::new(0),
            alone: RwLock::new(()),
            dead: OnceLock::new(),
            permits: Semaphore::new(concurrency.max(1)),
            pgid: AtomicI32::new(pgid),
        })
    }

    /// A reference worker deployed elsewhere (the repository's `reference-worker`, same wire
    /// as the local one) at `base` (`http://HOST:PORT`), checked with its `/health` first.
    /// Its `/health` names the release it runs when it was deployed with an older column's
    /// configuration (`COLUMN = "0.5.2"`); otherwise the column keeps the release
    /// [`deployed_column`] read from the repository's manifest. A deployed worker that stops
    /// answering is waited for (as long as a local one is), never restarted.
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
        let named = health.json::<Value>().await.ok().and_then(|health| {
            health
                .get("column")
                .and_then(Value::as_str)
                .map(String::from)
        });
        if let Some(named) = &named
            && semver::Version::parse(named).is_ok()
        {
            named.clone_into(&mut column.upstream);
        }
        let runtime_crashes = Arc::new(AtomicU64::new(0));
        Ok(ReferenceSide {
            column,
            client,
            local: None,
            expected: named,
            worker: Mutex::new(Worker {
                process: None,
                base,
            }),
            generation: AtomicU64::new(0),
            runtime_crashes,
            restarts: AtomicU32::new(0),
            restart_limit: AtomicU32::new(RESTARTS),
            recovered: AtomicU64::new(0),
            alone: RwLock::new(()),
            dead: OnceLock::new(),
            permits: Semaphore::new(concurrency.max(1)),
            pgid: AtomicI32::new(0),
        })
    }

    /// Sets how many times the worker may be recovered (default [`RESTARTS`]).
    pub fn limit_restarts(&self, limit: u32) {
        self.restart_limit.store(limit, Ordering::SeqCst);
    }

    /// How many times the worker has been recovered (by wrangler or by a restart).
    pub fn restarts(&self) -> u32 {
        self.restarts.load(Ordering::SeqCst)
    }

    /// The process group of the column's current wrangler (0 for a deployed worker).
    pub fn pgid(&self) -> i32 {
        self.pgid.load(Ordering::SeqCst)
    }

    /// Which worker a request is sent to: it changes whenever the worker went down.
    fn epoch(&self) -> u64 {
        self.generation.load(Ordering::SeqCst) + self.runtime_crashes.load(Ordering::SeqCst)
    }

    /// Runs one case (with `code` in place of the case's own, for `eval`) and returns its
    /// normalized outcome, or why the reference could not run it.
    pub async fn run(&self, case: &Case, code: &str) -> Result<Value, String> {
        let body = wire::request(case, code)?;
        let limit = Duration::from_millis(case.options.timeout_ms.unwrap_or(60_000))
            + Duration::from_secs(30);
        let (first, epoch) = {
            let _permit = self.permits.acquire().await.map_err(|e| e.to_string())?;
            let _shared = self.alone.read().await;
            if let Some(message) = self.dead.get() {
                return Err(message.clone());
            }
            let epoch = self.epoch();
            (self.send(&body, limit).await, epoch)
        };
        let failure = match first {
            Ok(answer) => return outcome::from_reference(answer),
            Err(failure) => failure,
        };
        if !self.crashed(epoch).await {
            return Err(failure);
        }
        // The worker went down with this case in flight: recover it (once for every request
        // it took down), then run the case again alone, so that a case that crashes the
        // worker is told apart from the ones that were merely in flight with it.
        self.recover(epoch).await?;
        let _alone = self.alone.write().await;
        if let Some(message) = self.dead.get() {
            return Err(message.clone());
        }
        let epoch = self.epoch();
        match self.send(&body, limit).await {
            Ok(answer) => outcome::from_reference(answer),
            Err(again) if self.crashed(epoch).await => {
                let after = match self.recover(epoch).await {
                    Ok(tail) => format!("wrangler's last output:\n{tail}"),
                    Err(given_up) => given_up,
                };
                Err(format!(
                    "{CRASHED_ON_THIS_CASE}: it went down with the case in flight, and again when the case ran alone on a fresh worker ({again}); {after}"
                ))
            }
            Err(again) => Err(again),
        }
    }

    /// One request: the worker's JSON answer, or why there is none.
    async fn send(&self, body: &Value, limit: Duration) -> Result<Value, String> {
        let base = self.worker.lock().await.base.clone();
        let response = self
            .client
            .post(format!("{base}/execute"))
            .json(body)
            .timeout(limit)
            .send()
            .await
            .map_err(|e| format!("the request failed: {e}"))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| format!("reading the reference's answer failed: {e}"))?;
        if !status.is_success() {
            return Err(format!("the reference worker answered {status}: {text}"));
        }
        // A lone surrogate (`"hi \ud83d"`) is valid in the worker's JSON and refused by
        // serde_json: it is read in the text form our side writes it in too.
        serde_json::from_str(&lone_surrogates_as_text(&text))
            .map_err(|e| format!("the reference worker's answer is not JSON ({e}): {text}"))
    }

    /// Whether the worker a request was sent to went down: recovered or crashed since, exited,
    /// or not answering `/health` (twice, [`HEALTH_TIMEOUT`] each).
    async fn crashed(&self, epoch: u64) -> bool {
        if self.epoch() != epoch {
            return true;
        }
        let base = {
            let mut worker = self.worker.lock().await;
            if self.epoch() != epoch || worker.exited().is_some() {
                return true;
            }
            worker.base.clone()
        };
        for _ in 0..2 {
            if answers(
                &self.client,
                &base,
                self.expected.as_deref(),
                HEALTH_TIMEOUT,
            )
            .await
            {
                return self.epoch() != epoch;
            }
        }
        true
    }

    /// Recovers the worker a request saw go down, unless another request already did, and
    /// returns the last lines wrangler printed about it. Wrangler starts a new workerd by
    /// itself after a crash, so this first waits for `/health`; a wrangler that exited or
    /// whose worker does not answer within [`RECOVERY_TIMEOUT`] is restarted. Fails, giving
    /// the column up, when the recoveries are used up or the restart fails; the message says
    /// so.
    async fn recover(&self, epoch: u64) -> Result<String, String> {
        let mut worker = self.worker.lock().await;
        if let Some(message) = self.dead.get() {
            return Err(message.clone());
        }
        if self.recovered_since(epoch) {
            return Ok(String::new());
        }
        let tail = last_lines(&worker.output_tail(), 8);
        let limit = self.restart_limit.load(Ordering::SeqCst);
        let restarts = self.restarts.load(Ordering::SeqCst);
        if restarts >= limit {
            worker.stop().await;
            let message = format!(
                "the reference worker crashed or stopped answering ({} time{}); the column is not restarted again (at most {limit} restart{}), so this case and every later one on {} did not run. Its last output:\n{tail}",
                restarts + 1,
                if restarts == 0 { "" } else { "s" },
                if limit == 1 { "" } else { "s" },
                self.column.name
            );
            return Err(self.dead.get_or_init(|| message).clone());
        }
        self.restarts.fetch_add(1, Ordering::SeqCst);
        // Wrangler's own restart of workerd, when it is still running.
        let waited = Instant::now();
        while worker.exited().is_none() && waited.elapsed() < RECOVERY_TIMEOUT {
            if answers(
                &self.client,
                &worker.base,
                self.expected.as_deref(),
                HEALTH_TIMEOUT,
            )
            .await
            {
                self.generation.fetch_add(1, Ordering::SeqCst);
                self.recovered.store(self.epoch(), Ordering::SeqCst);
                return Ok(tail);
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        worker.stop().await;
        let Some((toolchain, persist)) = &self.local else {
            let message = format!(
                "the deployed reference worker at {} stopped answering its /health for {} s, so this case and every later one on {} did not run",
                worker.base,
                RECOVERY_TIMEOUT.as_secs(),
                self.column.name
            );
            return Err(self.dead.get_or_init(|| message).clone());
        };
        match launch(
            toolchain,
            &self.column,
            persist,
            &self.client,
            self.expected.as_deref(),
            &self.runtime_crashes,
        )
        .await
        {
            Ok(fresh) => {
                self.pgid.store(
                    fresh.process.as_ref().map_or(0, Supervised::pgid),
                    Ordering::SeqCst,
                );
                *worker = fresh;
                self.generation.fetch_add(1, Ordering::SeqCst);
                self.recovered.store(self.epoch(), Ordering::SeqCst);
                Ok(tail)
            }
            Err(why) => {
                let message = format!(
                    "the reference worker crashed and could not be restarted, so this case and every later one on {} did not run: {why}",
                    self.column.name
                );
                Err(self.dead.get_or_init(|| message).clone())
            }
        }
    }

    /// Whether the side recovered the worker after the one at `epoch` went down.
    fn recovered_since(&self, epoch: u64) -> bool {
        self.recovered.load(Ordering::SeqCst) > epoch
    }

    /// Whether the column still answers its `/health`, naming itself, within two seconds (a `wrangler dev`
    /// whose workerd has died keeps its node process, so a live process proves nothing).
    pub async fn healthy(&self) -> bool {
        if self.dead.get().is_some() {
            return false;
        }
        let base = self.worker.lock().await.base.clone();
        answers(
            &self.client,
            &base,
            self.expected.as_deref(),
            Duration::from_secs(2),
        )
        .await
    }

    /// Stops the column's process group (nothing for a deployed worker).
    pub async fn stop(&self) {
        self.worker.lock().await.stop().await;
    }
}

/// The last `count` lines of a text.
fn last_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}

/// Whether the worker at `base` answers `/health` naming its column.
async fn answers(
    client: &reqwest::Client,
    base: &str,
    expected: Option<&str>,
    timeout: Duration,
) -> bool {
    let Ok(response) = client
        .get(format!("{base}/health"))
        .timeout(timeout)
        .send()
        .await
    else {
        return false;
    };
    response.status().is_success()
        && response
            .json::<Value>()
            .await
            .is_ok_and(|health| health.get("column").and_then(Value::as_str) == expected)
}

/// Where the bundled worker of the column persisting to `persist` is kept: `bundles/<column>`
/// beside the persist directories.
fn bundle_dir(persist: &Path) -> PathBuf {
    let column = persist.file_name().unwrap_or_default();
    persist
        .parent()
        .unwrap_or(persist)
        .join("bundles")
        .join(column)
}

/// Starts a column's `wrangler dev` and waits until it answers `/health` naming the column;
/// a start that loses one of its ports to another process is retried on other ports.
async fn launch(
    toolchain: &Toolchain,
    column: &ReferenceColumn,
    persist: &Path,
    client: &reqwest::Client,
    expected: Option<&str>,
    crashes: &Arc<AtomicU64>,
) -> Result<Worker, String> {
    let script = {
        let toolchain = toolchain.clone();
        let config = column.config.clone();
        let dir = bundle_dir(persist);
        tokio::task::spawn_blocking(move || bundle::ensure(&toolchain, &config, &dir))
            .await
            .map_err(|e| format!("bundling the worker stopped: {e}"))??
    };
    let mut attempts = 0;
    'start: loop {
        attempts += 1;
        let Wrangler {
            process: mut wrangler,
            port,
        } = Wrangler::start(toolchain, &column.config, &script, persist, crashes.clone()).map_err(
            |e| {
                format!(
                    "could not start wrangler dev with {}: {e}",
                    toolchain.node.display()
                )
            },
        )?;
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
                return Err(format!(
                    "wrangler dev exited before it was ready ({status}):\n{output}"
                ));
            }
            // The answer must name this column: a port lost to another wrangler would
            // otherwise pass for this one.
            if answers(client, &base, expected, Duration::from_secs(2)).await {
                return Ok(Worker {
                    process: Some(wrangler),
                    base,
                });
            }
            if started.elapsed() > READY_TIMEOUT {
                let message = format!(
                    "wrangler dev did not answer within {} s:\n{}",
                    READY_TIMEOUT.as_secs(),
                    wrangler.output_tail()
                );
                wrangler.stop().await;
                return Err(message);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}
