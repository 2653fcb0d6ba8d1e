//! The flash resource model: the one place where an operation reserves what it occupies.
//!
//! An operation is described by a [`FlashOp`]: die time before its channel transfers (command
//! cycles, array reads), the pages it moves over the die's channel, die time after them (command
//! cycles, array programs), and the planes (and page registers in each) it works on. [`Resources`]
//! reserves an operation started at `now` on a die in one step ([`Resources::reserve`]):
//!
//! - the **channel** bus of the die carries one transfer at a time: the transfers start at
//!   `xs = max(now + before, channel_free)`, back to back, and `channel_free` moves to their end
//!   (reserved in dispatch order, no gap filling); an operation with no transfer leaves the channel
//!   alone;
//! - the **die** executes one operation at a time and is busy until `xs + transfers × xfer + after`
//!   (or `now + before + after` with no transfer): it holds the data in its register while its
//!   transfer waits for the channel;
//! - the **planes** it works on, and their page registers (one per plane today), are held for the
//!   same span; a command on one plane blocks the die's other planes unless it is a multi-plane
//!   command (which names every plane it works on, and is legal only as [`check_multiplane`] says).
//!
//! Host reads and writes, reads served from a GC move's register (merged), every GC operation
//! (the GC mechanism's `GcOp::flash_op`: moves, multi-plane moves, buffer reads, commits, erases) and stretches of die
//! time (suspension) go through it. Later work slots in as variants of the description: N page
//! registers per plane (the parallel-page-migration architecture: [`FlashOp::registers`] above 1,
//! checked against [`Resources::registers_per_plane`]) and multi-block erase (IPPBE:
//! [`FlashOp::erase_blocks`] above 1 for one erase latency).

use crate::flash::{Geometry, Timing};
use crate::units::{Ppn, SimTime};

/// What an operation occupies and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlashOp {
    /// Die time before the channel transfers: command cycles and array reads.
    pub before: SimTime,
    /// Pages over the die's channel, back to back once the channel is free.
    pub transfers: u32,
    /// Die time after the transfers: command cycles and array programs.
    pub after: SimTime,
    /// The planes of the die it works on (bit `i` = plane `i` of the die).
    pub planes: u64,
    /// Page registers it holds in each of those planes.
    pub registers: u8,
    /// Blocks erased in each of those planes for one erase latency (0 for reads and programs).
    pub erase_blocks: u8,
}

impl FlashOp {
    /// `before`, then `transfers` pages over the channel, then `after`, on `planes`, holding one
    /// register per plane.
    #[inline]
    pub const fn new(before: SimTime, transfers: u32, after: SimTime, planes: u64) -> FlashOp {
        FlashOp {
            before,
            transfers,
            after,
            planes,
            registers: 1,
            erase_blocks: 0,
        }
    }

    /// Die time only (suspending, resuming what is left of an operation).
    #[inline]
    pub const fn die_time(t: SimTime, planes: u64) -> FlashOp {
        FlashOp::new(t, 0, 0, planes)
    }

    /// A host page read: `cmd + read` on the die, then the page out over the channel (the die holds
    /// it in its register until the transfer ends).
    #[inline]
    pub fn host_read(t: &Timing, planes: u64) -> FlashOp {
        FlashOp::new(t.command + t.read, 1, 0, planes)
    }

    /// A host page write: `cmd`, the page in over the channel, then `program`.
    #[inline]
    pub fn host_write(t: &Timing, planes: u64) -> FlashOp {
        FlashOp::new(t.command, 1, t.program, planes)
    }

    /// A host read served from the register of a GC move of its page (merging): `cmd + read`, the
    /// page out to the host, then (without copyback) back in for the GC write point, then
    /// `cmd + program`. The read is delivered when the first transfer ends.
    #[inline]
    pub fn merged_read(t: &Timing, copyback: bool, planes: u64) -> FlashOp {
        FlashOp::new(
            t.command + t.read,
            if copyback { 1 } else { 2 },
            t.command + t.program,
            planes,
        )
    }

    /// Total time on the die when the channel is free at once.
    pub fn duration(&self, transfer: SimTime) -> SimTime {
        self.before + self.transfers as SimTime * transfer + self.after
    }
}

/// Where an operation landed in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reservation {
    /// When the die is ready for the channel (`now + before`).
    pub ready: SimTime,
    /// When its first transfer starts (`ready` when it has none).
    pub transfer_start: SimTime,
    /// When its last transfer ends (`ready` when it has none).
    pub transfer_end: SimTime,
    /// When the operation ends and the die is free.
    pub end: SimTime,
}

impl Reservation {
    /// Time the die waited for the channel.
    #[inline]
    pub fn channel_wait(&self) -> SimTime {
        self.transfer_start - self.ready
    }
}

