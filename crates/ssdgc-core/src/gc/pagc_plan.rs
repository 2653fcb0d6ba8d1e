//! Migration planner for parallel GC (PaGC) across the planes of one die.
//!
//! In PaGC, when one plane of a die collects, the other planes of the die collect at the same time,
//! each with its own victim block. The valid pages of the victims are moved in three classes, in this
//! order, and the victims are then erased with one multi-plane erase (not part of the plan):
//!
//! 1. **PaRD-PaWR** ([`MoveClass::PardPawr`]): pages at the *same* page offset in the victims of
//!    several planes. One multi-plane read brings them into the planes' registers and one
//!    multi-plane program writes them into the planes' *aligned* active blocks (whose write points
//!    are kept at the same offset across planes). Cost: one read + one write.
//! 2. **SrRD-PaWR** ([`MoveClass::SrrdPawr`]): remaining pages of different planes, at different
//!    offsets, grouped together. Each is read with a single-plane read, then one multi-plane program
//!    writes the group into the aligned active blocks. Cost of a group of `n` pages: `n` reads + one
//!    write.
//! 3. **SrRD-SrWR** ([`MoveClass::SrrdSrwr`]): pages left over once only one plane has pages to
//!    move. Each is read and written alone, into its plane's *unaligned* active block. Cost: one
//!    read + one write per page.
//!
//! The plan is a pure function of the valid page offsets of the victims; it touches no FTL state.
//!
//! # Rules, for a die of any number of planes (up to [`MAX_PLANES`])
//!
//! Plane *slots* are indices into the `valid` argument of [`plan`].
//!
//! * **PaRD-PaWR.** Offsets are visited in increasing order. For an offset `o` that is valid in at
//!   least two slots, one step takes the page at `o` from *every* slot that has `o` valid (the pages
//!   share the offset, so one multi-plane read serves all of them; a multi-plane operation needs at
//!   least two planes). An offset valid in only one slot is left for the next classes.
//! * **SrRD-PaWR.** Among the pages not moved by PaRD-PaWR, while at least two slots still have pages,
//!   one step takes the lowest remaining page of each such slot (`n` = number of such slots; each page
//!   is read serially, then all are programmed together).
//! * **SrRD-SrWR.** Every remaining page is moved alone; by then at most one slot has pages left.
//!
//! Every valid page appears in exactly one step, each step takes at most one page per slot, and
//! within a slot pages are taken in increasing offset inside each class. The pages of a step are
//! listed in increasing slot order.
//!
//! For two planes with `K` and `L` valid pages this reproduces the paper's classes exactly: the number
//! of PaRD-PaWR steps is `Ka` = the number of common offsets, of SrRD-PaWR steps `Kb = min(K, L) − Ka`,
//! of SrRD-SrWR steps `Kc = |K − L|`, and [`Plan::cost`] is
//! `Ka·(T_RD + T_WR) + Kb·(2·T_RD + T_WR) + Kc·(T_RD + T_WR)`.
//!
//! # Cost
//!
//! [`plan`] runs in O(total valid pages × planes) time and allocates only the output vector.

/// Maximum planes per die a multi-plane plan supports.
pub const MAX_PLANES: usize = 8;

/// Class of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveClass {
    /// Multi-plane read of pages at the same offset, multi-plane program.
    PardPawr,
    /// Single-plane reads of pages at different offsets, one multi-plane program.
    SrrdPawr,
    /// Single-plane read and single-plane program of one page.
    SrrdSrwr,
}

/// One step of the migration: the pages it moves, one per participating plane at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub class: MoveClass,
    /// Number of pages moved (entries 0..n of `pages` are used).
    pub n: u8,
    /// (plane slot, page offset in that plane's victim) — plane slot = index into the `valid`
    /// argument of [`plan`]. Unused entries are `(0, 0)`.
    pub pages: [(u8, u16); MAX_PLANES],
}

impl Step {
    fn new(class: MoveClass) -> Self {
        Step {
            class,
            n: 0,
            pages: [(0, 0); MAX_PLANES],
        }
    }

    fn push(&mut self, slot: usize, offset: u16) {
        self.pages[self.n as usize] = (slot as u8, offset);
        self.n += 1;
    }

    /// The pages moved by this step, as (plane slot, page offset), in increasing slot order.
    pub fn pages(&self) -> &[(u8, u16)] {
        &self.pages[..self.n as usize]
    }

