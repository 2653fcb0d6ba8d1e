//! One drive: its flash array, its FTL, its GC scheme, its per-die queues and scheduling, and the
//! timing of its flash operations. Several drives coexist in one simulation (an array); each owns
//! all of its state.
//!
//! The front end (`host/frontend.rs`) talks to a drive through a narrow interface:
//!
//! - [`Drive::queue`] hands in a page transaction (a read or write of one logical page of the
//!   drive) with an opaque tag, and kicks the die that holds the page;
//! - [`Drive::on_die_done`] handles the end of the operation running on a die
//!   ([`crate::engine::Event::DieDone`]) and says what finished: a host page ([`Finished::Page`]:
//!   the front end accounts for it) or something else; when the die is free the front end then
//!   lets it start its next operation with [`Drive::kick`] — after accounting for the page, which
//!   may queue more work, exactly in that order;
//! - [`Drive::on_txn_done`] hands back a host read served from a GC move's register
//!   ([`crate::engine::Event::TxnDone`]);
//! - [`Drive::begin_piece`] / [`Drive::end_piece`] tell the drive how many host requests have work
//!   outstanding on it, which its scheme sees as device idleness;
//! - [`Drive::counters`], [`Drive::ftl`] and the die clocks feed the report.
//!
//! Inside, each die runs one command at a time; whenever a die is free its GC scheme decides
//! whether it serves a queued host transaction or the next operation of a GC job
//! ([`crate::gc::scheme`], in `schedule.rs`). Every operation reserves the channel, die and planes
//! it occupies through the resource model ([`crate::flash::resources`]). The capabilities some
//! schemes add live in their own modules: suspension and resumption of GC operations
//! (`suspend.rs`), merging of host reads and writes into GC moves (`merge.rs`), pipelining of host
//! commands with GC moves (`pipeline.rs`) and committing TC-PaGC's buffered pages (`flush.rs`).

/// The context a GC scheme decides in for die `$d` (its queue and jobs `$die`) of drive
/// `$drive`: one place that lends the drive's parts to the scheme, borrowed field by field so that
/// the scheme itself (`$drive.scheme`) stays free to be called.
macro_rules! die_context {
    ($drive:ident, $die:expr, $d:expr, $now:expr, $woken:expr) => {
        $crate::gc::scheme::DieContext {
            now: $now,
            die: $d,
            device_idle: $drive.pieces == 0,
            woken: $woken,
            view: &$drive.view,
            wake: None,
            ftl: &mut $drive.ftl,
            rng: &mut $drive.rng,
            queue: &$die.queue,
            jobs: &mut $die.jobs,
            error: &mut $drive.ftl_error,
        }
    };
}

mod flush;
mod merge;
mod multiplane;
mod pipeline;
mod progress;
mod rmw;
mod schedule;
mod scope;
pub mod suspend;
mod wake;

use std::collections::VecDeque;

pub use multiplane::MultiplaneCounters;
pub use suspend::MAX_SUSPENDS;

use crate::ageing::{self as precondition, Precondition};
use crate::config::Config;
use crate::engine::{ErrorFlag, ErrorSlot, Event, EventQueue};
use crate::flash::{GcScope, Geometry, Resources, Timing};
use crate::ftl::{Ftl, FtlError, FtlSnapshot};
use crate::gc::compose::Composed;
use crate::gc::scheme::{self, Command, DriveView, GcScheme, QueuedTxn, SchemeStats};
use crate::gc::{self, GcJob, GcOp};
use crate::metrics::breakdown::{Breakdown, Busy, DieClock, Snapshot};
use crate::metrics::idle::IdlePeriods;
use crate::rng::{drive_stream, rng_for, streams, SimRng};
use crate::sim::SimError;
use crate::units::{Lpn, SimTime};

/// A host page transaction that has finished, as the drive hands it back.
#[derive(Clone, Copy, Debug)]
pub struct PageDone {
    /// The tag it was queued with.
    pub tag: u32,
    /// Its logical page on the drive.
    pub lpn: Lpn,
    /// A write.
    pub write: bool,
    /// Where its time went, from queueing to completion.
    pub bd: Breakdown,
}

