//! The QuickJS native executor.
//!
//! [`IsolateExecutor`] runs each [`ExecuteRequest`] in a
//! prepared QuickJS sandbox (a newly prepared one, or one whose memory was restored from its
//! image after its last run) on one of a fixed set of worker threads. Each run gets its own
//! memory limit, a CPU deadline enforced by QuickJS's interrupt handler, and a wall-clock
//! bound on idle waits; see `bounds` for how the run clock counts.
//!
//! Its modules (internal), each named after a concept:
//! - `pool`: the worker threads and their queue;
//! - `fair_queue`: the queue's order, fair across its callers' shares;
//! - `sandbox`: a runtime and context with the scope installed, prepared ahead, imaged and
//!   restored after each run;
//! - `region`: a runtime's own reserved memory, its allocator inside, imaged and restored;
//! - `run`: one run's lifecycle and event loop;
//! - `bounds`: the run clock and the interrupt;
//! - `memory`: the run's memory budget, which knows when it was exhausted;
//! - `host` and `bootstrap.js`: the sandbox scope (console, timers, dispatch, codec);
//! - `proxies`: the provider objects;
//! - `modules`: the request's module map;
//! - `timers`: the host-side timer queue;
//! - `compiled`: the sandbox's own JavaScript, compiled to bytecode once per process;
//! - `clone`: the result's crossing into a [`JsValue`](crate::protocol::JsValue);
//! - `text`: strings crossing out, every code unit kept (lone surrogates included);
//! - `v8_messages`: the error texts the patched engine (`vendor/patches`) cannot word
//!   alone, finished as V8 words them;
//! - `v8_syntax_texts`: the syntax-error texts the engine words as V8 does, by the rule broken;
//! - `call_site`: V8's rendering of an expression in a message, from the program's source;
//! - `web`: the Web platform globals (URL, encoding, crypto, fetch's classes, Intl…).

mod bounds;
mod call_site;
mod clone;
mod compiled;
mod failure;
mod fair_queue;
mod hook;
mod host;
mod memory;
mod modules;
mod pool;
mod proxies;
mod region;
mod run;
mod sandbox;
mod text;
mod timers;
mod v8_messages;
mod v8_syntax_texts;
mod web;

use std::time::Duration;

use crate::Error;
use crate::protocol::{ExecuteRequest, Executor, Outcome, Share, Timeout};
pub use pool::Occupancy;
use pool::Pool;
use run::RunLimits;

/// Prepares and drops `count` sandboxes as a worker does (a fresh runtime and context with
/// the scope and every Web global installed), returning how long each preparation and each
/// drop took. For the benchmarks only (feature `bench-internals`); not part of the stable
/// API.
#[cfg(feature = "bench-internals")]
#[doc(hidden)]
pub fn time_sandboxes(count: usize) -> Result<Vec<(Duration, Duration)>, Error> {
    let mut timings = Vec::with_capacity(count);
    for _ in 0..count {
        let started = std::time::Instant::now();
        let prepared = sandbox::Sandbox::prepare(sandbox::region_bytes(64 << 20))?;
        let prepare = started.elapsed();
        let started = std::time::Instant::now();
        drop(prepared);
        timings.push((prepare, started.elapsed()));
    }
    Ok(timings)
}

