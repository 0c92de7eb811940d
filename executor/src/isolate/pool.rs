//! The worker pool: a fixed number of threads, each with its own current-thread tokio
//! runtime, taking runs from one bounded queue, one run at a time per worker.
//!
//! A worker answers a run before it frees the run's sandbox. While no run is waiting it
//! prepares sandboxes for the next runs (see [`super::sandbox`]), up to its stock, and only
//! then blocks on the queue: an idle worker holds its stock and uses no CPU.
//!
//! Guarantees: a full queue makes `submit` wait instead of failing; a run that panics
//! answers `Error::Internal` and the worker goes on; after `close` no new run is accepted and
//! each worker exits once the queue is drained.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};

use futures::FutureExt;
use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};

use super::run::{RunLimits, run};
use super::sandbox::Sandbox;
use crate::Error;
use crate::protocol::{ExecuteRequest, Outcome};

/// One queued run.
pub(super) struct Job {
    pub request: ExecuteRequest,
    pub limits: RunLimits,
    /// The caller's runtime, where the run's tool calls are spawned.
    pub spawner: Option<Handle>,
    pub reply: oneshot::Sender<Result<Outcome, Error>>,
}

/// The pool's handle: the sending side of the queue.
pub(super) struct Pool {
    sender: Mutex<Option<mpsc::Sender<Job>>>,
}

impl Pool {
    /// Starts `workers` threads (at least one), each with `stack_bytes` of stack and a stock
    /// of `prepared` sandboxes (at least one).
    pub(super) fn start(workers: usize, stack_bytes: usize, prepared: usize) -> Pool {
        let workers = workers.max(1);
        let (sender, receiver) = mpsc::channel::<Job>(workers * 64);
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..workers {
            let receiver = receiver.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("codemode-isolate-{index}"))
                .stack_size(stack_bytes)
                .spawn(move || worker(receiver, prepared.max(1)));
            if spawned.is_err() && index == 0 {
                // Without a single worker every run would wait forever: refuse instead.
                return Pool {
                    sender: Mutex::new(None),
                };
            }
        }
        Pool {
            sender: Mutex::new(Some(sender)),
        }
    }

    /// Queues a run and waits for its outcome.
    pub(super) async fn submit(
        &self,
        request: ExecuteRequest,
        limits: RunLimits,
    ) -> Result<Outcome, Error> {
        let sender = self
            .sender
            .lock()
            .map_err(|_| Error::Internal("the pool's lock is poisoned".into()))?
            .clone()
            .ok_or(Error::Disposed)?;
        let (reply, answer) = oneshot::channel();
        let job = Job {
            request,
            limits,
            spawner: Handle::try_current().ok(),
            reply,
        };
        sender.send(job).await.map_err(|_| Error::Disposed)?;
        answer
            .await
            .map_err(|_| Error::Internal("the worker dropped the run".into()))?
    }

    /// Stops accepting runs; workers exit once the queue is drained.
    pub(super) fn close(&self) {
        if let Ok(mut sender) = self.sender.lock() {
            sender.take();
        }
    }
}

fn worker(receiver: Arc<Mutex<mpsc::Receiver<Job>>>, stock_size: usize) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    else {
        return;
    };
    let mut stock: VecDeque<Result<Sandbox, Error>> = VecDeque::with_capacity(stock_size);
    loop {
        let job = if stock.len() < stock_size {
            // Take a waiting run if there is one; otherwise prepare another sandbox.
            match next_waiting(&receiver) {
                Waiting::Job(job) => *job,
                Waiting::Closed => return,
                Waiting::None => {
                    stock.push_back(Sandbox::prepare());
                    continue;
                }
            }
        } else {
            let Ok(mut receiver) = receiver.lock() else {
                return;
            };
            match receiver.blocking_recv() {
                Some(job) => job,
                None => return,
            }
        };
        if job.reply.is_closed() {
            continue;
        }
        let sandbox = match stock.pop_back().unwrap_or_else(Sandbox::prepare) {
            Ok(sandbox) => sandbox,
            Err(error) => {
                let _ = job.reply.send(Err(error));
                continue;
            }
        };
        let finished = runtime.block_on(
            AssertUnwindSafe(run(job.request, job.limits, job.spawner, sandbox)).catch_unwind(),
        );
        match finished {
            Ok((outcome, remains)) => {
                let _ = job.reply.send(outcome);
                drop(remains);
            }
            Err(_) => {
                let _ = job
                    .reply
                    .send(Err(Error::Internal("the run panicked".into())));
            }
        }
    }
}

enum Waiting {
    Job(Box<Job>),
    None,
    Closed,
}

/// A run already in the queue, without waiting for one (nor for the queue's lock, which a
/// worker with a full stock holds while it waits).
fn next_waiting(receiver: &Mutex<mpsc::Receiver<Job>>) -> Waiting {
    let Ok(mut receiver) = receiver.try_lock() else {
        return Waiting::None;
    };
    match receiver.try_recv() {
        Ok(job) => Waiting::Job(Box::new(job)),
        Err(mpsc::error::TryRecvError::Empty) => Waiting::None,
        Err(mpsc::error::TryRecvError::Disconnected) => Waiting::Closed,
    }
}