/// What the end of a die's operation amounts to ([`Drive::on_die_done`]).
#[derive(Clone, Copy, Debug)]
pub enum Finished {
    /// Nothing for the front end, and the die is still busy: the event was stale (its operation
    /// was suspended and ends later), or a held GC job went on with its next operation.
    Busy,
    /// The die is free; nothing for the front end. Kick the die.
    Free,
    /// A host page transaction finished and the die is free: account for the page, then kick the
    /// die.
    Page(PageDone),
}

#[derive(Clone, Copy, Debug)]
struct Txn {
    tag: u32,
    lpn: Lpn,
    /// The plane of `lpn`, found once when the transaction is queued.
    plane: u32,
    /// `plane`'s index within its die (at most [`crate::config::MAX_PLANES_PER_DIE`]), found
    /// with its die.
    in_die: u8,
    write: bool,
    /// A write that covers only part of its page (read-modify-write applies, `ftl.rmw`).
    partial: bool,
    /// It joined another transaction's multi-plane command (it completes with a `TxnDone`).
    joined: bool,
    /// The die's clock when the transaction was queued.
    snap: Snapshot,
    /// Where its time went (filled when it starts).
    bd: Breakdown,
}

/// What a die is doing.
#[derive(Clone, Copy, Debug)]
enum Running {
    Nothing,
    Host(u32),
    /// A GC operation; `hold` keeps the die on the job until its erase (no scheme decision between
    /// its operations).
    Gc {
        job: usize,
        op: GcOp,
        hold: bool,
    },
    /// Committing buffered pages (no job).
    Flush,
    /// Suspending a GC operation for a host request, or finishing a page move's read before
    /// stopping at preemption point A ([`suspend`]).
    Suspending,
}

struct Die {
    /// Queued host transactions, each with its id.
    queue: VecDeque<QueuedTxn>,
    jobs: Vec<GcJob>,
    running: Running,
    clock: DieClock,
    /// `gc.blocking = "plane"`: an operation of the die's held job has just ended, so a host
    /// transaction of another plane may go before its next one.
    host_turn: bool,
    /// `gc.blocking = "plane"`: the job the die is holding to its erase, its planes only.
    plane_hold: Option<usize>,
}

/// The drive's GC scheme: one built from the axes (called without dynamic dispatch), or one set
/// with [`Drive::set_scheme`].
enum Scheme {
    Composed(Composed),
    Custom(Box<dyn GcScheme>),
}

impl Scheme {
    #[inline(always)]
    fn next(&mut self, cx: &mut scheme::DieContext<'_>) -> scheme::Action {
        match self {
            Scheme::Composed(s) => s.next(cx),
            Scheme::Custom(s) => s.next(cx),
        }
    }

    #[inline(always)]
    fn quick_next(&self, die: u32, head: Option<&QueuedTxn>, ftl: &Ftl) -> Option<scheme::Action> {
        match self {
            Scheme::Composed(s) => s.quick_next(die, head, ftl),
            Scheme::Custom(s) => s.quick_next(die, head, ftl),
        }
    }

    fn pipelined(&self) -> bool {
        match self {
            Scheme::Composed(s) => s.pipelined(),
            Scheme::Custom(s) => s.pipelined(),
        }
    }

    fn previews(&self) -> bool {
        match self {
            Scheme::Composed(s) => s.previews(),
            Scheme::Custom(s) => s.previews(),
        }
    }

    fn looks_ahead(&self) -> bool {
        match self {
            Scheme::Composed(s) => s.looks_ahead(),
            Scheme::Custom(s) => s.looks_ahead(),
        }
    }

    fn interrupts(&mut self, cx: &scheme::DieContext<'_>, op: &GcOp) -> Option<scheme::Interrupt> {
        match self {
            Scheme::Composed(s) => s.interrupts(cx, op),
            Scheme::Custom(s) => s.interrupts(cx, op),
        }
    }
}