/// How an [`IsolateExecutor`] is sized and bounded.
///
/// Built from [`IsolateOptions::default`] with its setters, each named after the field it
/// sets:
///
/// ```
/// use codemode_executor::isolate::IsolateOptions;
///
/// let options = IsolateOptions::default().workers(2).memory_limit_bytes(32 << 20);
/// assert_eq!(options.workers, 2);
/// assert_eq!(options.default_timeout_ms, 60_000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct IsolateOptions {
    /// Worker threads; each runs one execution at a time. Default: the available
    /// parallelism.
    pub workers: usize,
    /// The memory limit of each run. It bounds what the host holds for the run as well as
    /// the runtime's own allocations: captured console lines, tool calls (names, argument
    /// text and an estimate of the values decoded from it), pending timers and the result's
    /// clone are charged to it as they are made, and a run that exceeds it ends with
    /// [`RunError::OutOfMemory`](crate::protocol::RunError::OutOfMemory), keeping the lines
    /// captured before. A process running `workers` runs at once so holds at most about
    /// `workers` × this limit for them. Default: 64 MiB.
    pub memory_limit_bytes: usize,
    /// The bound of a request without one. Default: 60 000 ms.
    pub default_timeout_ms: u64,
    /// The longest bound a request may have (what [`Timeout::Maximum`] means; longer
    /// requested bounds are clamped to it). Default: 300 000 ms.
    pub max_timeout_ms: u64,
    /// The JavaScript stack limit of each run. Default: 1 MiB.
    pub max_stack_bytes: usize,
    /// How many sandboxes each worker keeps (at least one), prepared or restored while
    /// idle, so a burst of runs starts without waiting. Each holds about 650 KiB (its
    /// memory and the image it is restored from) and reserves
    /// 2 × [`memory_limit_bytes`](IsolateOptions::memory_limit_bytes) + 64 MiB of address
    /// space (not memory). Default: 4.
    pub prepared_sandboxes: usize,
    /// Whether a run's sandbox is restored from its image for a later run (`true`), or
    /// dropped after the run and replaced by a newly prepared one (`false`). Either way every
    /// run starts from the prepared state (see [`IsolateExecutor`]'s guarantees); restoring
    /// costs a copy of the sandbox's ~320 KiB, preparing about 3 million instructions
    /// (several hundred µs), which back to back and at saturation is what a run waits for.
    /// Default: `true`.
    pub restore_sandboxes: bool,
    /// How long an idle worker (its stock full, every other worker idle too) keeps looking
    /// for the next run before it parks; at most one worker looks at a time. A run that
    /// arrives meanwhile starts without waking a thread (on a virtual machine, waking a
    /// parked thread on an idle core can cost more than a trivial run); looking costs that
    /// worker's core for up to this long after the pool falls idle, and never while another
    /// worker runs, prepares or restores. Zero parks at once. Default: 5 ms (a host's runs
    /// "1 ms apart", timed by a tokio sleep, arrive 1 – 2.5 ms after the last answer; with a
    /// 2 ms look about one in two found its worker parked and woke it, on another core, and
    /// the bench counted a hundred times more thread migrations).
    pub idle_spin: Duration,
    /// How many runs may wait for a worker; past it `execute` waits for a place in the queue
    /// (first come, first served) before its run is queued. `None`: 64 per worker. The executor
    /// daemon sets it past its own bound on queued runs, so that its connections' runs are
    /// queued at once and served fairly ([`Executor::execute_in_share`]).
    pub max_queued_runs: Option<usize>,
}

impl IsolateOptions {
    /// Sets [`workers`](IsolateOptions::workers) (at least one is started).
    pub fn workers(mut self, workers: usize) -> Self {
        self.workers = workers;
        self
    }

    /// Sets [`memory_limit_bytes`](IsolateOptions::memory_limit_bytes).
    pub fn memory_limit_bytes(mut self, bytes: usize) -> Self {
        self.memory_limit_bytes = bytes;
        self
    }

    /// Sets [`default_timeout_ms`](IsolateOptions::default_timeout_ms).
    pub fn default_timeout_ms(mut self, ms: u64) -> Self {
        self.default_timeout_ms = ms;
        self
    }

    /// Sets [`max_timeout_ms`](IsolateOptions::max_timeout_ms).
    pub fn max_timeout_ms(mut self, ms: u64) -> Self {
        self.max_timeout_ms = ms;
        self
    }

    /// Sets [`max_stack_bytes`](IsolateOptions::max_stack_bytes).
    pub fn max_stack_bytes(mut self, bytes: usize) -> Self {
        self.max_stack_bytes = bytes;
        self
    }

    /// Sets [`prepared_sandboxes`](IsolateOptions::prepared_sandboxes) (at least one is
    /// kept).
    pub fn prepared_sandboxes(mut self, count: usize) -> Self {
        self.prepared_sandboxes = count;
        self
    }

