//! The memory of one runtime: a range of addresses reserved for it alone, whose allocator
//! keeps its own state inside the range, so that the runtime's whole state at one moment
//! can be copied out (an [`Image`]) and copied back over it later.
//!
//! A prepared sandbox costs three million instructions to build (a context, the scope, the
//! Web globals), several times what a trivial run costs; copying its image back costs a
//! copy of its bytes. The runtime's structures hold pointers into its own memory only (and
//! to the host's functions and data, which stay where they are), so memory that is again
//! byte for byte what it was is again the runtime that it was, at the same addresses.
//!
//! Layout: the allocator (dlmalloc, whose state is a plain structure) at the range's start,
//! then the memory it asks for, handed out from the bottom up; so everything the runtime
//! holds lies below the [`high_water`](Region::high_water) mark, and an image is the bytes
//! below it. Restoring an image writes those back and zeroes what the run used above them,
//! so the whole range is again exactly what it was when the image was taken.
//!
//! Bound: the range is reserved (address space, not memory) at the size the sandbox is made
//! with; an allocation that does not fit in it is refused like one past the memory budget.

use std::cell::Cell;
use std::ptr;

/// What the allocator is handed: the range's memory, from the bottom up.
struct Bump {
    next: Cell<usize>,
    end: usize,
}

// SAFETY: `alloc` hands out disjoint parts of a range reserved for this allocator alone and
// never reuses one; nothing is ever released to it (every release method refuses).
unsafe impl dlmalloc::Allocator for Bump {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let start = self.next.get();
        match start.checked_add(size) {
            Some(end) if end <= self.end => {
                self.next.set(end);
                (start as *mut u8, size, 0)
            }
            _ => (ptr::null_mut(), 0, 0),
        }
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        ptr::null_mut()
    }

    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }

    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }

    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        false
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}

type State = dlmalloc::Dlmalloc<Bump>;

const PAGE: usize = 4096;
/// Where the allocator's memory starts: past its state, on a page.
const STATE_BYTES: usize = std::mem::size_of::<State>().next_multiple_of(PAGE);
/// What precedes every block: its usable size (and padding, keeping blocks 16-aligned).
const HEADER: usize = 16;
/// How much of what a run used past the image is zeroed in place when the image is
/// restored; the rest is given back to the system (which zeroes it when touched again).
const ZEROED_IN_PLACE: usize = 1 << 20;

/// A runtime's reserved range and its allocator.
pub(super) struct Region {
    base: *mut u8,
    capacity: usize,
}

/// A copy of the bytes a region held below its high-water mark at one moment.
pub(super) struct Image {
    bytes: Box<[u8]>,
}

impl Image {
    /// How many bytes the image holds.
    pub(super) fn len(&self) -> usize {
        self.bytes.len()
    }
}

impl Region {
    /// Reserves `capacity` bytes of address space (rounded up to a page); `None` when the
    /// system refuses.
    pub(super) fn reserve(capacity: usize) -> Option<Region> {
        let capacity = capacity
            .max(STATE_BYTES + PAGE)
            .checked_next_multiple_of(PAGE)?;
        let base = map(capacity)?;
        let region = Region { base, capacity };
        let bump = Bump {
            next: Cell::new(base as usize + STATE_BYTES),
            end: base as usize + capacity,
        };
        // SAFETY: the range starts with `STATE_BYTES` of fresh memory, page-aligned.
        unsafe { region.state().write(State::new_with_allocator(bump)) };
        Some(region)
    }

    fn state(&self) -> *mut State {
        self.base.cast()
    }

    /// Everything in use lies below this address.
    pub(super) fn high_water(&self) -> usize {
        // SAFETY: the state was written when the range was reserved and lives in it.
        unsafe { (*self.state()).allocator().next.get() }
    }

    /// How many bytes the range holds below its high-water mark.
    pub(super) fn used_bytes(&self) -> usize {
        self.high_water() - self.base as usize
    }

    /// How many bytes of address space the range has.
    #[cfg(test)]
    pub(super) fn capacity(&self) -> usize {
        self.capacity
    }

    /// A block of at least `size` bytes, 16-aligned; null when the range is full.
    pub(super) fn alloc(&self, size: usize) -> *mut u8 {
        let Some(total) = size.checked_add(HEADER) else {
            return ptr::null_mut();
        };
        // SAFETY: the state is live; the allocator hands out memory of this range only.
        unsafe {
            let block = (*self.state()).c_malloc(total);
            if block.is_null() {
                return block;
            }
            block.cast::<usize>().write(size);
            block.add(HEADER)
        }
    }