impl Die {
    /// Takes queued host transaction `i` out of the die's queue; returns its id.
    #[inline(always)]
    fn take_queued(&mut self, i: usize) -> Option<u32> {
        if i == 0 {
            // The usual choice: the oldest.
            self.queue.pop_front().map(|q| q.id)
        } else {
            self.queue.remove(i).map(|q| q.id)
        }
    }
}

/// Counters of a drive beyond its FTL's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriveCounters {
    /// Host pages read from flash (including merged reads).
    pub host_pages_read: u64,
    /// Die time spent on GC.
    pub gc_time: SimTime,
    /// Host writes to a page that a GC job in progress had still to move.
    pub cancelled_moves: u64,
    /// Host reads served from a GC job's page register.
    pub merged_reads: u64,
    /// Host writes merged into a GC job's page buffer (programmed at the GC write point).
    pub merged_writes: u64,
    /// GC operations suspended for host requests.
    pub suspensions: u64,
    /// Host reads pipelined with a GC move's read (preemptible-GC paper §III-C).
    pub pipelined_reads: u64,
    /// Host writes pipelined with a GC move's program (preemptible-GC paper §III-A, §III-C).
    pub pipelined_writes: u64,
    /// Pages read for a read-modify-write of a partly written page (`ftl.rmw`).
    pub rmw_reads: u64,
    /// Host multi-plane commands (`ftl.multiplane`).
    pub multiplane: MultiplaneCounters,
    /// Events handled by the drive (die completions and merged reads).
    pub events: u64,
    /// Planned jobs (parallel migration, IPPBE, copyback parity): jobs completed.
    pub gc_jobs: u64,
    /// Planned jobs: the sum of their durations, from start to the end of the erase.
    pub gc_job_time: SimTime,
    /// Planned jobs: operations that moved pages (waves of the workers, one move or more).
    pub waves: u64,
    /// Planned jobs: time each worker's page register held a page (worker `i` moves the `i`-th
    /// page of every wave).
    pub worker_busy: [SimTime; crate::flash::MAX_REGISTERS as usize],
    /// Multi-block erases (IPPBE: more than one victim per erase).
    pub multi_erases: u64,
}

/// One drive of the simulation.
pub struct Drive {
    /// Index in the array.
    id: u16,
    /// The array has more than one drive (errors then name the drive).
    in_array: bool,
    geo: Geometry,
    timing: Timing,
    copyback: bool,
    ftl: Ftl,
    scheme: Scheme,
    /// Victim choice during the run, shared by the dies and drawn in event order.
    rng: SimRng,
    dies: Vec<Die>,
    res: Resources,
    txns: Vec<Txn>,
    free_txns: Vec<u32>,
    pipeline: pipeline::Pipeline,
    suspension: suspend::Suspension,
    /// Read-modify-write of partial pages (`ftl.rmw`).
    rmw: bool,
    /// Read-modify-write or host multi-plane commands are on: host operations take the longer
    /// path (`schedule::host_op_extras`).
    host_extras: bool,
    multiplane: multiplane::Multiplane,
    merging: merge::Merging,
    flushing: flush::Flushing,
    /// Host requests with a piece outstanding on this drive.
    pieces: u32,
    /// What the scheme may see of the drive: when `pieces` last fell to 0, the wake-up it asked
    /// for (pending in the event queue), the commands of the requests (kept when it looks at
    /// them: `previews`).
    view: DriveView,
    previews: bool,
    /// The scheme reads the next command's pre-information ([`Drive::announce`]).
    looks_ahead: bool,
    /// The gaps before the requests it receives, when the report asks for them.
    idle_periods: Option<IdlePeriods>,
    now: SimTime,
    counters: DriveCounters,
    error: ErrorSlot<SimError>,
    ftl_error: ErrorSlot<FtlError>,
    /// The progress watchdog.
    progress: progress::Progress,
    /// What a GC job holds between its operations (`gc.blocking`).
    scope: GcScope,
    /// A die serves reads before writes (`host.priority = "reads-first"`).
    reads_first: bool,
    /// Jobs are planned (parallel migration, IPPBE, copyback parity): count their figures.
    planned: bool,
}

