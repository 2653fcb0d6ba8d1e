//! HC (hot/cold) values of logical pages: which GC stream a valid page is copied to.
//!
//! The classification of the practical-GC paper (Nam and Kim, `practical-gc-design.txt`, §III-B,
//! Fig. 2): a global clock is incremented on every page update (host write), and the clock's value
//! is added to the updated page's HC value, so a page's HC grows with both the frequency and the
//! recency of its updates. A valid page is *hot* when its HC value is above the mean HC over the
//! valid pages, *cold* otherwise. GC copies hot pages to the `Hot` stream and cold pages to the
//! `Cold` stream ([`super::super::streams`]), which take blocks from opposite ends of an
//! erase-ordered pool (`ftl.hot_to`).
//!
//! # Representation
//!
//! HC values are `u64`: a page's HC is at most the sum of the clock values `1..=N` over `N` host
//! writes, `N(N+1)/2`, which fits below 2^64 for `N` up to about 6·10^9 page writes (24 TB of 4 KiB
//! pages) — far beyond any simulated run. The running sum over valid pages is a `u128`, and the test
//! `hc · count > sum` is computed exactly in `u128`: no rounding ever changes a decision.
//!
//! Memory: 8 bytes per logical page, allocated only when hot/cold separation is on
//! (`ftl.hot_cold = true`); with it off the table is empty and the FTL's hot path pays one
//! predictable branch per host write.

/// HC values of every logical page, the clock, and the exact sum over valid pages.
#[derive(Clone, Debug, Default)]
pub struct HcTable {
    /// HC value per logical page; empty when the classification is off.
    hc: Vec<u64>,
    /// Page updates so far.
    clock: u64,
    /// Sum of the HC values of the valid (mapped) logical pages.
    sum: u128,
    /// Number of valid logical pages.
    count: u64,
}

impl HcTable {
    /// A table for `logical_pages` pages, or an empty (off) table.
    pub fn new(on: bool, logical_pages: u32) -> HcTable {
        HcTable {
            hc: if on {
                vec![0; logical_pages as usize]
            } else {
                Vec::new()
            },
            ..HcTable::default()
        }
    }

    /// True when pages are classified.
    #[inline(always)]
    pub fn is_on(&self) -> bool {
        !self.hc.is_empty()
    }

    /// Logical page `lpn` was written by the host; `was_valid` when it held data before.
    #[inline]
    pub fn update(&mut self, lpn: u32, was_valid: bool) {
        self.clock += 1;
        // A page that held no data has HC 0 (pages are never unmapped), so it enters the valid
        // set with exactly the clock's value.
        self.hc[lpn as usize] += self.clock;
        self.sum += u128::from(self.clock);
        self.count += u64::from(!was_valid);
    }

    /// True when valid page `lpn`'s HC value is above the mean over the valid pages.
    #[inline]
    pub fn is_hot(&self, lpn: u32) -> bool {
        u128::from(self.hc[lpn as usize]) * u128::from(self.count) > self.sum
    }

    /// Every logical page's HC value (empty when the classification is off).
    pub fn values(&self) -> &[u64] {
        &self.hc
    }

    /// The table of a snapshot: HC values `values` (empty: off) after `clock` updates, over the
    /// mapping `l2p` (a page never written has HC 0; the sum and count are those of the mapped
    /// pages). Checked: the clock at most 2^32 updates and no value above what `clock` updates
    /// can add up to.
    pub fn restore(values: &[u64], clock: u64, l2p: &[u32]) -> Result<HcTable, String> {
        if values.is_empty() {
            return Ok(HcTable::default());
        }
        if clock > 1 << 32 {
            return Err(format!("the HC clock {clock} is out of range"));
        }
        let most = clock * (clock + 1) / 2;
        let mut t = HcTable {
            hc: values.to_vec(),
            clock,
            sum: 0,
            count: 0,
        };
        for (lpn, (&v, &ppn)) in values.iter().zip(l2p).enumerate() {
            if v > most {
                return Err(format!(
                    "logical page {lpn} has HC value {v}, beyond {most}"
                ));
            }
            if ppn == crate::units::NO_PAGE {
                if v != 0 {
                    return Err(format!(
                        "logical page {lpn} was never written but has HC {v}"
                    ));
                }
                continue;
            }
            t.sum += u128::from(v);
            t.count += 1;
        }
        Ok(t)
    }

    /// HC value of `lpn`.
    pub fn value(&self, lpn: u32) -> u64 {
        self.hc[lpn as usize]
    }

    /// The mean HC over the valid pages, as the exact fraction `(sum, count)`.
    pub fn mean(&self) -> (u128, u64) {
        (self.sum, self.count)
    }

    /// The page-update clock.
    pub fn clock(&self) -> u64 {
        self.clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fig. 2: nine updates, C at clocks 1–3, A at 4, 6, 8, B at 5, 7, D at 9.
    #[test]
    fn fig2_example() {
        let (a, b, c, d) = (0, 1, 2, 3);
        let mut t = HcTable::new(true, 4);
        let mut seen = [false; 4];
        for lpn in [c, c, c, a, b, a, b, a, d] {
            t.update(lpn, seen[lpn as usize]);
            seen[lpn as usize] = true;
        }
        assert_eq!(
            [a, b, c, d].map(|p| t.value(p)),
            [18, 12, 6, 9],
            "HC values of A, B, C, D"
        );
        assert_eq!(t.mean(), (45, 4), "mean 11.25");
        assert_eq!(
            [a, b, c, d].map(|p| t.is_hot(p)),
            [true, true, false, false]
        );
        assert_eq!(t.clock(), 9);
    }

    #[test]
    fn off_table_holds_nothing() {
        let t = HcTable::new(false, 1 << 20);
        assert!(!t.is_on());
        assert_eq!(t.hc.capacity(), 0);
    }

    /// The decision is exact where a float mean would round: one page just above a huge mean.
    #[test]
    fn decision_is_exact_at_large_values() {
        let mut t = HcTable::new(true, 3);
        t.clock = (1 << 62) - 1;
        t.update(0, false); // 2^62
        t.update(1, false); // 2^62 + 1
        t.update(2, false); // 2^62 + 2
                            // Mean is exactly 2^62 + 1: only page 2 is above it.
        assert_eq!([0, 1, 2].map(|p| t.is_hot(p)), [false, false, true]);
    }
}
