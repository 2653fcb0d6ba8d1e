//! Garbage collection: the shared mechanism, the schemes that drive it, and the victim policies.
//!
//! A GC *job* collects one victim block of one plane as a sequence of flash operations: one
//! [`GcOp::Move`] per valid page, then one [`GcOp::Erase`]. Jobs go through the same per-die scheduler
//! as host transactions, one operation at a time, so a scheme decides *when* each operation runs
//! (before host I/O, between host requests, in idle time) without touching how pages move. This
//! module is the only code that moves pages: schemes ([`scheme`]) and victim policies ([`victim`])
//! return decisions; the functions here carry them out on the [`Ftl`].
//!
//! State changes happen when an operation is *dispatched*: a move remaps its page at dispatch (the
//! die is then busy until the move ends, so nothing on that plane observes the intermediate state), an
//! erase marks the block `Erasing` at dispatch and returns it to the free pool at completion.
//!
//! Under a log-block FTL (`ftl.mapping = "lftl"` or `"hftl"`) a job is a *merge*
//! ([`crate::ftl::merge`]): the FTL plans it (which group, which page goes where, which blocks are
//! erased: [`Ftl::plan_merge`]) and the job carries out its page copies as [`GcOp::Move`]s, then its
//! erases as one [`GcOp::Erase`] each — a job may end with several erases; it is done when its last
//! operation has been dispatched ([`GcJob::erase_issued`]).

pub mod axis;
pub mod compose;
mod merge;
pub mod migration;
pub mod pagc_plan;
pub mod planes;
mod planned;
pub mod preempt;
pub mod scheme;
pub mod schemes;
pub mod victim;
pub mod when;

use crate::flash::{check_multiplane, FlashOp, Timing, MAX_REGISTERS};
use crate::ftl::{Ftl, FtlError, MergeKind, MergePlan, Stream};
use crate::rng::SimRng;
use crate::units::{Ppn, SimTime, NO_PAGE};
use migration::{InPlane, Parity, MAX_ERASE_BLOCKS};
use pagc_plan::{MoveClass, Plan, MAX_PLANES};

use merge::dispatch_merge;
pub use merge::{start_group_merge, start_merge};
pub use planned::start_planned_job;
use planned::{dispatch_planned, planned_move};

/// One GC job: collect one victim block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GcJob {
    /// Plane of the victim.
    pub plane: u32,
    /// Plane-local victim block.
    pub block: u32,
    /// Valid pages the victim held when it was chosen.
    pub valid_at_pick: u32,
    /// Pages moved so far.
    pub moved: u32,
    /// When the job was started.
    pub started: SimTime,
    /// Next page index to examine.
    cursor: u32,
    /// The erase has been dispatched.
    erase_issued: bool,
    /// A parallel job across planes of the die (PaGC), if it is one.
    multi: Option<Box<ParallelJob>>,
    /// A merge of a log-block FTL, if it is one.
    merge: Option<Box<MergeJob>>,
    /// A planned job of one plane (parallel migration, IPPBE, copyback parity), if it is one.
    planned: Option<Box<PlannedJob>>,
}

/// The part of a job of one plane that was planned when it started ([`start_planned_job`]): its
/// victims, the address pairs of their valid pages (computed once, Algorithm 2 of the
/// parallel-page-migration paper) and how they move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedJob {
    /// Plane-local victims, the first being `GcJob::block` (IPPBE: several).
    victims: Vec<u32>,
    /// Valid pages to move, in move order, with their planned destination slot (0 = the GC write
    /// point's next page when the job started).
    pairs: Vec<(Ppn, u32)>,
    /// Next pair to move.
    next: usize,
    /// Highest destination slot moved so far (`paper` parity: a lower one is out of order).
    highest: Option<u32>,
    /// Destination pages the plan consumes (programmed or skipped to keep parity).
    consumed: u32,
    how: InPlane,
}

/// The part of a job that carries out a log-block FTL's merge: its plan and how far it has got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeJob {
    plan: MergePlan,
    /// Next copy to dispatch.
    copy: usize,
    /// Next erase to dispatch.
    erase: usize,
}

