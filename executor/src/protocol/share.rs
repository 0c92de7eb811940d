//! A run's share: which of its caller's groups a run belongs to (the executor daemon's
//! connection), for an executor that queues runs and serves the groups in turn
//! ([`Executor::execute_in_share`](super::Executor::execute_in_share)), and whether a worker
//! has started it yet.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One run's share. Clones see the same start.
#[derive(Debug, Clone)]
pub struct Share {
    key: u64,
    started: Arc<AtomicBool>,
}

impl Share {
    /// A run of the group `key`, not started.
    pub fn new(key: u64) -> Share {
        Share {
            key,
            started: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The group.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Marks the run started: the executor calls it when a worker takes the run.
    pub fn mark_started(&self) {
        self.started.store(true, Ordering::Release);
    }

    /// Whether a worker has taken the run (else it still waits, or never ran).
    pub fn started(&self) -> bool {
        self.started.load(Ordering::Acquire)
    }
}
