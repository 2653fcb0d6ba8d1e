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
//! - the **planes** it works on, and their page registers, are held for the same span; a command on
//!   one plane blocks the die's other planes unless it is a multi-plane command (which names every
//!   plane it works on, and is legal only as [`check_multiplane`] says).
//!
//! Host reads and writes, reads served from a GC move's register (merged), every GC operation
//! (the GC mechanism's `GcOp::flash_op`: moves, waves of parallel moves, multi-plane moves, buffer
//! reads, commits, erases) and stretches of die time (suspension) go through it.
//!
//! **N page registers per plane** (the parallel-page-migration paper, Zhu, Han, Son, IEEE Access
//! 2020, §IV-B, Fig. 3: each die has N register sets and each plane N data registers;
//! `geometry.registers_per_plane`, default 1). An operation with [`FlashOp::registers`] = `n` > 1
//! keeps `n` pages of one plane in flight at once, one per register; its `before`, `transfers` and
//! `after` then describe *one* page, and [`Resources::reserve`] combines the `n` pages by what
//! they share ([`RegisterSharing`], `geometry.register_sharing`):
//!
//! | sharing | combined `before` | combined `after` | transfers |
//! |---|---|---|---|
//! | `none` (the paper's idealised architecture: N register sets per die, interleaving "negligible", §IV-B) | `before` | `after` | `n × transfers` |
//! | `command` (the die's command and address cycles are issued one page at a time) | `n × cmd_before + (before − cmd_before)` | `n × cmd_after + (after − cmd_after)` | `n × transfers` |
//! | `array` (the plane's array reads or programs one page at a time: the conservative reading) | `n × before` | `n × after` | `n × transfers` |
//!
//! where `cmd_before` and `cmd_after` are the command cycles inside `before` and `after`. The
//! channel carries one page at a time whatever the sharing. An operation may hold at most
//! `registers_per_plane` registers (asserted).
//!
//! **Multi-block erase** (IPPBE, the parallel-page-migration paper's ref. \[15\], §II-F, §V-C):
//! [`FlashOp::erase_blocks`] = `k` blocks of one plane erased by one command for one erase latency.
//!
//! **What a GC job holds** ([`GcScope`], `gc.blocking`): every operation occupies its die while it
//! runs; between the operations of a job held to its erase, the job holds its planes only
//! (`plane`: the die may serve host work of its other planes), its die (`die`, the default), or its
//! die's whole channel (`channel`: no other die of the channel starts an operation while a die of
//! it runs GC, [`Resources::hold_channel`]). The drive's scheduler asks [`Resources::blocked`]
//! before a die starts anything.

use crate::flash::{Geometry, Timing};
use crate::keyword::keyword_enum;
use crate::units::{Ppn, SimTime};

/// Most page registers a plane may have (`geometry.registers_per_plane`).
pub const MAX_REGISTERS: u8 = 8;

keyword_enum!(
    /// What the pages in flight on the registers of one plane share (`geometry.register_sharing`).
    RegisterSharing, "geometry.register_sharing", {
        /// Nothing: `n` pages take as long as one (the paper's idealised architecture, §IV-B).
        None = "none",
        /// The die's command and address cycles: issued one page at a time.
        Command = "command",
        /// The plane's array: it reads or programs one page at a time (no gain from registers).
        Array = "array",
    }
);

keyword_enum!(
    /// What a GC job holds between its operations (`gc.blocking`).
    GcScope, "gc.blocking", {
        /// Its planes: the die serves host work of its other planes between the job's operations.
        Plane = "plane",
        /// Its die, from the first move to the erase.
        Die = "die",
        /// Its die's channel: no other die of the channel starts an operation meanwhile.
        Channel = "channel",
    }
);

/// The resource model's settings beyond the geometry and the transfer time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceParams {
    /// Page registers per plane (1..=[`MAX_REGISTERS`]).
    pub registers_per_plane: u8,
    /// What the pages in flight on one plane's registers share.
    pub sharing: RegisterSharing,
    /// What a GC job holds between its operations.
    pub scope: GcScope,
}

impl Default for ResourceParams {
    /// One register per plane; GC holds its die (the model before these settings existed).
    fn default() -> Self {
        ResourceParams {
            registers_per_plane: 1,
            sharing: RegisterSharing::Array,
            scope: GcScope::Die,
        }
    }
}