    /// A zeroed block of at least `size` bytes; null when the range is full.
    pub(super) fn calloc(&self, size: usize) -> *mut u8 {
        let ptr = self.alloc(size);
        if !ptr.is_null() {
            // SAFETY: `ptr` has `size` usable bytes.
            unsafe { ptr.write_bytes(0, size) };
        }
        ptr
    }

    /// Frees the block at `ptr`.
    ///
    /// # Safety
    /// `ptr` must come from this region and not have been freed.
    pub(super) unsafe fn dealloc(&self, ptr: *mut u8) {
        // SAFETY: the caller's guarantee; the block starts at its header.
        unsafe { (*self.state()).c_free(ptr.sub(HEADER)) }
    }

    /// The block at `ptr` resized to at least `new_size` bytes (moved, perhaps), or null (and
    /// the block unchanged) when the range has no room.
    ///
    /// # Safety
    /// `ptr` must come from this region and not have been freed.
    pub(super) unsafe fn realloc(&self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        let Some(total) = new_size.checked_add(HEADER) else {
            return ptr::null_mut();
        };
        // SAFETY: the caller's guarantee; the header moves with the block.
        unsafe {
            let moved = (*self.state()).c_realloc(ptr.sub(HEADER), total);
            if moved.is_null() {
                return moved;
            }
            moved.cast::<usize>().write(new_size);
            moved.add(HEADER)
        }
    }

    /// The usable size of the block at `ptr`.
    ///
    /// # Safety
    /// `ptr` must come from a region and not have been freed.
    pub(super) unsafe fn usable_size(ptr: *mut u8) -> usize {
        // SAFETY: the caller's guarantee; the size is the header's first word.
        unsafe { ptr.sub(HEADER).cast::<usize>().read() }
    }

    /// A copy of what the range holds now.
    pub(super) fn capture(&self) -> Image {
        // SAFETY: the bytes below the high-water mark are initialized memory of the range.
        let bytes = unsafe { std::slice::from_raw_parts(self.base, self.used_bytes()) };
        Image {
            bytes: bytes.into(),
        }
    }

