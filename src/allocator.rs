//! The global allocator: mimalloc, asked for memory by size alone wherever the size
//! already gives the alignment Rust asks for.
//!
//! The `mimalloc` crate's allocator sends every request through mimalloc's aligned entry
//! points, whose checks cost about three times what `mi_malloc` does; nearly every
//! allocation of a run (strings, vectors, tree nodes) asks for no more alignment than
//! its size and mimalloc's natural alignment give. This is the rule the standard
//! library's `System` allocator applies to `malloc`.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment mimalloc gives every block of this size or more (`MI_MAX_ALIGN_SIZE`);
/// a smaller block is aligned to the largest power of two its size is a multiple of,
/// at least 8 bytes (its blocks are multiples of a pointer's size).
const NATURAL_ALIGN: usize = 16;

/// Whether a block of `size` bytes from `mi_malloc` is aligned to `align`.
#[inline]
fn natural(align: usize, size: usize) -> bool {
    align <= NATURAL_ALIGN && align <= size
}

/// mimalloc, with the aligned entry points kept for the layouts that need them.
pub struct Mimalloc;

// SAFETY: every method hands the request to mimalloc, which meets `GlobalAlloc`'s
// contract: the plain entry points only where `natural` says the size alone gives the
// layout's alignment, the aligned ones otherwise; blocks from either are freed by
// `mi_free` and resized by either `mi_realloc` (same rule) or `mi_realloc_aligned`.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: a size and an alignment, as mimalloc asks.
        unsafe {
            if natural(layout.align(), layout.size()) {
                libmimalloc_sys::mi_malloc(layout.size()).cast()
            } else {
                libmimalloc_sys::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if natural(layout.align(), layout.size()) {
                libmimalloc_sys::mi_zalloc(layout.size()).cast()
            } else {
                libmimalloc_sys::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from mimalloc.
        unsafe { libmimalloc_sys::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from mimalloc; the new size with the layout's alignment.
        unsafe {
            if natural(layout.align(), new_size) {
                libmimalloc_sys::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                libmimalloc_sys::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align())
                    .cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_has_its_layouts_alignment_and_keeps_its_bytes() {
        let allocator = Mimalloc;
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [
                1usize, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 33, 100, 1000, 70_000,
            ] {
                let layout = Layout::from_size_align(size, align).unwrap();
                let aligned = |p: *mut u8| !p.is_null() && (p as usize).is_multiple_of(align);
                // SAFETY: layouts of non-zero size; each block is used within its size
                // and freed once, with its layout, by the allocator that gave it.
                unsafe {
                    let mut block = allocator.alloc(layout);
                    assert!(aligned(block), "size {size}, align {align}");
                    std::ptr::write_bytes(block, 0xA5, size);
                    for new_size in [size / 2 + 1, size * 3] {
                        let resized = allocator.realloc(block, layout, new_size);
                        assert!(aligned(resized), "{size} -> {new_size}, align {align}");
                        assert!((0..size.min(new_size)).all(|i| *resized.add(i) == 0xA5));
                        std::ptr::write_bytes(resized, 0xA5, new_size);
                        let new_layout = Layout::from_size_align(new_size, align).unwrap();
                        block = allocator.realloc(resized, new_layout, size);
                        assert!(aligned(block), "{new_size} -> {size}, align {align}");
                        assert!((0..size.min(new_size)).all(|i| *block.add(i) == 0xA5));
                        std::ptr::write_bytes(block, 0xA5, size);
                    }
                    allocator.dealloc(block, layout);
                    let zeroed = allocator.alloc_zeroed(layout);
                    assert!(aligned(zeroed));
                    assert!((0..size).all(|i| *zeroed.add(i) == 0));
                    allocator.dealloc(zeroed, layout);
                }
            }
        }
    }
}