impl Drive {
    /// Drive `id` of an array of `drives`, as the (validated) configuration `cfg` describes it,
    /// choosing victims from its own stream of `seed` ([`crate::rng::drive_stream`]); an error it
    /// runs into raises `errors`.
    pub fn new(
        cfg: &Config,
        id: u32,
        drives: u32,
        seed: u64,
        errors: &ErrorFlag,
    ) -> Result<Drive, SimError> {
        let geo = Geometry::new(cfg);
        let timing = Timing::new(cfg);
        let ftl = Ftl::new(cfg, &geo).map_err(SimError::Config)?;
        let scheme = Scheme::Composed(
            scheme::build_composed(&cfg.gc.scheme, cfg).map_err(SimError::Config)?,
        );
        let previews = scheme.previews();
        let looks_ahead = scheme.looks_ahead();
        let idle_periods =
            crate::metrics::critical_path_on(cfg).then(|| IdlePeriods::new(cfg.gc.long_idle.0));
        let dies = (0..geo.dies)
            .map(|_| Die {
                queue: VecDeque::new(),
                jobs: Vec::new(),
                running: Running::Nothing,
                clock: DieClock::new(geo.planes_per_die),
                host_turn: false,
                plane_hold: None,
            })
            .collect();
        let axes = cfg.gc_axes().map_err(SimError::Config)?;
        let planned = crate::gc::migration::InPlane::new(
            axes.migration,
            cfg.gc.workers,
            cfg.geometry.registers_per_plane,
            cfg.gc.erase_blocks,
            cfg.gc.copyback_parity,
        )
        .is_some();
        Ok(Drive {
            id: id as u16,
            in_array: drives > 1,
            // An ECC round trip takes the page over the channel twice: a move without copyback.
            copyback: cfg.gc.copyback && cfg.gc.copyback_ecc == crate::config::CopybackEcc::None,
            res: Resources::new(&geo, timing.transfer).with_params(cfg.resource_params()),
            scope: cfg.gc.blocking,
            reads_first: cfg.host.priority == crate::config::HostPriority::ReadsFirst,
            planned,
            pipeline: pipeline::Pipeline::new(scheme.pipelined(), geo.dies),
            suspension: suspend::Suspension::new(geo.dies),
            rmw: cfg.ftl.rmw,
            host_extras: cfg.ftl.rmw
                || (cfg.ftl.multiplane != crate::config::HostMultiplane::Off
                    && geo.planes_per_die > 1),
            multiplane: multiplane::Multiplane::new(
                cfg.ftl.multiplane,
                geo.dies,
                geo.planes_per_die,
            ),
            merging: merge::Merging::default(),
            flushing: flush::Flushing::default(),
            timing,
            ftl,
            scheme,
            rng: rng_for(seed, drive_stream(id, streams::VICTIMS)),
            dies,
            txns: Vec::new(),
            free_txns: Vec::new(),
            pieces: 0,
            view: DriveView::default(),
            previews,
            looks_ahead,
            idle_periods,
            now: 0,
            counters: DriveCounters::default(),
            error: ErrorSlot::new(errors),
            ftl_error: ErrorSlot::new(errors),
            progress: progress::Progress::new(geo.blocks() as u64),
            geo,
        })
    }

    /// Events this drive may have pending at once: per die one completion, one merged read, a
    /// stale completion per suspension of the running operation, and (host multi-plane commands)
    /// one completion per other plane joined.
    pub fn max_events(&self) -> usize {
        let joined = if self.multiplane.on() {
            self.geo.planes_per_die as usize - 1
        } else {
            0
        };
        (3 + MAX_SUSPENDS as usize + joined) * self.geo.dies as usize
    }

    /// The drive's FTL.
    pub fn ftl(&self) -> &Ftl {
        &self.ftl
    }

