//! The *migration* axis: how a job moves the valid pages of its victim inside a plane.
//!
//! | value | meaning | file |
//! |---|---|---|
//! | `serial` | one page move at a time (copyback, or read out and written back when `gc.copyback` is off), then the erase: the shared mechanism of [`crate::gc`] | — |
//! | `instant` | the zero-latency oracle: the same bookkeeping with no time and no resource | [`instant`] |

pub mod instant;

use crate::gc::axis::axis_enum;

axis_enum!(
    /// How pages move inside a plane (`gc.migration`).
    Migration, "gc.migration", {
        /// One page at a time at flash speed.
        Serial = "serial",
        /// No time (the zero-latency oracle).
        Instant = "instant",
    }
);
