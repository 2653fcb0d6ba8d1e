//! Merging host commands into GC moves (preemptible-GC paper §III-B, Fig. 5, Table III).
//!
//! A host read of a page that a GC job on the same die still has to move is served from the move's
//! page register: the job moves that page now, out of order — read into the register, the page
//! goes out over the channel to the host, and the register is then programmed into the GC write
//! point (without copyback the page also comes back in over the channel) — and the read is done
//! when its transfer ends, with no flash read of its own. The read completes with a
//! [`TxnDone`](crate::engine::Event::TxnDone) event while the die goes on programming.
//!
//! A host write of such a page is merged "by updating data in the page buffers": its data comes in
//! over the channel into the move's page buffer and is programmed once, at the GC write point
//! where the move would have put the page ([`crate::gc::merge_write`]), as a host page (counted in
//! `flash.host_pages_written`, not as a GC move); the move is not made, and there is no read of
//! the old copy. Its timing is a host write's (`cmd`, the page in, `program`), pipelined with a GC
//! move that just ended like any host write. Without merging, a write to a page the job still has
//! to move is programmed at the host write point and the move is skipped (a cancelled move,
//! `gc.cancelled_moves`).
//!
//! Schemes ask for both with [`Action::Merge`](crate::gc::scheme::Action::Merge); each merged
//! command is counted (`schemes.merge.merged_reads`, `merged_writes`: Table IX's `M_r`, `M_w`).

use super::{Drive, PageDone, Running, Txn};
use crate::engine::{Event, EventQueue};
use crate::flash::FlashOp;
use crate::gc;
use crate::metrics::breakdown::Busy;
use crate::units::{Lpn, SimTime};

/// Merged reads of a drive.
#[derive(Clone, Debug, Default)]
pub(super) struct Merging {
    /// Merged reads whose page is still on its way to the host.
    in_flight: u32,
    /// Host reads served from a GC register so far.
    reads: u64,
    /// Host writes merged into a GC move's page buffer so far.
    writes: u64,
}

impl Merging {
    /// Merged reads whose page is still on its way.
    pub(super) fn in_flight(&self) -> u32 {
        self.in_flight
    }

    /// Host reads served from a GC register so far.
    pub(super) fn reads(&self) -> u64 {
        self.reads
    }

    /// Host writes merged into a GC move's page buffer so far.
    pub(super) fn writes(&self) -> u64 {
        self.writes
    }
}

impl Drive {
    /// Serves host read `t` from the register of GC job `j` on die `d`. False when the page is
    /// not one the job still has to move (the read is then an ordinary one).
    #[inline(never)]
    pub(super) fn start_merge(&mut self, ev: &mut EventQueue, d: u32, t: u32, j: usize) -> bool {
        let txn = self.txns[t as usize];
        let Some(src) = self.ftl.lookup(txn.lpn) else {
            return false;
        };
        let Some(job) = self.dies[d as usize].jobs.get_mut(j) else {
            return false;
        };
        let op = match gc::dispatch_page(&mut self.ftl, job, src) {
            Ok(Some(op)) => op,
            Ok(None) => return false,
            Err(e) => {
                self.ftl_error.keep(e);
                return true;
            }
        };
        let now = self.now;
        let planes = op.plane_mask(&self.geo);
        let r = self.res.reserve(
            d,
            now,
            &FlashOp::merged_read(&self.timing, self.copyback, planes),
        );
        self.pipeline.other(d);
        let delivered: SimTime = r.transfer_start + self.timing.transfer;
        self.counters.host_pages_read += 1;
        self.merging.reads += 1;
        self.counters.gc_time += r.end - now;
        let plane = u32::from(txn.in_die);
        let die = &mut self.dies[d as usize];
        let mut bd = die.clock.waited(now, plane, &txn.snap);
        bd.cngc += r.channel_wait();
        bd.st = delivered - now - r.channel_wait();
        die.clock.switch(now, Busy::Gc { planes });
        die.running = Running::Gc {
            job: j,
            op,
            hold: false,
        };
        self.txns[t as usize].bd = bd;
        self.merging.in_flight += 1;
        ev.schedule(
            delivered,
            Event::TxnDone {
                drive: self.id,
                txn: t,
            },
        );
        self.schedule_die_done(ev, d, r.end);
        true
    }

    /// The FTL side of host write `lpn` (of plane `plane`) on die `d`, with the cache hint for the
    /// write of `ahead` served next (`Ftl::host_write_ahead`): merged into job `merge`'s move of the page
    /// when the job still has to move it, else an ordinary write (counting a cancelled move when a
    /// job of the die still had to move the page). Whether it merged; `None` when the FTL failed
    /// (the error is kept).
    #[inline(always)]
    pub(super) fn host_write(
        &mut self,
        d: u32,
        plane: u32,
        lpn: Lpn,
        merge: Option<usize>,
        ahead: Option<Lpn>,
    ) -> Option<bool> {
        // Only a die with a GC job in progress can have a move to merge into or cancel.
        if !self.dies[d as usize].jobs.is_empty() {
            match self.write_beside_gc(d, lpn, merge) {
                Ok(true) => return Some(true),
                Ok(false) => {}
                Err(e) => {
                    self.ftl_error.keep(e);
                    return None;
                }
            }
        }
        if let Err(e) = self.ftl.host_write_ahead(plane, lpn, ahead) {
            self.ftl_error.keep(e);
            return None;
        }
        Some(false)
    }

    /// [`Self::host_write`] on a die with a GC job in progress, before the ordinary write: merges
    /// the write into job `merge`'s move when it can (true), else counts a cancelled move when a
    /// job still had to move the page.
    #[inline(never)]
    fn write_beside_gc(
        &mut self,
        d: u32,
        lpn: Lpn,
        merge: Option<usize>,
    ) -> Result<bool, crate::ftl::FtlError> {
        let Some(old) = self.ftl.lookup(lpn) else {
            return Ok(false);
        };
        if let Some(job) = merge.and_then(|j| self.dies[d as usize].jobs.get(j)) {
            if gc::merge_write(&mut self.ftl, job, old)?.is_some() {
                self.merging.writes += 1;
                return Ok(true);
            }
        }
        let a = self.geo.addr(old);
        if self.dies[d as usize]
            .jobs
            .iter()
            .any(|j| j.collects(a.plane, a.block))
        {
            self.counters.cancelled_moves += 1;
        }
        Ok(false)
    }

    /// A merged read, or a transaction that joined a multi-plane command (transaction `t`), has
    /// delivered its page at `now`.
    pub fn on_txn_done(&mut self, now: SimTime, t: u32) -> PageDone {
        self.now = now;
        self.counters.events += 1;
        let Txn {
            tag,
            lpn,
            write,
            bd,
            joined,
            ..
        } = self.txns[t as usize];
        if joined {
            self.multiplane.delivered();
        } else {
            self.merging.in_flight -= 1;
        }
        self.free_txns.push(t);
        self.progress.host_done(self.ftl.counters.blocks_erased);
        PageDone {
            tag,
            lpn,
            write,
            bd,
        }
    }
}
