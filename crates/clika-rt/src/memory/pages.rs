//! Host memory straight from the OS: anonymous `mmap` segments that `munmap` really returns,
//! so the process's resident set shrinks when the pool releases them.

use std::ptr::{self, NonNull};
use std::sync::OnceLock;

use super::raw::{RawAllocator, RawSegment};

/// Segments at least this large ask for transparent huge pages.
const HUGE_PAGE: usize = 2 << 20;

/// Reserves page-aligned host memory with `mmap`; segments of 2 MiB or more are advised to
/// use transparent huge pages (`MADV_HUGEPAGE`), which makes big tensors cheaper to fault
/// in and faster to stream.
#[derive(Debug, Default, Clone, Copy)]
pub struct PageAllocator;

fn page_size() -> usize {
    static PAGE: OnceLock<usize> = OnceLock::new();
    *PAGE.get_or_init(|| {
        // SAFETY: `sysconf` only reads a system constant.
        let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(p)
            .ok()
            .filter(|p| p.is_power_of_two())
            .unwrap_or(4096)
    })
}

/// Unmaps `len` bytes at `addr`, ignoring failure (the range is ours and page-aligned).
///
/// # Safety
/// `addr..addr + len` must be a page-aligned range of a mapping this module created, unused
/// by anything else from now on.
unsafe fn unmap(addr: *mut u8, len: usize) {
    if len > 0 {
        // SAFETY: forwarded from the caller.
        unsafe { libc::munmap(addr.cast(), len) };
    }
}

// SAFETY: (1) the mapping is readable and writable for `len >= nbytes` bytes and aligned by
// the trimming below; (2) anonymous private pages are zero-filled by the kernel; (3) a fresh
// mapping is used by nothing else; (4) every failure returns `None`.
unsafe impl RawAllocator for PageAllocator {
    fn reserve(&self, nbytes: usize, align: usize) -> Option<RawSegment> {
        let page = page_size();
        if nbytes == 0 || !align.is_power_of_two() {
            return None;
        }
        let align = align.max(page);
        let len = nbytes.checked_next_multiple_of(page)?;
        let slack = align - page; // over-map so an `align`-aligned start exists inside
        let map_len = len.checked_add(slack)?;
        // SAFETY: a new anonymous private mapping with no address hint touches no existing
        // memory.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let base = base.cast::<u8>();
        let head = (base as usize).next_multiple_of(align) - base as usize;
        // SAFETY: `head <= slack < map_len`, so the result stays inside the mapping.
        let start = unsafe { base.add(head) };
        // SAFETY: both trimmed ranges are page-aligned parts of the mapping just created,
        // outside `start..start + len`, and nothing else knows about them.
        unsafe {
            unmap(base, head);
            unmap(start.add(len), slack - head);
        }
        if len >= HUGE_PAGE {
            // SAFETY: advice on our own mapping; failure (THP disabled) is harmless.
            unsafe { libc::madvise(start.cast(), len, libc::MADV_HUGEPAGE) };
        }
        Some(RawSegment {
            ptr: NonNull::new(start)?,
            zeroed: true,
        })
    }

    unsafe fn release(&self, ptr: NonNull<u8>, nbytes: usize, _align: usize) {
        let len = nbytes.next_multiple_of(page_size());
        // SAFETY: the caller passes back a live segment from `reserve`, whose mapping spans
        // exactly `len` page-aligned bytes at `ptr`, and promises nothing uses it again.
        unsafe { unmap(ptr.as_ptr(), len) };
    }
}
