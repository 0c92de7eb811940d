//! The memory budget of one run: an allocator that refuses the run's first allocation past
//! its limit and remembers that it did.
//!
//! QuickJS's own limit refuses allocations too, but the run cannot tell afterwards whether it
//! was hit: the `InternalError` QuickJS throws needs memory of its own, and when there is
//! none left the program's promise rejects with `null` instead. So the budget keeps a small
//! reserve past the limit, used only after the first refusal (to build and deliver that
//! error), and the run reads [`Meter::exhausted`] to end as out of memory however the
//! program went on. A program that catches the error and keeps allocating is refused again
//! once the reserve is spent.
//!
//! The limit is set when the run starts ([`Meter::set_limit`]); until then (while the
//! sandbox is prepared) the budget is unlimited. The runtime's region (its reserved address
//! space, [`Region`]) bounds it too: an allocation the region has no room for is refused
//! and ends the run out of memory as one past the limit does.
//!
//! What the host holds for the run counts against the same limit: captured console lines,
//! tool calls (their names and argument text), pending timers and the result's clone are
//! charged with [`Meter::charge_host`] as they are made. A charge that does not fit is
//! refused like an allocation (the run ends out of memory, with what was captured before
//! it), and the reserve is never lent to the host.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rquickjs::allocator::Allocator;

use super::region::Region;

/// Memory a run may still use after its first refusal, to raise and deliver the error.
const RESERVE_BYTES: usize = 1 << 20;

/// A budget's limit and whether it refused an allocation; shared between the allocator and
/// the run.
#[derive(Debug)]
pub(super) struct Meter {
    limit: AtomicUsize,
    exhausted: AtomicBool,
    /// Bytes the runtime's allocations hold.
    js_used: AtomicUsize,
    /// Bytes the host holds for the run.
    host_used: AtomicUsize,
}

impl Meter {
    /// Counts `bytes` more held by the host for the run; `false` (and the budget exhausted)
    /// where they do not fit under the limit beside what the runtime holds.
    pub(super) fn charge_host(&self, bytes: usize) -> bool {
        let limit = self.limit.load(Ordering::Relaxed);
        let held = self.js_used.load(Ordering::Relaxed) + self.host_used.load(Ordering::Relaxed);
        if self.exhausted() || held.saturating_add(bytes) > limit {
            self.exhausted.store(true, Ordering::Relaxed);
            return false;
        }
        self.host_used.fetch_add(bytes, Ordering::Relaxed);
        true
    }

    /// Counts `bytes` the host no longer holds for the run.
    pub(super) fn release_host(&self, bytes: usize) {
        let held = self.host_used.load(Ordering::Relaxed);
        self.host_used
            .store(held.saturating_sub(bytes), Ordering::Relaxed);
    }

    /// Bytes the host holds for the run.
    #[cfg(test)]
    pub(super) fn host_used(&self) -> usize {
        self.host_used.load(Ordering::Relaxed)
    }

    /// Bytes the run holds: the runtime's allocations and what the host holds for it.
    pub(super) fn held(&self) -> usize {
        self.js_used.load(Ordering::Relaxed) + self.host_used.load(Ordering::Relaxed)
    }

    /// Whether the budget has refused an allocation.
    pub(super) fn exhausted(&self) -> bool {
        self.exhausted.load(Ordering::Relaxed)
    }

    /// Bounds every later allocation.
    pub(super) fn set_limit(&self, limit: usize) {
        self.limit.store(limit, Ordering::Relaxed);
    }

    /// Bytes the runtime's allocations hold.
    pub(super) fn js_used(&self) -> usize {
        self.js_used.load(Ordering::Relaxed)
    }

    /// The meter of a sandbox whose memory was restored to an image that held `js_used`
    /// bytes: unlimited, nothing refused, nothing held by the host.
    pub(super) fn reset(&self, js_used: usize) {
        self.limit.store(usize::MAX, Ordering::Relaxed);
        self.exhausted.store(false, Ordering::Relaxed);
        self.js_used.store(js_used, Ordering::Relaxed);
        self.host_used.store(0, Ordering::Relaxed);
    }
}

