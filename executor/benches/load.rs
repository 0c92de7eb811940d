//! The executor daemon under load: the release `codemode-executor serve` binary on loopback
//! (`--pool 2`, a token, `--max-connections 64`), driven by 64 connections of this process,
//! each with one run in flight at a time, in four phases:
//! - **trivial**: only [`TRIVIAL`] runs for `LOAD_SECONDS` (default 10): runs/s and latency;
//! - **mixed**: for as long, eight runs in ten trivial, one in ten calling a tool
//!   ([`ONE_TOOL_CALL`], answered by this process over the socket), one in ten spinning past
//!   its 20 ms bound (an answered `TimedOut`): runs/s and latency by kind;
//! - **paced**: the 64 connections together send `LOAD_RATE` (default 4,000) trivial runs per
//!   second, each connection one run every 64 / `LOAD_RATE` s (or at once when its last answer
//!   came later): the latency of a run at a load the daemon can serve, not of a queue;
//! - **alone**: one connection, one run at a time: what a trivial run costs over the socket;
//! - **past the bound**: 16 more connections while the 64 are open: each is refused (HTTP 503);
//! - **soak**: `LOAD_SOAK_RUNS` (default 100,000) trivial runs over the 64 connections, the
//!   daemon's resident memory read every tenth of them, then again after a second of rest.
//!
//! Every phase reports the daemon's resident memory (`VmRSS`) and its peak (`VmHWM`) from
//! `/proc`, and what a run cost in CPU time: the daemon's, split between its isolate workers
//! and the rest (its tokio runtime: sockets, WebSocket frames, Cap'n Web messages), and this
//! process's (the 64 clients), each the CPU time of the phase divided by its runs (from
//! `/proc`, in ticks of 10 ms: a figure of a phase of seconds). Traffic goes to loopback only
//! and every loop is bounded in time or count.
//!
//! Run with `cargo bench -p codemode-executor --bench load`; `LOAD_POOL=N` sets the workers,
//! `LOAD_PHASES` the phases to run (a comma-separated list of `trivial`, `mixed`, `paced`,
//! `alone`, `past`, `soak`; all by default), and `LOAD_DAEMON` the daemon's executable (the
//! one cargo built by default), so that two builds of the daemon can be compared side by side
//! under the same clients.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bench_support::daemon::DaemonProcess;
use bench_support::{Figures, ONE_TOOL_CALL, TRIVIAL, native_request};
use codemode_executor::codes;
use codemode_executor::protocol::{ExecuteRequest, Executor, RunError, Timeout};
use codemode_executor::remote::{ConnectOptions, RemoteExecutor};

const TOKEN: &str = "load-bench-token";
const CONNECTIONS: usize = 64;

/// The daemon under load.
struct Daemon(DaemonProcess);

impl Daemon {
    fn start(workers: usize) -> Daemon {
        let built = PathBuf::from(env!("CARGO_BIN_EXE_codemode-executor"));
        let binary = std::env::var_os("LOAD_DAEMON").map_or(built, PathBuf::from);
        Daemon(DaemonProcess::start(
            &binary,
            TOKEN,
            &[
                "--pool".into(),
                workers.to_string(),
                "--max-connections".into(),
                CONNECTIONS.to_string(),
            ],
        ))
    }

    async fn connect(&self) -> Result<RemoteExecutor, codemode_executor::Error> {
        RemoteExecutor::connect(
            &self.0.url(),
            ConnectOptions {
                reconnect: false,
                ..self.0.options()
            },
        )
        .await
    }

    /// The daemon's resident memory and its peak, in MiB, from `/proc/PID/status`.
    fn memory(&self) -> (f64, f64) {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.0.pid())).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| {
                    rest.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<f64>()
                        .ok()
                })
                .map_or(f64::NAN, |kib| kib / 1024.0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    /// The CPU time the daemon has spent so far, its isolate workers' and the rest's.
    fn cpu(&self) -> DaemonCpu {
        let mut cpu = DaemonCpu::default();
        let tasks = Path::new("/proc")
            .join(self.0.pid().to_string())
            .join("task");
        for task in std::fs::read_dir(tasks).into_iter().flatten().flatten() {
            let Some((name, ticks)) = thread_cpu(&task.path().join("stat")) else {
                continue;
            };
            let switches = thread_switches(&task.path().join("status"));
            if name.starts_with("codemode-isolat") {
                cpu.workers += ticks;
                cpu.worker_switches += switches;
            } else {
                cpu.rest += ticks;
                cpu.rest_switches += switches;
            }
        }
        cpu
    }
}

