//! Parallel page migration (`gc.migration = "parallel"`, `gc.workers = k`): Zhu, Han, Son, "A
//! Preliminary Study: Towards Parallel Garbage Collection for NAND Flash-Based SSDs", IEEE Access 8,
//! 2020 (`parallel-page-migration-gc.txt`), §IV-B (N register sets per die and N data registers per
//! plane, Fig. 3), §IV-D (Fig. 4) and §IV-E (Algorithms 2–4).
//!
//! A job scans its victim once and the plane's active GC block once, and pairs every valid page
//! with a destination page before any page moves (Algorithm 2, lines 15–24; [`pair`]): the address
//! pairs are computed once per job. `k` workers then take the pairs in array order, each moving
//! one page at a time on its own page register (Algorithm 4's `fetch_and_add`); the victim is erased
//! after the last move. With every move taking the same time, the workers advance in *waves* of up
//! to `k` consecutive pairs, and ssdgc issues each wave as one operation (`GcOp::Wave`, the shared
//! mechanism in [`crate::gc`]) holding `n ≤ k` registers of the plane; the resource model
//! ([`crate::flash::resources`]) times it by what the registers share (`geometry.register_sharing`).
//! A job of `v` valid pages thus takes, with copyback and nothing shared (the paper's idealised
//! architecture, "the interleaving time is negligible", §IV-B):
//!
//! ```text
//! ⌈v / k⌉ · (2·cmd + read + program) + cmd + erase
//! ```
//!
//! with `command` sharing each wave of `n` pages takes `2·n·cmd + read + program`, and with
//! `array` sharing `n · (2·cmd + read + program)` (no gain). Without copyback (global migration,
//! §IV-D-3: read out over the channel and written back) a wave of `n` pages takes its reads
//! together, `2n` transfers back to back on the channel, then its programs together. A worker that
//! would finish early does not start its next pair before the wave ends: exact with copyback and no
//! contention, a slight overestimate when transfers queue on the channel.
//!
//! **Copyback parity** (`gc.copyback_parity`, §IV-D-1, Algorithm 3). With `paper`, each valid page
//! is paired with the lowest free page of its parity in the active block and the workers take the
//! pairs in source order (Fig. 4a: valid pages 1, 2, 4 give <1,1>, <2,0>, <4,2>). Page 0 is then
//! programmed after page 1, which NAND forbids (a block's pages are programmed in order); ssdgc
//! counts such pairs (`out_of_order_pairs`) and, since it does not model where inside a block a
//! page lands, programs the job's pages in order: the paper's pairing leaves no page unused (the
//! free pages it skips take later jobs' pages). With `in-order` (legal NAND) the same kind of
//! pairs are moved in program order: each destination page takes the next valid page of its
//! parity, and is skipped — left unprogrammed, counted as wasted — when only pages of the other
//! parity are left (Fig. 4a: <2,0>, <1,1>, <4,2>, nothing wasted; pages 1, 3, 5 on a fresh block:
//! pages 0, 2, 4 wasted). The mechanism skips by the same rule when it dispatches each move, so a
//! held job moves exactly the planned pairs; when a host write invalidates a planned source in
//! between (preemptible jobs), its pair is dropped and the pairs after it take the next pages.
//!
//! When not to use it: to model a chip with one data register per plane (the registers are the
//! paper's proposal, "there is no physical prototype", §IV-C-2); and keep `register_sharing =
//! "none"` for the paper's figures only, since it assumes N array operations of one plane overlap
//! fully (§IV-C-3 cites multi-page programming architectures for it).

use super::Parity;

/// The pairing of a job's valid pages with destination pages (Algorithm 2, lines 15–24), in the
/// order the workers move them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// `(source, slot)` in move order: `source` indexes the valid pages given, `slot` is the
    /// destination's position among the destination pages in program order (0 = the GC write
    /// point's next page).
    pub pairs: Vec<(u32, u32)>,
    /// Destination pages the job consumes: programmed, or skipped (`in-order`).
    pub consumed: u32,
    /// Destination pages skipped to keep parity (`in-order`).
    pub wasted: u32,
    /// Pairs moved to a destination before one already programmed (`paper`): the programs NAND
    /// forbids.
    pub out_of_order: u32,
}

/// Pairs valid pages at page offsets `sources` (in page order) with destination slots, for a GC
/// write point whose next page is at an offset of parity `first % 2` (slot `s` has the parity of
/// `first + s`; blocks have an even number of pages when `parity` restricts).
///
/// - `none`: the `i`-th source to slot `i`, in order.
/// - `paper` (Algorithm 3): in source order (the workers' array order), each source to the lowest
///   free slot of its parity; a pair below a slot already programmed is out of order.
/// - `in-order`: the same pages, moved in slot order: each slot takes the next source of its
///   parity, and is skipped (wasted) when none of that parity is left but some of the other is.
///   Only the imbalance between odd and even sources wastes pages; with Fig. 4a's pages 1, 2, 4 it
///   gives the paper's pairs, moved as <2,0>, <1,1>, <4,2>.
pub fn pair(sources: &[u32], first: u32, parity: Parity) -> Pairing {
    let n = sources.len() as u32;
    let slot_parity = |s: u32| ((first + s) % 2) as usize;
    let (mut wasted, mut out_of_order) = (0, 0);
    let (pairs, consumed) = match parity {
        Parity::None => ((0..n).map(|i| (i, i)).collect(), n),
        Parity::Paper => {
            // FIRST_FREE_PAGE(pages_info, odd / even): the lowest free slot of each parity.
            let mut lowest = [0u32; 2];
            lowest[slot_parity(0)] = 0;
            lowest[1 - slot_parity(0)] = 1;
            let mut highest: Option<u32> = None;
            let mut pairs = Vec::with_capacity(sources.len());
            for (i, &p) in sources.iter().enumerate() {
                let q = (p % 2) as usize;
                let s = lowest[q];
                lowest[q] += 2;
                if highest.is_some_and(|h| s < h) {
                    out_of_order += 1;
                }
                highest = Some(highest.map_or(s, |h| h.max(s)));
                pairs.push((i as u32, s));
            }
            // The idealised pairing leaves no page unused: its holes take later pages.
            (pairs, n)
        }
        Parity::InOrder => {
            let mut by_parity: [std::collections::VecDeque<u32>; 2] = Default::default();
            for (i, &p) in sources.iter().enumerate() {
                by_parity[(p % 2) as usize].push_back(i as u32);
            }
            let mut pairs = Vec::with_capacity(sources.len());
            let mut slot = 0u32;
            while !(by_parity[0].is_empty() && by_parity[1].is_empty()) {
                match by_parity[slot_parity(slot)].pop_front() {
                    Some(i) => pairs.push((i, slot)),
                    None => wasted += 1,
                }
                slot += 1;
            }
            (pairs, slot)
        }
    };
    Pairing {
        pairs,
        consumed,
        wasted,
        out_of_order,
    }
}