/// The part of a job that collects one victim in each of several planes of a die at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParallelJob {
    /// (plane, plane-local block) per slot; slot 0 is the plane that asked for GC.
    victims: Vec<(u32, u32)>,
    plan: Plan,
    next: usize,
    /// TC-PaGC: single-plane moves are read into the DRAM buffer instead of written.
    cache: bool,
    /// Pages of a step that could not join its multi-plane program (their planes' aligned write
    /// points had drifted apart), moved single-plane next.
    pending: Vec<Ppn>,
}

/// One flash operation of a GC job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcOp {
    /// Move a valid page inside its plane (copyback, or read out and write back).
    Move { src: Ppn, dst: Ppn },
    /// Erase the (now empty) victim.
    Erase { plane: u32, block: u32 },
    /// Move up to one page per plane of a die with one multi-plane program into the planes' aligned
    /// write points. `reads` pages are read first: 1 for a multi-plane read (PaRD-PaWR), or one
    /// single-plane read per page (SrRD-PaWR). Slots whose page vanished are skipped pages
    /// (`src == NO_PAGE`), so the aligned write points stay at one offset.
    MultiMove {
        class: MoveClass,
        n: u8,
        reads: u8,
        moved: u8,
        src: [Ppn; MAX_PLANES],
        dst: [Ppn; MAX_PLANES],
    },
    /// Read a valid page out into the DRAM buffer (TC-PaGC): one read and one channel transfer.
    BufferRead { src: Ppn },
    /// Program buffered pages, one per plane (a multi-plane program when `n` ≥ 2): `n` transfers in,
    /// one program.
    Commit { n: u8, dst: [Ppn; MAX_PLANES] },
    /// Erase one victim per plane with one multi-plane erase.
    MultiErase {
        n: u8,
        blocks: [(u32, u32); MAX_PLANES],
    },
    /// Move `n` ≥ 2 valid pages of one plane at once, each on its own page register (parallel
    /// migration: one wave of the workers).
    Wave {
        n: u8,
        src: [Ppn; MAX_REGISTERS as usize],
        dst: [Ppn; MAX_REGISTERS as usize],
    },
    /// Erase `n` ≥ 2 (now empty) victims of one plane with one multi-block erase (IPPBE).
    EraseBlocks {
        plane: u32,
        n: u8,
        blocks: [u32; MAX_ERASE_BLOCKS as usize],
    },
}

impl GcOp {
    /// A GC operation, with page read `read`, program `program`, erase `erase` and command `cmd` of
    /// `t`, with or without copyback for moves (copyback with an ECC round trip,
    /// `gc.copyback_ecc = "round-trip"`, is passed as no copyback: the page crosses the channel out
    /// and back):
    ///
    /// | operation | before | transfers | after |
    /// |---|---|---|---|
    /// | move, copyback | `2·cmd + read + program` | 0 | 0 |
    /// | move | `cmd + read` | 2 | `cmd + program` |
    /// | multi-plane move, copyback | `reads·(cmd + read) + cmd + program` | 0 | 0 |
    /// | multi-plane move | `reads·(cmd + read)` | `2·moved` | `cmd + program` |
    /// | buffer read | `cmd + read` | 1 | 0 |
    /// | commit of `n` buffered pages | `cmd` | `n` | `program` |
    /// | erase, multi-plane erase | `cmd + erase` | 0 | 0 |
    /// | wave of `n` moves | a move's, on `n` registers (combined by the resource model) | | |
    /// | multi-block erase of `n` blocks | `cmd + erase` (`n` blocks erased) | 0 | 0 |
    #[inline]
    pub fn flash_op(&self, t: &Timing, copyback: bool, planes: u64) -> FlashOp {
        let (c, r, p) = (t.command, t.read, t.program);
        let (before, transfers, after) = match *self {
            GcOp::Move { .. } if copyback => (2 * c + r + p, 0, 0),
            GcOp::Move { .. } => (c + r, 2, c + p),
            GcOp::MultiMove { reads, .. } if copyback => (reads as u64 * (c + r) + c + p, 0, 0),
            GcOp::MultiMove { reads, moved, .. } => {
                (reads as u64 * (c + r), 2 * moved as u32, c + p)
            }
            GcOp::BufferRead { .. } => (c + r, 1, 0),
            GcOp::Commit { n, .. } => (c, n as u32, p),
            GcOp::Erase { .. } | GcOp::MultiErase { .. } => {
                return FlashOp {
                    registers: 0,
                    erase_blocks: 1,
                    ..FlashOp::new(c + t.erase, 0, 0, planes)
                }
            }
            GcOp::EraseBlocks { n, .. } => {
                return FlashOp {
                    registers: 0,
                    erase_blocks: n,
                    ..FlashOp::new(c + t.erase, 0, 0, planes)
                }
            }
            GcOp::Wave { n, .. } => return wave(n, t, copyback, planes),
        };
        FlashOp::new(before, transfers, after, planes)
    }

