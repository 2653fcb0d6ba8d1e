//! Host multi-plane commands (`ftl.multiplane`): queued host reads, or writes, to different planes
//! of a die issued as one multi-plane command — the PaGC paper's §II-B ("multiple reads, programs
//! and erases in multiple planes of the same die in a completely parallel fashion", at the same page
//! offset in every plane, blocks may differ, "with the cost of only one basic operation"), which
//! SSDsim's two-plane commands use for host I/O (`advanced command`, `greed MPW command` in its
//! parameter file) and which the PaGC paper's PCWD allocation and superblock comparison lean on.
//!
//! When a die starts a host transaction its scheme chose (the *leader*) and the die has no GC job in
//! progress and no operation suspended, the drive looks along the die's queue, oldest first, for
//! transactions of the same type on the die's other planes (one per plane):
//!
//! - **reads** whose page lies at the leader's page offset join: one `cmd + read`, then every
//!   page out over the channel;
//! - **writes** to planes not below the GC trigger join when their plane's host write point is at
//!   the leader's offset (`aligned`), or wherever it is (`greedy`): the planes behind then skip
//!   pages to the furthest write point's offset (SSDsim's `make_same_level`, counted in
//!   `flash.host_multiplane.skipped_pages`); then `cmd`, every page in over the channel, one
//!   `program`.
//!
//! A write that needs a read-modify-write (`ftl.rmw`), a write merged into a GC move, and a write
//! pipelined with a GC move stay single-plane. Every multi-plane command is checked by
//! [`check_multiplane`] and reserved through the resource model as one [`FlashOp`] over its
//! planes. The leader completes with the die's `DieDone`; the others with a
//! [`TxnDone`](crate::engine::Event::TxnDone) each at the same instant.
//!
//! When not to use it: a drive whose firmware issues host I/O plane by plane (the default, `off`).

use super::{Drive, Running};
use crate::config::HostMultiplane;
use crate::engine::{Event, EventQueue};
use crate::flash::{check_multiplane, FlashOp};
use crate::ftl::Stream;
use crate::metrics::breakdown::Busy;
use crate::units::{Ppn, SimTime};

/// Host multi-plane commands of a drive: the setting, a scratch list per die and the counters.
#[derive(Clone, Debug)]
pub(super) struct Multiplane {
    mode: HostMultiplane,
    /// The transactions that joined the command running on each die (the leader excluded).
    joined: Vec<Vec<u32>>,
    /// Joined transactions whose `TxnDone` is pending.
    in_flight: u32,
    /// Dies whose kick waits for the rest of a request's pages (`Drive::end_batch`), and a flag
    /// per die.
    deferred: Vec<u32>,
    is_deferred: Vec<bool>,
    /// Multi-plane host commands issued, reads and writes.
    reads: u64,
    writes: u64,
    /// Host pages they carried (leaders included).
    pages: u64,
    /// Pages left unprogrammed to bring host write points to one offset (`greedy`).
    skipped: u64,
}

/// What the report shows of host multi-plane commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MultiplaneCounters {
    pub reads: u64,
    pub writes: u64,
    pub pages: u64,
    pub skipped_pages: u64,
}

impl Multiplane {
    pub(super) fn new(mode: HostMultiplane, dies: u32, planes_per_die: u32) -> Self {
        let mode = if planes_per_die < 2 {
            HostMultiplane::Off
        } else {
            mode
        };
        Multiplane {
            mode,
            joined: vec![
                Vec::new();
                if mode == HostMultiplane::Off {
                    0
                } else {
                    dies as usize
                }
            ],
            in_flight: 0,
            deferred: Vec::new(),
            is_deferred: vec![
                false;
                if mode == HostMultiplane::Off {
                    0
                } else {
                    dies as usize
                }
            ],
            reads: 0,
            writes: 0,
            pages: 0,
            skipped: 0,
        }
    }

    /// True when host commands may be multi-plane.
    #[inline]
    pub(super) fn on(&self) -> bool {
        self.mode != HostMultiplane::Off
    }

    /// Die `d` is to be kicked at the end of the batch.
    #[inline]
    pub(super) fn defer_kick(&mut self, d: u32) {
        if !self.is_deferred[d as usize] {
            self.is_deferred[d as usize] = true;
            self.deferred.push(d);
        }
    }

    /// True when a die waits for the end of a batch.
    #[inline]
    pub(super) fn has_deferred(&self) -> bool {
        !self.deferred.is_empty()
    }

