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