/// The daemon's CPU time, in clock ticks (10 ms), and its threads' context switches.
#[derive(Default, Clone, Copy)]
struct DaemonCpu {
    /// The isolate workers' (threads `codemode-isolate-N`).
    workers: u64,
    /// Every other thread's: the tokio runtime's, which serves the sockets.
    rest: u64,
    /// The isolate workers' context switches (each time a thread left its core, waiting or
    /// preempted).
    worker_switches: u64,
    /// Every other thread's.
    rest_switches: u64,
}

/// How many times a thread left its core so far (`voluntary_ctxt_switches` and
/// `nonvoluntary_ctxt_switches` of its `/proc/…/status`); 0 for a thread that ended.
fn thread_switches(status: &Path) -> u64 {
    let text = std::fs::read_to_string(status).unwrap_or_default();
    text.lines()
        .filter(|line| line.contains("ctxt_switches:"))
        .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum()
}

/// This process's threads' context switches so far.
fn own_switches() -> u64 {
    std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
        .map(|task| thread_switches(&task.path().join("status")))
        .sum()
}

/// A thread's name and the CPU time it has spent (user and system), in clock ticks, from its
/// `/proc/…/stat`. A thread that ended since the directory was read has none.
fn thread_cpu(stat: &Path) -> Option<(String, u64)> {
    let text = std::fs::read_to_string(stat).ok()?;
    // `pid (comm) state ppid …`: the name is between the first `(` and the last `)`, and
    // user and system time are the 12th and 13th fields after it.
    let (name, rest) = text.split_once(" (")?.1.rsplit_once(") ")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some((name.to_string(), ticks))
}

/// This process's CPU time so far (every thread's, user and system), in clock ticks.
fn own_cpu() -> u64 {
    thread_cpu(Path::new("/proc/self/stat")).map_or(0, |(_, ticks)| ticks)
}

/// CPU time per run across a phase: the daemon's workers', the daemon's rest, and the
/// clients' (this process's), from readings before and after it.
struct CpuPerRun {
    before: (DaemonCpu, u64, u64),
}

impl CpuPerRun {
    fn start(daemon: &Daemon) -> CpuPerRun {
        CpuPerRun {
            before: (daemon.cpu(), own_cpu(), own_switches()),
        }
    }

    /// `cpu per run: daemon N µs (workers N, runtime N), clients N µs`, then the context
    /// switches per run split the same way, over `runs`.
    fn line(&self, daemon: &Daemon, runs: usize) -> String {
        let (after, own, own_switched) = (daemon.cpu(), own_cpu(), own_switches());
        let (before, own_before, own_switched_before) = self.before;
        // A tick is 10 ms: 10,000 µs.
        let per_run = |ticks: u64| ticks as f64 * 10_000.0 / runs.max(1) as f64;
        let workers = per_run(after.workers.saturating_sub(before.workers));
        let rest = per_run(after.rest.saturating_sub(before.rest));
        let clients = per_run(own.saturating_sub(own_before));
        let switches =
            |after: u64, before: u64| after.saturating_sub(before) as f64 / runs.max(1) as f64;
        let worker_switches = switches(after.worker_switches, before.worker_switches);
        let rest_switches = switches(after.rest_switches, before.rest_switches);
        let client_switches = switches(own_switched, own_switched_before);
        format!(
            "cpu per run: daemon {:.0} µs (workers {workers:.0}, runtime {rest:.0}), clients {clients:.0} µs; \
             context switches per run: daemon {:.2} (workers {worker_switches:.2}, runtime {rest_switches:.2}), clients {client_switches:.2}",
            workers + rest,
            worker_switches + rest_switches,
        )
    }
}

/// What a run was.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Trivial,
    Tool,
    TimesOut,
}

fn request(kind: Kind) -> ExecuteRequest {
    let mut request = match kind {
        Kind::Trivial => native_request(TRIVIAL),
        Kind::Tool => native_request(ONE_TOOL_CALL),
        Kind::TimesOut => native_request("async () => { while (true) {} }"),
    };
    request.timeout = Some(Timeout::Millis(if kind == Kind::TimesOut {
        20
    } else {
        10_000
    }));
    request
}

