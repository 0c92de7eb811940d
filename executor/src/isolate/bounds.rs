//! The run clock and the CPU deadline.
//!
//! Two ways to count a run's time:
//! - `count_host_waits: true`: wall-clock time from the start of the run, host waits included.
//! - `count_host_waits: false`: the sandbox's own time. Time spent running JavaScript always
//!   counts; time spent idle counts unless at least one tool call is in flight. A hard
//!   wall-clock cap (the executor's maximum bound, at least the run's bound) still ends a
//!   run whose tool never answers.
//!
//! JavaScript that never yields is stopped by QuickJS's interrupt handler, which reads the
//! deadline armed before each stretch of JavaScript and fires once it has passed.
//!
//! A run whose caller stopped waiting is stopped the same way: [`Interrupt::cancel`] makes
//! the handler fire at its next check (QuickJS checks every few thousand instructions) and
//! wakes the run's idle wait; the run then ends as a run past its bound does, and its worker
//! serves the next.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

const DISARMED: u64 = u64::MAX;

/// The least time the crossing of a settled value gets, whatever is left of the bound.
pub(super) const CROSSING_GRACE: Duration = Duration::from_secs(1);

/// The deadline the interrupt handler checks, shared between the run loop and QuickJS.
pub(super) struct Interrupt {
    origin: Instant,
    deadline_nanos: AtomicU64,
    fired: AtomicBool,
    /// Set by [`Interrupt::cancel`]: the run's caller is gone.
    cancelled: AtomicBool,
    /// Wakes a run waiting idle when it is cancelled.
    woken: Notify,
}

impl Interrupt {
    pub(super) fn new() -> Arc<Self> {
        Arc::new(Interrupt {
            origin: Instant::now(),
            deadline_nanos: AtomicU64::new(DISARMED),
            fired: AtomicBool::new(false),
            cancelled: AtomicBool::new(false),
            woken: Notify::new(),
        })
    }

    fn arm(&self, deadline: Instant) {
        let nanos = deadline.saturating_duration_since(self.origin).as_nanos();
        self.deadline_nanos.store(
            u64::try_from(nanos).unwrap_or(DISARMED - 1),
            Ordering::Relaxed,
        );
    }

    fn disarm(&self) {
        self.deadline_nanos.store(DISARMED, Ordering::Relaxed);
    }