    /// The planes of its die the operation works on, as a bit mask of plane indices in the die.
    pub fn plane_mask(&self, geo: &crate::flash::Geometry) -> u64 {
        let bit = |plane: u32| 1u64 << geo.plane_in_die(plane);
        match *self {
            GcOp::Move { src, .. } | GcOp::BufferRead { src } => bit(geo.addr(src).plane),
            GcOp::Wave { src, .. } => bit(geo.addr(src[0]).plane),
            GcOp::Erase { plane, .. } | GcOp::EraseBlocks { plane, .. } => bit(plane),
            GcOp::MultiMove { n, src, dst, .. } => (0..n as usize)
                .map(|i| {
                    bit(geo
                        .addr(if src[i] != NO_PAGE { src[i] } else { dst[i] })
                        .plane)
                })
                .fold(0, |a, b| a | b),
            GcOp::Commit { n, dst } => dst[..n as usize]
                .iter()
                .map(|&p| bit(geo.addr(p).plane))
                .fold(0, |a, b| a | b),
            GcOp::MultiErase { n, blocks } => blocks[..n as usize]
                .iter()
                .map(|&(p, _)| bit(p))
                .fold(0, |a, b| a | b),
        }
    }
}

/// A wave of `n` moves on `n` registers: each a move's work, its command cycles marked so that the
/// resource model can combine them.
#[cold]
#[inline(never)]
fn wave(n: u8, t: &Timing, copyback: bool, planes: u64) -> FlashOp {
    let (c, r, p) = (t.command, t.read, t.program);
    let (one, cb, ca) = if copyback {
        (FlashOp::new(2 * c + r + p, 0, 0, planes), 2 * c, 0)
    } else {
        (FlashOp::new(c + r, 2, c + p, planes), c, c)
    };
    FlashOp::in_flight(n, one, cb, ca)
}

impl GcJob {
    /// The planes of its die the job collects, as a bit mask of plane indices in the die.
    pub fn plane_mask(&self, geo: &crate::flash::Geometry) -> u64 {
        match &self.multi {
            None => 1 << geo.plane_in_die(self.plane),
            Some(m) => m
                .victims
                .iter()
                .fold(0, |acc, &(p, _)| acc | 1 << geo.plane_in_die(p)),
        }
    }

    /// True when some of its operations use the channel even with copyback (TC-PaGC's buffer reads).
    pub fn uses_channel(&self) -> bool {
        self.multi.as_ref().is_some_and(|m| m.cache)
    }

    /// True when the job collects block `block` of `plane` and has not dispatched its erase: a
    /// valid page there is still to be moved.
    pub fn collects(&self, plane: u32, block: u32) -> bool {
        !self.erase_issued
            && match (&self.multi, &self.planned, &self.merge) {
                (Some(m), _, _) => m.victims.contains(&(plane, block)),
                (None, Some(p), _) => self.plane == plane && p.victims.contains(&block),
                (None, None, Some(m)) => {
                    self.plane == plane && m.erase == 0 && m.plan.erase.contains(&block)
                }
                (None, None, None) => self.plane == plane && self.block == block,
            }
    }

    /// The kind of merge the job carries out, if it is a log-block FTL's merge.
    pub fn merge_kind(&self) -> Option<MergeKind> {
        self.merge.as_ref().map(|m| m.plan.kind)
    }

    /// True when the job frees no page as planned: its victims' valid pages (and, with the
    /// `in-order` parity restriction, the pages skipped to keep parity) fill as many pages as the
    /// victims hold. A victim full of valid pages, say, which `random` or `fifo` may pick.
    pub fn gains_nothing(&self, pages_per_block: u32) -> bool {
        match &self.planned {
            Some(p) => p.consumed as u64 >= p.victims.len() as u64 * pages_per_block as u64,
            None => self.valid_at_pick >= pages_per_block,
        }
    }