/// The channels, dies and planes of one drive, and when each is next free.
#[derive(Clone, Debug)]
pub struct Resources {
    transfer: SimTime,
    dies_per_channel: u32,
    /// Per channel: the instant its bus is free.
    channel_free: Vec<SimTime>,
    /// Per die: when the operation it runs ends (`SimTime::MAX` when it runs none).
    die_until: Vec<SimTime>,
    /// Per die: the planes its operation holds.
    die_planes: Vec<u64>,
}

impl Resources {
    /// Page registers per plane.
    pub const fn registers_per_plane() -> u8 {
        1
    }

    /// Every resource of a drive of geometry `geo`, free, with one page over a channel taking
    /// `transfer`.
    pub fn new(geo: &Geometry, transfer: SimTime) -> Resources {
        Resources {
            transfer,
            dies_per_channel: geo.chips_per_channel * geo.dies_per_chip,
            channel_free: vec![0; geo.channels as usize],
            die_until: vec![SimTime::MAX; geo.dies as usize],
            die_planes: vec![0; geo.dies as usize],
        }
    }

    /// Reserves `op` started at `now` on die `die`: its channel transfers on the die's channel, the
    /// die and the planes until it ends. Returns where it landed.
    #[inline]
    pub fn reserve(&mut self, die: u32, now: SimTime, op: &FlashOp) -> Reservation {
        debug_assert!(op.registers <= Self::registers_per_plane());
        let ready = now + op.before;
        let (xs, xe) = if op.transfers == 0 {
            (ready, ready)
        } else {
            let ch = &mut self.channel_free[(die / self.dies_per_channel) as usize];
            let xs = ready.max(*ch);
            let xe = xs + op.transfers as SimTime * self.transfer;
            *ch = xe;
            (xs, xe)
        };
        let end = xe + op.after;
        self.die_until[die as usize] = end;
        self.die_planes[die as usize] = op.planes;
        Reservation {
            ready,
            transfer_start: xs,
            transfer_end: xe,
            end,
        }
    }

    /// Extends or shortens what die `die` is holding to end at `end` with no channel use (an
    /// operation stopped early, or a suspension).
    #[inline]
    pub fn hold_until(&mut self, die: u32, end: SimTime, planes: u64) {
        self.die_until[die as usize] = end;
        self.die_planes[die as usize] = planes;
    }

    /// When the operation die `die` runs ends (`SimTime::MAX` when it runs none).
    #[inline]
    pub fn die_until(&self, die: u32) -> SimTime {
        self.die_until[die as usize]
    }

    /// When the channel of die `die` is free (the end of its last reserved transfer).
    #[inline]
    pub fn channel_free(&self, die: u32) -> SimTime {
        self.channel_free[(die / self.dies_per_channel) as usize]
    }

    /// The planes of die `die` held by its operation (0 when it runs none).
    pub fn die_planes(&self, die: u32) -> u64 {
        self.die_planes[die as usize]
    }

    /// Die `die` is free.
    #[inline]
    pub fn release(&mut self, die: u32) {
        self.die_until[die as usize] = SimTime::MAX;
        self.die_planes[die as usize] = 0;
    }
}

/// Checks that pages can be the targets of one multi-plane command: at least two, all on one die,
/// each on a different plane, and — when `same_offset` (reads and programs) — all at the same page
/// offset; blocks may differ. Multi-plane erase passes block-base pages with `same_offset = false`.
pub fn check_multiplane(geo: &Geometry, ppns: &[Ppn], same_offset: bool) -> Result<(), String> {
    if ppns.len() < 2 {
        return Err(format!(
            "a multi-plane command needs at least two pages, got {}",
            ppns.len()
        ));
    }
    if ppns.len() > geo.planes_per_die as usize {
        return Err(format!(
            "a multi-plane command on {} pages exceeds the die's {} planes",
            ppns.len(),
            geo.planes_per_die
        ));
    }
    let first = geo.addr(ppns[0]);
    let die = geo.die_of_plane(first.plane);
    let mut seen = 0u64;
    for &p in ppns {
        let a = geo.addr(p);
        if geo.die_of_plane(a.plane) != die {
            return Err(format!(
                "page {p} is on die {}, not {die}",
                geo.die_of_plane(a.plane)
            ));
        }
        let bit = 1u64 << geo.plane_in_die(a.plane);
        if seen & bit != 0 {
            return Err(format!("plane {} appears twice", a.plane));
        }
        seen |= bit;
        if same_offset && a.page != first.page {
            return Err(format!(
                "page offsets differ ({} and {}): a multi-plane read or program needs one offset",
                first.page, a.page
            ));
        }
    }
    Ok(())
}
