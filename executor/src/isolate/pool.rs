//! The worker pool: a fixed number of threads, each with its own current-thread tokio
//! runtime, taking runs from one bounded queue, one run at a time per worker. The queue is
//! fair across its callers' shares ([`super::fair_queue`]): a worker takes the next run of
//! the share that runs the fewest, so the executor daemon's connections share the workers in
//! turn with no second queue (and no hand-off between two) in front of this one.
//!
//! A worker answers a run before anything else. While no run is waiting it restores the
//! sandbox of its last run from its image (see [`super::sandbox`]; about 16 µs) and, until
//! it holds its stock, prepares new ones. Then, if every other worker is idle too, it keeps
//! looking for a run for a short while
//! ([`IsolateOptions::idle_spin`](super::IsolateOptions::idle_spin), one worker at a time)
//! before it parks: a run that arrives while a worker looks starts without waking a thread
//! (on a virtual machine, waking a parked thread on an idle core costs more than a trivial
//! run), and an idle worker that has parked uses no CPU.
//!
//! Looking is kept to a pool with nothing else to do: a worker never looks while another
//! prepares, restores or runs, so that on a machine with few cores looking never takes the CPU
//! that work (or the caller) needs. (An earlier try let an idle worker look while the other
//! refilled its stock; on two cores back-to-back runs then took 2.5 times longer.)
//!
//! Where the microseconds of a run go (see `docs/performance.md`): preparing a
//! sandbox costs several times what a trivial run does, restoring one a copy of its image;
//! both stay off the run's path: a run waits for neither unless the stock is empty (then it
//! waits for a restore before a preparation).
//! A sandbox is prepared one stage at a time ([`Preparation`], five stages of at most a
//! million instructions), and a worker looks for a run between two stages, so a run that
//! arrives while every worker prepares waits for a stage, not a whole preparation. A worker
//! whose stock is empty leaves the queue to the workers that have a sandbox ready (one takes
//! the run at its next look) and prepares meanwhile; it takes runs again once it has one
//! ready, or when no worker has: so it never serves a run with a preparation of its own
//! while a prepared sandbox waits in another worker's stock. (Before, the worker that had
//! just emptied its stock took the caller's next run and prepared a whole sandbox for it,
//! while the other's stock could sit full.)
//!
//! A run belongs to its caller: when the `submit` future is dropped before the answer, a
//! queued run leaves the queue at once and a running one is cancelled through its sandbox's interrupt (its
//! JavaScript stops at the interrupt handler's next check, an idle wait ends at once, its
//! tool calls and outbound requests in flight are aborted), so a caller that goes away takes
//! its work with it instead of leaving it on a worker until its bound.
//!
//! Guarantees: a full queue makes `submit` wait instead of failing; a worker that leaves a
//! run to the others prepares meanwhile and takes runs again once a sandbox of its own is
//! ready, so a waiting run is taken after at most one preparation whatever the others do; a run that panics
//! answers `Error::Internal` and the worker goes on; after `close` no new run is accepted and
//! each worker exits once the queue is drained; the used sandboxes a worker keeps to restore
//! later are at most as many as its stock and hold at most [`USED_BYTES`] together (a used
//! sandbox past that is restored right after its answer, which gives its memory back).

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use futures::FutureExt;
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

use super::bounds::Interrupt;
use super::fair_queue::FairQueue;
use super::run::{Remains, RunLimits, run};
use super::sandbox::{Preparation, Sandbox};
use crate::Error;
use crate::protocol::{ExecuteRequest, Outcome, Share};

/// How long a worker that has just answered looks for its caller's next run before it
/// restores and prepares sandboxes (when no other worker works): a caller running programs back to
/// back sends the next one within microseconds of an answer.
const AFTER_RUN_SPIN: Duration = Duration::from_micros(40);

/// How many bytes of used sandboxes a worker may keep to restore once no run waits. A burst
/// of runs then pays for no restoring until the burst ends, while a run that grew large is
/// restored at once (giving back what it used past its image).
const USED_BYTES: usize = 8 << 20;

