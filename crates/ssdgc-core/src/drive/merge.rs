//! Merging host reads into GC moves (preemptible-GC paper §III-B).
//!
//! A host read of a page that a GC job on the same die still has to move is served from the move's
//! page register: the job moves that page now, out of order — read into the register, the page
//! goes out over the channel to the host, and the register is then programmed into the GC write
//! point (without copyback the page also comes back in over the channel) — and the read is done
//! when its transfer ends, with no flash read of its own. The read completes with a
//! [`TxnDone`](crate::engine::Event::TxnDone) event while the die goes on programming. Schemes ask
//! for it with [`Action::Merge`](crate::gc::scheme::Action::Merge).

use super::{Drive, PageDone, Running, Txn};
use crate::engine::{Event, EventQueue};
use crate::flash::FlashOp;
use crate::gc;
use crate::metrics::breakdown::Busy;
use crate::units::SimTime;

/// Merged reads of a drive.
#[derive(Clone, Debug, Default)]
pub(super) struct Merging {
    /// Merged reads whose page is still on its way to the host.
    in_flight: u32,
    /// Host reads served from a GC register so far.
    reads: u64,
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
                self.ftl_error.get_or_insert(e);
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
        let plane = self.geo.plane_in_die(txn.plane);
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

    /// A merged read (transaction `t`) has delivered its page at `now`.
    pub fn on_txn_done(&mut self, now: SimTime, t: u32) -> PageDone {
        self.now = now;
        self.counters.events += 1;
        let Txn {
            tag,
            lpn,
            write,
            bd,
            ..
        } = self.txns[t as usize];
        self.merging.in_flight -= 1;
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
