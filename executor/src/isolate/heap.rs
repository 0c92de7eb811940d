//! The blocks one runtime's engine holds, each linked into one list, so that a used runtime
//! is thrown away whole: dropping the [`Heap`] frees every block still in it.
//!
//! A used sandbox is never run again, so its runtime is abandoned (engine patch `0042`,
//! `JS_AbandonRuntime`): the engine then frees nothing piecewise (no collection, no object,
//! shape, atom or bytecode freed one by one, which cost a sixth of a trivial run) and
//! finalizes only what may hold memory of the host's (Rust functions and classes, external
//! array buffers). This list is what returns the rest: every block the engine still held
//! when the runtime ended goes back to Rust's allocator when the heap drops.
//!
//! Blocks are laid out as rquickjs's own `RustAllocator` lays them out (8-byte aligned,
//! sizes rounded up to 8), with the list's links beside the size in the header.

use std::alloc::{self, Layout};
use std::ptr;

const ALIGN: usize = std::mem::align_of::<u64>();

/// What precedes every block: its neighbours in the heap's list and its usable size.
#[repr(C)]
struct Header {
    prev: *mut Header,
    next: *mut Header,
    size: usize,
}

const HEADER: usize = std::mem::size_of::<Header>();
const _: () = assert!(HEADER.is_multiple_of(ALIGN));

/// Every block allocated and not yet freed, newest first.
pub(super) struct Heap {
    head: *mut Header,
}

fn layout(size: usize) -> Option<Layout> {
    Layout::from_size_align(HEADER.checked_add(size)?, ALIGN).ok()
}

fn rounded(size: usize) -> Option<usize> {
    size.checked_next_multiple_of(ALIGN)
}

/// The header of the block whose usable part starts at `ptr`.
///
/// # Safety
/// `ptr` must come from a [`Heap`] and not have been freed.
unsafe fn header(ptr: *mut u8) -> *mut Header {
    // SAFETY: every block's usable part follows its header.
    unsafe { ptr.sub(HEADER).cast::<Header>() }
}

impl Heap {
    /// An empty heap.
    pub(super) fn new() -> Heap {
        Heap {
            head: ptr::null_mut(),
        }
    }

    /// Links the fresh block `block` of usable `size` at the list's head and returns its
    /// usable part.
    ///
    /// # Safety
    /// `block` must be a live allocation of `layout(size)` not in the list.
    unsafe fn link(&mut self, block: *mut Header, size: usize) -> *mut u8 {
        // SAFETY: `block` is live and large enough for its header; the head, if any, is a
        // live block of this list.
        unsafe {
            block.write(Header {
                prev: ptr::null_mut(),
                next: self.head,
                size,
            });
            if !self.head.is_null() {
                (*self.head).prev = block;
            }
            self.head = block;
            block.cast::<u8>().add(HEADER)
        }
    }

    /// Points the neighbours of a block leaving its place (`prev`, or the head when it has
    /// none, and `next`) at `forward` and `back`: each other when it is freed, the moved
    /// block when it is reallocated.
    ///
    /// # Safety
    /// `prev` and `next` must be null or live blocks of this list.
    unsafe fn repoint(
        &mut self,
        prev: *mut Header,
        next: *mut Header,
        forward: *mut Header,
        back: *mut Header,
    ) {
        // SAFETY: the caller's guarantee.
        unsafe {
            if prev.is_null() {
                self.head = forward;
            } else {
                (*prev).next = forward;
            }
            if !next.is_null() {
                (*next).prev = back;
            }
        }
    }

    fn allocate(&mut self, size: usize, zeroed: bool) -> *mut u8 {
        let Some(size) = rounded(size) else {
            return ptr::null_mut();
        };
        let Some(layout) = layout(size) else {
            return ptr::null_mut();
        };
        // SAFETY: the layout is never zero-sized (it holds the header).
        let block = unsafe {
            if zeroed {
                alloc::alloc_zeroed(layout)
            } else {
                alloc::alloc(layout)
            }
        };
        if block.is_null() {
            return ptr::null_mut();
        }
        // SAFETY: `block` was just allocated with `layout(size)`.
        unsafe { self.link(block.cast(), size) }
    }

    /// A block of at least `size` bytes, null when Rust's allocator has none.
    pub(super) fn alloc(&mut self, size: usize) -> *mut u8 {
        self.allocate(size, false)
    }

