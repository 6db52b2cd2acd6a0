//! The Qango search must stay allocation-free per node: its state is `Copy`
//! and move lists are reused per ply, so a search allocates a bounded number
//! of times however many nodes it visits. Counted with a global allocator
//! (only on the test's own thread, so the harness does not disturb it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use arena_engine::search::{choose_move, SearchLimits};
use arena_rules::games::{Position, Variant};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed on unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn qango_search_allocates_a_bounded_number_of_times_not_per_node() {
    let mut pos = Position::new(Variant::by_id("qango7").unwrap());
    for m in ["d4", "c3", "e5"] {
        pos.play_str(m).unwrap();
    }
    for depth in [3, 5] {
        let before = ALLOCATIONS.with(Cell::get);
        let report = choose_move(
            &pos,
            SearchLimits {
                max_depth: depth,
                time: None,
            },
            1,
        )
        .unwrap();
        let allocations = ALLOCATIONS.with(Cell::get) - before;
        // The table, the per-ply lists growing to size, the root's moves.
        assert!(
            (1..=64).contains(&allocations),
            "depth {depth}: {allocations} allocations for {} nodes",
            report.nodes
        );
        if depth == 5 {
            assert!(report.nodes > 10_000, "only {} nodes", report.nodes);
        }
    }
}
