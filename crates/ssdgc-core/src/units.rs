//! Units of the simulation. Time is an integer count of nanoseconds; addresses are dense indices.
//!
//! Page and block numbers are `u32`: the largest preset (800 GB of 8 KiB pages, ~10^8 pages) fits with
//! room to spare, and 4-byte entries keep the mapping tables within the memory budget of
//! 16 bytes per physical page. Geometry validation rejects drives that would overflow them.

/// Simulated time or a duration, in nanoseconds. Never read from the wall clock.
pub type SimTime = u64;

/// One microsecond in [`SimTime`] units.
pub const US: SimTime = 1_000;
/// One millisecond in [`SimTime`] units.
pub const MS: SimTime = 1_000_000;
/// One second in [`SimTime`] units.
pub const SEC: SimTime = 1_000_000_000;

/// Bytes in one host sector.
pub const SECTOR_BYTES: u64 = 512;

/// Logical page number: index into the host-visible page space.
pub type Lpn = u32;
/// Physical page number: `(plane * blocks_per_plane + block) * pages_per_block + page`.
pub type Ppn = u32;
/// Sentinel for "no page" in mapping tables.
pub const NO_PAGE: u32 = u32::MAX;

/// Converts nanoseconds to microseconds as a float, for reports.
pub fn ns_to_us(t: SimTime) -> f64 {
    t as f64 / US as f64
}
