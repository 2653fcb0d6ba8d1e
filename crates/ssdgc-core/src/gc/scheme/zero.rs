//! The zero-latency GC oracle (the PaGC paper's zero-GC-delay system: §IV, §VI Table II, §VII-A/B): GC is triggered exactly as
//! in the baseline and does all its bookkeeping — victims chosen, pages moved, blocks erased, wear
//! counted — but charges no time and occupies no resource. Its response times are the bound any GC
//! scheme could reach on the same drive and workload.

use super::{Action, DieContext, GcScheme};

/// GC that takes no time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Zero;

impl GcScheme for Zero {
    fn next(&mut self, cx: &mut DieContext<'_>) -> Action {
        let Some(&head) = cx.queue().front() else {
            return Action::Idle;
        };
        if head.write {
            // Bounded: each job frees a block's worth of invalid pages unless the victim was full of
            // valid data, so a plane's block count is far more rounds than a recovery needs.
            let limit = cx.ftl().geometry().blocks_per_plane;
            for _ in 0..limit {
                if !(cx.ftl().needs_gc(head.plane) && cx.collect_now(head.plane)) {
                    break;
                }
            }
        }
        Action::Host(0)
    }
}