    /// True for a parallel job (PaGC).
    pub fn is_parallel(&self) -> bool {
        self.multi.is_some()
    }

    /// True once the erase has been dispatched (no operation remains); for a merge, its last
    /// erase.
    pub fn erase_issued(&self) -> bool {
        self.erase_issued
    }

    /// True once an operation of the job has been dispatched.
    pub fn started(&self) -> bool {
        self.moved > 0
            || self.cursor > 0
            || self.erase_issued
            || self
                .multi
                .as_ref()
                .is_some_and(|m| m.next > 0 || !m.pending.is_empty())
            || self
                .merge
                .as_ref()
                .is_some_and(|m| m.copy > 0 || m.erase > 0)
    }

    /// The blocks the job erases (κ of the AGC/DGC paper's eq. 2): its victim (1), one per plane
    /// of a parallel job, its victims with IPPBE, or a merge's.
    pub fn victims(&self) -> u32 {
        match (&self.multi, &self.planned, &self.merge) {
            (Some(m), _, _) => m.victims.len() as u32,
            (None, Some(p), _) => p.victims.len() as u32,
            (None, None, Some(m)) => m.plan.erase.len() as u32,
            (None, None, None) => 1,
        }
    }

    /// True for a job planned when it started ([`start_planned_job`]).
    pub fn is_planned(&self) -> bool {
        self.planned.is_some()
    }
}

/// Chooses a victim in `plane` and starts a job for it, or `None` when the plane has no candidate.
/// Under a log-block FTL the job is the merge the FTL plans ([`start_merge`]).
pub fn start_job(ftl: &mut Ftl, plane: u32, rng: &mut SimRng, now: SimTime) -> Option<GcJob> {
    if ftl.plans_merges() {
        return start_merge(ftl, plane, rng, now);
    }
    let block = ftl.choose_victim(plane, rng)?;
    let gb = plane * ftl.geometry().blocks_per_plane + block;
    Some(GcJob {
        plane,
        block,
        valid_at_pick: ftl.valid_pages(gb),
        moved: 0,
        started: now,
        cursor: 0,
        erase_issued: false,
        multi: None,
        merge: None,
        planned: None,
    })
}

/// Gives up `job` before any of its operations was dispatched: its victims become candidates
/// again ([`Ftl::return_victim`]) and count as victims no more. For a scheme that chose a victim
/// to weigh a GC before running it (AGC's look-ahead, AGC/DGC paper §5.1, eq. 2). Never a merge:
/// the FTL has re-pointed its group when it planned it (weigh a merge before planning it,
/// [`Ftl::merge_cost`]).
pub fn abandon(ftl: &mut Ftl, job: GcJob) {
    assert!(
        !job.started(),
        "abandoning a GC job whose operations have started"
    );
    assert!(job.merge.is_none(), "abandoning a planned merge");
    match (&job.multi, &job.planned) {
        (Some(m), _) => {
            for &(p, b) in &m.victims {
                ftl.return_victim(p, b);
            }
            ftl.counters.pagc_joined -= m.victims.len() as u64 - 1;
        }
        // A planned job (IPPBE): every victim it chose.
        (None, Some(p)) => {
            for &b in &p.victims {
                ftl.return_victim(job.plane, b);
            }
        }
        (None, None) => ftl.return_victim(job.plane, job.block),
    }
}

/// Free blocks a plane needs to take part in a parallel job.
pub const PARALLEL_FREE_BLOCKS: u32 = 4;