/// What an operation occupies and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlashOp {
    /// Die time before the channel transfers: command cycles and array reads (of one page when
    /// `registers` > 1).
    pub before: SimTime,
    /// Pages over the die's channel, back to back once the channel is free (of one page's when
    /// `registers` > 1).
    pub transfers: u32,
    /// Die time after the transfers: command cycles and array programs (of one page when
    /// `registers` > 1).
    pub after: SimTime,
    /// The planes of the die it works on (bit `i` = plane `i` of the die).
    pub planes: u64,
    /// Page registers it holds in each of those planes: with more than one, that many pages are in
    /// flight at once, each as `before`, `transfers`, `after` describe, combined by the registers'
    /// sharing ([`RegisterSharing`]).
    pub registers: u8,
    /// Blocks erased in each of those planes for one erase latency (0 for reads and programs).
    pub erase_blocks: u8,
    /// The command cycles inside `before` (read only to combine several registers).
    pub cmd_before: SimTime,
    /// The command cycles inside `after` (read only to combine several registers).
    pub cmd_after: SimTime,
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
            cmd_before: 0,
            cmd_after: 0,
        }
    }

    /// `n` pages of one plane in flight at once on `n` registers, each needing `page` (whose
    /// command cycles before and after its transfers are `cmd_before` and `cmd_after`).
    #[inline]
    pub const fn in_flight(
        n: u8,
        page: FlashOp,
        cmd_before: SimTime,
        cmd_after: SimTime,
    ) -> FlashOp {
        FlashOp {
            registers: n,
            cmd_before,
            cmd_after,
            ..page
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

    /// The operation as one register's worth: its `registers` pages combined by `sharing` (the
    /// table of the module docs); itself when it holds at most one register.
    #[inline]
    pub fn combined(&self, sharing: RegisterSharing) -> FlashOp {
        if self.registers <= 1 {
            return *self;
        }
        let n = self.registers as SimTime;
        let (before, after) = match sharing {
            RegisterSharing::None => (self.before, self.after),
            RegisterSharing::Command => (
                self.before + (n - 1) * self.cmd_before,
                self.after + (n - 1) * self.cmd_after,
            ),
            RegisterSharing::Array => (n * self.before, n * self.after),
        };
        FlashOp {
            before,
            transfers: self.transfers * self.registers as u32,
            after,
            ..*self
        }
    }

    /// Total time on the die when the channel is free at once (one register's worth; see
    /// [`FlashOp::combined`] for several).
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

/// No die holds the channel for GC.
const NO_DIE: u32 = u32::MAX;

/// The channels, dies and planes of one drive, and when each is next free.
#[derive(Clone, Debug)]
pub struct Resources {
    transfer: SimTime,
    dies_per_channel: u32,
    params: ResourceParams,
    /// Per channel: the instant its bus is free.
    channel_free: Vec<SimTime>,
    /// Per channel: the die running GC that holds it (`gc.blocking = "channel"`), or `NO_DIE`.
    channel_gc: Vec<u32>,
    /// Per die: what its operation holds, until when, and its channel (one entry per die: one
    /// bounds check).
    dies: Vec<DieHold>,
}

/// What a die's operation holds, and the die's channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DieHold {
    /// When the operation ends (`SimTime::MAX` when it runs none).
    until: SimTime,
    /// The planes it holds.
    planes: u64,
    /// The die's channel (found once, not divided out for every transfer).
    channel: u32,
}

impl DieHold {
    /// The die holds `planes` until `until`.
    #[inline(always)]
    fn hold(&mut self, until: SimTime, planes: u64) {
        self.until = until;
        self.planes = planes;
    }
}

impl Resources {
    /// Every resource of a drive of geometry `geo`, free, with one page over a channel taking
    /// `transfer`; one register per plane, and GC holding its die ([`ResourceParams::default`]).
    pub fn new(geo: &Geometry, transfer: SimTime) -> Resources {
        let dies_per_channel = geo.chips_per_channel * geo.dies_per_chip;
        Resources {
            transfer,
            dies_per_channel,
            params: ResourceParams::default(),
            channel_free: vec![0; geo.channels as usize],
            channel_gc: vec![NO_DIE; geo.channels as usize],
            dies: (0..geo.dies)
                .map(|d| DieHold {
                    until: SimTime::MAX,
                    planes: 0,
                    channel: geo.channel_of_die(d),
                })
                .collect(),
        }
    }

    /// The same resources with `params` (registers per plane, their sharing, GC's scope).
    pub fn with_params(mut self, params: ResourceParams) -> Resources {
        assert!(
            (1..=MAX_REGISTERS).contains(&params.registers_per_plane),
            "registers per plane out of range"
        );
        self.params = params;
        self
    }

    /// The resource model's settings.
    pub fn params(&self) -> ResourceParams {
        self.params
    }

    /// Page registers per plane.
    pub fn registers_per_plane(&self) -> u8 {
        self.params.registers_per_plane
    }

    /// Reserves `op` started at `now` on die `die`: its channel transfers on the die's channel, the
    /// die and the planes until it ends (its registers' pages combined as
    /// [`FlashOp::combined`] says). Returns where it landed.
    #[inline]
    pub fn reserve(&mut self, die: u32, now: SimTime, op: &FlashOp) -> Reservation {
        if op.registers > 1 {
            return self.reserve_in_flight(die, now, op);
        }
        self.book(die, now, op)
    }

    /// Reserves `op` `n` times back to back on die `die` from `now`, each starting when the one
    /// before ends, as `n` calls of [`Resources::reserve`] would. Returns when the last ends (`now`
    /// when `n` is 0).
    #[inline]
    pub fn reserve_repeated(&mut self, die: u32, now: SimTime, op: &FlashOp, n: u32) -> SimTime {
        if n == 0 {
            return now;
        }
        if op.transfers != 0 || op.registers > 1 {
            let mut t = now;
            for _ in 0..n {
                t = self.reserve(die, t, op).end;
            }
            return t;
        }
        // No channel: each one holds the die and its planes for `before + after`.
        let end = now + SimTime::from(n) * (op.before + op.after);
        self.dies[die as usize].hold(end, op.planes);
        end
    }

    /// [`Resources::reserve`] of several pages in flight on one plane's registers.
    #[cold]
    #[inline(never)]
    fn reserve_in_flight(&mut self, die: u32, now: SimTime, op: &FlashOp) -> Reservation {
        assert!(
            op.registers <= self.params.registers_per_plane,
            "an operation holds {} registers of a plane that has {}",
            op.registers,
            self.params.registers_per_plane
        );
        let one = op.combined(self.params.sharing);
        self.book(die, now, &one)
    }

    /// Books `op`, one register's worth, on the die's channel, the die and its planes.
    #[inline(always)]
    fn book(&mut self, die: u32, now: SimTime, op: &FlashOp) -> Reservation {
        let ready = now + op.before;
        let hold = &mut self.dies[die as usize];
        let (xs, xe) = if op.transfers == 0 {
            (ready, ready)
        } else {
            let ch = &mut self.channel_free[hold.channel as usize];
            let xs = ready.max(*ch);
            let xe = xs + op.transfers as SimTime * self.transfer;
            *ch = xe;
            (xs, xe)
        };
        let end = xe + op.after;
        hold.hold(end, op.planes);
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
        self.dies[die as usize].hold(end, planes);
    }

    /// When the operation die `die` runs ends (`SimTime::MAX` when it runs none).
    #[inline]
    pub fn die_until(&self, die: u32) -> SimTime {
        self.dies[die as usize].until
    }

    /// When the channel of die `die` is free (the end of its last reserved transfer).
    #[inline]
    pub fn channel_free(&self, die: u32) -> SimTime {
        self.channel_free[self.dies[die as usize].channel as usize]
    }

    /// The planes of die `die` held by its operation (0 when it runs none).
    pub fn die_planes(&self, die: u32) -> u64 {
        self.dies[die as usize].planes
    }

    /// Die `die` is free.
    #[inline]
    pub fn release(&mut self, die: u32) {
        self.dies[die as usize].hold(SimTime::MAX, 0);
    }

    /// Die `die` starts GC: with `gc.blocking = "channel"` it holds its channel, so that no other
    /// die of the channel starts an operation until [`Resources::release_channel`].
    #[inline]
    pub fn hold_channel(&mut self, die: u32) {
        if self.params.scope == GcScope::Channel {
            let ch = self.channel_of(die);
            let c = &mut self.channel_gc[ch as usize];
            debug_assert!(
                *c == NO_DIE || *c == die,
                "two dies hold one channel for GC"
            );
            *c = die;
        }
    }

    /// Die `die` has stopped running GC: the dies of its channel that it held back, if it held the
    /// channel (empty otherwise).
    #[inline]
    pub fn release_channel(&mut self, die: u32) -> std::ops::Range<u32> {
        if self.params.scope != GcScope::Channel {
            return 0..0;
        }
        let ch = self.channel_of(die);
        let c = &mut self.channel_gc[ch as usize];
        if *c != die {
            return 0..0;
        }
        *c = NO_DIE;
        ch * self.dies_per_channel..(ch + 1) * self.dies_per_channel
    }

    /// True when die `die` may not start an operation: another die of its channel runs GC and
    /// holds the channel (`gc.blocking = "channel"`).
    #[inline]
    pub fn blocked(&self, die: u32) -> bool {
        if self.params.scope != GcScope::Channel {
            return false;
        }
        let c = self.channel_gc[self.channel_of(die) as usize];
        c != NO_DIE && c != die
    }

    /// The channel of die `die`, kept in its entry.
    #[inline(always)]
    fn channel_of(&self, die: u32) -> u32 {
        self.dies[die as usize].channel
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_reservation_is_the_reservations_one_after_another() {
        let geo = Geometry::new(crate::flash::test_params());
        let ops = [
            FlashOp::new(70, 0, 900, 0b1),
            FlashOp::new(50, 2, 300, 0b11),
            FlashOp::new(0, 0, 0, 0b10),
        ];
        for op in ops {
            for n in [0u32, 1, 7, 64] {
                let mut one = Resources::new(&geo, 40);
                let mut repeated = Resources::new(&geo, 40);
                let mut t = 1_000;
                for _ in 0..n {
                    t = one.reserve(1, t, &op).end;
                }
                assert_eq!(repeated.reserve_repeated(1, 1_000, &op, n), t);
                assert_eq!(one.die_until(1), repeated.die_until(1));
                assert_eq!(one.dies, repeated.dies);
                assert_eq!(one.channel_free, repeated.channel_free);
            }
        }
    }
}