    /// Makes the range exactly what it was when `image` was taken: its bytes written back,
    /// and every byte used since above them zeroed (in place, or given back to the system).
    ///
    /// # Safety
    /// `image` must have been captured from this region, and nothing may use a block of the
    /// region across the call (whatever pointed into it before points into the image's
    /// state after).
    pub(super) unsafe fn restore(&self, image: &Image) {
        let used = self.used_bytes();
        let kept = image.len();
        // SAFETY: the image is at most the range's size and the range is mapped; the
        // caller's guarantee that nothing uses the region meanwhile.
        unsafe {
            ptr::copy_nonoverlapping(image.bytes.as_ptr(), self.base, kept);
            if used > kept {
                let in_place = (used - kept).min(ZEROED_IN_PLACE);
                self.base.add(kept).write_bytes(0, in_place);
                let rest = kept + in_place;
                if used > rest {
                    release(self.base.add(rest), used - rest);
                }
            }
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: the range was mapped with this size and nothing uses it any more (the
        // runtime that allocated from it has ended).
        unsafe { unmap(self.base, self.capacity) };
    }
}

#[cfg(unix)]
fn map(capacity: usize) -> Option<*mut u8> {
    // SAFETY: a fresh anonymous private mapping, of address space only until touched.
    let base = unsafe {
        libc::mmap(
            ptr::null_mut(),
            capacity,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    (base != libc::MAP_FAILED).then_some(base.cast())
}

/// Gives the pages of `len` bytes at `at` back to the system, which maps zeroed pages there
/// when they are touched again; zeroes them in place where it cannot.
///
/// # Safety
/// `at .. at + len` must lie in a live region; `at` a page boundary.
#[cfg(unix)]
unsafe fn release(at: *mut u8, len: usize) {
    // SAFETY: the caller's guarantee.
    unsafe {
        if libc::madvise(at.cast(), len, libc::MADV_DONTNEED) != 0 {
            at.write_bytes(0, len);
        }
    }
}

/// # Safety
/// `base` must be a mapping of `capacity` bytes no one uses any more.
#[cfg(unix)]
unsafe fn unmap(base: *mut u8, capacity: usize) {
    // SAFETY: the caller's guarantee.
    unsafe { libc::munmap(base.cast(), capacity) };
}

#[cfg(not(unix))]
fn map(capacity: usize) -> Option<*mut u8> {
    let layout = std::alloc::Layout::from_size_align(capacity, PAGE).ok()?;
    // SAFETY: the layout is not zero-sized.
    let base = unsafe { std::alloc::alloc_zeroed(layout) };
    (!base.is_null()).then_some(base)
}

#[cfg(not(unix))]
unsafe fn release(at: *mut u8, len: usize) {
    // SAFETY: the caller's guarantee.
    unsafe { at.write_bytes(0, len) };
}

#[cfg(not(unix))]
unsafe fn unmap(base: *mut u8, capacity: usize) {
    // SAFETY: the caller's guarantee; the layout is the one `map` allocated with.
    unsafe {
        std::alloc::dealloc(
            base,
            std::alloc::Layout::from_size_align_unchecked(capacity, PAGE),
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_come_from_the_range_and_keep_their_size() {
        let region = Region::reserve(16 << 20).expect("address space");
        let base = region.base as usize;
        let a = region.alloc(10);
        let b = region.calloc(100);
        assert!(!a.is_null() && !b.is_null());
        for ptr in [a, b] {
            let at = ptr as usize;
            assert!(
                at > base && at < base + region.capacity(),
                "inside the range"
            );
            assert_eq!(at % 16, 0, "16-aligned");
        }
        // SAFETY: `a` is a live block of this region.
        assert_eq!(unsafe { Region::usable_size(a) }, 10);
        // SAFETY: `b` is a live block of 100 bytes; every read is inside it.
        assert!((0..100).all(|i| unsafe { *b.add(i) } == 0), "calloc zeroes");
        // SAFETY: `a` (10 bytes) and `b` are live blocks of this region; the writes stay
        // inside `a`, `a` is not used after its `realloc`, and each block is freed once.
        unsafe {
            a.write_bytes(7, 10);
            let grown = region.realloc(a, 5000);
            assert!(!grown.is_null());
            assert_eq!(Region::usable_size(grown), 5000);
            assert!((0..10).all(|i| *grown.add(i) == 7), "the bytes moved along");
            region.dealloc(grown);
            region.dealloc(b);
        }
        assert!(region.high_water() <= base + region.capacity());
    }

    #[test]
    fn a_full_range_refuses() {
        let region = Region::reserve(1 << 20).expect("address space");
        assert!(region.alloc(2 << 20).is_null(), "past the range");
        assert!(region.alloc(usize::MAX).is_null(), "past the address space");
        assert!(!region.alloc(1000).is_null(), "what fits still does");
    }

    #[test]
    fn a_restored_image_is_the_range_as_it_was() {
        let region = Region::reserve(64 << 20).expect("address space");
        let kept = region.alloc(64);
        // SAFETY: `kept` is a live block of 64 bytes.
        unsafe { kept.write_bytes(1, 64) };
        let image = region.capture();
        let mark = region.high_water();
        // A run: the kept block changed and freed, big blocks made past the mark.
        // SAFETY: `kept` is a live block of 64 bytes, freed once here (the restore below
        // brings back the allocator's state in which it is live again).
        unsafe {
            kept.write_bytes(2, 64);
            region.dealloc(kept);
        }
        let big = region.alloc(4 << 20);
        // SAFETY: `big` is a live block of 4 MiB (not null: the range holds 64 MiB).
        unsafe { big.write_bytes(3, 4 << 20) };
        assert!(region.high_water() > mark + (4 << 20));
        let past = region.high_water();
        // SAFETY: nothing holds a pointer into the range that the restore would invalidate
        // but `big`, which is not used again.
        unsafe { region.restore(&image) };
        assert_eq!(
            region.high_water(),
            mark,
            "the allocator's state is the image's"
        );
        assert!(
            // SAFETY: the restored image holds `kept` live again, 64 bytes.
            (0..64).all(|i| unsafe { *kept.add(i) } == 1),
            "the block is back"
        );
        let zeroed = (mark..past)
            .step_by(4096)
            // SAFETY: every address read lies in the region's reserved, mapped range.
            .all(|at| unsafe { *(at as *const u8) } == 0);
        assert!(zeroed, "what the run used past the image reads zero");
        // The allocator goes on from the image's state: the kept block is still in use.
        let next = region.alloc(64);
        assert_ne!(next, kept);
        // SAFETY: `kept` is live in the restored state and freed once.
        unsafe { region.dealloc(kept) };
    }
}
