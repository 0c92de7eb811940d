//! The pool's queue: runs waiting for a worker, served across their callers' shares in turn.
//!
//! Every run carries a share (a number the caller picks: the executor daemon gives each of its
//! connections one; runs submitted without one all share one). When a worker takes a run, it
//! takes the oldest run of the share that runs the fewest now (among equals, the one served
//! least recently): a share arriving beside a busy one takes the next free worker, whatever the
//! busy one has queued, two busy shares alternate, and a share alone is served in its order by
//! every worker. A run leaves the queue when a worker takes it or when its caller goes away.
//!
//! Guarantees: `len` is the number of runs waiting; a share is forgotten once it neither runs
//! nor waits; `take` never returns a run of a share before an older run of the same share.

use std::collections::VecDeque;

/// Runs waiting, by share.
pub(super) struct FairQueue<T> {
    shares: Vec<Share<T>>,
    len: usize,
    /// Counts runs taken, to order shares by when they were last served.
    taken: u64,
}

/// One share's part.
struct Share<T> {
    key: u64,
    /// Runs of the share that workers run now.
    running: usize,
    /// The take count when it was last served (0: never).
    served_at: u64,
    /// Its waiting runs with their tickets, in arrival order.
    waiting: VecDeque<(u64, T)>,
}

impl<T> FairQueue<T> {
    pub(super) fn new() -> FairQueue<T> {
        FairQueue {
            shares: Vec::new(),
            len: 0,
            taken: 0,
        }
    }

    /// Runs waiting.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Queues `item` of share `key` under `ticket` (what [`remove`](Self::remove) names it by).
    pub(super) fn push(&mut self, key: u64, ticket: u64, item: T) {
        let index = match self.shares.iter().position(|share| share.key == key) {
            Some(index) => index,
            None => {
                self.shares.push(Share {
                    key,
                    running: 0,
                    served_at: 0,
                    waiting: VecDeque::new(),
                });
                self.shares.len() - 1
            }
        };
        self.shares[index].waiting.push_back((ticket, item));
        self.len += 1;
    }

    /// The next run and its share, counted running until [`finish`](Self::finish).
    pub(super) fn take(&mut self) -> Option<(u64, T)> {
        let index = self
            .shares
            .iter()
            .enumerate()
            .filter(|(_, share)| !share.waiting.is_empty())
            .min_by_key(|(_, share)| (share.running, share.served_at))
            .map(|(index, _)| index)?;
        self.taken += 1;
        let share = &mut self.shares[index];
        let (_, item) = share.waiting.pop_front()?;
        share.running += 1;
        share.served_at = self.taken;
        self.len -= 1;
        Some((share.key, item))
    }

    /// A run of share `key` that [`take`](Self::take) gave ended.
    pub(super) fn finish(&mut self, key: u64) {
        if let Some(share) = self.shares.iter_mut().find(|share| share.key == key) {
            share.running = share.running.saturating_sub(1);
        }
        self.tidy(key);
    }

    /// Takes the waiting run `ticket` of share `key` out of the queue, if it still waits.
    pub(super) fn remove(&mut self, key: u64, ticket: u64) -> Option<T> {
        let share = self.shares.iter_mut().find(|share| share.key == key)?;
        let at = share.waiting.iter().position(|(t, _)| *t == ticket)?;
        let (_, item) = share.waiting.remove(at)?;
        self.len -= 1;
        self.tidy(key);
        Some(item)
    }

    /// Forgets share `key` if it neither runs nor waits.
    fn tidy(&mut self, key: u64) {
        self.shares
            .retain(|share| share.key != key || share.running > 0 || !share.waiting.is_empty());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_light_share_takes_the_next_worker_before_a_busy_ones_backlog() {
        let mut queue = FairQueue::new();
        for n in 0..32 {
            queue.push(1, n, ("busy", n));
        }
        // Two workers take the busy share's first two.
        assert_eq!(queue.take(), Some((1, ("busy", 0))));
        assert_eq!(queue.take(), Some((1, ("busy", 1))));
        queue.push(2, 100, ("light", 0));
        queue.finish(1);
        assert_eq!(
            queue.take(),
            Some((2, ("light", 0))),
            "the light share goes first"
        );
        queue.finish(1);
        assert_eq!(
            queue.take(),
            Some((1, ("busy", 2))),
            "then the busy one, in its order"
        );
        assert_eq!(queue.len(), 29);
    }

    #[test]
    fn two_busy_shares_alternate_and_a_removed_run_is_never_taken() {
        let mut queue = FairQueue::new();
        for n in 0..3 {
            queue.push(1, n, ('a', n));
            queue.push(2, 10 + n, ('b', n));
        }
        assert_eq!(queue.take(), Some((1, ('a', 0))));
        assert_eq!(
            queue.take(),
            Some((2, ('b', 0))),
            "the share running none goes first"
        );
        queue.finish(1);
        queue.finish(2);
        assert_eq!(
            queue.take(),
            Some((1, ('a', 1))),
            "the share served least recently"
        );
        assert_eq!(queue.remove(2, 11), Some(('b', 1)));
        assert_eq!(queue.remove(2, 11), None, "a run leaves once");
        assert_eq!(queue.take(), Some((2, ('b', 2))));
        assert_eq!(queue.take(), Some((1, ('a', 2))));
        assert!(queue.is_empty());
        assert_eq!(queue.take(), None);
        for key in [1, 1, 2] {
            queue.finish(key);
        }
        assert!(queue.shares.is_empty(), "idle shares are forgotten");
    }

    #[test]
    fn a_share_alone_is_served_in_its_order() {
        let mut queue = FairQueue::new();
        for n in 0..5 {
            queue.push(7, n, n);
        }
        let order: Vec<u64> = std::iter::from_fn(|| queue.take().map(|(_, n)| n)).collect();
        assert_eq!(order, [0, 1, 2, 3, 4]);
        assert_eq!(queue.len(), 0);
    }
}