/// Runs `kind_of(n)` for its `n`-th run on `remote` until `until` (or `count` runs across
/// every connection are done), one at a time; each run's kind and latency.
async fn drive(
    remote: Arc<RemoteExecutor>,
    until: Instant,
    count: Arc<AtomicU64>,
    limit: u64,
    kind_of: fn(u64) -> Kind,
) -> Vec<(Kind, Duration)> {
    let mut samples = Vec::new();
    let mut n = 0;
    while Instant::now() < until && count.fetch_add(1, Ordering::Relaxed) < limit {
        let kind = kind_of(n);
        n += 1;
        let started = Instant::now();
        let outcome = remote
            .execute(request(kind))
            .await
            .expect("the run answers");
        let took = started.elapsed();
        match kind {
            Kind::TimesOut => assert!(
                matches!(outcome.error, Some(RunError::TimedOut { .. })),
                "{outcome:?}"
            ),
            _ => assert!(outcome.error.is_none(), "{outcome:?}"),
        }
        samples.push((kind, took));
    }
    samples
}

/// The 64 connections run `kind_of` for `seconds` (or `limit` runs in all); runs/s and the
/// samples.
async fn phase(
    remotes: &[Arc<RemoteExecutor>],
    for_time: Duration,
    limit: u64,
    kind_of: fn(u64) -> Kind,
) -> (f64, Vec<(Kind, Duration)>) {
    let started = Instant::now();
    let until = started + for_time;
    let count = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = remotes
        .iter()
        .map(|remote| tokio::spawn(drive(remote.clone(), until, count.clone(), limit, kind_of)))
        .collect();
    let mut samples = Vec::new();
    for task in tasks {
        samples.extend(task.await.expect("a driver"));
    }
    let rate = samples.len() as f64 / started.elapsed().as_secs_f64();
    (rate, samples)
}

/// Trivial runs on `remote`, one every `every` from `start` until `until` (at once when the
/// last answer came late); each run's latency.
async fn paced(
    remote: Arc<RemoteExecutor>,
    start: Instant,
    every: Duration,
    until: Instant,
) -> Vec<Duration> {
    let mut samples = Vec::new();
    let mut next = start;
    while next < until {
        tokio::time::sleep_until(next.into()).await;
        let started = Instant::now();
        remote
            .execute(request(Kind::Trivial))
            .await
            .expect("the run answers");
        samples.push(started.elapsed());
        next += every;
    }
    samples
}

fn figures(samples: &[(Kind, Duration)], kind: Kind) -> Option<Figures> {
    let of: Vec<Duration> = samples
        .iter()
        .filter(|(k, _)| *k == kind)
        .map(|(_, d)| *d)
        .collect();
    (!of.is_empty()).then(|| Figures::of(of))
}

fn mixed(n: u64) -> Kind {
    match n % 10 {
        3 => Kind::Tool,
        7 => Kind::TimesOut,
        _ => Kind::Trivial,
    }
}

/// Whether `LOAD_PHASES` names `phase` (every phase runs when it is not set).
fn runs_phase(phase: &str) -> bool {
    std::env::var("LOAD_PHASES").map_or(true, |phases| {
        phases.split(',').any(|named| named.trim() == phase)
    })
}

