//! The memory budget of one run: an allocator that refuses the run's first allocation past
//! its limit and remembers that it did.
//!
//! QuickJS's own limit refuses allocations too, but the run cannot tell afterwards whether it
//! was hit: the `InternalError` QuickJS throws needs memory of its own, and when there is
//! none left the program's promise rejects with `null` instead. So the budget keeps a small
//! reserve past the limit, used only after the first refusal (to build and deliver that
//! error), and the run reads [`Exhaustion::happened`] to end as out of memory however the
//! program went on. A program that catches the error and keeps allocating is refused again
//! once the reserve is spent.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rquickjs::allocator::{Allocator, RustAllocator};

/// Memory a run may still use after its first refusal, to raise and deliver the error.
const RESERVE_BYTES: usize = 1 << 20;

/// Whether a run's budget refused an allocation; shared between the allocator and the run.
#[derive(Debug, Default)]
pub(super) struct Exhaustion(AtomicBool);

impl Exhaustion {
    pub(super) fn happened(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Rust's allocator (as rquickjs uses by default) with a per-runtime budget.
pub(super) struct Budget {
    inner: RustAllocator,
    used: usize,
    limit: usize,
    exhaustion: Arc<Exhaustion>,
}

impl Budget {
    /// A budget of `limit` bytes; the returned flag turns on at the first refusal.
    pub(super) fn new(limit: usize) -> (Budget, Arc<Exhaustion>) {
        let exhaustion = Arc::new(Exhaustion::default());
        let budget = Budget {
            inner: RustAllocator,
            used: 0,
            limit,
            exhaustion: exhaustion.clone(),
        };
        (budget, exhaustion)
    }

    /// Whether `extra` more bytes fit; records the first refusal.
    fn admits(&self, extra: usize) -> bool {
        let exhausted = self.exhaustion.happened();
        let cap = if exhausted {
            self.limit.saturating_add(RESERVE_BYTES)
        } else {
            self.limit
        };
        if self.used.saturating_add(extra) <= cap {
            return true;
        }
        self.exhaustion.0.store(true, Ordering::Relaxed);
        false
    }
}

// SAFETY: every pointer comes from and goes back to `RustAllocator`, whose guarantees this
// type passes on unchanged; the budget only refuses (returns null) before delegating.
unsafe impl Allocator for Budget {
    fn alloc(&mut self, size: usize) -> *mut u8 {
        if !self.admits(size) {
            return std::ptr::null_mut();
        }
        let ptr = self.inner.alloc(size);
        if !ptr.is_null() {
            // SAFETY: `ptr` was just allocated by `inner`.
            self.used += unsafe { RustAllocator::usable_size(ptr) };
        }
        ptr
    }

    fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
        let Some(total) = count.checked_mul(size) else {
            return std::ptr::null_mut();
        };
        if !self.admits(total) {
            return std::ptr::null_mut();
        }
        let ptr = self.inner.calloc(count, size);
        if !ptr.is_null() {
            // SAFETY: `ptr` was just allocated by `inner`.
            self.used += unsafe { RustAllocator::usable_size(ptr) };
        }
        ptr
    }

    unsafe fn dealloc(&mut self, ptr: *mut u8) {
        // SAFETY: the caller hands back a pointer this allocator (so `inner`) allocated.
        unsafe {
            self.used = self.used.saturating_sub(RustAllocator::usable_size(ptr));
            self.inner.dealloc(ptr);
        }
    }

    unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        if ptr.is_null() {
            return self.alloc(new_size);
        }
        // SAFETY: the caller hands over a pointer this allocator (so `inner`) allocated.
        let old = unsafe { RustAllocator::usable_size(ptr) };
        if new_size > old && !self.admits(new_size - old) {
            return std::ptr::null_mut();
        }
        // SAFETY: as above; on success the old pointer is no longer used.
        let moved = unsafe { self.inner.realloc(ptr, new_size) };
        if !moved.is_null() {
            // SAFETY: `moved` was just allocated by `inner`.
            self.used = self.used - old + unsafe { RustAllocator::usable_size(moved) };
        }
        moved
    }

    unsafe fn usable_size(ptr: *mut u8) -> usize {
        // SAFETY: the caller's guarantee is the one `inner` needs.
        unsafe { RustAllocator::usable_size(ptr) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_past_the_limit_then_lends_the_reserve() {
        let (mut budget, exhaustion) = Budget::new(4096);
        let small = budget.alloc(1024);
        assert!(!small.is_null());
        assert!(!exhaustion.happened());
        assert!(budget.alloc(8192).is_null());
        assert!(exhaustion.happened());
        let error_object = budget.alloc(8192);
        assert!(
            !error_object.is_null(),
            "the reserve serves after the refusal"
        );
        assert!(budget.alloc(RESERVE_BYTES * 2).is_null());
        unsafe {
            budget.dealloc(small);
            budget.dealloc(error_object);
        }
        assert_eq!(budget.used, 0);
    }

    #[test]
    fn realloc_counts_only_growth() {
        let (mut budget, exhaustion) = Budget::new(4096);
        let ptr = budget.alloc(1000);
        let grown = unsafe { budget.realloc(ptr, 3000) };
        assert!(!grown.is_null());
        let shrunk = unsafe { budget.realloc(grown, 100) };
        assert!(!shrunk.is_null());
        assert!(budget.used < 1000);
        unsafe { budget.dealloc(shrunk) };
        assert!(!exhaustion.happened());
    }
}
