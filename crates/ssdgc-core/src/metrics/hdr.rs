//! The counts of the latency histogram, kept apart from the histogram.
//!
//! A response time is counted in the bucket where `hdrhistogram` would count it (the same
//! layout: 1 ns to 10^13 ns at 3 significant digits), in a plain array: a record is an index
//! computation and an increment, without the histogram's running total, minimum and maximum or
//! its checks for resizing. [`HdrCounts::histogram`] gives the histogram of the same records when
//! it is read (percentiles, the CDF): equal to one every value was recorded in (the same counts,
//! total, bucket-level minimum and maximum).

use hdrhistogram::Histogram;

/// Lowest discernible value of the latency histogram, ns.
const LOWEST: u64 = 1;
/// Highest trackable value, ns (about 2.8 hours): longer times are counted at it.
const HIGHEST: u64 = 10_000_000_000_000;
/// Significant decimal digits.
const DIGITS: u8 = 3;
/// log2 of half the sub-buckets of a bucket: 2 × 10^DIGITS rounded up to a power of two is
/// 2^11 sub-buckets (the lowest value being 1, the unit magnitude is 0).
const HALF_MAGNITUDE: u32 = 10;
const HALF_COUNT: u64 = 1 << HALF_MAGNITUDE;
const SUB_BUCKET_MASK: u64 = (HALF_COUNT << 1) - 1;
/// `64 - unit magnitude - sub-bucket magnitude`.
const LEADING_ZERO_COUNT_BASE: u32 = 64 - (HALF_MAGNITUDE + 1);

/// An empty latency histogram.
pub(crate) fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(LOWEST, HIGHEST, DIGITS).expect("valid histogram bounds")
}

/// The index of `v`'s bucket in the histogram's counts (`hdrhistogram`'s `index_for`).
#[inline(always)]
fn index(v: u64) -> usize {
    let bucket = LEADING_ZERO_COUNT_BASE - (v | SUB_BUCKET_MASK).leading_zeros();
    let sub = v >> bucket;
    // Bucket 0 uses all its sub-buckets, so `sub` may be below `HALF_COUNT` only there, where
    // `(bucket + 1) << HALF_MAGNITUDE` is `HALF_COUNT`: no underflow.
    ((u64::from(bucket + 1) << HALF_MAGNITUDE) + sub - HALF_COUNT) as usize
}

/// The lowest value counted at `index` (`hdrhistogram`'s `value_for`).
fn lowest_value(index: usize) -> u64 {
    let index = index as u64;
    let bucket = (index >> HALF_MAGNITUDE) as i64 - 1;
    let sub = (index & (HALF_COUNT - 1)) + HALF_COUNT;
    if bucket < 0 {
        sub - HALF_COUNT
    } else {
        sub << bucket
    }
}

/// Counts per bucket of the latency histogram.
#[derive(Clone, Debug)]
pub(crate) struct HdrCounts {
    counts: Vec<u64>,
    /// Where values beyond the last bucket are counted: the highest trackable value's bucket.
    clamp: usize,
}

impl Default for HdrCounts {
    fn default() -> Self {
        let h = new_histogram();
        HdrCounts {
            counts: vec![0; h.distinct_values()],
            clamp: index(h.high()),
        }
    }
}

impl HdrCounts {
    /// Counts `v` (as `Histogram::saturating_record`: a count of 2^64 records is out of reach,
    /// so an increment is its saturating one).
    #[inline(always)]
    pub fn record(&mut self, v: u64) {
        match self.counts.get_mut(index(v)) {
            Some(c) => *c += 1,
            None => self.record_clamped(),
        }
    }

    /// A value beyond the last bucket, counted at the highest trackable value.
    #[cold]
    #[inline(never)]
    fn record_clamped(&mut self) {
        let c = &mut self.counts[self.clamp];
        *c = c.saturating_add(1);
    }

    /// The histogram of the values counted.
    pub fn histogram(&self) -> Histogram<u64> {
        let mut h = new_histogram();
        for (i, &c) in self.counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            h.record_n(lowest_value(i), c)
                .expect("a bucket's lowest value is in range");
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;
    use rand::Rng;

    #[test]
    fn index_and_lowest_value_are_the_histograms() {
        let h = new_histogram();
        let mut values: Vec<u64> = vec![0, 1, 2, 1023, 1024, 2047, 2048, 2049, 4095, 4096, HIGHEST];
        values.extend((0..64).flat_map(|k| [(1u64 << k) - 1, 1 << k, (1 << k) + 1]));
        let mut rng = rng_for(7, 0);
        values.extend((0..20_000).map(|_| rng.gen_range(0..HIGHEST * 2) >> rng.gen_range(0..50)));
        for v in values.into_iter().filter(|&v| v <= HIGHEST) {
            let i = index(v);
            assert!(i < h.distinct_values(), "{v}");
            assert_eq!(lowest_value(i), h.lowest_equivalent(v), "{v}");
            assert_eq!(index(lowest_value(i)), i, "{v}");
        }
        assert_eq!(index(HIGHEST), HdrCounts::default().clamp);
    }

    /// Against a histogram every value was recorded in: equal (counts, total, minimum and
    /// maximum), with the same percentiles and recorded values, including values of 0 and values
    /// beyond the highest trackable one.
    #[test]
    fn histogram_equals_one_every_value_was_recorded_in() {
        for (seed, n, top) in [
            (1, 0, 1),
            (2, 1, 10),
            (3, 5_000, 100_000_000),
            (4, 5_000, u64::MAX),
            (5, 20_000, 5_000_000),
        ] {
            let mut rng = rng_for(seed, 0);
            let mut counts = HdrCounts::default();
            let mut reference = new_histogram();
            for _ in 0..n {
                let v = rng.gen_range(0..top) >> rng.gen_range(0..40);
                counts.record(v);
                reference.saturating_record(v);
            }
            let h = counts.histogram();
            assert_eq!(h, reference, "seed {seed}");
            assert_eq!(h.len(), reference.len());
            for q in [0.0, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0] {
                assert_eq!(
                    h.value_at_quantile(q),
                    reference.value_at_quantile(q),
                    "{q}"
                );
            }
            let a: Vec<(u64, u64)> = h
                .iter_recorded()
                .map(|v| (v.value_iterated_to(), v.count_since_last_iteration()))
                .collect();
            let b: Vec<(u64, u64)> = reference
                .iter_recorded()
                .map(|v| (v.value_iterated_to(), v.count_since_last_iteration()))
                .collect();
            assert_eq!(a, b, "seed {seed}");
        }
    }
}