    /// What the QuickJS interrupt handler answers: `true` (stop) once the armed deadline has
    /// passed. Stopping raises an uncatchable error in the sandbox.
    pub(super) fn should_interrupt(&self) -> bool {
        let deadline = self.deadline_nanos.load(Ordering::Relaxed);
        if deadline == DISARMED {
            return false;
        }
        if self.cancelled.load(Ordering::Relaxed) {
            self.fired.store(true, Ordering::Relaxed);
            return true;
        }
        let now = self.origin.elapsed().as_nanos();
        if now > u128::from(deadline) {
            self.fired.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// Whether the handler has stopped JavaScript in this run, or the run was cancelled: either
    /// way the run is over.
    pub(super) fn fired(&self) -> bool {
        self.fired.load(Ordering::Relaxed) || self.cancelled.load(Ordering::Acquire)
    }

    /// Stops the run from any thread: its JavaScript is interrupted at the handler's next
    /// check and an idle wait ([`Interrupt::until_cancelled`]) ends.
    pub(super) fn cancel(&self) {
        self.cancelled.store(true, Ordering::Release);
        self.woken.notify_waiters();
    }

    /// Completes once the run is cancelled.
    pub(super) async fn until_cancelled(&self) {
        loop {
            let woken = self.woken.notified();
            tokio::pin!(woken);
            // Registered before the flag is read, so a cancel in between still wakes it.
            woken.as_mut().enable();
            if self.cancelled.load(Ordering::Acquire) {
                return;
            }
            woken.await;
        }
    }

    /// Disarmed, not fired and not cancelled, as new: for the next run of a restored sandbox.
    pub(super) fn reset(&self) {
        self.disarm();
        self.fired.store(false, Ordering::Relaxed);
        self.cancelled.store(false, Ordering::Release);
    }
}

/// One run's clock.
pub(super) struct RunClock {
    bound: Duration,
    count_host_waits: bool,
    started: Instant,
    /// Own time used so far (only for `count_host_waits: false`).
    used: Duration,
    hard_deadline: Instant,
    interrupt: Arc<Interrupt>,
}

impl RunClock {
    pub(super) fn new(
        bound: Duration,
        count_host_waits: bool,
        hard_cap: Duration,
        interrupt: Arc<Interrupt>,
    ) -> Self {
        let started = Instant::now();
        RunClock {
            bound,
            count_host_waits,
            started,
            used: Duration::ZERO,
            hard_deadline: started + hard_cap.max(bound),
            interrupt,
        }
    }

    /// The bound in milliseconds, as the outcome reports it.
    pub(super) fn bound_ms(&self) -> u64 {
        u64::try_from(self.bound.as_millis()).unwrap_or(u64::MAX)
    }

    fn remaining(&self, now: Instant) -> Duration {
        if self.count_host_waits {
            (self.started + self.bound).saturating_duration_since(now)
        } else {
            self.bound.saturating_sub(self.used)
        }
    }

    /// Whether the run has used up its bound (or hit the hard cap).
    pub(super) fn expired(&self) -> bool {
        let now = Instant::now();
        self.remaining(now).is_zero() || now >= self.hard_deadline
    }

    /// Arms the interrupt for a stretch of JavaScript; returns the stretch's start.
    pub(super) fn begin_js(&self) -> Instant {
        let now = Instant::now();
        self.interrupt
            .arm((now + self.remaining(now)).min(self.hard_deadline));
        now
    }

    /// Arms the interrupt for reading a settled program's value out (the program's getters
    /// and proxy traps run then): the rest of the bound, and at least [`CROSSING_GRACE`], so
    /// that a program settling just inside its bound still crosses. Returns the start.
    pub(super) fn begin_crossing(&self) -> Instant {
        let now = Instant::now();
        self.interrupt
            .arm(now + self.remaining(now).max(CROSSING_GRACE));
        now
    }

    /// Ends a stretch of JavaScript begun at `began`.
    pub(super) fn end_js(&mut self, began: Instant) {
        self.interrupt.disarm();
        if !self.count_host_waits {
            self.used += began.elapsed();
        }
    }

    /// When an idle wait must end for the bound to hold. `counts`: whether this wait counts
    /// toward the run's own time (no tool call in flight).
    pub(super) fn wait_deadline(&self, counts: bool) -> Instant {
        let now = Instant::now();
        if self.count_host_waits || counts {
            (now + self.remaining(now)).min(self.hard_deadline)
        } else {
            self.hard_deadline
        }
    }

    /// Ends an idle wait begun at `began`.
    pub(super) fn end_wait(&mut self, began: Instant, counts: bool) {
        if !self.count_host_waits && counts {
            self.used += began.elapsed();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_time_ignores_waits_with_a_call_in_flight() {
        let mut clock = RunClock::new(
            Duration::from_millis(50),
            false,
            Duration::from_secs(10),
            Interrupt::new(),
        );
        let began = Instant::now();
        std::thread::sleep(Duration::from_millis(60));
        clock.end_wait(began, false);
        assert!(!clock.expired());
        let began = Instant::now();
        std::thread::sleep(Duration::from_millis(60));
        clock.end_wait(began, true);
        assert!(clock.expired());
    }

    #[test]
    fn wall_clock_counts_everything() {
        let clock = RunClock::new(
            Duration::from_millis(20),
            true,
            Duration::from_secs(10),
            Interrupt::new(),
        );
        std::thread::sleep(Duration::from_millis(30));
        assert!(clock.expired());
    }

    #[test]
    fn interrupt_fires_only_once_armed_and_past() {
        let interrupt = Interrupt::new();
        assert!(!interrupt.should_interrupt());
        interrupt.arm(Instant::now());
        std::thread::sleep(Duration::from_millis(2));
        assert!(interrupt.should_interrupt());
        assert!(interrupt.fired());
    }

    #[test]
    fn a_cancel_fires_the_armed_handler_wakes_a_waiter_and_a_reset_clears_it() {
        let interrupt = Interrupt::new();
        interrupt.arm(Instant::now() + Duration::from_secs(60));
        assert!(!interrupt.should_interrupt());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let waiter = interrupt.clone();
        let canceller = interrupt.clone();
        runtime.block_on(async move {
            let cancel = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                canceller.cancel();
            });
            tokio::time::timeout(Duration::from_secs(5), waiter.until_cancelled())
                .await
                .expect("the cancel wakes the wait");
            cancel.join().unwrap();
        });
        assert!(interrupt.fired());
        assert!(interrupt.should_interrupt());
        interrupt.reset();
        assert!(!interrupt.fired());
        interrupt.arm(Instant::now() + Duration::from_secs(60));
        assert!(!interrupt.should_interrupt());
    }
}
