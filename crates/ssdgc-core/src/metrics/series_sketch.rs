//! A compact quantile sketch for one point of a latency series: at most [`CAP`] counters (8 bytes
//! each, so at most 512 bytes), from which the point's p50 and p99 are read.
//!
//! Values (ns) fall in log-linear buckets: the octave of the value (`⌊log2 v⌋`) split into `2^r`
//! equal sub-buckets, `r` the resolution. A bucket spans at most `2^-r` of its lower bound and a
//! quantile is reported at the bucket's midpoint, so its relative error is at most `2^-(r+1)`: 1.6 %
//! at the finest resolution (`r = 5`), 3.1 % at 4, 6.3 % at 3, 12.5 % at 2 … Only non-empty buckets
//! are kept, sorted. When a new value would need a counter beyond [`CAP`], the resolution drops by
//! one (neighbouring sub-buckets merge) until it fits; at `r = 0` the 64 octaves of a `u64` always
//! fit. The resolution of a sketch is therefore the finest at which all its values fit in [`CAP`]
//! buckets — whatever the order the values came in, and whether they were added one by one or
//! merged from other sketches ([`Sketch::merge`]) — so the series stays deterministic and
//! independent of how its points were merged.

/// Most counters a sketch holds.
pub const CAP: usize = 64;
/// Finest resolution: 32 sub-buckets per octave.
pub const MAX_RES: u8 = 5;

const COUNT_BITS: u32 = 40;
const COUNT_MASK: u64 = (1 << COUNT_BITS) - 1;

/// A quantile sketch (module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sketch {
    res: u8,
    /// `bucket << 40 | count`, sorted by bucket.
    entries: Vec<u64>,
}

impl Default for Sketch {
    fn default() -> Self {
        Sketch {
            res: MAX_RES,
            entries: Vec::new(),
        }
    }
}

/// The bucket of value `v` (ns; 0 counts as 1) at resolution `res`.
#[inline]
fn bucket(v: u64, res: u8) -> u64 {
    let v = v.max(1);
    let e = 63 - u64::from(v.leading_zeros());
    let r = u64::from(res);
    let mant = if e >= r { v >> (e - r) } else { v << (r - e) } & ((1 << r) - 1);
    (e << r) | mant
}

impl Sketch {
    /// The resolution in use (sub-buckets per octave: `2^res`).
    pub fn resolution(&self) -> u8 {
        self.res
    }

    /// Values added.
    pub fn count(&self) -> u64 {
        self.entries.iter().map(|e| e & COUNT_MASK).sum()
    }

    /// Counters held (memory: 8 bytes each).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no value was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds one value (ns).
    pub fn add(&mut self, v: u64) {
        loop {
            let b = bucket(v, self.res);
            match self.entries.binary_search_by_key(&b, |e| e >> COUNT_BITS) {
                Ok(i) => {
                    self.entries[i] += 1;
                    return;
                }
                Err(i) if self.entries.len() < CAP => {
                    self.entries.insert(i, b << COUNT_BITS | 1);
                    return;
                }
                Err(_) => self.coarsen(),
            }
        }
    }

    /// Halves the resolution: sub-buckets `2k` and `2k + 1` become `k`.
    fn coarsen(&mut self) {
        debug_assert!(self.res > 0, "64 octave buckets always fit");
        self.res -= 1;
        let mut out: Vec<u64> = Vec::with_capacity(self.entries.len());
        for &e in &self.entries {
            let b = (e >> COUNT_BITS) >> 1;
            match out.last_mut() {
                Some(last) if *last >> COUNT_BITS == b => *last += e & COUNT_MASK,
                _ => out.push(b << COUNT_BITS | (e & COUNT_MASK)),
            }
        }
        self.entries = out;
    }

