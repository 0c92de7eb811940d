//! The completion guard that bounds every tool call to the lifetime of one `execute`, and
//! the text a panicking tool answers with.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::task::{Poll, Waker};

use tokio::sync::watch;

use crate::protocol::BoxFuture;

/// Bounds every sandbox-to-host call to one `execute` (the reference's `ExecutionGate`,
/// 0.5.5 on).
///
/// Guarantees:
/// - once [`close`](CompletionGuard::close) has run, a call still in flight, and a call that
///   only arrives afterwards, is answered at once with its "late" value;
/// - host work is never cancelled: inside a Tokio runtime each call's work is spawned, so it
///   runs to its end even when the sandbox no longer waits for it (a call arriving after the
///   close still starts its work, as the reference's does). Outside a Tokio runtime the work
///   is polled in place, and dropping the answer drops the work with it.
#[derive(Debug)]
pub struct CompletionGuard {
    closed: watch::Sender<bool>,
}

impl Default for CompletionGuard {
    fn default() -> Self {
        Self::new()
    }
}

impl CompletionGuard {
    /// An open guard.
    pub fn new() -> Self {
        Self {
            closed: watch::Sender::new(false),
        }
    }

    /// Closes the guard; idempotent.
    pub fn close(&self) {
        self.closed.send_replace(true);
    }

    /// `true` once [`close`](CompletionGuard::close) has run.
    #[cfg(test)]
    pub fn is_closed(&self) -> bool {
        *self.closed.borrow()
    }

    /// Runs `work`, answering with `late()` instead if the guard is closed before `work`
    /// settles (or already is).
    pub async fn run<T: Send + 'static>(
        &self,
        work: BoxFuture<'static, T>,
        late: impl FnOnce() -> T,
        panicked: impl FnOnce() -> T,
    ) -> T {
        let mut closed = self.closed.subscribe();
        let work = start(work);
        if *closed.borrow_and_update() {
            return late();
        }
        tokio::select! {
            biased;
            settled = work => settled.unwrap_or_else(|()| panicked()),
            _ = closed.wait_for(|closed| *closed) => late(),
        }
    }
}

/// Starts `work`: polls it once in place, so that work done at once (a tool answering from
/// memory) answers without a task of its own, a hand-off between threads and back; then, if
/// it is not done, on the current Tokio runtime when there is one (so it outlives whoever
/// stops waiting for it), or else hands it back to be polled in place. `Err` where the work
/// panicked.
fn start<T: Send + 'static>(mut work: BoxFuture<'static, T>) -> BoxFuture<'static, Result<T, ()>> {
    let first = std::panic::catch_unwind(AssertUnwindSafe(|| {
        work.as_mut()
            .poll(&mut std::task::Context::from_waker(Waker::noop()))
    }));
    match first {
        Ok(Poll::Ready(value)) => return Box::pin(async move { Ok(value) }),
        Err(_) => return Box::pin(async { Err(()) }),
        Ok(Poll::Pending) => {}
    }
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => {
            let handle = runtime.spawn(work);
            Box::pin(async move { handle.await.map_err(|_| ()) })
        }
        Err(_) => Box::pin(async move { Ok(work.await) }),
    }
}

/// The text a call gets whose host function panicked instead of settling.
pub const PANIC_MESSAGE: &str = "The host tool function panicked.";

/// Boxes a future as a [`BoxFuture`].
pub(crate) fn boxed<T>(future: impl Future<Output = T> + Send + 'static) -> BoxFuture<'static, T> {
    Box::pin(future)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn open_guard_answers_with_the_work() {
        let guard = CompletionGuard::new();
        let value = guard.run(boxed(async { 1 }), || 2, || 3).await;
        assert_eq!(value, 1);
    }

    #[tokio::test]
    async fn closing_answers_pending_calls_late_without_cancelling_them() {
        let guard = Arc::new(CompletionGuard::new());
        let finished = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&finished);
        let work = boxed(async move {
            tokio::time::sleep(Duration::from_millis(30)).await;
            flag.store(true, Ordering::SeqCst);
            1
        });
        let closer = Arc::clone(&guard);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            closer.close();
        });
        assert_eq!(guard.run(work, || 2, || 3).await, 2);
        assert!(!finished.load(Ordering::SeqCst));
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert!(finished.load(Ordering::SeqCst), "host work ran to its end");
    }

    #[tokio::test]
    async fn calls_after_the_close_are_late_but_still_start() {
        let guard = CompletionGuard::new();
        guard.close();
        guard.close();
        assert!(guard.is_closed());
        let started = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&started);
        let work = boxed(async move {
            flag.store(true, Ordering::SeqCst);
            1
        });
        assert_eq!(guard.run(work, || 2, || 3).await, 2);
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(started.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn a_panicking_tool_answers_with_the_panic_value() {
        let guard = CompletionGuard::new();
        let work = boxed(async { panic!("tool bug") });
        let value: i32 = guard.run(work, || 2, || 3).await;
        assert_eq!(value, 3);
    }
}