/// The runtime's [`Region`] (its own reserved range) with a per-runtime budget.
pub(super) struct Budget {
    inner: Rc<Region>,
    meter: Arc<Meter>,
}

impl Budget {
    /// An unlimited budget over a fresh region of `capacity` bytes of address space, the
    /// meter that limits it and reports its first refusal, and the region (to image and
    /// restore); `None` when the system has no address space for the region.
    pub(super) fn new(capacity: usize) -> Option<(Budget, Arc<Meter>, Rc<Region>)> {
        let region = Rc::new(Region::reserve(capacity)?);
        let meter = Arc::new(Meter {
            limit: AtomicUsize::new(usize::MAX),
            exhausted: AtomicBool::new(false),
            js_used: AtomicUsize::new(0),
            host_used: AtomicUsize::new(0),
        });
        let budget = Budget {
            inner: region.clone(),
            meter: meter.clone(),
        };
        Some((budget, meter, region))
    }

    /// Bytes the runtime's allocations hold.
    fn used(&self) -> usize {
        self.meter.js_used.load(Ordering::Relaxed)
    }

    fn set_used(&self, used: usize) {
        self.meter.js_used.store(used, Ordering::Relaxed);
    }

    /// Counts a fresh allocation of `inner` and hands it on; a null one (the region is
    /// full) is refused as one past the limit is.
    fn counted(&mut self, ptr: *mut u8) -> *mut u8 {
        if ptr.is_null() {
            self.meter.exhausted.store(true, Ordering::Relaxed);
        } else {
            // SAFETY: `ptr` was just allocated by `inner`.
            self.set_used(self.used() + unsafe { Region::usable_size(ptr) });
        }
        ptr
    }

    /// Whether `extra` more bytes fit beside what the runtime and the host hold; records
    /// the first refusal.
    fn admits(&self, extra: usize) -> bool {
        let limit = self.meter.limit.load(Ordering::Relaxed);
        let cap = if self.meter.exhausted() {
            limit.saturating_add(RESERVE_BYTES)
        } else {
            limit
        };
        let held = self.used() + self.meter.host_used.load(Ordering::Relaxed);
        if held.saturating_add(extra) <= cap {
            return true;
        }
        self.meter.exhausted.store(true, Ordering::Relaxed);
        false
    }
}

// SAFETY: every pointer comes from and goes back to the `Region`, whose guarantees this
// type passes on unchanged; the budget only refuses (returns null) before delegating.
unsafe impl Allocator for Budget {
    fn alloc(&mut self, size: usize) -> *mut u8 {
        if !self.admits(size) {
            return std::ptr::null_mut();
        }
        let ptr = self.inner.alloc(size);
        self.counted(ptr)
    }

    fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
        let Some(total) = count.checked_mul(size) else {
            return std::ptr::null_mut();
        };
        if !self.admits(total) {
            return std::ptr::null_mut();
        }
        let ptr = self.inner.calloc(total);
        self.counted(ptr)
    }

    unsafe fn dealloc(&mut self, ptr: *mut u8) {
        // SAFETY: the caller hands back a pointer this allocator (so `inner`) allocated.
        unsafe {
            self.set_used(self.used().saturating_sub(Region::usable_size(ptr)));
            self.inner.dealloc(ptr);
        }
    }

    unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        if ptr.is_null() {
            return self.alloc(new_size);
        }
        // SAFETY: the caller hands over a pointer this allocator (so `inner`) allocated.
        let old = unsafe { Region::usable_size(ptr) };
        if new_size > old && !self.admits(new_size - old) {
            return std::ptr::null_mut();
        }
        // SAFETY: as above; on success the old pointer is no longer used.
        let moved = unsafe { self.inner.realloc(ptr, new_size) };
        if moved.is_null() {
            self.meter.exhausted.store(true, Ordering::Relaxed);
        } else {
            // SAFETY: `moved` was just allocated by `inner`.
            self.set_used(self.used() - old + unsafe { Region::usable_size(moved) });
        }
        moved
    }

    unsafe fn usable_size(ptr: *mut u8) -> usize {
        // SAFETY: the caller's guarantee is the one `inner` needs.
        unsafe { Region::usable_size(ptr) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_past_the_limit_then_lends_the_reserve() {
        let (mut budget, meter, _region) = Budget::new(64 << 20).expect("a region");
        let unlimited = budget.alloc(1 << 20);
        assert!(!unlimited.is_null(), "unlimited until the run sets a limit");
        // SAFETY: `unlimited` came from this budget's `alloc` and is freed once.
        unsafe { budget.dealloc(unlimited) };
        meter.set_limit(4096);
        let small = budget.alloc(1024);
        assert!(!small.is_null());
        assert!(!meter.exhausted());
        assert!(budget.alloc(8192).is_null());
        assert!(meter.exhausted());
        let error_object = budget.alloc(8192);
        assert!(
            !error_object.is_null(),
            "the reserve serves after the refusal"
        );
        assert!(budget.alloc(RESERVE_BYTES * 2).is_null());
        // SAFETY: both blocks came from this budget's `alloc` and are freed once.
        unsafe {
            budget.dealloc(small);
            budget.dealloc(error_object);
        }
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn host_charges_share_the_limit_and_get_no_reserve() {
        let (mut budget, meter, _region) = Budget::new(64 << 20).expect("a region");
        meter.set_limit(8192);
        let ptr = budget.alloc(4096);
        assert!(meter.charge_host(2048));
        assert_eq!(meter.host_used(), 2048);
        assert!(
            budget.alloc(4096).is_null(),
            "the host's bytes count for the runtime"
        );
        assert!(meter.exhausted());
        assert!(
            !meter.charge_host(1),
            "no reserve for the host once refused"
        );
        meter.release_host(2048);
        assert_eq!(meter.host_used(), 0);
        // SAFETY: `ptr` came from this budget's `alloc` and is freed once.
        unsafe { budget.dealloc(ptr) };
    }

    #[test]
    fn a_full_region_refuses_as_the_limit_does() {
        let (mut budget, meter, _region) = Budget::new(2 << 20).expect("a region");
        let small = budget.alloc(1024);
        assert!(!small.is_null(), "unlimited, and the region has room");
        assert!(!meter.exhausted());
        assert!(budget.alloc(4 << 20).is_null(), "past the region's end");
        assert!(meter.exhausted(), "the run ends out of memory");
        // SAFETY: `small` came from this budget's `alloc`; the refused `realloc` leaves it
        // valid, and it is freed once.
        unsafe {
            let grown = budget.realloc(small, 8 << 20);
            assert!(grown.is_null(), "a growth past the region is refused too");
            budget.dealloc(small);
        }
    }

    #[test]
    fn a_host_charge_past_the_limit_exhausts_the_budget() {
        let (_budget, meter, _region) = Budget::new(64 << 20).expect("a region");
        meter.set_limit(1000);
        assert!(!meter.charge_host(1001));
        assert!(meter.exhausted());
    }

    #[test]
    fn realloc_counts_only_growth() {
        let (mut budget, meter, _region) = Budget::new(64 << 20).expect("a region");
        meter.set_limit(4096);
        let ptr = budget.alloc(1000);
        // SAFETY: `ptr` came from this budget's `alloc` and is not used after the `realloc`.
        let grown = unsafe { budget.realloc(ptr, 3000) };
        assert!(!grown.is_null());
        // SAFETY: `grown` is live (not null, checked) and not used after the `realloc`.
        let shrunk = unsafe { budget.realloc(grown, 100) };
        assert!(!shrunk.is_null());
        assert!(budget.used() < 1000);
        // SAFETY: `shrunk` is live and freed once.
        unsafe { budget.dealloc(shrunk) };
        assert!(!meter.exhausted());
    }
}
