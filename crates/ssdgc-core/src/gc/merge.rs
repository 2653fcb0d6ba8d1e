//! Merge jobs of the log-block FTLs (`ftl.mapping = "lftl"` or `"hftl"`): the FTL plans a merge
//! ([`Ftl::plan_merge`]: which group, which page goes where, which blocks are erased) and the job
//! carries out its copies as [`GcOp::Move`]s, then its erases (module docs of [`super`]).

use super::*;

/// Starts a job for the merge the log-block FTL plans in `plane`, or `None` when it has no group to
/// merge. `block` is the first block the merge erases; `valid_at_pick` the pages it copies.
///
/// A merge with no flash operation (an update block written in order becomes the data block of a
/// logical block that had none: a switch or partial merge with nothing to copy or erase) is done
/// when it is planned; the FTL then plans the next one — unless the plane needed GC and no longer
/// does (`None`: the need was met without flash work). A job always has an operation, so a
/// trigger that starts jobs until its plane is served never spins on empty ones.
#[inline(never)]
pub fn start_merge(ftl: &mut Ftl, plane: u32, rng: &mut SimRng, now: SimTime) -> Option<GcJob> {
    let needed = ftl.needs_gc(plane);
    // Each empty merge takes one group off the candidates: bounded by the plane's blocks.
    for _ in 0..=ftl.geometry().blocks_per_plane {
        let plan = ftl.plan_merge(plane, rng)?;
        debug_assert_eq!(plan.plane, plane);
        if plan.copies.is_empty() && plan.erase.is_empty() {
            if needed && !ftl.needs_gc(plane) {
                return None;
            }
            continue;
        }
        return Some(merge_job(plan, now));
    }
    None
}

/// Starts a job for the merge of group `group` of `plane`, a group [`Ftl::merge_candidate`]
/// returned (a scheme that weighs a merge before it is planned: AGC's look-ahead GC, AGC/DGC paper
/// §5.1). `None` when the merge has no flash operation (done when planned) or the group cannot be
/// merged.
#[inline(never)]
pub fn start_group_merge(ftl: &mut Ftl, plane: u32, group: u32, now: SimTime) -> Option<GcJob> {
    let plan = ftl.plan_group_merge(plane, group)?;
    debug_assert_eq!(plan.plane, plane);
    (!plan.copies.is_empty() || !plan.erase.is_empty()).then(|| merge_job(plan, now))
}

/// The job carrying out `plan`: `block` is the first block it erases, `valid_at_pick` the pages it
/// copies.
fn merge_job(plan: MergePlan, now: SimTime) -> GcJob {
    GcJob {
        plane: plan.plane,
        block: plan.erase.first().copied().unwrap_or(u32::MAX),
        valid_at_pick: plan.copies.len() as u32,
        moved: 0,
        started: now,
        cursor: 0,
        erase_issued: false,
        multi: None,
        planned: None,
        merge: Some(Box::new(MergeJob {
            plan,
            copy: 0,
            erase: 0,
        })),
    }
}

/// Dispatches the next operation of a merge: its next page copy that still applies (a copy whose
/// page a host write superseded during the merge is skipped), then its erases one by one.
#[inline(never)]
pub(super) fn dispatch_merge(ftl: &mut Ftl, job: &mut GcJob) -> Result<Option<GcOp>, FtlError> {
    let m = job.merge.as_mut().expect("a merge job");
    let kind = m.plan.kind;
    while let Some(&c) = m.plan.copies.get(m.copy) {
        m.copy += 1;
        if ftl.merge_copy(kind, c) {
            job.moved += 1;
            return Ok(Some(GcOp::Move {
                src: c.src,
                dst: c.dst,
            }));
        }
    }
    let Some(&block) = m.plan.erase.get(m.erase) else {
        job.erase_issued = true;
        return Ok(None);
    };
    m.erase += 1;
    ftl.merge_erase(kind, job.plane, block);
    job.erase_issued = m.erase == m.plan.erase.len();
    Ok(Some(GcOp::Erase {
        plane: job.plane,
        block,
    }))
}