/// The waves of a job of `pairs` pairs with `workers` workers: `⌈pairs / workers⌉`, each of at most
/// `workers` consecutive pairs (the last may be smaller).
pub fn waves(pairs: u32, workers: u8) -> u32 {
    pairs.div_ceil(workers.max(1) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(source page, destination slot)` in move order.
    fn moves(sources: &[u32], first: u32, parity: Parity) -> Vec<(u32, u32)> {
        pair(sources, first, parity)
            .pairs
            .iter()
            .map(|&(i, s)| (sources[i as usize], s))
            .collect()
    }

    /// Fig. 4a: valid pages 1, 2, 4 of the victim, an active block with every page free.
    #[test]
    fn the_papers_pairing_of_fig_4a() {
        assert_eq!(
            moves(&[1, 2, 4], 0, Parity::Paper),
            vec![(1, 1), (2, 0), (4, 2)]
        );
        let p = pair(&[1, 2, 4], 0, Parity::Paper);
        assert_eq!((p.consumed, p.wasted, p.out_of_order), (3, 0, 1));
        // In program order, the same pairs, legal.
        assert_eq!(
            moves(&[1, 2, 4], 0, Parity::InOrder),
            vec![(2, 0), (1, 1), (4, 2)]
        );
        let p = pair(&[1, 2, 4], 0, Parity::InOrder);
        assert_eq!((p.consumed, p.wasted, p.out_of_order), (3, 0, 0));
    }

    #[test]
    fn in_order_pairing_wastes_only_the_parity_imbalance() {
        // Three odd pages on a fresh block: slots 0, 2 and 4 are skipped.
        assert_eq!(
            moves(&[1, 3, 5], 0, Parity::InOrder),
            vec![(1, 1), (3, 3), (5, 5)]
        );
        let p = pair(&[1, 3, 5], 0, Parity::InOrder);
        assert_eq!((p.consumed, p.wasted), (6, 3));
        // A write point at an odd offset: slot 0 is odd.
        assert_eq!(
            moves(&[1, 2, 4], 3, Parity::InOrder),
            vec![(1, 0), (2, 1), (4, 3)]
        );
        for first in 0..4 {
            let src = [0, 3, 5, 6, 7, 9, 12, 13, 15];
            let p = pair(&src, first, Parity::InOrder);
            let m = moves(&src, first, Parity::InOrder);
            // Every page moves once, to a slot of its parity, in program order.
            let mut seen: Vec<u32> = m.iter().map(|&(s, _)| s).collect();
            seen.sort_unstable();
            assert_eq!(seen, src.to_vec());
            for &(s, d) in &m {
                assert_eq!((first + d) % 2, s % 2, "first {first}");
            }
            assert!(m.windows(2).all(|w| w[0].1 < w[1].1), "programmed in order");
            assert_eq!(p.consumed, m.last().unwrap().1 + 1);
            // Six odd pages, three even: the imbalance of three is wasted, give or take the first slot.
            assert!(p.wasted <= 3, "{}", p.wasted);
            assert_eq!(p.consumed, src.len() as u32 + p.wasted);
        }
    }

    #[test]
    fn paper_pairing_keeps_parity_and_uses_each_page_once() {
        for first in 0..2 {
            let src = [1, 3, 5, 7, 8];
            let m = moves(&src, first, Parity::Paper);
            for &(s, d) in &m {
                assert_eq!((first + d) % 2, s % 2);
            }
            let mut d: Vec<u32> = m.iter().map(|&(_, d)| d).collect();
            d.sort_unstable();
            d.dedup();
            assert_eq!(d.len(), src.len());
        }
        // Four odd pages then an even one: the even page goes to slot 0, after slot 7.
        assert_eq!(
            moves(&[1, 3, 5, 7, 8], 0, Parity::Paper),
            vec![(1, 1), (3, 3), (5, 5), (7, 7), (8, 0)]
        );
        assert_eq!(pair(&[1, 3, 5, 7, 8], 0, Parity::Paper).out_of_order, 1);
    }

    #[test]
    fn without_restriction_pairs_are_in_order() {
        assert_eq!(
            moves(&[1, 2, 4], 0, Parity::None),
            vec![(1, 0), (2, 1), (4, 2)]
        );
        let p = pair(&[1, 2, 4], 0, Parity::None);
        assert_eq!((p.consumed, p.wasted), (3, 0));
        assert_eq!(waves(27, 4), 7);
        assert_eq!(waves(28, 4), 7);
        assert_eq!(waves(0, 4), 0);
        assert_eq!(waves(5, 1), 5);
    }
}
