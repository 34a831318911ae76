//! What a `load` request costs in memory: the host reads the line into fields without a
//! JSON tree of the whole request and replays the record once, so the peak of live heap
//! bytes while answering is a small multiple of the line, checked with a global allocator
//! that tracks live bytes.
//!
//! One `#[test]`: the counters are global.

// As in `no_alloc.rs`: a `#[global_allocator]` needs `unsafe impl GlobalAlloc`; this
// package denies unsafe code and only these test files allow it. The unsafe here only
// forwards to `System`, unchanged.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use game_host::Host;
use serde_json::json;

/// Tracks the bytes allocated and not yet freed, and their highest value.
struct Tracking;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrank(by: usize) {
    LIVE.fetch_sub(by, Ordering::Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract holds exactly as it does for `System`; the bookkeeping touches
// only atomics, which do not allocate.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size);
        shrank(layout.size());
        // SAFETY: forwarded unchanged; `ptr` came from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        // SAFETY: forwarded unchanged; `ptr` came from this allocator, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Tracking = Tracking;

#[test]
fn a_load_line_costs_a_small_multiple_of_its_size() {
    // A record of 60,000 presence changes (a client that kept reconnecting).
    let mut host = Host::default();
    let create = json!({"op": "create", "game": "yut", "players": ["a", "b"], "seed": 1,
        "options": {"turnSeconds": null}});
    assert_eq!(
        serde_json::to_value(host.handle_line(&create.to_string())).unwrap()["ok"],
        true
    );
    for i in 0..60_000u64 {
        let line = json!({"op": "presence", "match": "m1", "player": "a",
            "connected": i % 2 == 1, "now": i});
        host.handle_line(&line.to_string());
    }
    let record = serde_json::to_value(host.handle_line(r#"{"op":"record","match":"m1"}"#)).unwrap()
        ["record"]
        .clone();
    assert_eq!(record["entries"].as_array().unwrap().len(), 60_000);
    let line = json!({"op": "load", "record": record}).to_string();
    drop(record);
    assert!(line.len() > 3_000_000, "{} bytes", line.len());

    let mut fresh = Host::default();
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let reply = fresh.handle_line(&line);
    let peak = PEAK.load(Ordering::Relaxed) - base;
    assert!(reply.ok, "{reply:?}");
    let ratio = peak as f64 / line.len() as f64;
    println!(
        "load of {} bytes: peak {} bytes live ({ratio:.1}x)",
        line.len(),
        peak
    );
    assert!(
        ratio < 8.0,
        "a load line of {} bytes peaked at {peak} bytes",
        line.len()
    );
}