/// One queued run.
pub(super) struct Job {
    pub request: ExecuteRequest,
    pub limits: RunLimits,
    /// The caller's runtime, where the run's tool calls are spawned.
    pub spawner: Option<Handle>,
    pub reply: oneshot::Sender<Result<Outcome, Error>>,
    /// Whether the caller still waits, and the run's interrupt while it runs.
    abandon: Arc<Abandon>,
    /// The caller's share (see [`FairQueue`]), marked started when a worker takes the run.
    share: Share,
    /// The run's place in the bounded queue, given back when the run ends.
    _slot: OwnedSemaphorePermit,
}

/// The share key of runs submitted without one.
pub(super) const NO_SHARE: u64 = u64::MAX;

/// A run's link to its caller: a caller that stops waiting (its `submit` future dropped)
/// abandons the run; a queued run is then skipped, and a running one is cancelled through
/// its sandbox's interrupt ([`Interrupt::cancel`]).
#[derive(Default)]
struct Abandon {
    state: Mutex<Abandoned>,
}

#[derive(Default)]
struct Abandoned {
    abandoned: bool,
    /// The interrupt of the sandbox the run uses, while it runs.
    running: Option<Arc<Interrupt>>,
}

impl Abandon {
    fn lock(&self) -> MutexGuard<'_, Abandoned> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The caller stopped waiting: stops the run if it runs.
    fn abandon(&self) {
        let mut state = self.lock();
        state.abandoned = true;
        if let Some(interrupt) = &state.running {
            interrupt.cancel();
        }
    }

    /// The run starts with `interrupt`; a run abandoned already is cancelled at once.
    fn attach(&self, interrupt: &Arc<Interrupt>) {
        let mut state = self.lock();
        if state.abandoned {
            interrupt.cancel();
        }
        state.running = Some(interrupt.clone());
    }

    /// The run ended: a later abandon no longer reaches its sandbox (which serves other runs).
    fn detach(&self) {
        self.lock().running = None;
    }
}

/// Abandons its run when dropped before the run answered (its caller's future was dropped):
/// a queued run leaves the queue, a running one is cancelled.
struct AbandonOnDrop {
    abandon: Option<Arc<Abandon>>,
    shared: Arc<Shared>,
    share: u64,
    ticket: u64,
}

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        let Some(abandon) = self.abandon.take() else {
            return;
        };
        abandon.abandon();
        let left = match self.shared.state.lock() {
            Ok(mut state) => state.queue.remove(self.share, self.ticket),
            Err(_) => None,
        };
        if left.is_some() {
            self.shared.waiting.fetch_sub(1, Ordering::Release);
        }
        // The run (its request, its stubs, its place in the queue) drops here, unlocked.
        drop(left);
    }
}

/// How busy the pool is ([`super::IsolateExecutor::occupancy`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Occupancy {
    /// Worker threads.
    pub workers: usize,
    /// Runs the workers run now.
    pub running: usize,
    /// Runs waiting for a worker.
    pub queued: usize,
}

/// The pool's handle.
pub(super) struct Pool {
    shared: Arc<Shared>,
}

/// What the caller side and the workers share.
struct Shared {
    state: Mutex<State>,
    /// Signalled when a run arrives for a parked worker, or the pool closes.
    arrived: Condvar,
    /// Runs in the queue, readable without the lock (what a looking worker watches).
    waiting: AtomicUsize,
    /// Workers neither running, preparing nor restoring (looking or parked): a worker looks
    /// only while every other one is idle.
    idle: AtomicUsize,
    /// How many workers were started.
    workers: usize,
    /// Workers whose stock holds a prepared sandbox: a worker with none leaves a run to
    /// them.
    stocked: AtomicUsize,
    /// Places in the queue: `submit` waits for one.
    slots: Arc<Semaphore>,
    /// How long an idle worker looks for a run before it parks.
    idle_spin: Duration,
    /// Names each queued run, for its removal.
    next_ticket: AtomicU64,
}

struct State {
    queue: FairQueue<Job>,
    /// Runs the workers run now.
    running: usize,
    closed: bool,
    /// Workers parked on `arrived`.
    parked: usize,
    /// Whether a worker is looking for a run without parking (at most one does).
    spinning: bool,
}

/// What a worker got from the queue.
enum Taken {
    Job(Box<Job>),
    /// Nothing yet.
    None,
    /// The pool is closed and the queue drained.
    Closed,
}

