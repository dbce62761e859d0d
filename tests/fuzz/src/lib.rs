//! What the fuzz targets share: running a target body from `kingme_shared::fuzzing` (or, for the
//! key file reader, `kingme_client::fuzzing`; for the configuration file, `kingme_server::fuzzing`)
//! by name,
//! and, for the frame decoder, a check that no single allocation exceeds what the frame limit
//! allows. The bodies themselves live in `kingme-shared` so that the regression test replays
//! saved inputs through the same code; only the allocation check needs a global allocator, and so
//! lives here, outside the workspace (whose crates deny `unsafe`).

use kingme_shared::fuzzing;
use kingme_shared::protocol::{ClientMessage, MAX_CLIENT_FRAME, MAX_SERVER_FRAME, ServerMessage};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, remembering the largest single request since the last reset.
struct Tracking;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the only addition is an
// atomic maximum of the requested sizes.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: forwarded with the caller's arguments.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// `KINGME_FUZZ_ALLOCATION_LIMIT` (bytes), if set, replaces the frame limit in the allocation
/// check: for measuring the rest of the decoder while a known oversize allocation awaits its fix.
fn allocation_limit() -> Option<usize> {
    static LIMIT: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("KINGME_FUZZ_ALLOCATION_LIMIT")
            .ok()
            .and_then(|text| text.parse().ok())
    })
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

/// Runs the target `name` on the fuzzer's bytes.
///
/// # Panics
/// When the target's properties fail, and for the frame decoder when one allocation was larger
/// than the frame limit of the direction decoded plus what buffering the input itself takes.
pub fn run(name: &str, data: &[u8]) {
    let Some(body) = fuzzing::target(name)
        .or_else(|| kingme_client::fuzzing::target(name))
        .or_else(|| kingme_server::fuzzing::target(name))
    else {
        panic!(
            "no fuzz target {name} in kingme_shared::fuzzing, kingme_client::fuzzing or \
             kingme_server::fuzzing"
        );
    };
    LARGEST.store(0, Ordering::Relaxed);
    body(data);
    if name == "frame_decoder" {
        // Even first byte: a server reading a client; odd: a client reading a server.
        let frame_limit = match data.first() {
            Some(byte) if byte % 2 == 1 => MAX_SERVER_FRAME,
            _ => MAX_CLIENT_FRAME,
        };
        let limit = allocation_limit().unwrap_or(frame_limit);
        // The input is buffered (a buffer may double as it grows), and a decoded message can
        // take as much again as its frame; nothing may depend on what a length field claims.
        // The target also keeps every decoded message to compare whole and split reads: at most
        // one per five input bytes (a prefix and a byte), in a list that may double as it grows.
        let message_size = size_of::<ClientMessage>().max(size_of::<ServerMessage>());
        let kept_messages = 2 * (data.len() / 5 + 1) * message_size;
        let allowed = 2 * data.len() + 2 * limit + kept_messages + 1024;
        let largest = LARGEST.load(Ordering::Relaxed);
        assert!(
            largest <= allowed,
            "one allocation of {largest} bytes for {} input bytes; at most {allowed} expected",
            data.len()
        );
    }
}
