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

pub mod pagc_plan;
pub mod scheme;
pub mod victim;

use crate::ftl::{Ftl, FtlError};
use crate::rng::SimRng;
use crate::units::{Ppn, SimTime};

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
}

/// One flash operation of a GC job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcOp {
    /// Move a valid page inside its plane (copyback, or read out and write back).
    Move { src: Ppn, dst: Ppn },
    /// Erase the (now empty) victim.
    Erase { plane: u32, block: u32 },
}

impl GcOp {
    /// The plane the operation works on.
    pub fn plane(&self, geo: &crate::flash::Geometry) -> u32 {
        match *self {
            GcOp::Move { src, .. } => geo.addr(src).plane,
            GcOp::Erase { plane, .. } => plane,
        }
    }
}

impl GcJob {
    /// True once the erase has been dispatched (no operation remains).
    pub fn erase_issued(&self) -> bool {
        self.erase_issued
    }
}

/// Chooses a victim in `plane` and starts a job for it, or `None` when the plane has no candidate.
pub fn start_job(ftl: &mut Ftl, plane: u32, rng: &mut SimRng, now: SimTime) -> Option<GcJob> {
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
    })
}

/// Dispatches the job's next operation, applying its effect on the mapping: a move relocates its page
/// now; an erase marks the block erasing. `Ok(None)` when the job has no operation left.
pub fn dispatch_next(ftl: &mut Ftl, job: &mut GcJob) -> Result<Option<GcOp>, FtlError> {
    if job.erase_issued {
        return Ok(None);
    }
    if let Some((page, lpn)) = ftl.next_valid_in_block(job.plane, job.block, job.cursor) {
        let src = ftl.geometry().ppn(job.plane, job.block, page);
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

/// Completes an operation whose time has elapsed.
pub fn complete(ftl: &mut Ftl, op: GcOp) {
    if let GcOp::Erase { plane, block } = op {
        ftl.finish_erase(plane, block);
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
    while let Some(op) = dispatch_next(ftl, &mut job)? {
        complete(ftl, op);
    }
    Ok(Some(job))
}