impl Pool {
    /// Starts `workers` threads (at least one), each with `stack_bytes` of stack and a stock
    /// of `prepared` sandboxes (at least one), whose idle workers look for a run for
    /// `idle_spin` before they park; at most `max_queued` runs wait (more wait to be queued).
    pub(super) fn start(
        workers: usize,
        stack_bytes: usize,
        prepared: usize,
        idle_spin: Duration,
        region_bytes: usize,
        restore: bool,
        max_queued: usize,
    ) -> Pool {
        let workers = workers.max(1);
        let shared = Arc::new(Shared::new(workers, idle_spin, max_queued));
        for index in 0..workers {
            let theirs = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("codemode-isolate-{index}"))
                .stack_size(stack_bytes)
                .spawn(move || worker(&theirs, prepared.max(1), region_bytes, restore));
            if spawned.is_err() && index == 0 {
                // Without a single worker every run would wait forever: refuse instead.
                let pool = Pool { shared };
                pool.close();
                return pool;
            }
        }
        Pool { shared }
    }

    /// Queues a run of `share` and waits for its outcome.
    pub(super) async fn submit(
        &self,
        request: ExecuteRequest,
        limits: RunLimits,
        share: Share,
    ) -> Result<Outcome, Error> {
        let slot = self
            .shared
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Error::Disposed)?;
        let (reply, answer) = oneshot::channel();
        let abandon = Arc::new(Abandon::default());
        let job = Job {
            request,
            limits,
            spawner: Handle::try_current().ok(),
            reply,
            abandon: abandon.clone(),
            share,
            _slot: slot,
        };
        let key = job.share.key();
        let ticket = self.shared.next_ticket.fetch_add(1, Ordering::Relaxed);
        self.shared.push(job, ticket)?;
        let mut waiting = AbandonOnDrop {
            abandon: Some(abandon),
            shared: self.shared.clone(),
            share: key,
            ticket,
        };
        let answered = answer.await;
        // Answered: nothing to abandon.
        waiting.abandon = None;
        answered.map_err(|_| Error::Internal("the worker dropped the run".into()))?
    }

    /// How many workers run and how many runs wait, now.
    pub(super) fn occupancy(&self) -> Occupancy {
        let (running, queued) = match self.shared.state.lock() {
            Ok(state) => (state.running, state.queue.len()),
            Err(_) => (0, 0),
        };
        Occupancy {
            workers: self.shared.workers,
            running,
            queued,
        }
    }

    /// Stops accepting runs; workers exit once the queue is drained.
    pub(super) fn close(&self) {
        self.shared.slots.close();
        if let Ok(mut state) = self.shared.state.lock() {
            state.closed = true;
        }
        self.shared.arrived.notify_all();
    }
}

impl Shared {
    /// An open pool's shared state for `workers` workers, with `max_queued` places in the
    /// queue (at least one) and nothing queued, stocked or parked.
    fn new(workers: usize, idle_spin: Duration, max_queued: usize) -> Shared {
        Shared {
            state: Mutex::new(State {
                queue: FairQueue::new(),
                running: 0,
                closed: false,
                parked: 0,
                spinning: false,
            }),
            arrived: Condvar::new(),
            waiting: AtomicUsize::new(0),
            idle: AtomicUsize::new(0),
            workers,
            stocked: AtomicUsize::new(0),
            slots: Arc::new(Semaphore::new(max_queued.max(1))),
            idle_spin,
            next_ticket: AtomicU64::new(0),
        }
    }