    /// A zeroed block for `count` items of `size` bytes, null on overflow or when Rust's
    /// allocator has none.
    pub(super) fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
        match count.checked_mul(size) {
            Some(total) => self.allocate(total, true),
            None => ptr::null_mut(),
        }
    }

    /// Frees the block at `ptr`.
    ///
    /// # Safety
    /// `ptr` must come from this heap and not have been freed.
    pub(super) unsafe fn dealloc(&mut self, ptr: *mut u8) {
        // SAFETY: the caller's guarantee; the block's neighbours are live blocks of this list.
        unsafe {
            let block = header(ptr);
            let Header { prev, next, size } = block.read();
            self.repoint(prev, next, next, prev);
            alloc::dealloc(
                block.cast(),
                Layout::from_size_align_unchecked(HEADER + size, ALIGN),
            );
        }
    }

    /// The block at `ptr` resized to at least `new_size` bytes (moved, perhaps), or null
    /// (and the block unchanged) when Rust's allocator has no room.
    ///
    /// # Safety
    /// `ptr` must come from this heap and not have been freed.
    pub(super) unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        let Some(new_size) = rounded(new_size) else {
            return ptr::null_mut();
        };
        if layout(new_size).is_none() {
            return ptr::null_mut();
        }
        // SAFETY: the caller's guarantee; on success the old block is gone and its
        // neighbours are pointed at the moved one, whose header came along.
        unsafe {
            let block = header(ptr);
            let old = Layout::from_size_align_unchecked(HEADER + (*block).size, ALIGN);
            let moved = alloc::realloc(block.cast(), old, HEADER + new_size).cast::<Header>();
            if moved.is_null() {
                return ptr::null_mut();
            }
            (*moved).size = new_size;
            let Header { prev, next, .. } = moved.read();
            self.repoint(prev, next, moved, moved);
            moved.cast::<u8>().add(HEADER)
        }
    }

    /// The usable size of the block at `ptr`.
    ///
    /// # Safety
    /// `ptr` must come from a heap and not have been freed.
    pub(super) unsafe fn usable_size(ptr: *mut u8) -> usize {
        // SAFETY: the caller's guarantee.
        unsafe { (*header(ptr)).size }
    }

    /// How many blocks the heap holds.
    #[cfg(test)]
    pub(super) fn blocks(&self) -> usize {
        let mut count = 0;
        let mut at = self.head;
        while !at.is_null() {
            count += 1;
            // SAFETY: every block in the list is live.
            at = unsafe { (*at).next };
        }
        count
    }
}

impl Drop for Heap {
    /// Frees every block still held: what an abandoned runtime left.
    fn drop(&mut self) {
        while !self.head.is_null() {
            let ptr = self.head.cast::<u8>().wrapping_add(HEADER);
            // SAFETY: the head is a live block of this heap.
            unsafe { self.dealloc(ptr) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_blocks_leave_the_list_and_the_rest_go_at_drop() {
        let mut heap = Heap::new();
        let a = heap.alloc(10);
        let b = heap.calloc(4, 6);
        let c = heap.alloc(100);
        assert_eq!(heap.blocks(), 3);
        assert_eq!(unsafe { Heap::usable_size(a) }, 16, "rounded up to 8");
        assert!((0..24).all(|i| unsafe { *b.add(i) } == 0), "calloc zeroes");
        unsafe { heap.dealloc(b) };
        assert_eq!(heap.blocks(), 2, "the middle block unlinked");
        unsafe { heap.dealloc(c) };
        assert_eq!(heap.blocks(), 1, "the head unlinked");
        let _ = heap.alloc(1);
        assert_eq!(heap.blocks(), 2);
        // `a` and the last block are freed by the drop (Miri or a leak checker would see
        // them otherwise); the list stays consistent until then.
        drop(heap);
    }

    #[test]
    fn a_moved_block_keeps_its_place_and_its_bytes() {
        let mut heap = Heap::new();
        let first = heap.alloc(8);
        let middle = heap.alloc(8);
        let last = heap.alloc(8);
        unsafe {
            middle.write_bytes(7, 8);
            let grown = heap.realloc(middle, 4096);
            assert!(!grown.is_null());
            assert_eq!(Heap::usable_size(grown), 4096);
            assert!((0..8).all(|i| *grown.add(i) == 7), "the bytes moved along");
            assert_eq!(heap.blocks(), 3);
            heap.dealloc(first);
            heap.dealloc(last);
            assert_eq!(heap.blocks(), 1, "the neighbours point at the moved block");
            heap.dealloc(grown);
        }
        assert_eq!(heap.blocks(), 0);
        assert!(heap.calloc(usize::MAX, 2).is_null(), "overflow is refused");
        assert!(
            heap.alloc(usize::MAX).is_null(),
            "so is a size past the address space"
        );
    }
}