/// Starts a parallel job (PaGC) over `planes` of one die, the first being the plane that asked for
/// GC: a victim is chosen in each (planes with no candidate drop out) and the migration is planned
/// with [`pagc_plan::plan`]. With one plane left it is an ordinary job. `cache` sends single-plane
/// moves to the DRAM buffer (TC-PaGC).
pub fn start_parallel_job(
    ftl: &mut Ftl,
    planes: &[u32],
    rng: &mut SimRng,
    now: SimTime,
    cache: bool,
) -> Option<GcJob> {
    assert!(
        planes.len() <= MAX_PLANES,
        "a parallel job spans at most {MAX_PLANES} planes"
    );
    let mut job = start_job(ftl, planes[0], rng, now)?;
    let mut victims = vec![(job.plane, job.block)];
    // Before its erase returns a block, a plane in a parallel job may open a block for each of its
    // aligned and GC write points, and the alignment at the start may skip into one more: planes
    // without that many free blocks (and one to spare) stay out, and a demanding plane without them
    // collects serially.
    let enough = |ftl: &Ftl, p: u32| ftl.free_blocks(p) >= PARALLEL_FREE_BLOCKS;
    if enough(ftl, planes[0]) {
        for &p in &planes[1..] {
            if !enough(ftl, p) {
                continue;
            }
            // A paired plane whose victim is full of valid pages frees nothing and would make the
            // asking plane skip as many pages to keep the aligned write points at one offset (its
            // gain per job is a block minus the fullest victim's valid pages): it stays out, its
            // victim a candidate again. (B-PaGC with `random`, `fifo` or `alpha` victims otherwise
            // collects forever on a plane whose spare space sits in free blocks.)
            if let Some(b) = ftl.choose_victim(p, rng) {
                let ppb = ftl.geometry().pages_per_block;
                if ftl.valid_pages(p * ftl.geometry().blocks_per_plane + b) >= ppb {
                    ftl.return_victim(p, b);
                } else {
                    victims.push((p, b));
                }
            }
        }
    }
    if victims.len() == 1 {
        return Some(job);
    }
    ftl.counters.pagc_joined += victims.len() as u64 - 1;
    let offsets: Vec<Vec<u16>> = victims
        .iter()
        .map(|&(p, b)| {
            let mut v = Vec::new();
            let mut from = 0;
            while let Some((page, _)) = ftl.next_valid_in_block(p, b, from) {
                v.push(page as u16);
                from = page + 1;
            }
            v
        })
        .collect();
    let slices: Vec<&[u16]> = offsets.iter().map(Vec::as_slice).collect();
    job.valid_at_pick = offsets.iter().map(|o| o.len() as u32).sum();
    // Start with the aligned write points of the job's planes at one offset. On a two-plane die they
    // always move together and never drift; with more planes, steps over different subsets can.
    let planes_in_job: Vec<u32> = victims.iter().map(|&(p, _)| p).collect();
    if align(ftl, &planes_in_job).is_err() {
        // Cannot happen with PARALLEL_FREE_BLOCKS free blocks; collect serially if it does.
        return Some(job);
    }
    job.multi = Some(Box::new(ParallelJob {
        victims,
        plan: pagc_plan::plan(&slices),
        next: 0,
        cache,
        pending: Vec::new(),
    }));
    Some(job)
}

/// Brings the aligned write points of `planes` to one page offset by skipping pages in the ones
/// behind.
fn align(ftl: &mut Ftl, planes: &[u32]) -> Result<(), FtlError> {
    let target = planes
        .iter()
        .map(|&p| ftl.write_offset(p, Stream::Aligned))
        .max()
        .unwrap_or(0);
    for &p in planes {
        while ftl.write_offset(p, Stream::Aligned) < target {
            ftl.skip_page(p, Stream::Aligned)?;
        }
    }
    Ok(())
}

/// Moves `src` on its own: into the plane's GC write point, or (TC-PaGC) into the DRAM buffer.
fn single_move(
    ftl: &mut Ftl,
    job: &mut GcJob,
    src: Ppn,
    cache: bool,
) -> Result<Option<GcOp>, FtlError> {
    let Some(lpn) = ftl.reverse(src) else {
        return Ok(None);
    };
    job.moved += 1;
    ftl.counters.moves_by_class[MoveClass::SrrdSrwr as usize] += 1;
    if cache {
        ftl.buffer_out(src, lpn);
        return Ok(Some(GcOp::BufferRead { src }));
    }
    let dst = ftl.relocate_to(src, lpn, Stream::Gc)?;
    Ok(Some(GcOp::Move { src, dst }))
}