    /// The `i`-th die waiting for the end of the batch (in the order its first page was queued).
    #[inline]
    pub(super) fn deferred(&self, i: usize) -> Option<u32> {
        self.deferred.get(i).copied()
    }

    /// The batch's dies have all been kicked.
    pub(super) fn clear_deferred(&mut self) {
        for &d in &self.deferred {
            self.is_deferred[d as usize] = false;
        }
        self.deferred.clear();
    }

    /// Joined transactions still to deliver.
    pub(super) fn in_flight(&self) -> u32 {
        self.in_flight
    }

    /// A joined transaction was delivered.
    pub(super) fn delivered(&mut self) {
        self.in_flight -= 1;
    }

    pub(super) fn counters(&self) -> MultiplaneCounters {
        MultiplaneCounters {
            reads: self.reads,
            writes: self.writes,
            pages: self.pages,
            skipped_pages: self.skipped,
        }
    }
}

impl Drive {
    /// Looks along die `d`'s queue for host transactions that can join leader `t` (on plane index
    /// `leader_plane` of the die) in one multi-plane command, takes them out of the queue and
    /// lists them in `multiplane.joined[d]`. For writes (`greedy`) the write points of the planes
    /// behind are brought to one offset. Returns the command's planes (bit mask), the leader's
    /// included.
    pub(super) fn gather(&mut self, d: u32, t: u32, leader_plane: u32) -> u64 {
        let mut mask = 1u64 << leader_plane;
        let die = &self.dies[d as usize];
        if !die.jobs.is_empty() || self.suspension.holds(d) {
            return mask;
        }
        let lead = self.txns[t as usize];
        let max = self.geo.planes_per_die as usize;
        // The leader's page offset: where its page lies (a read) or where its plane's host write
        // point stands (a write).
        let offset_of = |drive: &Drive, plane: u32, lpn, write: bool| -> Option<u32> {
            if write {
                Some(drive.ftl.write_offset(plane, Stream::Host))
            } else {
                drive.ftl.lookup(lpn).map(|p| drive.geo.addr(p).page)
            }
        };
        let Some(target) = offset_of(self, lead.plane, lead.lpn, lead.write) else {
            return mask;
        };
        let greedy = self.multiplane.mode == HostMultiplane::Greedy;
        // Planes none of whose queued writes can join: what rules a write out but its
        // read-modify-write depends on its plane alone (the plane's GC being due, its write
        // point's offset), so the first write of a plane that fails it rules out the plane, and
        // the scan ends once every plane has joined or been ruled out. Without this a deep queue
        // of writes that cannot join was scanned whole for every command (quadratic in the queue).
        let all = if max >= 64 {
            u64::MAX
        } else {
            (1u64 << max) - 1
        };
        let mut ruled_out = 0u64;
        let mut picked: Vec<usize> = Vec::new();
        for (i, &crate::gc::scheme::QueuedTxn { id, .. }) in die.queue.iter().enumerate() {
            if picked.len() + 1 == max || (lead.write && (mask | ruled_out) == all) {
                break;
            }
            let c = self.txns[id as usize];
            let bit = 1u64 << c.in_die;
            if c.write != lead.write || (mask | ruled_out) & bit != 0 {
                continue;
            }
            if c.write && self.ftl.needs_gc(c.plane) {
                ruled_out |= bit;
                continue;
            }
            if c.write && !greedy && offset_of(self, c.plane, c.lpn, true) != Some(target) {
                ruled_out |= bit;
                continue;
            }
            if c.write && self.needs_rmw(&c) {
                continue;
            }
            let Some(off) = offset_of(self, c.plane, c.lpn, c.write) else {
                continue;
            };
            if off != target && !(c.write && greedy) {
                continue;
            }
            mask |= bit;
            picked.push(i);
        }
        if picked.is_empty() {
            return mask;
        }
        let die = &mut self.dies[d as usize];
        let joined = &mut self.multiplane.joined[d as usize];
        joined.clear();
        // Out of the queue, the later first so that the earlier indices hold.
        for &i in picked.iter().rev() {
            joined.push(die.queue.remove(i).expect("a queued transaction").id);
        }
        joined.reverse();
        if lead.write && greedy {
            self.align_host_writes(lead.plane, d);
        }
        mask
    }

