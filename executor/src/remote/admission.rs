//! Fair admission: how the daemon hands its executor's workers to its connections.
//!
//! The server hands at most [`ServerOptions::max_running_executions`] runs to its executor at
//! once (set to the executor's worker count, each handed run has a worker). A run arriving
//! while every place is taken waits in its connection's queue, and a place that frees goes to
//! the waiting connection that runs the fewest now (among equals, the one served least
//! recently): a connection arriving beside a busy one takes the next free place, whatever the
//! busy one has queued, and two busy connections alternate. A connection alone still gets
//! every place.
//!
//! Guarantees: a place is held by exactly one run from its grant until its [`Place`] drops;
//! a waiting run whose future is dropped leaves its queue at once (or, granted meanwhile,
//! hands its place on); runs waiting across the daemon are at most
//! [`ServerOptions::max_queued_executions`], and one more is refused at once.
//!
//! [`ServerOptions::max_running_executions`]: super::ServerOptions::max_running_executions
//! [`ServerOptions::max_queued_executions`]: super::ServerOptions::max_queued_executions

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// The places and the queues.
pub(super) struct Admission {
    state: Mutex<State>,
    max_queued: usize,
}

struct State {
    /// Places no run holds.
    free: usize,
    /// Runs waiting, across connections.
    queued: usize,
    /// Connections that hold a place or wait for one.
    shares: Vec<Share>,
    /// Counts places given (at once or from a queue), to order connections by when they were
    /// last served.
    grants: u64,
    next_ticket: u64,
}

/// One connection's part.
struct Share {
    connection: u64,
    /// Places its runs hold.
    running: usize,
    /// The grant count when it was last served (0: never).
    served_at: u64,
    /// Its waiting runs, in arrival order.
    waiting: VecDeque<(u64, oneshot::Sender<()>)>,
}

/// Why a run was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct QueueFull {
    pub max_queued: usize,
}

/// A place held by one run; dropping it frees the place for the next waiting run.
pub(super) struct Place {
    admission: Arc<Admission>,
    connection: u64,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut state = self.admission.lock();
        state.vacate(self.connection);
    }
}

/// A run's turn: a place now, or a wait for one.
pub(super) enum Turn {
    Now(Place),
    Wait(Waiting),
}

/// A run waiting for a place. Dropping it before its place is granted takes the run out of
/// its queue; dropping it after hands the place on.
pub(super) struct Waiting {
    admission: Arc<Admission>,
    connection: u64,
    ticket: u64,
    granted: Option<oneshot::Receiver<()>>,
}