/// Dispatches the next operation of a parallel job.
fn dispatch_parallel(ftl: &mut Ftl, job: &mut GcJob) -> Result<Option<GcOp>, FtlError> {
    let geo = ftl.geometry().clone();
    loop {
        let m = job.multi.as_mut().expect("a parallel job");
        let cache = m.cache;
        if let Some(src) = m.pending.pop() {
            if let Some(op) = single_move(ftl, job, src, cache)? {
                return Ok(Some(op));
            }
            continue;
        }
        if m.next >= m.plan.steps.len() {
            break;
        }
        let step = m.plan.steps[m.next];
        m.next += 1;
        let srcs: Vec<Ppn> = step
            .pages()
            .iter()
            .map(|&(s, off)| {
                let (plane, block) = m.victims[s as usize];
                geo.ppn(plane, block, off as u32)
            })
            .filter(|&p| ftl.reverse(p).is_some())
            .collect();
        if step.class == MoveClass::SrrdSrwr || srcs.len() < 2 {
            // One page: moved alone (the page of a multi step whose partners vanished, too).
            m.pending.extend(srcs.iter().rev());
            continue;
        }
        // The pages whose planes' aligned write points share the most common offset go together;
        // the rest (drifted apart on dies of more than two planes) move alone.
        let offs: Vec<u32> = srcs
            .iter()
            .map(|&p| ftl.write_offset(geo.addr(p).plane, Stream::Aligned))
            .collect();
        let target = *offs
            .iter()
            .max_by_key(|&&o| {
                (
                    offs.iter().filter(|&&x| x == o).count(),
                    std::cmp::Reverse(o),
                )
            })
            .expect("at least two pages");
        type Placed = Vec<(Ppn, u32)>;
        let (group, rest): (Placed, Placed) = srcs
            .iter()
            .copied()
            .zip(offs)
            .partition(|&(_, o)| o == target);
        m.pending.extend(rest.iter().rev().map(|&(p, _)| p));
        if group.len() < 2 {
            m.pending.extend(group.iter().map(|&(p, _)| p));
            continue;
        }
        let group: Vec<Ppn> = group.into_iter().map(|(p, _)| p).collect();
        if step.class == MoveClass::PardPawr {
            check_multiplane(&geo, &group, true)
                .unwrap_or_else(|e| panic!("illegal multi-plane read: {e}"));
        }
        let mut op_src = [NO_PAGE; MAX_PLANES];
        let mut op_dst = [NO_PAGE; MAX_PLANES];
        for (i, &src) in group.iter().enumerate() {
            let lpn = ftl.reverse(src).expect("checked valid above");
            op_src[i] = src;
            op_dst[i] = ftl.relocate_to(src, lpn, Stream::Aligned)?;
        }
        let n = group.len();
        check_multiplane(&geo, &op_dst[..n], true)
            .unwrap_or_else(|e| panic!("illegal multi-plane program: {e}"));
        job.moved += n as u32;
        ftl.counters.moves_by_class[step.class as usize] += n as u64;
        let reads = if step.class == MoveClass::PardPawr {
            1
        } else {
            n as u8
        };
        return Ok(Some(GcOp::MultiMove {
            class: step.class,
            n: n as u8,
            reads,
            moved: n as u8,
            src: op_src,
            dst: op_dst,
        }));
    }
    if job.erase_issued {
        return Ok(None);
    }
    let m = job.multi.as_ref().expect("a parallel job");
    let mut blocks = [(0u32, 0u32); MAX_PLANES];
    for (i, &(p, b)) in m.victims.iter().enumerate() {
        ftl.begin_erase(p, b);
        blocks[i] = (p, b);
    }
    let bases: Vec<Ppn> = m.victims.iter().map(|&(p, b)| geo.ppn(p, b, 0)).collect();
    check_multiplane(&geo, &bases, false)
        .unwrap_or_else(|e| panic!("illegal multi-plane erase: {e}"));
    let n = m.victims.len() as u8;
    job.erase_issued = true;
    Ok(Some(GcOp::MultiErase { n, blocks }))
}

/// True when `plane` has buffered pages and the free blocks to commit one (a write point may need a
/// fresh block, and alignment may skip into another).
pub fn can_commit(ftl: &Ftl, plane: u32) -> bool {
    ftl.buffered_pages(plane) > 0 && ftl.free_blocks(plane) >= ftl.reserve_blocks()
}

