//! Planned jobs (parallel page migration, IPPBE, copyback parity; parallel-page-migration paper
//! §IV): a job pairs its victims' valid pages with destination pages once, when it starts, and
//! moves them in waves ([`GcOp::Wave`]), then erases its victims ([`GcOp::EraseBlocks`]).

use super::*;

/// Starts a planned job in `plane` (parallel migration, IPPBE, copyback parity: `how`), or `None`
/// when the plane has no candidate. The victim policy chooses up to `how.erase_blocks` victims,
/// each further one only while the plane can spend the pages any further victim may need
/// ([`migration::ippbe`]); their valid pages are paired with destination pages once, now
/// ([`migration::parallel::pair`]).
pub fn start_planned_job(
    ftl: &mut Ftl,
    plane: u32,
    rng: &mut SimRng,
    now: SimTime,
    how: InPlane,
) -> Option<GcJob> {
    let mut job = start_job(ftl, plane, rng, now)?;
    let geo = ftl.geometry().clone();
    let valid_of = |ftl: &Ftl, b: u32| {
        let mut v = Vec::new();
        let mut from = 0;
        while let Some((page, _)) = ftl.next_valid_in_block(plane, b, from) {
            v.push(page);
            from = page + 1;
        }
        v
    };
    let first = ftl.write_offset(plane, Stream::Gc);
    let mut victims = vec![job.block];
    let mut offsets = valid_of(ftl, job.block);
    let mut pairing = migration::parallel::pair(&offsets, first, how.parity);
    let room = migration::ippbe::room(ftl, plane);
    while victims.len() < how.erase_blocks as usize
        && migration::ippbe::fits(pairing.consumed, geo.pages_per_block, room)
    {
        let Some(b) = ftl.choose_victim(plane, rng) else {
            break;
        };
        victims.push(b);
        offsets.extend(valid_of(ftl, b));
        pairing = migration::parallel::pair(&offsets, first, how.parity);
    }
    job.valid_at_pick = offsets.len() as u32;
    // Every valid page of the victims (victim after victim, page order within each), then the
    // pairs in move order.
    let mut sources = Vec::with_capacity(offsets.len());
    let mut i = 0;
    for &b in &victims {
        let n = ftl.valid_pages(plane * geo.blocks_per_plane + b) as usize;
        sources.extend(
            offsets[i..i + n]
                .iter()
                .map(|&page| geo.ppn(plane, b, page)),
        );
        i += n;
    }
    let pairs: Vec<(Ppn, u32)> = pairing
        .pairs
        .iter()
        .map(|&(src, slot)| (sources[src as usize], slot))
        .collect();
    debug_assert_eq!(pairs.len(), offsets.len());
    job.planned = Some(Box::new(PlannedJob {
        victims,
        pairs,
        next: 0,
        highest: None,
        consumed: pairing.consumed,
        how,
    }));
    Some(job)
}

/// Moves valid page `src` (holding `lpn`) of a planned job to the plane's GC write point, first
/// skipping a page when its parity must match and does not (`in-order`).
pub(super) fn planned_move(
    ftl: &mut Ftl,
    src: Ppn,
    lpn: u32,
    parity: Parity,
) -> Result<Ppn, FtlError> {
    if parity == Parity::InOrder {
        let a = ftl.geometry().addr(src);
        if ftl.write_offset(a.plane, Stream::Gc) % 2 != a.page % 2 {
            ftl.skip_for_parity(a.plane, Stream::Gc)?;
        }
        debug_assert_eq!(ftl.write_offset(a.plane, Stream::Gc) % 2, a.page % 2);
    }
    ftl.relocate(src, lpn)
}

/// Dispatches the next operation of a planned job: a wave of up to `workers` moves (one move alone
/// is an ordinary move), then the erase of its victims.
pub(super) fn dispatch_planned(ftl: &mut Ftl, job: &mut GcJob) -> Result<Option<GcOp>, FtlError> {
    if job.erase_issued {
        return Ok(None);
    }
    let p = job.planned.as_mut().expect("a planned job");
    let mut src = [NO_PAGE; MAX_REGISTERS as usize];
    let mut dst = [NO_PAGE; MAX_REGISTERS as usize];
    let mut n = 0;
    while n < p.how.workers as usize && p.next < p.pairs.len() {
        let (s, slot) = p.pairs[p.next];
        p.next += 1;
        // A page a host write invalidated since the job started: its pair is dropped.
        let Some(lpn) = ftl.reverse(s) else {
            continue;
        };
        if p.how.parity == Parity::Paper {
            if p.highest.is_some_and(|h| slot < h) {
                ftl.counters.out_of_order_pairs += 1;
            }
            p.highest = Some(p.highest.map_or(slot, |h| h.max(slot)));
        }
        src[n] = s;
        dst[n] = planned_move(ftl, s, lpn, p.how.parity)?;
        n += 1;
    }
    job.moved += n as u32;
    match n {
        0 => {}
        1 => {
            return Ok(Some(GcOp::Move {
                src: src[0],
                dst: dst[0],
            }))
        }
        _ => {
            return Ok(Some(GcOp::Wave {
                n: n as u8,
                src,
                dst,
            }))
        }
    }
    job.erase_issued = true;
    let plane = job.plane;
    if p.victims.len() == 1 {
        ftl.begin_erase(plane, job.block);
        return Ok(Some(GcOp::Erase {
            plane,
            block: job.block,
        }));
    }
    let mut blocks = [0u32; MAX_ERASE_BLOCKS as usize];
    for (i, &b) in p.victims.iter().enumerate() {
        ftl.begin_erase(plane, b);
        blocks[i] = b;
    }
    Ok(Some(GcOp::EraseBlocks {
        plane,
        n: p.victims.len() as u8,
        blocks,
    }))
}
