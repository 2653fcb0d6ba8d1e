//! IPPBE, intra-plane parallel block erase (`gc.erase_blocks = k`): Garrett, Yang, Zhang,
//! "Enabling intra-plane parallel block erase in NAND flash to alleviate the impact of garbage
//! collection", ISLPED 2018 — ref. \[15\] of the parallel-page-migration paper, which describes it
//! (§II-F: "erasing more than one block does not incur additional time") and compares against it
//! with two blocks per erase (§V-C, Fig. 5, Table 4).
//!
//! A job collects up to `k` victims of one plane, chosen one after another by the victim policy
//! (greedy: the `k` blocks with the fewest valid pages), migrates the valid pages of all of them
//! (serially, or with parallel workers: the two combine as the paper's §IV-D-4 proposes), then
//! erases them with one multi-block erase command for one erase latency (`cmd + erase`; the resource
//! model's `FlashOp::erase_blocks`). The paper does not say how IPPBE picks its victims; the `k`
//! greediest at each trigger is ssdgc's reading.
//!
//! A further victim is chosen only while the plane can spend, before the erase returns its blocks,
//! the destination pages of the victims chosen so far and of any further one ([`fits`]): two blocks'
//! worth, enough for a block of valid pages and the pages the in-order parity restriction may skip
//! ([`room`]: the GC write point's open block and the free blocks beyond the plane's reserve for its
//! write points). A victim, once chosen, is kept: the policy's order is not disturbed. So a job
//! never runs its plane out of free blocks, and with `k = 1`, or on a plane short of free blocks,
//! it is the plain job of one victim.
//!
//! When not to use it: on a chip without the multi-block erase command. IPPBE gains when it saves
//! erase time (victims with few valid pages) or migrations (Table 4); a job of `k` victims also
//! holds its die `k` times as long, which a read-intensive workload pays for (§V-C-2).

use crate::ftl::{Ftl, Stream};

/// Destination pages plane `plane` can program before the job's erase returns its victims: the
/// rest of its GC write point's open block (none when it is at a block's first page — conservative:
/// that block may not be open yet) and the pages of its free blocks beyond the reserve the write
/// points need.
pub fn room(ftl: &Ftl, plane: u32) -> u64 {
    let ppb = ftl.geometry().pages_per_block as u64;
    let open = match ftl.write_offset(plane, Stream::Gc) as u64 {
        0 => 0,
        w => ppb - w,
    };
    let spare = ftl.free_blocks(plane).saturating_sub(ftl.reserve_blocks()) as u64;
    open + spare * ppb
}

/// True when a job whose victims so far need `consumed` destination pages (programmed or skipped)
/// may take a further victim of blocks of `pages_per_block` pages: the pages of all of them fit in
/// `room`, whatever the further one holds.
pub fn fits(consumed: u32, pages_per_block: u32, room: u64) -> bool {
    consumed as u64 + 2 * pages_per_block as u64 <= room
}
