//! Timers on the loop's clock: the queue behind `setTimeout` and `setInterval`, and the
//! host's timers (tool answers due some time after their call), in the reference's order
//! (see `docs/event-loop.md`).
//!
//! The sandbox keeps each timer's callback; the host keeps when it is due. A timer is due at
//! the loop's clock when it was set plus its delay in whole milliseconds. The clock stands
//! still while the program runs; when the loop fires a timer, the clock moves to that
//! timer's deadline (not to the wall clock, which a loaded machine reads late), so every
//! deadline is a function of the program and the delays alone, except that the clock never
//! lags the wall clock by more than [`MAX_LAG`]: timers that re-arm at the same instant
//! forever (zero-delay intervals) would otherwise hold it still, and a later timer would never
//! come due, where the reference's clock moves with each turn. Due timers fire by deadline,
//! then by sequence: the order in which each was set, or re-armed (an interval is re-armed
//! after its callback ran). Timers still pending when the program settles are dropped with
//! the run.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// What fires when a slot is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fired {
    /// The sandbox's timer `id`; `repeat` for an interval (re-armed after its callback).
    Timer { id: u32, repeat: bool },
    /// The held answer of tool call `call`.
    Answer(u32),
}

/// What a queued slot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Queued {
    Timer(u32),
    Answer(u32),
}

/// Where a timer stands in the queue: its deadline, then its sequence number.
type Slot = (Instant, u64);

/// One live timer: its slot while queued (none while its callback runs), and an interval's
/// period.
struct Entry {
    slot: Option<Slot>,
    period: Option<Duration>,
}

/// How far the loop's clock may stand behind the wall clock when a timer fires: far more than
/// a loaded machine's lateness, so orders stay a function of the program, yet short enough
/// that zero-delay intervals cannot hold back a later timer for long.
pub(super) const MAX_LAG: Duration = Duration::from_millis(250);

/// The pending timers of one run, ordered by deadline, then sequence.
pub(super) struct TimerQueue {
    next_id: u32,
    next_seq: u64,
    /// The loop's clock: where it stands now.
    now: Instant,
    queue: BTreeMap<Slot, Queued>,
    entries: HashMap<u32, Entry>,
}

impl Default for TimerQueue {
    fn default() -> Self {
        TimerQueue {
            next_id: 0,
            next_seq: 0,
            now: Instant::now(),
            queue: BTreeMap::new(),
            entries: HashMap::new(),
        }
    }
}

/// A delay in whole milliseconds: the fraction is dropped, and a negative or NaN delay is 0.
fn whole_ms(delay_ms: f64) -> Duration {
    if delay_ms.is_finite() && delay_ms >= 1.0 {
        Duration::from_millis(delay_ms.min(1e12).trunc() as u64)
    } else {
        Duration::ZERO
    }
}

impl TimerQueue {
    /// Moves the loop's clock forward to `now` (when the program starts, and when an answer
    /// that was not a timer arrives).
    pub(super) fn set_now(&mut self, now: Instant) {
        self.now = self.now.max(now);
    }

    fn enqueue(&mut self, queued: Queued, delay: Duration) -> Slot {
        self.next_seq += 1;
        let slot = (self.now + delay, self.next_seq);
        self.queue.insert(slot, queued);
        slot
    }

    /// Adds a timer due `delay_ms` after the loop's clock; an interval repeats every
    /// `delay_ms` until cleared.
    pub(super) fn add(&mut self, delay_ms: f64, repeat: bool) -> u32 {
        self.next_id = self.next_id.wrapping_add(1).max(1);
        let id = self.next_id;
        let delay = whole_ms(delay_ms);
        let slot = self.enqueue(Queued::Timer(id), delay);
        self.entries.insert(
            id,
            Entry {
                slot: Some(slot),
                period: repeat.then_some(delay),
            },
        );
        id
    }

    /// Holds tool call `call`'s answer until `delay` (in whole milliseconds) after the
    /// loop's clock: a host timer, behind every timer set so far.
    pub(super) fn add_answer(&mut self, call: u32, delay: Duration) {
        let whole = Duration::from_millis(u64::try_from(delay.as_millis()).unwrap_or(u64::MAX));
        self.enqueue(Queued::Answer(call), whole);
    }

    /// Removes a timer (also an interval whose callback is running); `false` for an unknown
    /// id.
    pub(super) fn clear(&mut self, id: u32) -> bool {
        match self.entries.remove(&id) {
            Some(entry) => {
                if let Some(slot) = entry.slot {
                    self.queue.remove(&slot);
                }
                true
            }
            None => false,
        }
    }

    /// When the next timer is due.
    pub(super) fn next_due(&self) -> Option<Instant> {
        self.queue.keys().next().map(|(due, _)| *due)
    }

    /// Takes the first timer due by `now`, and moves the loop's clock to its deadline. A
    /// timeout is gone; an interval waits for [`TimerQueue::rearm`] after its callback.
    pub(super) fn pop_due(&mut self, now: Instant) -> Option<Fired> {
        let (&slot, &queued) = self.queue.iter().next()?;
        if slot.0 > now {
            return None;
        }
        self.queue.remove(&slot);
        self.now = self.now.max(slot.0);
        if let Some(lagging) = now.checked_sub(MAX_LAG) {
            self.now = self.now.max(lagging);
        }
        let id = match queued {
            Queued::Answer(call) => return Some(Fired::Answer(call)),
            Queued::Timer(id) => id,
        };
        let repeat = match self.entries.get_mut(&id) {
            Some(entry) if entry.period.is_some() => {
                entry.slot = None;
                true
            }
            _ => {
                self.entries.remove(&id);
                false
            }
        };
        Some(Fired::Timer { id, repeat })
    }