fn main() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(default)
    };
    let seconds = Duration::from_secs(env("LOAD_SECONDS", 10));
    let soak_runs = env("LOAD_SOAK_RUNS", 100_000);
    let workers = env("LOAD_POOL", 2) as usize;
    let runtime = bench_support::runtime();
    runtime.block_on(async {
        let daemon = Daemon::start(workers);
        let mut remotes = Vec::new();
        for _ in 0..CONNECTIONS {
            remotes.push(Arc::new(daemon.connect().await.expect("connects")));
        }
        let (rss, _) = daemon.memory();
        println!(
            "daemon: --pool {workers}, {CONNECTIONS} connections, one run in flight each; resident {rss:.1} MiB at start"
        );
        // Warm-up: every worker holds its prepared sandboxes.
        phase(&remotes, Duration::from_millis(500), u64::MAX, |_| Kind::Trivial).await;

        if runs_phase("trivial") {
            let cpu = CpuPerRun::start(&daemon);
            let (rate, samples) = phase(&remotes, seconds, u64::MAX, |_| Kind::Trivial).await;
            let (rss, peak) = daemon.memory();
            println!(
                "trivial  {rate:>8.0} runs/s  {}  resident {rss:.1} MiB (peak {peak:.1})",
                figures(&samples, Kind::Trivial).expect("runs")
            );
            println!("  {}", cpu.line(&daemon, samples.len()));
        }

        if runs_phase("mixed") {
            let cpu = CpuPerRun::start(&daemon);
            let (rate, samples) = phase(&remotes, seconds, u64::MAX, mixed).await;
            let (rss, peak) = daemon.memory();
            println!("mixed    {rate:>8.0} runs/s  resident {rss:.1} MiB (peak {peak:.1})");
            for (name, kind) in [
                ("trivial", Kind::Trivial),
                ("tool", Kind::Tool),
                ("timeout", Kind::TimesOut),
            ] {
                if let Some(f) = figures(&samples, kind) {
                    let n = samples.iter().filter(|(k, _)| *k == kind).count();
                    println!("  {name:<8} {n:>7} runs  {f}");
                }
            }
            println!("  {}", cpu.line(&daemon, samples.len()));
        }

        if runs_phase("paced") {
            let rate = env("LOAD_RATE", 4000).max(1);
            let every = Duration::from_secs_f64(CONNECTIONS as f64 / rate as f64);
            let cpu = CpuPerRun::start(&daemon);
            let begin = Instant::now();
            let until = begin + seconds;
            let tasks: Vec<_> = remotes
                .iter()
                .enumerate()
                .map(|(index, remote)| {
                    let start = begin + every.mul_f64(index as f64 / CONNECTIONS as f64);
                    tokio::spawn(paced(remote.clone(), start, every, until))
                })
                .collect();
            let mut latencies = Vec::new();
            for task in tasks {
                latencies.extend(task.await.expect("a paced driver"));
            }
            let achieved = latencies.len() as f64 / begin.elapsed().as_secs_f64();
            let runs = latencies.len();
            println!(
                "paced    {achieved:>8.0} runs/s (asked {rate})  {}",
                Figures::of(latencies)
            );
            println!("  {}", cpu.line(&daemon, runs));
        }

        if runs_phase("alone") {
            let cpu = CpuPerRun::start(&daemon);
            let (rate, samples) = phase(&remotes[..1], seconds.min(Duration::from_secs(3)), u64::MAX, |_| {
                Kind::Trivial
            })
            .await;
            println!(
                "alone    {rate:>8.0} runs/s  {}  (one connection, one run at a time)",
                figures(&samples, Kind::Trivial).expect("runs")
            );
            println!("  {}", cpu.line(&daemon, samples.len()));
        }

        if runs_phase("past") {
            let mut refused = 0;
            for _ in 0..16 {
                match daemon.connect().await {
                    Ok(extra) => extra.dispose().await,
                    Err(error) => {
                        assert_eq!(error.code(), Some(codes::CONNECTION_REJECTED), "{error}");
                        refused += 1;
                    }
                }
            }
            println!("past --max-connections {CONNECTIONS}: {refused} of 16 more connections refused (HTTP 503)");
        }

        if runs_phase("soak") {
            let tenth = (soak_runs / 10).max(1);
            let mut resident = Vec::new();
            let cpu = CpuPerRun::start(&daemon);
            let started = Instant::now();
            let mut latencies = Vec::new();
            for _ in 0..10 {
                let (_, samples) = phase(&remotes, Duration::from_secs(600), tenth, |_| {
                    Kind::Trivial
                })
                .await;
                latencies.extend(samples);
                resident.push(daemon.memory().0);
            }
            let rate = latencies.len() as f64 / started.elapsed().as_secs_f64();
            println!(
                "soak     {} runs at {rate:.0} runs/s  {}",
                latencies.len(),
                figures(&latencies, Kind::Trivial).expect("runs")
            );
            println!("  {}", cpu.line(&daemon, latencies.len()));
            let shown: Vec<String> = resident.iter().map(|mib| format!("{mib:.1}")).collect();
            println!("  resident MiB after each tenth: {}", shown.join(" "));
        }
        for remote in remotes {
            if let Some(remote) = Arc::into_inner(remote) {
                remote.dispose().await;
            }
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let (rss, peak) = daemon.memory();
        println!("after    every connection closed, 1 s later: resident {rss:.1} MiB (peak {peak:.1})");
    });
}
