//! Read-modify-write of partly written pages (`ftl.rmw`), as SSDsim does it (the PaGC paper's
//! simulator: `allocate_location` issues a read of the sectors a write does not cover, and the
//! write waits for it).
//!
//! A host write that covers only part of its page — of its super-page under the plane-level
//! superblock, whose pages are a die's planes together — and whose logical page holds data in
//! flash first reads the page and takes it out over the channel to the controller, which merges
//! the new sectors in; then the whole page goes back in and is programmed: `2·cmd + read`, two
//! page transfers, `program` (a host write without it: `cmd`, one transfer, `program`). ssdgc
//! moves whole pages over the channel, so the read-back takes a page's transfer where SSDsim moves
//! only the missing sectors. A page never written, or held in the DRAM buffer, needs no read. A
//! write merged into a GC move's page buffer (`gc.merge`) takes the rest of the page from the move's
//! read instead: `2·cmd + read` inside the die, the new data in (with copyback; without, the page
//! also goes out to the controller first). Each read is counted (`flash.rmw_reads`).
//!
//! Partiality is the front end's: a write request's first page is partial when the request does
//! not start on a page boundary, its last when it does not end on one. Pages written by the write
//! buffer's flushes are whole.
//!
//! When not to use it: a drive that keeps sector-level validity and writes partial pages without
//! the rest (off by default; on in the `pagc` presets, as in SSDsim).

use super::{Drive, Txn};
use crate::flash::FlashOp;

impl Drive {
    /// True when write `txn` needs a read-modify-write: `ftl.rmw` is on, the write covers part of
    /// its page, and the page holds data in flash (asked before the write remaps it).
    #[inline]
    pub(super) fn needs_rmw(&self, txn: &Txn) -> bool {
        self.rmw && txn.write && txn.partial && self.ftl.lookup(txn.lpn).is_some()
    }

    /// The operation of a read-modify-write on `planes` (one plane); `merged`: the write went into
    /// a GC move's page buffer, whose read supplies the rest of the page.
    pub(super) fn rmw_op(&mut self, merged: bool, planes: u64) -> FlashOp {
        self.counters.rmw_reads += 1;
        let t = &self.timing;
        let transfers = if merged && self.copyback { 1 } else { 2 };
        FlashOp::new(2 * t.command + t.read, transfers, t.program, planes)
    }
}
