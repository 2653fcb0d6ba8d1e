//! Delayed GC (DGC) — Jung, Prabhakar, Kandemir, "Taking Garbage Collection Overheads off the
//! Critical Path in SSDs", Middleware 2012 (`agc-dgc-idle-time-gc.txt`), §5.2: the on-demand GCs
//! AGC could not prevent are deferred to idle periods.
//!
//! - **Update block replacement.** When a host write reaches its die and finds its GC due
//!   ([`crate::ftl::FtlView::write_needs_gc`]), DGC serves it without collecting: a write that
//!   needs a fresh block for its write point ([`crate::ftl::FtlView::write_opens_block`]) takes a
//!   free block — a *delay block* — as its new update block, and its plane goes on the DGC list.
//!   The delay blocks are the free blocks a plane holds once its GC is due: `gc.dgc_reserve` of
//!   them ([`crate::config::Config::dgc_delay_blocks`]), never the last two a plane needs to
//!   collect at all (with a GC threshold of `T` blocks, at most `T − 3`). A write that still fits the open block is served with no block taken.
//! - **Retroactive block compaction.** When a die has nothing queued (an idle period of the die,
//!   whether or not the rest of the device is busy), it collects the planes of its own on the DGC
//!   list, fewest free blocks first, until they are back at the GC threshold, which returns the
//!   delay blocks to the free pool. With `gc.preempt = "ops"` (the `dgc` preset) the jobs are
//!   incremental: a request arriving at the die goes before the job's next operation.
//! - **The reserve used up.** A write that needs a block when its plane has no delay block left
//!   collects on demand, held, one victim at a time until a delay block is free again (counted as
//!   a fallback), as §6.1 describes for DGC alone ("as soon as the available free blocks run out,
//!   DGC starts performing on-demand GCs"). Nothing is lost: the mapping is the FTL's throughout,
//!   and a delay block is an ordinary block of the plane.
//!
//! In the paper DGC "preferentially reads and writes pages to the delay block" of a logical block
//! during retroactive compaction (a log-block FTL's merge); in the page-mapped FTL a retroactive
//! job is an ordinary GC job of the plane, its victim chosen by the victim policy.
//!
//! When not to use it alone: under sustained writes with no idle time it only postpones GC until
//! the reserve is gone (§6.1, Fig. 9c); AGC supplies the free blocks it needs (`agc-dgc`).

use super::agc_dgc::algorithm1;
use super::jobs::{Books, Kind};
use super::Trigger;
use crate::config::Config;
use crate::gc::compose::Axes;
use crate::gc::scheme::{Action, DieContext, QueuedTxn, SchemeStats};

/// DGC's two deciders: update block replacement and retroactive compaction, with the DGC list.
#[derive(Clone, Debug)]
pub struct Delay {
    /// Free blocks at or below which a plane has no delay block left.
    floor: u32,
    pages_per_block: u32,
    /// The DGC list: per plane, whether a GC of it was deferred and not yet done.
    owed: Vec<bool>,
}

impl Delay {
    /// DGC for the drive of `cfg`.
    pub fn new(cfg: &Config) -> Delay {
        let planes = crate::flash::Geometry::new(cfg).planes;
        Delay {
            // Deferring at `f` free blocks leaves `f − 1`: at most the delay blocks below the
            // first GC-due count (threshold − 1), and never below the reserve.
            floor: (cfg.gc_threshold_blocks() - 1)
                .saturating_sub(cfg.dgc_delay_blocks())
                .max(cfg.reserve_blocks()),
            pages_per_block: cfg.geometry.pages_per_block,
            owed: vec![false; planes as usize],
        }
    }

    /// Free blocks at or below which a plane has no delay block left.
    pub fn floor(&self) -> u32 {
        self.floor
    }

    /// Planes on the DGC list.
    pub fn listed(&self) -> usize {
        self.owed.iter().filter(|&&o| o).count()
    }

    /// Update block replacement for `head`, a write whose GC is due: true when it may go without
    /// GC (taking a delay block if it needs a block), and its plane is on the DGC list; false when
    /// the plane's delay blocks are used up.
    pub fn defer(&mut self, cx: &DieContext<'_>, head: &QueuedTxn, books: &mut Books) -> bool {
        let ftl = cx.ftl();
        if ftl.write_opens_block(head.lpn) {
            if ftl.free_blocks(head.plane) <= self.floor {
                return false;
            }
            books.stats.delayed += 1;
        }
        self.owed[head.plane as usize] = true;
        true
    }

    /// True when a write to `plane` whose GC is due would have to wait for it.
    pub fn exhausted(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool {
        cx.ftl().write_opens_block(t.lpn) && cx.ftl().free_blocks(t.plane) <= self.floor
    }

    /// Retroactive block compaction on a die with nothing queued: a job in the die's plane on
    /// the DGC list with the fewest free blocks (planes back at the GC threshold leave the list).
    pub fn retroactive(
        &mut self,
        cx: &mut DieContext<'_>,
        gc: &mut Axes,
        books: &mut Books,
    ) -> Option<Action> {
        let die = cx.die as usize;
        if books.is_quiet(die) {
            return None;
        }
        let mut best: Option<(u32, u32)> = None;
        for p in cx.planes() {
            if !self.owed[p as usize] {
                continue;
            }
            if !cx.ftl().needs_gc(p) {
                self.owed[p as usize] = false;
                continue;
            }
            let f = cx.ftl().free_blocks(p);
            if best.is_none_or(|(bf, _)| f < bf) {
                best = Some((f, p));
            }
        }
        let (_, plane) = best?;
        let j = gc.start(cx, plane)?;
        if super::agc::gains_nothing(cx, j, self.pages_per_block) {
            cx.abandon_job(j);
            books.hush(die);
            return None;
        }
        books.started(die, Kind::Retroactive);
        Some(gc.run(j))
    }
}

/// The `dgc` trigger: DGC alone (Algorithm 1 without AGC).
#[derive(Clone, Debug)]
pub struct Dgc {
    delay: Delay,
    books: Books,
}

impl Dgc {
    /// DGC for the drive of `cfg`.
    pub fn new(cfg: &Config) -> Dgc {
        Dgc {
            delay: Delay::new(cfg),
            books: Books::default(),
        }
    }
}

impl Trigger for Dgc {
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action {
        algorithm1(cx, gc, &mut self.books, false, None, Some(&mut self.delay))
    }

    fn may_preempt(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool {
        !(t.write && cx.ftl().write_needs_gc(t.lpn) && self.delay.exhausted(cx, t))
    }

    fn stats(&self) -> SchemeStats {
        self.books.scheme_stats()
    }

    fn idle_gc(&self) -> super::jobs::IdleGcStats {
        self.books.stats
    }
}