    fn lock(&self) -> Result<MutexGuard<'_, State>, Error> {
        self.state
            .lock()
            .map_err(|_| Error::Internal("the pool's lock is poisoned".into()))
    }

    /// Queues `job` as `ticket`, waking a parked worker unless a looking one will take it.
    fn push(&self, job: Job, ticket: u64) -> Result<(), Error> {
        let mut state = self.lock()?;
        if state.closed {
            return Err(Error::Disposed);
        }
        state.queue.push(job.share.key(), ticket, job);
        self.waiting.fetch_add(1, Ordering::Release);
        let lookers = usize::from(state.spinning);
        let wake = state.parked > 0 && state.queue.len() > lookers;
        drop(state);
        if wake {
            self.arrived.notify_one();
        }
        Ok(())
    }

    /// The next run, if one waits (counted running until [`finish`](Self::finish)).
    fn take(state: &mut State, waiting: &AtomicUsize) -> Taken {
        match state.queue.take() {
            Some((_, job)) => {
                waiting.fetch_sub(1, Ordering::Release);
                state.running += 1;
                Taken::Job(Box::new(job))
            }
            None if state.closed => Taken::Closed,
            None => Taken::None,
        }
    }

    /// A run of `share` that [`take`](Self::take) gave has ended.
    fn finish(&self, share: u64) {
        if let Ok(mut state) = self.state.lock() {
            state.running = state.running.saturating_sub(1);
            state.queue.finish(share);
        }
    }

    /// `Closed` once the pool is closed and its queue drained, without taking a run.
    fn closed(&self) -> Taken {
        match self.state.lock() {
            Ok(state) if state.closed && state.queue.is_empty() => Taken::Closed,
            Ok(_) => Taken::None,
            Err(_) => Taken::Closed,
        }
    }

    /// A waiting run, without waiting for one.
    fn poll(&self) -> Taken {
        if self.waiting.load(Ordering::Acquire) == 0 {
            return match self.state.lock() {
                Ok(state) if state.closed => Taken::Closed,
                Ok(_) => Taken::None,
                Err(_) => Taken::Closed,
            };
        }
        match self.state.lock() {
            Ok(mut state) => Self::take(&mut state, &self.waiting),
            Err(_) => Taken::Closed,
        }
    }

    /// Whether every worker but the caller (itself idle) is idle.
    fn others_idle(&self) -> bool {
        self.idle.load(Ordering::Acquire) >= self.workers
    }

    /// Looks for a run for up to `spin`, without parking, if no other worker is looking and
    /// every other worker is idle; the caller counts itself idle meanwhile.
    fn spin(&self, spin: Duration) -> Taken {
        {
            let Ok(mut state) = self.state.lock() else {
                return Taken::Closed;
            };
            match Self::take(&mut state, &self.waiting) {
                Taken::None if !state.spinning && !spin.is_zero() && self.others_idle() => {
                    state.spinning = true;
                }
                other => return other,
            }
        }
        let until = Instant::now() + spin;
        let mut rounds = 0u32;
        while self.waiting.load(Ordering::Acquire) == 0 {
            rounds = rounds.wrapping_add(1);
            if rounds.is_multiple_of(32) {
                // Another worker took a run (or started work): its CPU comes first.
                if Instant::now() >= until || !self.others_idle() {
                    break;
                }
                // Let another thread of this core run (the caller, a compiler…) if one
                // wants to; otherwise this returns at once.
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        let Ok(mut state) = self.state.lock() else {
            return Taken::Closed;
        };
        state.spinning = false;
        Self::take(&mut state, &self.waiting)
    }

    /// The next run, looking for `idle_spin` and then parking until one arrives.
    fn wait(&self) -> Taken {
        match self.spin(self.idle_spin) {
            Taken::None => {}
            other => return other,
        }
        let Ok(mut state) = self.state.lock() else {
            return Taken::Closed;
        };
        loop {
            match Self::take(&mut state, &self.waiting) {
                Taken::None => {}
                other => return other,
            }
            state.parked += 1;
            state = match self.arrived.wait(state) {
                Ok(state) => state,
                Err(_) => return Taken::Closed,
            };
            state.parked -= 1;
        }
    }

    /// Runs `look` counted as idle.
    fn idle_while(&self, look: impl FnOnce() -> Taken) -> Taken {
        self.idle.fetch_add(1, Ordering::AcqRel);
        let taken = look();
        self.idle.fetch_sub(1, Ordering::AcqRel);
        taken
    }
}

fn worker(shared: &Shared, stock_size: usize, region_bytes: usize, restore: bool) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    else {
        return;
    };
    let mut stock = Stock {
        ready: Vec::with_capacity(stock_size),
        used: Vec::with_capacity(stock_size),
        used_bytes: 0,
        preparing: None,
        size: stock_size,
        region_bytes,
        restore,
        shared,
    };
    let mut just_ran = false;
    loop {
        // A worker with nothing ready leaves a run to one that has a sandbox ready (it
        // takes the run between two pieces of its work), and prepares meanwhile; so a run
        // waits for a piece of work, never for a whole preparation, while a sandbox is
        // ready somewhere.
        let defer = !stock.has_any() && shared.stocked.load(Ordering::Acquire) > 0;
        let taken = if defer {
            shared.closed()
        } else if just_ran && stock.has_any() {
            shared.idle_while(|| shared.spin(AFTER_RUN_SPIN))
        } else {
            shared.poll()
        };
        just_ran = false;
        let job = match taken {
            Taken::Job(job) => *job,
            Taken::Closed => return,
            Taken::None => {
                // One piece of work at a time, looking for a run between them: restoring a
                // used sandbox, else a stage of the next sandbox while the stock is short,
                // or else waiting.
                if stock.restore_one() {
                    continue;
                }
                if stock.short() {
                    stock.advance();
                    continue;
                }
                match shared.idle_while(|| shared.wait()) {
                    Taken::Job(job) => {
                        run_job(&runtime, *job, &mut stock);
                        just_ran = true;
                    }
                    Taken::Closed => return,
                    Taken::None => {}
                }
                continue;
            }
        };
        run_job(&runtime, job, &mut stock);
        just_ran = true;
    }
}