    /// Flash time of this step for page read time `t_rd` and program time `t_wr`.
    fn cost(&self, t_rd: u64, t_wr: u64) -> u64 {
        match self.class {
            MoveClass::PardPawr | MoveClass::SrrdSrwr => t_rd + t_wr,
            MoveClass::SrrdPawr => u64::from(self.n) * t_rd + t_wr,
        }
    }
}

/// The plan: steps in execution order (all PaRD-PaWR first, then SrRD-PaWR, then SrRD-SrWR).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub steps: Vec<Step>,
}

impl Plan {
    /// Number of steps of `class`.
    pub fn count(&self, class: MoveClass) -> usize {
        self.steps.iter().filter(|s| s.class == class).count()
    }

    /// Number of pages moved by the steps of `class`.
    pub fn pages(&self, class: MoveClass) -> usize {
        self.steps
            .iter()
            .filter(|s| s.class == class)
            .map(|s| s.n as usize)
            .sum()
    }

    /// Flash time of the migration (no erase), for page read time `t_rd` and program time `t_wr`, by
    /// the paper's cost model generalised: a PaRD-PaWR step costs `t_rd + t_wr`; a SrRD-PaWR step of
    /// `n` pages costs `n·t_rd + t_wr`; a SrRD-SrWR step costs `t_rd + t_wr`.
    pub fn cost(&self, t_rd: u64, t_wr: u64) -> u64 {
        self.steps.iter().map(|s| s.cost(t_rd, t_wr)).sum()
    }
}

/// Flash time of serial GC of one victim with `k` valid pages (no erase): one read and one program
/// per page.
pub fn serial_cost(k: usize, t_rd: u64, t_wr: u64) -> u64 {
    k as u64 * (t_rd + t_wr)
}

/// Plans the migration of the valid pages of one victim per participating plane. `valid[slot]` is
/// the sorted list (strictly increasing) of valid page offsets of that plane's victim.
///
/// # Panics
///
/// If more than [`MAX_PLANES`] slots are given.
pub fn plan(valid: &[&[u16]]) -> Plan {
    assert!(
        valid.len() <= MAX_PLANES,
        "PaGC plan over {} planes; at most {MAX_PLANES} supported",
        valid.len()
    );
    debug_assert!(
        valid.iter().all(|v| v.windows(2).all(|w| w[0] < w[1])),
        "valid offsets must be strictly increasing"
    );
    let p = valid.len();
    let total: usize = valid.iter().map(|v| v.len()).sum();
    let mut steps = Vec::with_capacity(total);

    // PaRD-PaWR: k-way merge over the offsets; an offset held by ≥ 2 slots makes one step.
    let mut cur = [0usize; MAX_PLANES];
    while let Some(o) = (0..p).filter_map(|s| valid[s].get(cur[s]).copied()).min() {
        let mut step = Step::new(MoveClass::PardPawr);
        for (s, v) in valid.iter().enumerate() {
            if v.get(cur[s]) == Some(&o) {
                step.push(s, o);
                cur[s] += 1;
            }
        }
        if step.n >= 2 {
            steps.push(step);
        }
    }

    // The remaining pages of each slot are its offsets held by no other slot; walk them lazily.
    let mut pos = [0usize; MAX_PLANES];
    let mut probe = [[0usize; MAX_PLANES]; MAX_PLANES];

    // SrRD-PaWR: the lowest remaining page of every slot that has one, while ≥ 2 slots do.
    loop {
        let mut step = Step::new(MoveClass::SrrdPawr);
        for s in 0..p {
            if let Some(o) = next_unshared(valid, s, &mut pos[s], &mut probe[s]) {
                step.push(s, o);
            }
        }
        if step.n < 2 {
            break;
        }
        for &(s, _) in step.pages() {
            pos[s as usize] += 1;
        }
        steps.push(step);
    }

    // SrRD-SrWR: whatever is left (in one slot at most), one page at a time.
    for s in 0..p {
        while let Some(o) = next_unshared(valid, s, &mut pos[s], &mut probe[s]) {
            let mut step = Step::new(MoveClass::SrrdSrwr);
            step.push(s, o);
            steps.push(step);
            pos[s] += 1;
        }
    }

    Plan { steps }
}

