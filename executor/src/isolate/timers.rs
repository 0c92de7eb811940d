//! Timers on the host clock: the queue behind `setTimeout` and `setInterval`.
//!
//! The sandbox keeps each timer's callback; the host keeps when it is due. Timers still
//! pending when the program settles are dropped with the run.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// One due timer, as the run loop fires it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DueTimer {
    pub id: u32,
    pub repeat: bool,
}

/// The pending timers of one run, ordered by due time then creation.
#[derive(Default)]
pub(super) struct TimerQueue {
    next_id: u32,
    queue: BTreeMap<(Instant, u32), Option<Duration>>,
    due_at: HashMap<u32, Instant>,
}

impl TimerQueue {
    /// Adds a timer due `delay_ms` from now (negative or NaN delays count as 0); an interval
    /// repeats every `delay_ms` (at least 1 ms) until cleared.
    pub(super) fn add(&mut self, delay_ms: f64, repeat: bool) -> u32 {
        self.next_id = self.next_id.wrapping_add(1).max(1);
        let id = self.next_id;
        let delay = if delay_ms.is_finite() && delay_ms > 0.0 {
            Duration::from_secs_f64((delay_ms / 1000.0).min(1e9))
        } else {
            Duration::ZERO
        };
        let due = Instant::now() + delay;
        let period = repeat.then(|| delay.max(Duration::from_millis(1)));
        self.queue.insert((due, id), period);
        self.due_at.insert(id, due);
        id
    }

    /// Removes a timer; `false` for an unknown id.
    pub(super) fn clear(&mut self, id: u32) -> bool {
        match self.due_at.remove(&id) {
            Some(due) => {
                self.queue.remove(&(due, id));
                true
            }
            None => false,
        }
    }

    /// When the next timer is due.
    pub(super) fn next_due(&self) -> Option<Instant> {
        self.queue.keys().next().map(|(due, _)| *due)
    }

    /// Takes the first timer due by `now`; an interval is queued again for its next period.
    pub(super) fn pop_due(&mut self, now: Instant) -> Option<DueTimer> {
        let (&(due, id), _) = self.queue.iter().next()?;
        if due > now {
            return None;
        }
        let period = self.queue.remove(&(due, id)).flatten();
        match period {
            Some(period) => {
                let next = now.max(due) + period;
                self.queue.insert((next, id), Some(period));
                self.due_at.insert(id, next);
            }
            None => {
                self.due_at.remove(&id);
            }
        }
        Some(DueTimer {
            id,
            repeat: period.is_some(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_fire_in_due_order_and_clear() {
        let mut timers = TimerQueue::default();
        let late = timers.add(5.0, false);
        let early = timers.add(0.0, false);
        let cleared = timers.add(0.0, false);
        timers.clear(cleared);
        let now = Instant::now() + Duration::from_millis(10);
        assert_eq!(timers.pop_due(now).map(|t| t.id), Some(early));
        assert_eq!(timers.pop_due(now).map(|t| t.id), Some(late));
        assert_eq!(timers.pop_due(now), None);
        assert_eq!(timers.next_due(), None);
    }

    #[test]
    fn intervals_repeat_until_cleared() {
        let mut timers = TimerQueue::default();
        let id = timers.add(1.0, true);
        let now = Instant::now() + Duration::from_millis(5);
        assert_eq!(timers.pop_due(now), Some(DueTimer { id, repeat: true }));
        assert!(timers.next_due().is_some());
        timers.clear(id);
        assert_eq!(timers.next_due(), None);
    }
}
