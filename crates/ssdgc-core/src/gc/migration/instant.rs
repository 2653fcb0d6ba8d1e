//! Instant migration (`gc.migration = "instant"`): the zero-latency GC oracle (the PaGC paper's zero-GC-delay system: §IV, §VI Table II, §VII-A/B): GC is triggered exactly as
//! in the baseline and does all its bookkeeping — victims chosen, pages moved, blocks erased, wear
//! counted — but charges no time and occupies no resource. Its response times are the bound any GC
//! scheme could reach on the same drive and workload.

use crate::gc::scheme::DieContext;
use crate::gc::when::Collect;

/// Collects `plane` with no simulated time: victim after victim while it is below the threshold
/// (`Collect::Restore`), or one victim (`Collect::One`) — and, like the serial on-demand trigger,
/// more while the plane is down to its reserve of free blocks
/// ([`crate::ftl::Ftl::reserve_blocks`]): a victim full of valid pages (`random`, `fifo` may pick
/// one) gains nothing, and a write must always find a block for its write point.
pub fn collect(cx: &mut DieContext<'_>, plane: u32, collect: Collect) {
    // Bounded: each job frees a block's worth of invalid pages unless the victim was full of valid
    // data, so a plane's block count is far more rounds than a recovery needs.
    let rounds = cx.ftl().geometry().blocks_per_plane;
    for round in 0..rounds {
        let more = match collect {
            Collect::Restore => true,
            Collect::One => round == 0 || cx.ftl().free_blocks(plane) < cx.ftl().reserve_blocks(),
        };
        if !(more && cx.ftl().needs_gc(plane) && cx.collect_now(plane)) {
            break;
        }
    }
}
