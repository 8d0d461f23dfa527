//! What libFuzzer runs: [`targets`] (shared with the stable run in the
//! server's test suite) under an allocator that counts, so that an input
//! that makes a parser hold more memory than its route allows fails like
//! a panic does, with the input saved: one allocation over the target's
//! limit aborts at once, and the most held at any moment while the input
//! was handled is checked after. The tables a parser builds once (word
//! lists, the catalog, the runtime) are built before the first count, by
//! running the target over its seeds. libFuzzer's own `-malloc_limit_mb`
//! needs a sanitizer's allocator hooks; this needs none, so the targets
//! run without AddressSanitizer (all the code is safe Rust) at twice the
//! speed.

pub mod targets;

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, with the bytes held now and the most held since
/// the last [`reset`].
pub struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// The running target's memory limit (0: none yet).
static LIMIT: AtomicUsize = AtomicUsize::new(0);

/// One allocation over the limit: abort (an allocator must not unwind),
/// which libFuzzer reports as a crash and saves the input of.
fn over_limit(size: usize) {
    let limit = LIMIT.load(Ordering::Relaxed);
    // A panic's report (its backtrace symbolized) may take more: the
    // panic is what is reported then.
    if limit > 0 && size > limit && !std::thread::panicking() {
        // Unbuffered and without formatting: nothing allocates here.
        let _ =
            std::io::stderr().write_all(b"fuzz: one allocation over the target's memory limit\n");
        std::process::abort();
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        over_limit(layout.size());
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        over_limit(new_size);
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Both blocks exist for a moment: counted as the larger plus the smaller.
            let now = HELD.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(now, Ordering::Relaxed);
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs target `name` on `data` and fails when it held more than the
/// target's memory limit at any moment.
pub fn fuzz(name: &str, data: &[u8]) {
    let target = targets::TARGETS
        .iter()
        .find(|t| t.name == name)
        .expect("a known target");
    static WARM: std::sync::Once = std::sync::Once::new();
    WARM.call_once(|| warm(target));
    LIMIT.store(target.memory, Ordering::Relaxed);
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    (target.run)(data);
    let held = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    // FUZZ_PRINT_HELD=1: each input's peak, to measure one input's memory
    // (`fuzz/target/…/multipart some-input`).
    static PRINT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *PRINT.get_or_init(|| std::env::var_os("FUZZ_PRINT_HELD").is_some()) {
        eprintln!("{name}: {} bytes in, {held} bytes held at most", data.len());
    }
    assert!(
        held <= target.memory,
        "{name}: {held} bytes held at once for a {}-byte input (limit {})",
        data.len(),
        target.memory
    );
}

/// The target run over its seeds, uncounted: what it builds once is built.
fn warm(target: &targets::Target) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("seeds")
        .join(target.name);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if let Ok(data) = std::fs::read(entry.path()) {
            (target.run)(&data);
        }
    }
}