/// A worker's sandboxes: the ready ones, the used ones it restores once no run waits, and
/// the one it is preparing.
///
/// Guarantees: the worker holds at most `size` sandboxes (ready and used) besides the one a
/// run uses and the one it prepares, and the used ones hold at most [`USED_BYTES`] together (a
/// used sandbox past that is restored right after its answer, which gives its memory back).
struct Stock<'a> {
    ready: Vec<Result<Sandbox, Error>>,
    used: Vec<Remains>,
    /// What `used` holds, in bytes.
    used_bytes: usize,
    preparing: Option<Preparation>,
    /// How many sandboxes it keeps.
    size: usize,
    /// The address space each sandbox's region reserves.
    region_bytes: usize,
    /// Whether a used sandbox is restored for a later run (else dropped).
    restore: bool,
    shared: &'a Shared,
}

impl Stock<'_> {
    /// Whether a sandbox is ready or only needs restoring (the worker counts as stocked).
    fn has_any(&self) -> bool {
        !self.ready.is_empty() || !self.used.is_empty()
    }

    /// Whether the worker holds fewer sandboxes than its stock's size (the one it is
    /// preparing not counted: it is finished first).
    fn short(&self) -> bool {
        self.ready.len() + self.used.len() < self.size
    }

    /// Runs `change` and counts the worker stocked exactly while it has a sandbox.
    fn counted<R>(&mut self, change: impl FnOnce(&mut Self) -> R) -> R {
        let before = self.has_any();
        let result = change(self);
        match (before, self.has_any()) {
            (false, true) => {
                self.shared.stocked.fetch_add(1, Ordering::AcqRel);
            }
            (true, false) => {
                self.shared.stocked.fetch_sub(1, Ordering::AcqRel);
            }
            _ => {}
        }
        result
    }

    /// Runs one stage of the next sandbox.
    fn advance(&mut self) {
        let step = match self.preparing.as_mut() {
            Some(preparation) => preparation.step(),
            None => match Preparation::start(self.region_bytes) {
                Ok(preparation) => {
                    self.preparing = Some(preparation);
                    Ok(false)
                }
                Err(error) => Err(error),
            },
        };
        match step {
            Ok(false) => {}
            Ok(true) => {
                if let Some(ready) = self.preparing.take() {
                    self.counted(|stock| stock.ready.push(ready.into_sandbox()));
                }
            }
            Err(error) => {
                self.preparing = None;
                self.counted(|stock| stock.ready.push(Err(error)));
            }
        }
    }

    /// Keeps the sandbox a run left, to restore once no run waits; restores it at once
    /// when it holds more than the used sandboxes may.
    fn keep(&mut self, remains: Remains) {
        if !self.restore {
            drop(remains);
            return;
        }
        let bytes = remains.held_bytes();
        if self.used_bytes.saturating_add(bytes) <= USED_BYTES {
            self.used_bytes += bytes;
            self.counted(|stock| stock.used.push(remains));
        } else {
            let sandbox = remains.restored();
            self.counted(|stock| stock.ready.push(Ok(sandbox)));
        }
    }

    /// Restores one used sandbox into the ready ones; `false` when none is used.
    fn restore_one(&mut self) -> bool {
        let Some(remains) = self.used.pop() else {
            return false;
        };
        self.used_bytes = self.used_bytes.saturating_sub(remains.held_bytes());
        // Stocked before and after: no count changes.
        self.ready.push(Ok(remains.restored()));
        true
    }

    /// A sandbox for a run: a ready one, else a used one restored, else the one being
    /// prepared, finished, else a fresh one.
    fn take(&mut self) -> Result<Sandbox, Error> {
        if self.ready.is_empty() {
            self.restore_one();
        }
        let ready = self.counted(|stock| stock.ready.pop());
        match ready {
            Some(sandbox) => sandbox,
            None => match self.preparing.take() {
                Some(preparation) => preparation.into_sandbox(),
                None => Sandbox::prepare(self.region_bytes),
            },
        }
    }
}

