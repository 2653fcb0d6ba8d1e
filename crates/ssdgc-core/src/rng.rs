//! The one random-number generator of the simulator.
//!
//! Algorithm: xoshiro256++ (Blackman & Vigna), seeded from a `u64` through SplitMix64
//! (`rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64`). Every random choice of a run draws from a
//! generator derived from the run's seed, so the same seed gives the same run.

use rand_core::SeedableRng;

/// The simulator's RNG type.
pub type SimRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generator for one consumer of randomness. `stream` separates consumers (victim choice,
/// preconditioning, ...) so that adding draws to one does not shift the others.
pub fn rng_for(seed: u64, stream: u64) -> SimRng {
    SimRng::seed_from_u64(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Streams of a run. Stream 0 is the synthetic generator's own seed, stream 3 seeds it; each drive
/// of an array has its own preconditioning and victim-choice streams ([`drive_stream`]).
pub mod streams {
    /// Preconditioning of a drive (drive 0: stream 1).
    pub const PRECONDITION: u64 = 1;
    /// Victim choice of a drive during the run, shared by its dies and drawn in event order
    /// (drive 0: stream 2).
    pub const VICTIMS: u64 = 2;
}

/// The stream of consumer `kind` ([`streams`]) of drive `drive` of an array: `drive × 256 + kind`.
/// Drive 0 keeps the single-drive streams (1 and 2), so a one-drive array runs exactly as a lone
/// drive; drive `d ≥ 1` uses `256·d + 1` and `256·d + 2`, distinct from every other stream.
pub fn drive_stream(drive: u32, kind: u64) -> u64 {
    debug_assert!(kind < 256);
    drive as u64 * 256 + kind
}

/// Streams of a plane aged on its own ([`plane_stream`]).
pub mod plane_streams {
    /// The logical pages the plane overwrites.
    pub const OVERWRITES: u64 = 0;
    /// Victim choice while the plane is aged.
    pub const VICTIMS: u64 = 1;
}

/// Stream `kind` ([`plane_streams`]) of plane `plane` of drive `drive`, when the planes are aged
/// apart: `2^48 + drive × 2^25 + plane × 2 + kind`, above every [`drive_stream`].
pub fn plane_stream(drive: u32, plane: u32, kind: u64) -> u64 {
    debug_assert!(plane < 1 << 24 && drive < 1 << 23 && kind < 2);
    (1u64 << 48) + ((drive as u64) << 25) + ((plane as u64) << 1) + kind
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plane_streams_are_distinct_from_each_other_and_from_drive_streams() {
        let mut all: Vec<u64> = (0..4)
            .flat_map(|d| (0..300).flat_map(move |p| (0..2).map(move |k| plane_stream(d, p, k))))
            .collect();
        all.extend((0..64).flat_map(|d| (0..256).map(move |k| drive_stream(d, k))));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn drive_zero_keeps_the_single_drive_streams_and_others_are_distinct() {
        assert_eq!(drive_stream(0, streams::PRECONDITION), 1);
        assert_eq!(drive_stream(0, streams::VICTIMS), 2);
        let mut all: Vec<u64> = (0..64)
            .flat_map(|d| [streams::PRECONDITION, streams::VICTIMS].map(|k| drive_stream(d, k)))
            .collect();
        all.extend([0, 3]);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
