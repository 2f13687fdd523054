//! Here is a phase that allocates and frees the same big blocks over and over (the model's forward
//! passes), give me a heap that keeps them: [`RetainedHeap`].
//!
//! glibc serves every block above its mmap threshold (dynamic, at most 32 MiB) with a fresh `mmap`
//! and returns it to the kernel on `free`; the model's attention scores are 100 MB a layer at 32
//! sequences of 256 tokens, so each forward pass mapped, faulted in (zeroed) and unmapped them again,
//! and embedding spent about 40 % of its CPU time in the kernel. Measured on 2 cores, 384 texts of
//! 256 tokens (`aidocs-index embed`): 46.1 s (user 47.9 s, system 30.5 s) → 26.4 s (user 46.0 s,
//! system 1.7 s), the same vectors bit for bit, peak RSS 730 → 719 MB. Elsewhere (the export) the
//! process keeps glibc's behaviour. Other platforms and allocators: a no-op.

/// While alive, freed blocks of any size stay in the heap for the next allocation; dropped, the
/// thresholds are what glibc's dynamic ones grow to (32 MiB, trimming above 64 MiB) and the heap's
/// free top is returned to the kernel.
pub struct RetainedHeap(());

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use std::ffi::c_int;

    // <malloc.h>
    const M_TRIM_THRESHOLD: c_int = -1;
    const M_MMAP_THRESHOLD: c_int = -3;

    extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
        fn malloc_trim(pad: usize) -> c_int;
    }

    pub(super) fn set(mmap_threshold: c_int, trim_threshold: c_int) {
        // SAFETY: mallopt only sets allocator parameters; valid at any time, from any thread.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, mmap_threshold);
            mallopt(M_TRIM_THRESHOLD, trim_threshold);
        }
    }

    pub(super) fn trim() {
        // SAFETY: malloc_trim releases free memory at the heap's top; valid at any time.
        unsafe {
            malloc_trim(0);
        }
    }
}

impl RetainedHeap {
    pub fn new() -> Self {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        glibc::set(1 << 30, 1 << 30);
        RetainedHeap(())
    }
}

/// Gives the heap's free pages back to the kernel, in every arena. Call it after a phase that freed
/// much: blocks freed on the worker threads (pages parsed on every core) sit in those threads'
/// arenas, where the main thread's next allocations never reuse them, so the next phase's peak
/// would stand on top of the last one's (issue 25: the 100k build's peak). A no-op elsewhere.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    glibc::trim();
}

impl Default for RetainedHeap {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for RetainedHeap {
    fn drop(&mut self) {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            glibc::set(32 << 20, 64 << 20);
            glibc::trim();
        }
    }
}
