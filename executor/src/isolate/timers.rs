//! Timers on the host clock: the queue behind `setTimeout` and `setInterval`, in the
//! reference's order (see `docs/event-loop.md`).
//!
//! The sandbox keeps each timer's callback; the host keeps when it is due. A timer is due at
//! the loop's clock when it was set plus its delay in whole milliseconds; the clock stands
//! still while the program runs and moves only when the loop goes idle, so timers set in one
//! busy stretch with equal delays share a deadline. Due timers fire by deadline, then by
//! sequence: the order in which each was set, or re-armed (an interval is re-armed after its
//! callback ran). Timers still pending when the program settles are dropped with the run.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// One due timer, as the run loop fires it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DueTimer {
    pub id: u32,
    pub repeat: bool,
}

/// Where a timer stands in the queue: its deadline, then its sequence number.
type Slot = (Instant, u64);

/// One live timer: its slot while queued (none while its callback runs), and an interval's
/// period.
struct Entry {
    slot: Option<Slot>,
    period: Option<Duration>,
}

/// The pending timers of one run, ordered by deadline, then sequence.
pub(super) struct TimerQueue {
    next_id: u32,
    next_seq: u64,
    /// The loop's clock: the instant the loop last went idle.
    now: Instant,
    queue: BTreeMap<Slot, u32>,
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
    /// Moves the loop's clock to `now` (the loop calls this each time it goes idle).
    pub(super) fn set_now(&mut self, now: Instant) {
        self.now = self.now.max(now);
    }

    fn enqueue(&mut self, id: u32, delay: Duration) -> Slot {
        self.next_seq += 1;
        let slot = (self.now + delay, self.next_seq);
        self.queue.insert(slot, id);
        slot
    }

    /// Adds a timer due `delay_ms` after the loop's clock; an interval repeats every
    /// `delay_ms` until cleared.
    pub(super) fn add(&mut self, delay_ms: f64, repeat: bool) -> u32 {
        self.next_id = self.next_id.wrapping_add(1).max(1);
        let id = self.next_id;
        let delay = whole_ms(delay_ms);
        let slot = self.enqueue(id, delay);
        self.entries.insert(
            id,
            Entry {
                slot: Some(slot),
                period: repeat.then_some(delay),
            },
        );
        id
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

    /// Takes the first timer due by `now`. A timeout is gone; an interval waits for
    /// [`TimerQueue::rearm`] after its callback.
    pub(super) fn pop_due(&mut self, now: Instant) -> Option<DueTimer> {
        let (&slot, &id) = self.queue.iter().next()?;
        if slot.0 > now {
            return None;
        }
        self.queue.remove(&slot);
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
        Some(DueTimer { id, repeat })
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
        let slot = self.enqueue(id, period);
        if let Some(entry) = self.entries.get_mut(&id) {
            entry.slot = Some(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_fire_by_deadline_then_sequence_and_clear() {
        let mut timers = TimerQueue::default();
        let late = timers.add(5.0, false);
        let early = timers.add(0.0, false);
        let cleared = timers.add(0.0, false);
        let fraction = timers.add(0.9, false);
        timers.clear(cleared);
        let now = timers.now + Duration::from_millis(10);
        assert_eq!(timers.pop_due(now).map(|t| t.id), Some(early));
        assert_eq!(timers.pop_due(now).map(|t| t.id), Some(fraction));
        assert_eq!(timers.pop_due(now).map(|t| t.id), Some(late));
        assert_eq!(timers.pop_due(now), None);
        assert_eq!(timers.next_due(), None);
    }

    #[test]
    fn whole_milliseconds_share_a_deadline() {
        let mut timers = TimerQueue::default();
        let a = timers.add(1.7, false);
        let b = timers.add(1.2, false);
        let c = timers.add(1.0, false);
        let now = timers.now + Duration::from_millis(1);
        let order: Vec<u32> = std::iter::from_fn(|| timers.pop_due(now).map(|t| t.id)).collect();
        assert_eq!(order, vec![a, b, c]);
    }

    #[test]
    fn an_interval_is_rearmed_behind_timers_set_in_its_callback() {
        let mut timers = TimerQueue::default();
        let interval = timers.add(0.0, true);
        let now = timers.now;
        assert_eq!(
            timers.pop_due(now),
            Some(DueTimer {
                id: interval,
                repeat: true
            })
        );
        let set_in_callback = timers.add(0.0, false);
        timers.rearm(interval);
        assert_eq!(timers.pop_due(now).map(|t| t.id), Some(set_in_callback));
        assert_eq!(timers.pop_due(now).map(|t| t.id), Some(interval));
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
}
