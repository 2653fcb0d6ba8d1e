//! Committing pages held in the controller's DRAM buffer (TC-PaGC, PaGC paper §V-B, "on-demand
//! PaGC with cache assistance").
//!
//! TC-PaGC reads the pages a parallel GC job would move alone (SrRD-SrWR) out into the DRAM buffer
//! instead of writing them one plane at a time; "later, the FTL will commit them in the flash
//! array" with multi-plane writes. When a scheme returns
//! [`Action::Flush`](crate::gc::scheme::Action::Flush), the die commits one buffered page from each
//! of its planes that has one ([`gc::commit_buffered`]): the pages come in over the channel and one
//! (multi-plane) program writes them.

use super::{Drive, Running};
use crate::engine::EventQueue;
use crate::gc;
use crate::metrics::breakdown::Busy;

/// Scratch space for committing a die's buffered pages.
#[derive(Clone, Debug, Default)]
pub(super) struct Flushing {
    /// The planes of the die being flushed.
    planes: Vec<u32>,
}

impl Drive {
    /// Commits buffered pages of die `d` with one program operation.
    #[inline(never)]
    pub(super) fn start_flush(&mut self, ev: &mut EventQueue, d: u32) {
        let n = self.geo.planes_per_die;
        let planes = &mut self.flushing.planes;
        planes.clear();
        planes.extend(d * n..(d + 1) * n);
        match gc::commit_buffered(&mut self.ftl, planes) {
            Ok(Some(op)) => {
                let now = self.now;
                let mask = op.plane_mask(&self.geo);
                let f = op.flash_op(&self.timing, self.copyback, mask);
                let finish = self.res.reserve(d, now, &f).end;
                self.pipeline.other(d);
                self.counters.gc_time += finish - now;
                let die = &mut self.dies[d as usize];
                die.clock.switch(now, Busy::Gc { planes: mask });
                die.running = Running::Flush;
                self.schedule_die_done(ev, d, finish);
            }
            Ok(None) => self.invariant(format!("die {d}: flush with nothing buffered")),
            Err(e) => {
                self.ftl_error.keep(e);
            }
        }
    }
}