    /// Sets [`restore_sandboxes`](IsolateOptions::restore_sandboxes).
    pub fn restore_sandboxes(mut self, restore: bool) -> Self {
        self.restore_sandboxes = restore;
        self
    }

    /// Sets [`idle_spin`](IsolateOptions::idle_spin).
    pub fn idle_spin(mut self, spin: Duration) -> Self {
        self.idle_spin = spin;
        self
    }

    /// Sets [`max_queued_runs`](IsolateOptions::max_queued_runs).
    pub fn max_queued_runs(mut self, runs: usize) -> Self {
        self.max_queued_runs = Some(runs);
        self
    }
}

impl Default for IsolateOptions {
    fn default() -> Self {
        IsolateOptions {
            workers: std::thread::available_parallelism()
                .map(usize::from)
                .unwrap_or(1),
            memory_limit_bytes: 64 << 20,
            default_timeout_ms: 60_000,
            max_timeout_ms: 300_000,
            max_stack_bytes: 1 << 20,
            prepared_sandboxes: 4,
            restore_sandboxes: true,
            idle_spin: Duration::from_millis(5),
            max_queued_runs: None,
        }
    }
}

/// The QuickJS implementation of [`Executor`].
///
/// Guarantees: every run starts from the prepared state, so nothing one run sets is visible
/// to the next: its sandbox is either newly prepared, or one whose whole memory (every
/// object, shape, atom, module, job and count of its runtime, at the same addresses) was
/// written back from the image taken when it was prepared, with its host state, interrupt,
/// budget and module map made anew and `Math.random` seeded anew; what the run's objects
/// held of the host's was finalized first. No two runs use a sandbox at once; a run
///  ends within its bound (plus scheduling overhead) whether it spins,
/// waits on a promise that never settles, or exhausts memory, and its worker then serves the
/// next run; `execute` futures are `Send` and work from any tokio runtime.
pub struct IsolateExecutor {
    options: IsolateOptions,
    pool: Pool,
}

impl IsolateExecutor {
    /// Starts the worker pool.
    pub fn new(options: IsolateOptions) -> Self {
        let stack = options.max_stack_bytes.saturating_add(8 << 20);
        IsolateExecutor {
            pool: Pool::start(
                options.workers,
                stack,
                options.prepared_sandboxes,
                options.idle_spin,
                sandbox::region_bytes(options.memory_limit_bytes),
                options.restore_sandboxes,
                options
                    .max_queued_runs
                    .unwrap_or(options.workers.max(1).saturating_mul(64)),
            ),
            options,
        }
    }

    fn limits(&self, request: &ExecuteRequest) -> RunLimits {
        let max = self.options.max_timeout_ms;
        let bound_ms = match request.timeout {
            None => self.options.default_timeout_ms.min(max),
            Some(Timeout::Millis(ms)) => ms.min(max),
            Some(Timeout::Maximum) => max,
        };
        RunLimits {
            memory_limit_bytes: self.options.memory_limit_bytes,
            max_stack_bytes: self.options.max_stack_bytes,
            bound: Duration::from_millis(bound_ms),
            hard_cap: Duration::from_millis(max),
        }
    }
}

impl Default for IsolateExecutor {
    fn default() -> Self {
        IsolateExecutor::new(IsolateOptions::default())
    }
}

impl IsolateExecutor {
    /// How many workers run and how many runs wait, now.
    pub fn occupancy(&self) -> Occupancy {
        self.pool.occupancy()
    }
}

impl Executor for IsolateExecutor {
    async fn execute(&self, request: ExecuteRequest) -> Result<Outcome, Error> {
        let limits = self.limits(&request);
        self.pool
            .submit(request, limits, Share::new(pool::NO_SHARE))
            .await
    }

    async fn execute_in_share(
        &self,
        request: ExecuteRequest,
        share: Share,
    ) -> Result<Outcome, Error> {
        let limits = self.limits(&request);
        self.pool.submit(request, limits, share).await
    }

    async fn dispose(&self) {
        self.pool.close();
    }
}

impl Drop for IsolateExecutor {
    fn drop(&mut self) {
        self.pool.close();
    }
}