    /// The drive's FTL, keeping nothing else.
    pub fn into_ftl(self) -> Ftl {
        self.ftl
    }

    /// The drive's geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// Preconditions the drive with no simulated time, drawing from its own preconditioning
    /// stream of `seed`; `progress(done, total)` hears about it now and then.
    pub fn precondition(
        &mut self,
        mode: Precondition,
        seed: u64,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<(), SimError> {
        if let Precondition::Trace(_) = mode {
            return Err(SimError::Config(
                "trace preconditioning replays the workload: the simulator does it (Simulator::precondition)".into(),
            ));
        }
        precondition::run(&mut self.ftl, mode, seed, self.id as u32, progress)?;
        Ok(())
    }

    /// Replaces the drive's FTL, before the run, with one in the state of `snap` (an aged drive of
    /// the same configuration `cfg`, [`crate::ageing::AgedState`]).
    pub fn restore_ftl(&mut self, cfg: &Config, snap: &FtlSnapshot) -> Result<(), SimError> {
        let params = cfg.ftl_params().map_err(SimError::Config)?;
        self.ftl = Ftl::restore(&params, &self.geo, snap).map_err(SimError::Config)?;
        Ok(())
    }

    /// The fewest free blocks of any plane since the last call, and now (for the latency series;
    /// [`Ftl::take_free_low_water`], [`Ftl::min_free_blocks`]).
    pub fn take_free_blocks(&mut self) -> (u32, u32) {
        let now = self.ftl.min_free_blocks();
        (self.ftl.take_free_low_water().min(now), now)
    }

    /// The drive's preconditioning stream of `seed` (for preconditioning through
    /// [`Drive::write_instant`]).
    pub fn precondition_rng(&self, seed: u64) -> SimRng {
        rng_for(seed, drive_stream(self.id as u32, streams::PRECONDITION))
    }

    /// Writes logical page `lpn` with no simulated time, collecting instantly first as needed
    /// ([`precondition::write_instant`]).
    pub fn write_instant(&mut self, lpn: Lpn, rng: &mut SimRng) -> Result<(), FtlError> {
        precondition::write_instant(&mut self.ftl, lpn, rng)
    }

    /// Preconditioning is over: the work counters start from zero.
    pub fn preconditioned(&mut self) {
        self.ftl.counters = Default::default();
    }

    /// Cache hint for a host request of `lpn` served a few requests from now: its L2P entry.
    /// Changes nothing.
    #[inline(always)]
    pub(crate) fn prefetch_lpn(&self, lpn: Lpn) {
        self.ftl.prefetch_lpn(lpn);
    }

    /// Cache hint for a host write of `lpn` served soon: the entries of the page it supersedes
    /// (its L2P entry already fetched by [`Drive::prefetch_lpn`]). Changes nothing.
    #[inline(always)]
    pub(crate) fn prefetch_overwrite(&self, lpn: Lpn) {
        self.ftl.prefetch_overwrite_ahead(lpn);
    }

    /// True when logical page `lpn` has data on flash (or in the FTL's DRAM buffer).
    #[inline]
    pub fn is_mapped(&self, lpn: Lpn) -> bool {
        self.ftl.lookup(lpn).is_some()
    }

    /// Replaces the drive's GC scheme (a scheme of one's own, for tests or experiments). The
    /// scheme's [`GcScheme::pipelined`] and [`GcScheme::previews`] are read again; set it before
    /// the run starts.
    pub fn set_scheme(&mut self, scheme: Box<dyn GcScheme>) {
        self.pipeline = pipeline::Pipeline::new(scheme.pipelined(), self.geo.dies);
        self.previews = scheme.previews();
        self.looks_ahead = scheme.looks_ahead();
        self.scheme = Scheme::Custom(scheme);
    }

    /// Host request `id` (the front end's slot) now has work outstanding on this drive: command
    /// `c` enters the drive's device queue.
    #[inline]
    pub fn begin_piece(&mut self, id: u32, c: Command) {
        if let Some(p) = self.idle_periods.as_mut() {
            p.arrival(c.arrival, self.pieces > 0, self.view.idle_since);
        }
        self.pieces += 1;
        if self.previews {
            self.view.commands.insert(id, c);
        }
    }

    /// Host request `id`'s work on this drive is done, at `now`.
    #[inline]
    pub fn end_piece(&mut self, id: u32, now: SimTime) {
        self.pieces -= 1;
        if self.previews {
            self.view.commands.remove(id);
        }
        if self.pieces == 0 {
            self.view.idle_since = now;
        }
    }

    /// True when the drive's scheme reads the next command's pre-information.
    #[inline]
    pub fn looks_ahead(&self) -> bool {
        self.looks_ahead
    }

    /// The next command of the workload (its part on this drive), announced before it arrives,
    /// or `None` (it arrived, or it has no part here): its pre-information
    /// ([`crate::gc::scheme::DieContext::next_command`]). The free dies holding its pages decide
    /// again, so that they may collect ahead of it.
    pub fn announce(&mut self, ev: &mut EventQueue, now: SimTime, c: Option<Command>) {
        self.now = now;
        self.view.announced = c;
        let Some(c) = c else {
            return;
        };
        let logical = self.geo.logical_pages as u64;
        let mut dies = 0u128;
        let mut all = false;
        for i in 0..c.pages.min(crate::gc::when::agc::MAX_PREVIEW_PAGES) as u64 {
            let lpn = ((c.first as u64 + i) % logical) as Lpn;
            let d = self.geo.die_of_plane(self.ftl.plane_of(lpn));
            if d < 128 {
                dies |= 1 << d;
            } else {
                all = true;
                break;
            }
        }
        for d in 0..self.geo.dies {
            let touched = all || (d < 128 && dies & (1 << d) != 0);
            if touched && matches!(self.dies[d as usize].running, Running::Nothing) {
                self.decide(ev, d, false);
            }
        }
    }

    /// The gaps before the requests the drive received, when the report asks for them.
    pub fn idle_periods(&self) -> Option<&IdlePeriods> {
        self.idle_periods.as_ref()
    }

    /// No host request has work outstanding on this drive: its schemes see the device idle.
    #[inline]
    pub fn is_idle(&self) -> bool {
        self.pieces == 0
    }

    /// Queues a page transaction (tagged `tag`) at the die of the page's plane and kicks that die
    /// (a free die with nothing queued may start it at once, unqueued); `partial`: a write that
    /// covers only part of the page. (Inlined: on the front end's direct
    /// path a request's page is queued with its state in registers, no call.)
    #[inline(always)]
    pub fn queue(
        &mut self,
        ev: &mut EventQueue,
        now: SimTime,
        tag: u32,
        lpn: Lpn,
        write: bool,
        partial: bool,
    ) {
        self.now = now;
        let plane = self.ftl.plane_of(lpn);
        if write {
            // Served when the die gets to it: its L2P entry is on the way meanwhile.
            self.ftl.prefetch_lpn(lpn);
        }
        let d = self.geo.die_of_plane(plane);
        let in_die = self.geo.plane_in_die(plane);
        // The die is looked up once: its clock, its queue, then whether it runs anything.
        let die = &mut self.dies[d as usize];
        let txn = Txn {
            tag,
            lpn,
            plane,
            in_die: in_die as u8,
            write,
            partial,
            joined: false,
            snap: die.clock.snapshot(now, in_die),
            bd: Breakdown::default(),
        };
        let t = match self.free_txns.pop() {
            Some(t) => {
                // A reused slot keeps its old breakdown: every path that starts a transaction
                // fills it before it is read, so it is not zeroed here.
                let slot = &mut self.txns[t as usize];
                *slot = Txn { bd: slot.bd, ..txn };
                t
            }
            None => {
                self.txns.push(txn);
                self.txns.len() as u32 - 1
            }
        };
        let q = QueuedTxn {
            plane,
            write,
            lpn,
            id: t,
        };
        let free = matches!(die.running, Running::Nothing);
        if die.queue.is_empty()
            && !self.multiplane.on()
            && self.quick_decision_applies(d)
            && self.scheme.quick_next(d, Some(&q), &self.ftl) == Some(scheme::Action::Host(0))
        {
            // A free die with nothing queued, whose scheme starts the transaction at once (the
            // usual decision, as `Drive::decide` takes it with the transaction at the head of the
            // queue): it starts without passing through the queue.
            self.start_host(ev, d, t, None);
            return;
        }
        let die = &mut self.dies[d as usize];
        if self.reads_first && !write {
            scope::queue_read_first(&mut die.queue, q);
        } else {
            die.queue.push_back(q);
        }
        if self.multiplane.on() {
            // The request's other pages may join a multi-plane command: the die is kicked once
            // they are all queued (`end_batch`).
            self.multiplane.defer_kick(d);
            return;
        }
        self.kick_die_free(ev, d, free);
    }

    /// The front end has queued every page of a request (or of a flush): with host multi-plane
    /// commands, the dies those pages went to start now (`queue` left them waiting so that pages
    /// of one request on planes of one die can go as one command).
    #[inline]
    pub fn end_batch(&mut self, ev: &mut EventQueue, now: SimTime) {
        if !self.multiplane.has_deferred() {
            return;
        }
        self.now = now;
        // Kicking a die queues nothing, so the list holds still while it is walked.
        let mut i = 0;
        while let Some(d) = self.multiplane.deferred(i) {
            self.kick_die(ev, d);
            i += 1;
        }
        self.multiplane.clear_deferred();
    }

    /// Lets free die `d` start its next operation, as its scheme decides.
    #[inline]
    pub fn kick(&mut self, ev: &mut EventQueue, now: SimTime, d: u32) {
        self.now = now;
        self.kick_die(ev, d);
    }

    /// Kicks every die (the drive's host work is done: free dies may start idle-time work).
    pub fn kick_all(&mut self, ev: &mut EventQueue, now: SimTime) {
        self.now = now;
        for d in 0..self.geo.dies {
            self.kick_die(ev, d);
        }
    }

    /// The operation running on die `d` has reached its end time `now`. A die that was running
    /// nothing is an invariant violation ([`Drive::take_error`]).
    #[inline]
    pub fn on_die_done(&mut self, ev: &mut EventQueue, now: SimTime, d: u32) -> Finished {
        self.now = now;
        self.counters.events += 1;
        if self.res.die_until(d) != now {
            // The completion of an operation that was suspended: it resumed and ends later.
            return Finished::Busy;
        }
        self.res.release(d);
        self.suspension.ended(d);
        let die = &mut self.dies[d as usize];
        die.clock.switch(now, Busy::Idle);
        // The usual end, a host page: only its transaction's index is read (taking the whole
        // `Running` copies a GC operation's fields too).
        if let Running::Host(t) = die.running {
            die.running = Running::Nothing;
            self.progress.host_done(self.ftl.counters.blocks_erased);
            let Txn {
                tag,
                lpn,
                write,
                bd,
                ..
            } = self.txns[t as usize];
            self.free_txns.push(t);
            return Finished::Page(PageDone {
                tag,
                lpn,
                write,
                bd,
            });
        }
        match std::mem::replace(&mut die.running, Running::Nothing) {
            Running::Nothing => {
                self.invariant(format!("die {d} finished an operation it was not running"));
                Finished::Busy
            }
            Running::Host(_) => unreachable!("a host operation ended above"),
            Running::Flush | Running::Suspending => Finished::Free,
            Running::Gc { job, op, hold } => {
                gc::complete(&mut self.ftl, op);
                // A job ends with its last erase (a log-block FTL's merge may erase several blocks).
                if op.is_erase() && !self.erases_to_come(d, job) {
                    let die = &mut self.dies[d as usize];
                    let done = die.jobs.remove(job);
                    die.plane_hold = None;
                    if self.planned {
                        self.counters.gc_jobs += 1;
                        self.counters.gc_job_time += now - done.started;
                    }
                    if let Some(msg) = self.progress.erased(now, self.ftl.counters.blocks_erased) {
                        self.error.keep(SimError::NoProgress(msg));
                    }
                } else if hold && self.step_held_job(ev, d, job) {
                    return Finished::Busy;
                } else {
                    self.dies[d as usize].host_turn = true;
                }
                self.gc_releases(ev, d);
                Finished::Free
            }
        }
    }

    /// True when job `j` of die `d`, whose erase just ended, has more erases to dispatch (a
    /// log-block FTL's merge): kept out of line, off the completion path of other jobs.
    #[cold]
    #[inline(never)]
    fn erases_to_come(&self, d: u32, j: usize) -> bool {
        self.dies[d as usize]
            .jobs
            .get(j)
            .is_some_and(|job| !job.erase_issued())
    }

    /// The first error the drive ran into, if any (taking it).
    pub fn take_error(&mut self) -> Option<SimError> {
        self.error
            .take()
            .or_else(|| self.ftl_error.take().map(SimError::from))
    }

    /// Checks the FTL's invariants and that every live transaction is queued or running.
    pub fn check(&self, now: SimTime) -> Result<(), SimError> {
        let err = |msg: String| SimError::Invariant {
            time_ns: now,
            msg: self.label(msg),
        };
        self.ftl.check().map_err(err)?;
        let queued: usize = self.dies.iter().map(|d| d.queue.len()).sum();
        let running = self
            .dies
            .iter()
            .filter(|d| matches!(d.running, Running::Host(_)))
            .count();
        let running =
            running + self.merging.in_flight() as usize + self.multiplane.in_flight() as usize;
        let live_txns = self.txns.len() - self.free_txns.len();
        if queued + running != live_txns {
            return Err(err(format!(
                "{live_txns} live transactions but {queued} queued and {running} running"
            )));
        }
        Ok(())
    }

    /// The drive's counters.
    pub fn counters(&self) -> DriveCounters {
        DriveCounters {
            merged_reads: self.merging.reads(),
            merged_writes: self.merging.writes(),
            suspensions: self.suspension.suspensions(),
            pipelined_reads: self.pipeline.reads(),
            pipelined_writes: self.pipeline.writes(),
            multiplane: self.multiplane.counters(),
            ..self.counters
        }
    }

    /// The counters the scheme keeps about its decisions.
    pub fn scheme_stats(&self) -> SchemeStats {
        match &self.scheme {
            Scheme::Composed(s) => s.stats(),
            Scheme::Custom(s) => s.stats(),
        }
    }

    /// The AGC/DGC family's counters of the scheme.
    pub fn idle_gc_stats(&self) -> crate::gc::when::jobs::IdleGcStats {
        match &self.scheme {
            Scheme::Composed(s) => s.idle_gc(),
            Scheme::Custom(s) => s.idle_gc(),
        }
    }

    /// The die clocks (what each die has been doing).
    pub(crate) fn clocks(&self) -> impl Iterator<Item = &DieClock> {
        self.dies.iter().map(|d| &d.clock)
    }

    /// `msg`, naming the drive when there are several.
    fn label(&self, msg: String) -> String {
        if self.in_array {
            format!("drive {}: {msg}", self.id)
        } else {
            msg
        }
    }

    #[inline(never)]
    fn invariant(&mut self, msg: String) {
        let msg = self.label(msg);
        self.error.keep(SimError::Invariant {
            time_ns: self.now,
            msg,
        });
    }

    /// Schedules the end of the operation die `d` is starting, which the resource model has
    /// reserved until `at`.
    fn schedule_die_done(&mut self, ev: &mut EventQueue, d: u32, at: SimTime) {
        debug_assert_eq!(
            self.res.die_until(d),
            at,
            "die {d} reserved until another time"
        );
        ev.schedule(
            at,
            Event::DieDone {
                drive: self.id,
                die: d,
            },
        );
    }
}