impl Drop for Stock<'_> {
    fn drop(&mut self) {
        if self.has_any() {
            self.shared.stocked.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// Runs `job` (taken from the queue) and tells the queue its share's run ended.
fn run_job(runtime: &tokio::runtime::Runtime, job: Job, stock: &mut Stock<'_>) {
    let share = job.share.key();
    job.share.mark_started();
    answer_job(runtime, job, stock);
    stock.shared.finish(share);
}

/// Runs `job` in a sandbox of the stock (or a fresh one) and answers it; its sandbox is kept
/// in the stock until the worker has time to restore it.
fn answer_job(runtime: &tokio::runtime::Runtime, job: Job, stock: &mut Stock<'_>) {
    if job.reply.is_closed() {
        return;
    }
    let sandbox = match stock.take() {
        Ok(sandbox) => sandbox,
        Err(error) => {
            let _ = job.reply.send(Err(error));
            return;
        }
    };
    job.abandon.attach(&sandbox.interrupt);
    let finished = runtime.block_on(
        AssertUnwindSafe(run(job.request, job.limits, job.spawner, sandbox)).catch_unwind(),
    );
    job.abandon.detach();
    match finished {
        Ok((outcome, remains)) => {
            let _ = job.reply.send(outcome);
            stock.keep(remains);
        }
        Err(_) => {
            let _ = job
                .reply
                .send(Err(Error::Internal("the run panicked".into())));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared() -> Shared {
        Shared::new(2, Duration::ZERO, 128)
    }

    /// The count other workers read to decide whether to leave a run to this one.
    fn stocked(shared: &Shared) -> usize {
        shared.stocked.load(Ordering::Acquire)
    }

    #[test]
    fn a_stock_counts_itself_stocked_exactly_while_a_sandbox_is_ready() {
        let shared = shared();
        let mut stock = Stock {
            ready: Vec::new(),
            used: Vec::new(),
            used_bytes: 0,
            preparing: None,
            size: 2,
            region_bytes: super::super::sandbox::region_bytes(64 << 20),
            restore: true,
            shared: &shared,
        };
        // A runtime, then four stages: the fifth piece of work makes a sandbox ready.
        for piece in 1..=4 {
            stock.advance();
            assert!(stock.ready.is_empty(), "piece {piece} leaves it preparing");
            assert_eq!(stocked(&shared), 0);
        }
        stock.advance();
        assert_eq!(stock.ready.len(), 1);
        assert_eq!(stocked(&shared), 1);
        for _ in 0..5 {
            stock.advance();
        }
        assert_eq!(stock.ready.len(), 2);
        assert_eq!(stocked(&shared), 1, "one worker, counted once");
        assert!(stock.take().is_ok());
        assert_eq!(stocked(&shared), 1);
        assert!(stock.take().is_ok());
        assert_eq!(stocked(&shared), 0);
        // With none ready, a run gets the one being prepared, finished.
        stock.advance();
        stock.advance();
        assert!(stock.preparing.is_some());
        let sandbox = stock.take().expect("the half-prepared sandbox, finished");
        assert!(stock.preparing.is_none());
        assert_eq!(stocked(&shared), 0);
        sandbox.ctx.with(|ctx| {
            let probe: String = ctx.eval("typeof URL + typeof console.log").expect("runs");
            assert_eq!(probe, "functionfunction");
        });
        // A worker that exits stops counting.
        for _ in 0..5 {
            stock.advance();
        }
        assert_eq!(stocked(&shared), 1);
        drop(stock);
        assert_eq!(stocked(&shared), 0);
    }
}