/// Advances `pos` in `valid[slot]` past offsets that another slot also holds and returns the offset
/// at `pos`, or `None` at the end. `probe[t]` is this slot's monotone cursor into `valid[t]`, so the
/// whole walk of one slot costs O(Σ lengths).
fn next_unshared(
    valid: &[&[u16]],
    slot: usize,
    pos: &mut usize,
    probe: &mut [usize; MAX_PLANES],
) -> Option<u16> {
    'page: while let Some(&o) = valid[slot].get(*pos) {
        for (t, other) in valid.iter().enumerate() {
            if t == slot {
                continue;
            }
            let q = &mut probe[t];
            while other.get(*q).is_some_and(|&x| x < o) {
                *q += 1;
            }
            if other.get(*q) == Some(&o) {
                *pos += 1;
                continue 'page;
            }
        }
        return Some(o);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use MoveClass::{PardPawr, SrrdPawr, SrrdSrwr};

    fn class_rank(c: MoveClass) -> u8 {
        match c {
            PardPawr => 0,
            SrrdPawr => 1,
            SrrdSrwr => 2,
        }
    }

    fn steps_of(p: &Plan) -> Vec<(MoveClass, Vec<(u8, u16)>)> {
        p.steps
            .iter()
            .map(|s| (s.class, s.pages().to_vec()))
            .collect()
    }

    /// Checks the invariants every plan must satisfy.
    fn check_invariants(valid: &[&[u16]], p: &Plan) {
        // Classes in order.
        assert!(p
            .steps
            .windows(2)
            .all(|w| class_rank(w[0].class) <= class_rank(w[1].class)));
        let mut seen: Vec<Vec<u16>> = vec![Vec::new(); valid.len()];
        let mut last: Vec<Option<(MoveClass, u16)>> = vec![None; valid.len()];
        for s in &p.steps {
            assert!(s.n >= 1 && s.n as usize <= valid.len());
            // Unused entries stay zero.
            assert!(s.pages[s.n as usize..].iter().all(|&e| e == (0, 0)));
            // At most one page per slot, slots increasing.
            assert!(s.pages().windows(2).all(|w| w[0].0 < w[1].0));
            match s.class {
                PardPawr => {
                    assert!(s.n >= 2);
                    let o = s.pages()[0].1;
                    assert!(s.pages().iter().all(|&(_, x)| x == o));
                }
                SrrdPawr => assert!(s.n >= 2),
                SrrdSrwr => assert_eq!(s.n, 1),
            }
            for &(slot, o) in s.pages() {
                let slot = slot as usize;
                // Within a slot and a class, offsets increase.
                if let Some((c, prev)) = last[slot] {
                    if c == s.class {
                        assert!(prev < o);
                    }
                }
                last[slot] = Some((s.class, o));
                seen[slot].push(o);
            }
        }
        // Every valid page exactly once.
        for (slot, v) in valid.iter().enumerate() {
            let mut got = seen[slot].clone();
            got.sort_unstable();
            assert_eq!(&got[..], *v, "slot {slot}");
        }
        // PaRD-PaWR takes every slot holding its offset, and every offset held by ≥ 2 slots.
        for s in p.steps.iter().filter(|s| s.class == PardPawr) {
            let o = s.pages()[0].1;
            let holders = valid.iter().filter(|v| v.binary_search(&o).is_ok()).count();
            assert_eq!(holders, s.n as usize);
        }
        let mut shared: Vec<u16> = valid.iter().flat_map(|v| v.iter().copied()).collect();
        shared.sort_unstable();
        let mut multi: Vec<u16> = shared
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        multi.dedup();
        assert_eq!(multi.len(), p.count(PardPawr));
    }

    #[test]
    fn figure_6_example() {
        let a: &[u16] = &[1, 2, 3, 4];
        let b: &[u16] = &[1, 4, 5];
        let p = plan(&[a, b]);
        check_invariants(&[a, b], &p);
        assert_eq!(p.count(PardPawr), 2);
        assert_eq!(p.count(SrrdPawr), 1);
        assert_eq!(p.count(SrrdSrwr), 1);
        assert_eq!(p.pages(PardPawr), 4);
        assert_eq!(p.pages(SrrdPawr), 2);
        assert_eq!(p.pages(SrrdSrwr), 1);
        assert_eq!(
            steps_of(&p),
            vec![
                (PardPawr, vec![(0, 1), (1, 1)]),
                (PardPawr, vec![(0, 4), (1, 4)]),
                (SrrdPawr, vec![(0, 2), (1, 5)]),
                (SrrdSrwr, vec![(0, 3)]),
            ]
        );
        for (t_rd, t_wr) in [(1, 1), (50, 500), (75, 1300)] {
            assert_eq!(p.cost(t_rd, t_wr), 5 * t_rd + 4 * t_wr);
            let paper = 2 * (t_rd + t_wr) + (2 * t_rd + t_wr) + (t_rd + t_wr);
            assert_eq!(p.cost(t_rd, t_wr), paper);
        }
    }

    #[test]
    fn one_plane_empty_is_all_serial() {
        let a: &[u16] = &[0, 3, 7];
        let b: &[u16] = &[];
        let p = plan(&[a, b]);
        check_invariants(&[a, b], &p);
        assert_eq!(
            steps_of(&p),
            vec![
                (SrrdSrwr, vec![(0, 0)]),
                (SrrdSrwr, vec![(0, 3)]),
                (SrrdSrwr, vec![(0, 7)]),
            ]
        );
        assert_eq!(p.cost(10, 100), serial_cost(3, 10, 100));
        // The empty slot may come first too.
        let p = plan(&[b, a]);
        assert_eq!(p.pages(SrrdSrwr), 3);
        assert!(p.steps.iter().all(|s| s.pages()[0].0 == 1));
    }

    #[test]
    fn identical_offsets_are_all_parallel() {
        let a: &[u16] = &[2, 5, 6, 9];
        let p = plan(&[a, a]);
        check_invariants(&[a, a], &p);
        assert_eq!(p.count(PardPawr), 4);
        assert_eq!(p.count(SrrdPawr), 0);
        assert_eq!(p.count(SrrdSrwr), 0);
        assert_eq!(p.steps[2].pages(), &[(0, 6), (1, 6)]);
        assert_eq!(p.cost(10, 100), 4 * 110);
        let p4 = plan(&[a, a, a, a]);
        assert_eq!(p4.count(PardPawr), 4);
        assert!(p4.steps.iter().all(|s| s.n == 4));
        assert_eq!(p4.cost(10, 100), 4 * 110);
    }

    #[test]
    fn disjoint_offsets_pair_up() {
        let a: &[u16] = &[0, 2, 4, 6];
        let b: &[u16] = &[1, 3];
        let p = plan(&[a, b]);
        check_invariants(&[a, b], &p);
        assert_eq!(
            steps_of(&p),
            vec![
                (SrrdPawr, vec![(0, 0), (1, 1)]),
                (SrrdPawr, vec![(0, 2), (1, 3)]),
                (SrrdSrwr, vec![(0, 4)]),
                (SrrdSrwr, vec![(0, 6)]),
            ]
        );
        assert_eq!(p.cost(10, 100), 2 * 120 + 2 * 110);
    }

    #[test]
    fn empty_inputs() {
        assert_eq!(plan(&[]), Plan::default());
        let e: &[u16] = &[];
        assert_eq!(plan(&[e, e, e, e]), Plan::default());
        assert_eq!(Plan::default().cost(10, 100), 0);
        let single: &[u16] = &[4, 5];
        let p = plan(&[single]);
        assert_eq!(p.count(SrrdSrwr), 2);
    }

    #[test]
    fn four_planes() {
        let v: [&[u16]; 4] = [&[0, 1, 2, 3], &[1, 3, 5], &[3, 6], &[]];
        let p = plan(&v);
        check_invariants(&v, &p);
        assert_eq!(
            steps_of(&p),
            vec![
                (PardPawr, vec![(0, 1), (1, 1)]),
                (PardPawr, vec![(0, 3), (1, 3), (2, 3)]),
                (SrrdPawr, vec![(0, 0), (1, 5), (2, 6)]),
                (SrrdSrwr, vec![(0, 2)]),
            ]
        );
        // 2·(1+10) + (3·1+10) + (1+10)
        assert_eq!(p.cost(1, 10), 22 + 13 + 11);
    }

    #[test]
    fn four_planes_serial_pairs_shrink() {
        // Slots run out at different times: the SrRD-PaWR group narrows as they do.
        let v: [&[u16]; 4] = [&[0, 4, 8], &[1, 5], &[2], &[3, 7, 11, 15]];
        let p = plan(&v);
        check_invariants(&v, &p);
        assert_eq!(
            steps_of(&p),
            vec![
                (SrrdPawr, vec![(0, 0), (1, 1), (2, 2), (3, 3)]),
                (SrrdPawr, vec![(0, 4), (1, 5), (3, 7)]),
                (SrrdPawr, vec![(0, 8), (3, 11)]),
                (SrrdSrwr, vec![(3, 15)]),
            ]
        );
        assert_eq!(p.cost(1, 10), 14 + 13 + 12 + 11);
    }

    #[test]
    fn eight_planes_common_page_then_one_group() {
        // Slot i holds {i, 7} (slot 7 holds {7}).
        let owned: Vec<Vec<u16>> = (0..8u16)
            .map(|i| if i < 7 { vec![i, 7] } else { vec![7] })
            .collect();
        let v: Vec<&[u16]> = owned.iter().map(|x| x.as_slice()).collect();
        let p = plan(&v);
        check_invariants(&v, &p);
        let all: Vec<(u8, u16)> = (0..8).map(|s| (s, 7)).collect();
        let group: Vec<(u8, u16)> = (0..7).map(|s| (s, s as u16)).collect();
        assert_eq!(steps_of(&p), vec![(PardPawr, all), (SrrdPawr, group)]);
        assert_eq!(p.cost(1, 10), 11 + 17);
    }

    #[test]
    fn eight_planes_staircase() {
        // Slot i holds {0..=i}: offset o is shared by slots o..8, offset 7 only by slot 7.
        let owned: Vec<Vec<u16>> = (0..8u16).map(|i| (0..=i).collect()).collect();
        let v: Vec<&[u16]> = owned.iter().map(|x| x.as_slice()).collect();
        let p = plan(&v);
        check_invariants(&v, &p);
        assert_eq!(p.count(PardPawr), 7);
        for (o, s) in p.steps[..7].iter().enumerate() {
            assert_eq!(s.class, PardPawr);
            assert_eq!(s.n as usize, 8 - o);
            assert_eq!(s.pages()[0], (o as u8, o as u16));
        }
        assert_eq!(p.count(SrrdPawr), 0);
        assert_eq!(p.steps[7].class, SrrdSrwr);
        assert_eq!(p.steps[7].pages(), &[(7, 7)]);
        assert_eq!(p.cost(1, 10), 8 * 11);
    }

    #[test]
    #[should_panic]
    fn too_many_planes_panics() {
        let e: &[u16] = &[1];
        let _ = plan(&[e; MAX_PLANES + 1]);
    }

    fn offsets(bits: Vec<bool>) -> Vec<u16> {
        bits.iter()
            .enumerate()
            .filter(|(_, &b)| b)
            .map(|(i, _)| i as u16)
            .collect()
    }

    /// 2, 4 or 8 planes, each a random set of offsets below 256 at a random density.
    fn victims() -> impl Strategy<Value = Vec<Vec<u16>>> {
        (prop_oneof![Just(2usize), Just(4), Just(8)], 0.0f64..=1.0).prop_flat_map(|(n, d)| {
            prop::collection::vec(
                prop::collection::vec(prop::bool::weighted(d), 256).prop_map(offsets),
                n,
            )
        })
    }

    proptest! {
        #[test]
        fn plan_properties(owned in victims(), t_rd in 1u64..200, extra in 0u64..2000) {
            let v: Vec<&[u16]> = owned.iter().map(|x| x.as_slice()).collect();
            let p = plan(&v);
            check_invariants(&v, &p);
            let total: usize = v.iter().map(|x| x.len()).sum();
            prop_assert_eq!(
                p.pages(PardPawr) + p.pages(SrrdPawr) + p.pages(SrrdSrwr),
                total
            );
            if v.len() == 2 {
                let (k, l) = (v[0].len(), v[1].len());
                let ka = v[0].iter().filter(|o| v[1].binary_search(o).is_ok()).count();
                prop_assert_eq!(p.count(PardPawr), ka);
                prop_assert_eq!(p.count(SrrdPawr), k.min(l) - ka);
                prop_assert_eq!(p.count(SrrdSrwr), k.abs_diff(l));
                let t_wr = t_rd + extra;
                let kb = (k.min(l) - ka) as u64;
                let kc = k.abs_diff(l) as u64;
                prop_assert_eq!(
                    p.cost(t_rd, t_wr),
                    ka as u64 * (t_rd + t_wr) + kb * (2 * t_rd + t_wr) + kc * (t_rd + t_wr)
                );
            }
            let t_wr = t_rd + extra;
            let serial: u64 = v.iter().map(|x| serial_cost(x.len(), t_rd, t_wr)).sum();
            prop_assert!(p.cost(t_rd, t_wr) <= serial);
        }
    }
}