    /// Brings the host write points of the leader's plane and of the joined writes' planes to the
    /// furthest one's offset by skipping pages in the planes behind.
    #[cold]
    fn align_host_writes(&mut self, lead_plane: u32, d: u32) {
        let planes: Vec<u32> = std::iter::once(lead_plane)
            .chain(
                self.multiplane.joined[d as usize]
                    .iter()
                    .map(|&id| self.txns[id as usize].plane),
            )
            .collect();
        let target = planes
            .iter()
            .map(|&p| self.ftl.write_offset(p, Stream::Host))
            .max()
            .unwrap_or(0);
        for &p in &planes {
            while self.ftl.write_offset(p, Stream::Host) < target {
                if let Err(e) = self.ftl.skip_page(p, Stream::Host) {
                    self.ftl_error.keep(e);
                    return;
                }
                self.multiplane.skipped += 1;
            }
        }
    }

    /// The FTL writes of the joined transactions of die `d` (the leader's is done): each at its
    /// plane's host write point. Returns the pages written, or `None` when the FTL failed.
    pub(super) fn write_joined(&mut self, d: u32) -> Option<Vec<Ppn>> {
        let ids = std::mem::take(&mut self.multiplane.joined[d as usize]);
        let mut pages = Vec::with_capacity(ids.len());
        for &id in &ids {
            match self.ftl.host_write(self.txns[id as usize].lpn) {
                Ok(p) => pages.push(p),
                Err(e) => {
                    self.ftl_error.keep(e);
                    self.multiplane.joined[d as usize] = ids;
                    return None;
                }
            }
        }
        self.multiplane.joined[d as usize] = ids;
        Some(pages)
    }

    /// The pages of read `lpn` (the leader) and of the reads joined on die `d`, in that order.
    pub(super) fn read_pages(&self, d: u32, lpn: crate::units::Lpn) -> Vec<Ppn> {
        std::iter::once(lpn)
            .chain(
                self.multiplane.joined[d as usize]
                    .iter()
                    .map(|&id| self.txns[id as usize].lpn),
            )
            .map(|l| {
                self.ftl
                    .lookup(l)
                    .expect("a queued read of a page in flash")
            })
            .collect()
    }

    /// Starts the multi-plane command of leader `t` and the transactions joined on die `d`, over
    /// `planes`; `leader_page` is the leader's page (written or read), `joined_pages` the others'
    /// (for the legality check). Schedules the joined transactions' completions and the die's.
    pub(super) fn start_multiplane(
        &mut self,
        ev: &mut EventQueue,
        d: u32,
        t: u32,
        planes: u64,
        pages: &[Ppn],
    ) {
        let now = self.now;
        let lead = self.txns[t as usize];
        let n = pages.len() as u32;
        if let Err(e) = check_multiplane(&self.geo, pages, true) {
            panic!("illegal host multi-plane command: {e}");
        }
        let tm = &self.timing;
        let op = if lead.write {
            self.multiplane.writes += 1;
            FlashOp::new(tm.command, n, tm.program, planes)
        } else {
            self.multiplane.reads += 1;
            self.counters.host_pages_read += u64::from(n);
            FlashOp::new(tm.command + tm.read, n, 0, planes)
        };
        self.multiplane.pages += u64::from(n);
        let r = self.res.reserve(d, now, &op);
        if lead.write {
            self.pipeline.other(d);
        } else {
            self.pipeline.host_read(d, r.ready, r.end);
        }
        let channel_wait = r.channel_wait();
        let service: SimTime = r.end - now - channel_wait;
        let ids = std::mem::take(&mut self.multiplane.joined[d as usize]);
        let die = &mut self.dies[d as usize];
        let mut late = false;
        for &id in std::iter::once(&t).chain(&ids) {
            let txn = &mut self.txns[id as usize];
            let plane = u32::from(txn.in_die);
            let mut bd = die.clock.waited(now, plane, &txn.snap);
            if id == t {
                late = bd.delayed_by_gc();
            }
            bd.cngc += channel_wait;
            bd.st = service;
            txn.bd = bd;
            txn.joined = id != t;
        }
        die.clock.switch(now, Busy::HostPlanes { planes, late });
        die.running = Running::Host(t);
        for &id in &ids {
            self.multiplane.in_flight += 1;
            ev.schedule(
                r.end,
                Event::TxnDone {
                    drive: self.id,
                    txn: id,
                },
            );
        }
        self.multiplane.joined[d as usize] = ids;
        self.multiplane.joined[d as usize].clear();
        self.schedule_die_done(ev, d, r.end);
    }
}