impl Admission {
    /// `places` runs at once (at least one); at most `max_queued` waiting.
    pub(super) fn new(places: usize, max_queued: usize) -> Arc<Admission> {
        Arc::new(Admission {
            state: Mutex::new(State {
                free: places.max(1),
                queued: 0,
                shares: Vec::new(),
                grants: 0,
                next_ticket: 0,
            }),
            max_queued,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs waiting now, across connections.
    pub(super) fn queued(&self) -> usize {
        self.lock().queued
    }

    /// Places held now.
    pub(super) fn held(&self) -> usize {
        self.lock().shares.iter().map(|share| share.running).sum()
    }

    /// A turn for a run of `connection`: a free place at once, else a place in its queue,
    /// else (the daemon's queue is full) a refusal.
    pub(super) fn enter(self: &Arc<Self>, connection: u64) -> Result<Turn, QueueFull> {
        let mut state = self.lock();
        if state.free > 0 {
            state.free -= 1;
            state.grants += 1;
            let grants = state.grants;
            let share = state.share(connection);
            share.running += 1;
            share.served_at = grants;
            return Ok(Turn::Now(Place {
                admission: self.clone(),
                connection,
            }));
        }
        if state.queued >= self.max_queued {
            return Err(QueueFull {
                max_queued: self.max_queued,
            });
        }
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        let (grant, granted) = oneshot::channel();
        state.share(connection).waiting.push_back((ticket, grant));
        state.queued += 1;
        Ok(Turn::Wait(Waiting {
            admission: self.clone(),
            connection,
            ticket,
            granted: Some(granted),
        }))
    }
}

impl Waiting {
    /// Waits for the place.
    pub(super) async fn place(mut self) -> Place {
        let granted = self.granted.as_mut().expect("awaited once");
        // The sender lives in the queue until it grants: it is never dropped unsent while
        // this waits (the queue is only emptied by grants and by this run's own drop).
        let _ = granted.await;
        self.granted = None;
        Place {
            admission: self.admission.clone(),
            connection: self.connection,
        }
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if self.granted.is_none() {
            return;
        }
        let mut state = self.admission.lock();
        let left = state.shares.iter_mut().any(|share| {
            if share.connection != self.connection {
                return false;
            }
            let before = share.waiting.len();
            share.waiting.retain(|(ticket, _)| *ticket != self.ticket);
            share.waiting.len() < before
        });
        if left {
            state.queued -= 1;
            state.tidy(self.connection);
        } else {
            // Granted while it was being dropped: the place goes to the next run.
            state.vacate(self.connection);
        }
    }
}

impl State {
    fn share(&mut self, connection: u64) -> &mut Share {
        let index = match self
            .shares
            .iter()
            .position(|share| share.connection == connection)
        {
            Some(index) => index,
            None => {
                self.shares.push(Share {
                    connection,
                    running: 0,
                    served_at: 0,
                    waiting: VecDeque::new(),
                });
                self.shares.len() - 1
            }
        };
        &mut self.shares[index]
    }

    /// Forgets a connection that neither holds nor waits.
    fn tidy(&mut self, connection: u64) {
        self.shares.retain(|share| {
            share.connection != connection || share.running > 0 || !share.waiting.is_empty()
        });
    }

    /// A run of `connection` gave its place back: it goes to the waiting connection running
    /// the fewest (then the one served least recently), or becomes free.
    fn vacate(&mut self, connection: u64) {
        if let Some(share) = self.shares.iter_mut().find(|s| s.connection == connection) {
            share.running = share.running.saturating_sub(1);
        }
        self.tidy(connection);
        let next = self
            .shares
            .iter()
            .enumerate()
            .filter(|(_, share)| !share.waiting.is_empty())
            .min_by_key(|(_, share)| (share.running, share.served_at))
            .map(|(index, _)| index);
        let Some(index) = next else {
            self.free += 1;
            return;
        };
        self.grants += 1;
        let grants = self.grants;
        let share = &mut self.shares[index];
        let (_, grant) = share.waiting.pop_front().expect("a waiting run");
        share.running += 1;
        share.served_at = grants;
        self.queued -= 1;
        // The receiver is alive: a waiting run that drops leaves the queue under this lock.
        let _ = grant.send(());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(turn: Turn) -> Waiting {
        match turn {
            Turn::Wait(waiting) => waiting,
            Turn::Now(_) => panic!("expected to wait"),
        }
    }

    fn granted(waiting: &mut Waiting) -> bool {
        waiting
            .granted
            .as_mut()
            .is_some_and(|granted| granted.try_recv().is_ok())
    }

    #[test]
    fn a_light_connection_takes_the_next_place_before_a_busy_ones_backlog() {
        let admission = Admission::new(2, 100);
        let busy: Vec<Place> = (0..2)
            .map(|_| match admission.enter(1).unwrap() {
                Turn::Now(place) => place,
                Turn::Wait(_) => panic!("two free places"),
            })
            .collect();
        let mut backlog: Vec<Waiting> = (0..30)
            .map(|_| waiting(admission.enter(1).unwrap()))
            .collect();
        let mut light = waiting(admission.enter(2).unwrap());
        assert_eq!(admission.queued(), 31);
        let mut busy = busy.into_iter();
        drop(busy.next());
        assert!(granted(&mut light), "the light connection is served first");
        assert!(backlog.iter_mut().all(|w| !granted(w)));
        drop(busy.next());
        assert!(granted(&mut backlog[0]), "then the busy one, in its order");
        assert_eq!(admission.queued(), 29);
        assert_eq!(admission.held(), 2);
    }

    #[test]
    fn two_busy_connections_alternate_and_a_dropped_wait_leaves_its_queue() {
        let admission = Admission::new(1, 100);
        let Turn::Now(first) = admission.enter(1).unwrap() else {
            panic!("one free place")
        };
        let mut a: Vec<Waiting> = (0..3)
            .map(|_| waiting(admission.enter(1).unwrap()))
            .collect();
        let mut b: Vec<Waiting> = (0..3)
            .map(|_| waiting(admission.enter(2).unwrap()))
            .collect();
        drop(first);
        assert!(granted(&mut b[0]), "the connection running none goes first");
        drop(b.remove(0));
        assert!(granted(&mut a[0]), "then the one served least recently");
        // A waiting run that goes away leaves its queue and is never granted.
        drop(b.remove(0));
        assert_eq!(admission.queued(), 3);
        drop(a.remove(0));
        assert!(granted(&mut b[0]));
        drop(b);
        drop(a);
        assert_eq!(admission.queued(), 0);
        assert_eq!(admission.held(), 0);
        assert!(matches!(admission.enter(3), Ok(Turn::Now(_))));
    }

    #[test]
    fn past_the_daemons_queue_bound_a_run_is_refused() {
        let admission = Admission::new(1, 2);
        let _place = admission.enter(1).unwrap();
        let _a = admission.enter(1).unwrap();
        let _b = admission.enter(2).unwrap();
        assert_eq!(admission.enter(3).err(), Some(QueueFull { max_queued: 2 }));
    }
}