    /// Adds every value of `other`.
    pub fn merge(&mut self, other: &Sketch) {
        let mut other = other.clone();
        while other.res > self.res {
            other.coarsen();
        }
        while self.res > other.res {
            self.coarsen();
        }
        let (a, b) = (std::mem::take(&mut self.entries), other.entries);
        let mut out = Vec::with_capacity((a.len() + b.len()).min(2 * CAP));
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let ka = a.get(i).map(|e| e >> COUNT_BITS);
            let kb = b.get(j).map(|e| e >> COUNT_BITS);
            match (ka, kb) {
                (Some(x), Some(y)) if x == y => {
                    out.push(a[i] + (b[j] & COUNT_MASK));
                    i += 1;
                    j += 1;
                }
                (Some(x), Some(y)) if x < y => {
                    out.push(a[i]);
                    i += 1;
                }
                (Some(_), None) => {
                    out.push(a[i]);
                    i += 1;
                }
                _ => {
                    out.push(b[j]);
                    j += 1;
                }
            }
        }
        self.entries = out;
        while self.entries.len() > CAP {
            self.coarsen();
        }
        self.entries.shrink_to(CAP);
    }

    /// The value at quantile `q` (ns): the midpoint of the bucket holding the `⌈q·n⌉`-th smallest
    /// value (at least the first); `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for &e in &self.entries {
            seen += e & COUNT_MASK;
            if seen >= rank {
                let b = e >> COUNT_BITS;
                let r = u32::from(self.res);
                let octave = (b >> r) as i32;
                let sub = (b & ((1 << r) - 1)) as f64;
                let base = 2f64.powi(octave);
                let step = base / f64::from(1u32 << r);
                return Some(base + step * (sub + 0.5));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn exact(sorted: &[u64], q: f64) -> f64 {
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1] as f64
    }

    #[test]
    fn quantiles_are_within_the_resolution() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for spread in [2.0f64, 10.0, 1e3, 1e6] {
            let mut s = Sketch::default();
            let mut v: Vec<u64> = (0..20_000)
                .map(|_| (50_000.0 * spread.powf(rng.gen::<f64>())) as u64)
                .collect();
            for &x in &v {
                s.add(x);
            }
            v.sort_unstable();
            assert!(s.len() <= CAP);
            assert_eq!(s.count(), v.len() as u64);
            let err = 0.5f64.powi(i32::from(s.resolution()) + 1);
            for q in [0.5, 0.9, 0.99] {
                let got = s.quantile(q).unwrap();
                let want = exact(&v, q);
                assert!(
                    (got - want).abs() <= err * want + 1.0,
                    "spread {spread} q {q}: {got} vs {want} (res {})",
                    s.resolution()
                );
            }
        }
    }

    #[test]
    fn a_narrow_point_keeps_the_finest_resolution() {
        let mut s = Sketch::default();
        for i in 0..10_000u64 {
            s.add(100_000 + i * 7);
        }
        assert_eq!(s.resolution(), MAX_RES);
        let p99 = s.quantile(0.99).unwrap();
        let want = 100_000.0 + 9_900.0 * 7.0;
        assert!((p99 - want).abs() <= want / 64.0, "{p99}");
    }

    #[test]
    fn merging_equals_adding_in_any_order() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let v: Vec<u64> = (0..5_000).map(|_| rng.gen_range(1..1u64 << 36)).collect();
        let mut all = Sketch::default();
        for &x in &v {
            all.add(x);
        }
        let mut rev = Sketch::default();
        for &x in v.iter().rev() {
            rev.add(x);
        }
        assert_eq!(all, rev);
        let mut parts: Vec<Sketch> = v
            .chunks(333)
            .map(|c| {
                let mut s = Sketch::default();
                for &x in c {
                    s.add(x);
                }
                s
            })
            .collect();
        let mut merged = parts.pop().unwrap();
        for p in parts.iter().rev() {
            merged.merge(p);
        }
        assert_eq!(merged, all);
        assert!(merged.entries.capacity() <= CAP);
    }

    #[test]
    fn zero_and_one_values_and_empty() {
        let mut s = Sketch::default();
        assert_eq!(s.quantile(0.5), None);
        s.add(0);
        s.add(1);
        assert_eq!(s.count(), 2);
        assert!(s.quantile(1.0).unwrap() < 1.1);
    }
}