    /// Queues an interval again after its callback ran, one period after the loop's clock,
    /// behind every timer set so far; nothing for an interval its callback cleared.
    pub(super) fn rearm(&mut self, id: u32) {
        let period = match self.entries.get(&id) {
            Some(Entry {
                slot: None,
                period: Some(period),
            }) => *period,
            _ => return,
        };
        let slot = self.enqueue(Queued::Timer(id), period);
        if let Some(entry) = self.entries.get_mut(&id) {
            entry.slot = Some(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timer_id(fired: Fired) -> u32 {
        match fired {
            Fired::Timer { id, .. } => id,
            Fired::Answer(call) => 1000 + call,
        }
    }

    #[test]
    fn timers_fire_by_deadline_then_sequence_and_clear() {
        let mut timers = TimerQueue::default();
        let late = timers.add(5.0, false);
        let early = timers.add(0.0, false);
        let cleared = timers.add(0.0, false);
        let fraction = timers.add(0.9, false);
        timers.clear(cleared);
        let now = timers.now + Duration::from_millis(10);
        assert_eq!(timers.pop_due(now).map(timer_id), Some(early));
        assert_eq!(timers.pop_due(now).map(timer_id), Some(fraction));
        assert_eq!(timers.pop_due(now).map(timer_id), Some(late));
        assert_eq!(timers.pop_due(now), None);
        assert_eq!(timers.next_due(), None);
    }

    #[test]
    fn zero_delay_intervals_cannot_hold_the_clock_back_past_the_lag_bound() {
        let mut timers = TimerQueue::default();
        let interval = timers.add(0.0, true);
        let later = timers.add(100.0, false);
        let start = timers.now;
        // Within the bound the interval keeps its place ahead of the later timer, whatever
        // the wall clock says.
        for _ in 0..3 {
            let now = start + Duration::from_millis(99) + MAX_LAG;
            assert_eq!(timers.pop_due(now).map(timer_id), Some(interval));
            timers.rearm(interval);
        }
        // The wall clock past the later timer's deadline by more than the bound: the clock
        // catches up, the interval re-arms behind the later timer, and that timer fires.
        let now = start + Duration::from_millis(101) + MAX_LAG;
        assert_eq!(timers.pop_due(now).map(timer_id), Some(interval));
        timers.rearm(interval);
        assert_eq!(timers.pop_due(now).map(timer_id), Some(later));
    }

    #[test]
    fn whole_milliseconds_share_a_deadline() {
        let mut timers = TimerQueue::default();
        let a = timers.add(1.7, false);
        let b = timers.add(1.2, false);
        let c = timers.add(1.0, false);
        let now = timers.now + Duration::from_millis(1);
        let order: Vec<u32> = std::iter::from_fn(|| timers.pop_due(now).map(timer_id)).collect();
        assert_eq!(order, vec![a, b, c]);
    }

    #[test]
    fn an_interval_is_rearmed_behind_timers_set_in_its_callback() {
        let mut timers = TimerQueue::default();
        let interval = timers.add(0.0, true);
        let now = timers.now;
        assert_eq!(
            timers.pop_due(now),
            Some(Fired::Timer {
                id: interval,
                repeat: true
            })
        );
        let set_in_callback = timers.add(0.0, false);
        timers.rearm(interval);
        assert_eq!(timers.pop_due(now).map(timer_id), Some(set_in_callback));
        assert_eq!(timers.pop_due(now).map(timer_id), Some(interval));
        timers.rearm(interval);
        assert!(timers.clear(interval));
        assert_eq!(timers.next_due(), None);
    }

    #[test]
    fn an_interval_cleared_in_its_callback_is_not_rearmed() {
        let mut timers = TimerQueue::default();
        let interval = timers.add(1.0, true);
        let now = timers.now + Duration::from_millis(1);
        assert!(timers.pop_due(now).is_some());
        assert!(timers.clear(interval));
        timers.rearm(interval);
        assert_eq!(timers.next_due(), None);
    }

    #[test]
    fn host_answers_share_the_queue_and_the_clock_moves_to_each_deadline() {
        let mut timers = TimerQueue::default();
        let start = timers.now;
        let late = timers.add(50.0, false);
        timers.add_answer(1, Duration::from_millis(30));
        timers.add_answer(2, Duration::from_micros(30_900));
        let zero = timers.add(30.0, false);
        // Read long after every deadline, as a loaded machine would (up to the lag bound).
        let now = start + MAX_LAG;
        assert_eq!(timers.pop_due(now), Some(Fired::Answer(1)));
        assert_eq!(timers.now, start + Duration::from_millis(30));
        assert_eq!(timers.pop_due(now), Some(Fired::Answer(2)));
        // A timer set now counts from the answer's deadline, not from the late reading.
        let set_in_answer = timers.add(10.0, false);
        assert_eq!(timers.pop_due(now).map(timer_id), Some(zero));
        assert_eq!(timers.pop_due(now).map(timer_id), Some(set_in_answer));
        assert_eq!(timers.pop_due(now).map(timer_id), Some(late));
        assert_eq!(timers.now, start + Duration::from_millis(50));
    }
}
