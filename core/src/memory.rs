//! Memory that the hot paths read at random: zeroed arrays on fresh pages
//! of the operating system, faulted in when made, and on Linux aligned to
//! and backed by transparent huge pages where the kernel offers them, so
//! that a read misses the TLB far less often. The transposition table's
//! buckets and the pattern evaluation's weights live here.

/// The size of a transparent huge page on x86-64 Linux.
#[cfg(target_os = "linux")]
pub const HUGE_PAGE: usize = 2 << 20;
/// The size of a base page on x86-64 Linux.
#[cfg(target_os = "linux")]
const SMALL_PAGE: usize = 4 << 10;

/// Plain data whose all-zero bytes are a valid value.
///
/// # Safety
/// An implementing type must have no padding-sensitive invariants, no
/// pointers and no drop glue: every value of it may be all zero bytes.
pub unsafe trait Zeroable: Copy {}

// SAFETY: zero is an integer.
unsafe impl Zeroable for i16 {}

/// `len` values of `T`, zeroed, in pages of their own (see the module doc).
pub struct PageArray<T: Zeroable> {
    ptr: std::ptr::NonNull<T>,
    len: usize,
}

// SAFETY: `PageArray` owns its memory alone, like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for PageArray<T> {}
// SAFETY: shared access only reads, as for a `Box<[T]>`.
unsafe impl<T: Zeroable + Sync> Sync for PageArray<T> {}

impl<T: Zeroable> PageArray<T> {
    /// `len` (at least one) zero values.
    pub fn zeroed(len: usize) -> Self {
        assert!(len > 0 && size_of::<T>() > 0, "a page array holds at least one value of a sized type");
        let bytes = len.checked_mul(size_of::<T>()).expect("page array size overflows");
        PageArray { ptr: Self::map(bytes), len }
    }

    /// The bytes the mapping of `bytes` takes: whole base pages.
    #[cfg(target_os = "linux")]
    const fn mapped(bytes: usize) -> usize {
        bytes.next_multiple_of(SMALL_PAGE)
    }

    /// `bytes` of zeroed memory, aligned to a huge page when it spans one.
    #[cfg(target_os = "linux")]
    fn map(bytes: usize) -> std::ptr::NonNull<T> {
        let bytes = Self::mapped(bytes);
        let slack = if bytes >= HUGE_PAGE { HUGE_PAGE } else { 0 };
        let total = bytes + slack;
        // SAFETY: an anonymous private mapping of `total` bytes touches no
        // existing memory; MAP_FAILED is checked. `bytes` and `total` are
        // whole base pages, so the head before the aligned start and the
        // tail after `bytes` are whole pages inside the mapping, unmapped
        // once; the pages written to fault them in lie inside
        // `start..start + bytes`. `madvise` only changes how the kernel
        // backs the range; its failure (no huge pages) is harmless. The
        // kernel zeroes the pages, and zero is a `T` (`Zeroable`).
        unsafe {
            let raw = libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if raw == libc::MAP_FAILED {
                std::alloc::handle_alloc_error(Self::layout(bytes));
            }
            let base = raw as usize;
            let start = if slack > 0 { base.next_multiple_of(HUGE_PAGE) } else { base };
            if start > base {
                libc::munmap(raw, start - base);
            }
            let tail = base + total - (start + bytes);
            if tail > 0 {
                libc::munmap((start + bytes) as *mut libc::c_void, tail);
            }
            if slack > 0 {
                libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            }
            // Fault every page in now, so that no search (a move with 0.01 s
            // left) pays for the kernel zeroing pages on their first touch.
            for page in (start..start + bytes).step_by(SMALL_PAGE) {
                std::ptr::write_volatile(page as *mut u8, 0);
            }
            std::ptr::NonNull::new_unchecked(start as *mut T)
        }
    }

    /// `bytes` of zeroed memory from the global allocator.
    #[cfg(not(target_os = "linux"))]
    fn map(bytes: usize) -> std::ptr::NonNull<T> {
        let layout = Self::layout(bytes);
        // SAFETY: `layout` has a non-zero size; a null pointer is handed to
        // `handle_alloc_error`, which does not return. Zero is a `T`.
        unsafe {
            let ptr = std::alloc::alloc_zeroed(layout).cast::<T>();
            std::ptr::NonNull::new(ptr).unwrap_or_else(|| std::alloc::handle_alloc_error(layout))
        }
    }

    /// The layout of `bytes` of values.
    fn layout(bytes: usize) -> std::alloc::Layout {
        std::alloc::Layout::from_size_align(bytes, align_of::<T>()).expect("page array layout")
    }
}

impl<T: Zeroable> Drop for PageArray<T> {
    fn drop(&mut self) {
        let bytes = self.len * size_of::<T>();
        // SAFETY: `ptr` came from `map(bytes)`, which mapped `mapped(bytes)`
        // bytes, and is released once.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), Self::mapped(bytes));
        }
        // SAFETY: as above, allocated with this layout.
        #[cfg(not(target_os = "linux"))]
        unsafe {
            std::alloc::dealloc(self.ptr.as_ptr().cast(), Self::layout(bytes));
        }
    }
}

impl<T: Zeroable> std::ops::Deref for PageArray<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised (zeroed or written) values.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for PageArray<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_arrays_start_zeroed_and_keep_what_is_written() {
        // Under a base page, across base pages, and past a huge page
        // (aligned there), with a length that is no whole number of pages.
        for len in [1, 3_000, (2 << 20) / 2 + 777] {
            let mut a = PageArray::<i16>::zeroed(len);
            assert_eq!(a.len(), len);
            #[cfg(target_os = "linux")]
            if len * size_of::<i16>() >= HUGE_PAGE {
                assert_eq!(a.as_ptr() as usize % HUGE_PAGE, 0);
            }
            assert!(a.iter().all(|&v| v == 0));
            for (i, v) in a.iter_mut().enumerate() {
                *v = (i % 32_000) as i16;
            }
            assert!(a.iter().enumerate().all(|(i, &v)| v == (i % 32_000) as i16));
        }
    }
}