/// Commits buffered pages of the die whose planes are `planes`: one page from each plane that has
/// any, with a multi-plane program into the aligned write points when two or more planes take part,
/// or a single program into the plane's GC write point otherwise. `None` when no plane can commit
/// ([`can_commit`]).
pub fn commit_buffered(ftl: &mut Ftl, planes: &[u32]) -> Result<Option<GcOp>, FtlError> {
    let with: Vec<u32> = planes
        .iter()
        .copied()
        .filter(|&p| can_commit(ftl, p))
        .take(MAX_PLANES)
        .collect();
    let mut dst = [NO_PAGE; MAX_PLANES];
    match with.len() {
        0 => Ok(None),
        1 => {
            let Some((_, d)) = ftl.commit_buffered(with[0], Stream::Gc)? else {
                return Ok(None);
            };
            dst[0] = d;
            Ok(Some(GcOp::Commit { n: 1, dst }))
        }
        n => {
            align(ftl, &with)?;
            for (i, &p) in with.iter().enumerate() {
                let Some((_, d)) = ftl.commit_buffered(p, Stream::Aligned)? else {
                    unreachable!("plane {p} reported buffered pages");
                };
                dst[i] = d;
            }
            check_multiplane(ftl.geometry(), &dst[..n], true)
                .unwrap_or_else(|e| panic!("illegal multi-plane program: {e}"));
            Ok(Some(GcOp::Commit { n: n as u8, dst }))
        }
    }
}

/// [`dispatch_next`] of a parallel (PaGC) or planned job, or of a log-block FTL's merge.
#[inline(never)]
fn dispatch_other(ftl: &mut Ftl, job: &mut GcJob) -> Result<Option<GcOp>, FtlError> {
    if job.multi.is_some() {
        dispatch_parallel(ftl, job)
    } else if job.planned.is_some() {
        dispatch_planned(ftl, job)
    } else {
        dispatch_merge(ftl, job)
    }
}

/// Pages of its victim a job's move looks ahead to fetch the L2P entry of a later move into the
/// cache ([`Ftl::prefetch_relocation`]): a hint that changes no result.
const RELOCATION_LOOKAHEAD: u32 = 8;

/// Dispatches the job's next operation, applying its effect on the mapping: a move relocates its page
/// now; an erase marks the block erasing. `Ok(None)` when the job has no operation left.
#[inline]
pub fn dispatch_next(ftl: &mut Ftl, job: &mut GcJob) -> Result<Option<GcOp>, FtlError> {
    if job.multi.is_some() | job.planned.is_some() | job.merge.is_some() {
        return dispatch_other(ftl, job);
    }
    if job.erase_issued {
        return Ok(None);
    }
    if let Some((page, lpn)) = ftl.next_valid_in_block(job.plane, job.block, job.cursor) {
        let geo = ftl.geometry();
        let src = geo.ppn(job.plane, job.block, page);
        // The L2P entries the moves rewrite are random: fetch them `RELOCATION_LOOKAHEAD` pages
        // ahead of the move (the first ones when the job starts).
        let ppb = geo.pages_per_block;
        if job.cursor == 0 {
            for p in page + 1..(page + RELOCATION_LOOKAHEAD).min(ppb) {
                ftl.prefetch_relocation(src - page + p);
            }
        }
        if page + RELOCATION_LOOKAHEAD < ppb {
            ftl.prefetch_relocation(src + RELOCATION_LOOKAHEAD);
        }
        let dst = ftl.relocate(src, lpn)?;
        job.cursor = page + 1;
        job.moved += 1;
        return Ok(Some(GcOp::Move { src, dst }));
    }
    job.cursor = ftl.geometry().pages_per_block;
    ftl.begin_erase(job.plane, job.block);
    job.erase_issued = true;
    Ok(Some(GcOp::Erase {
        plane: job.plane,
        block: job.block,
    }))
}

/// Carries out at once the moves of a job of one victim (neither parallel, planned nor a merge)
/// that nothing may come between — a copyback job holding its die, or an instant collection —
/// leaving its erase to [`dispatch_next`]: the mapping ends as after the same calls of
/// [`dispatch_next`] one by one, and the moves are returned as a count, each a
/// [`GcOp::Move`]. Other jobs, and a job past its moves, are left as they are (0 moves). On a
/// failure, the moves done before it and the failure.
#[inline]
pub fn dispatch_moves(ftl: &mut Ftl, job: &mut GcJob) -> (u32, Option<FtlError>) {
    if job.multi.is_some() | job.planned.is_some() | job.merge.is_some() | job.erase_issued {
        return (0, None);
    }
    let m = ftl.relocate_block(job.plane, job.block, job.cursor);
    job.cursor = m.next;
    job.moved += m.moved;
    (m.moved, m.error)
}

/// Dispatches the move of valid page `src` of a (single-plane) job's victim out of order, ahead of
/// the pages before it (merging, preemptible-GC paper §III-B). The page is remapped now like any
/// move; the job's scan later finds it invalid and skips it. `Ok(None)` when `src` is not a valid page
/// of the job's victim or the job is parallel or a merge (whose copies go to fixed pages in order).
pub fn dispatch_page(ftl: &mut Ftl, job: &mut GcJob, src: Ppn) -> Result<Option<GcOp>, FtlError> {
    let a = ftl.geometry().addr(src);
    if job.multi.is_some() || job.merge.is_some() || !job.collects(a.plane, a.block) {
        return Ok(None);
    }
    let Some(lpn) = ftl.reverse(src) else {
        return Ok(None);
    };
    let dst = match &job.planned {
        // Its pair is dropped when the plan reaches it (the page is then invalid).
        Some(p) => planned_move(ftl, src, lpn, p.how.parity)?,
        None => {
            debug_assert!(a.page >= job.cursor, "a valid page behind the job's scan");
            ftl.relocate(src, lpn)?
        }
    };
    job.moved += 1;
    Ok(Some(GcOp::Move { src, dst }))
}

/// Merges a host write of the valid page `src` into job `job`'s move of it (preemptible-GC paper
/// §III-B, Table III): the host data goes into the move's page buffer and is programmed once, at
/// the plane's GC write point, as a host page; the old copy becomes invalid and the job's scan
/// skips it (no move of it is counted). Returns the page written, or `None` when `src` is not a
/// valid page the (single-plane) job still has to move.
pub fn merge_write(ftl: &mut Ftl, job: &GcJob, src: Ppn) -> Result<Option<Ppn>, FtlError> {
    let a = ftl.geometry().addr(src);
    if job.multi.is_some() || !job.collects(a.plane, a.block) {
        return Ok(None);
    }
    let Some(lpn) = ftl.reverse(src) else {
        return Ok(None);
    };
    debug_assert!(a.page >= job.cursor, "a valid page behind the job's scan");
    ftl.host_write_to(lpn, Stream::Gc).map(Some)
}

/// Completes an operation whose time has elapsed.
pub fn complete(ftl: &mut Ftl, op: GcOp) {
    match op {
        GcOp::Erase { plane, block } => ftl.finish_erase(plane, block),
        GcOp::MultiErase { n, blocks } => {
            for &(p, b) in &blocks[..n as usize] {
                ftl.finish_erase(p, b);
            }
        }
        GcOp::EraseBlocks { plane, n, blocks } => {
            for &b in &blocks[..n as usize] {
                ftl.finish_erase(plane, b);
            }
        }
        _ => {}
    }
}

impl GcOp {
    /// True for the operation that ends a job (its erase).
    pub fn is_erase(&self) -> bool {
        matches!(
            self,
            GcOp::Erase { .. } | GcOp::MultiErase { .. } | GcOp::EraseBlocks { .. }
        )
    }
}

/// Runs one whole job in `plane` at once, with no simulated time: for preconditioning and for the
/// zero-latency oracle. Returns the job, or `None` when the plane has no candidate.
pub fn collect_now(
    ftl: &mut Ftl,
    plane: u32,
    rng: &mut SimRng,
    now: SimTime,
) -> Result<Option<GcJob>, FtlError> {
    let Some(mut job) = start_job(ftl, plane, rng, now) else {
        return Ok(None);
    };
    if let (_, Some(e)) = dispatch_moves(ftl, &mut job) {
        return Err(e);
    }
    while let Some(op) = dispatch_next(ftl, &mut job)? {
        // Only erases have anything to complete (moves change the mapping at dispatch).
        match op {
            GcOp::Erase { plane, block } => ftl.finish_erase(plane, block),
            GcOp::MultiErase { .. } => complete(ftl, op),
            _ => {}
        }
    }
    Ok(Some(job))
}
