//! The *migration* axis: how a job moves the valid pages of its victim inside a plane.
//!
//! | value | meaning | file |
//! |---|---|---|
//! | `serial` | one page move at a time (copyback, or read out and written back when `gc.copyback` is off), then the erase: the shared mechanism of [`crate::gc`] | — |
//! | `instant` | the zero-latency oracle: the same bookkeeping with no time and no resource | [`instant`] |
//! | `parallel` | `gc.workers` moves of one plane in flight at once on its page registers, address pairs computed once per job (parallel-page-migration paper §IV) | [`parallel`] |
//!
//! Two settings shape how a job of the `serial` or `parallel` value collects, as a plan computed
//! when the job starts ([`InPlane`], carried out by the shared mechanism):
//!
//! - `gc.erase_blocks = k` (IPPBE, [`ippbe`]): the job collects up to `k` victims of its plane and
//!   erases them with one multi-block erase, for one erase latency;
//! - `gc.copyback_parity` ([`Parity`]): the copyback odd/even page restriction, honoured by the
//!   paper's pairing or by programming destinations in order and skipping pages.

pub mod instant;
pub mod ippbe;
pub mod parallel;

use crate::gc::axis::axis_enum;
use crate::keyword::keyword_enum;

axis_enum!(
    /// How pages move inside a plane (`gc.migration`).
    Migration, "gc.migration", {
        /// One page at a time at flash speed.
        Serial = "serial",
        /// No time (the zero-latency oracle).
        Instant = "instant",
        /// `gc.workers` pages at a time, on the plane's page registers.
        Parallel = "parallel",
    }
);

keyword_enum!(
    /// The copyback odd/even page restriction (`gc.copyback_parity`): in some chips a page may be
    /// copied back only to a page of the same parity (parallel-page-migration paper §IV-D-1, and
    /// its refs. \[9\], \[19\], \[42\], \[44\], \[50\]).
    Parity, "gc.copyback_parity", {
        /// No restriction: destinations in program order.
        None = "none",
        /// The paper's pairing (Algorithm 3, Fig. 4a): each valid page gets the lowest free page of
        /// its parity, even one before a page already programmed — which NAND forbids (a block's
        /// pages are programmed in order). An idealised mode.
        Paper = "paper",
        /// Destinations programmed in order: a page whose parity does not match is skipped (left
        /// unprogrammed, counted as wasted).
        InOrder = "in-order",
    }
);

/// Most victims one IPPBE job erases together (`gc.erase_blocks`).
pub const MAX_ERASE_BLOCKS: u8 = 8;

/// How a job of one plane is planned when it starts: workers, victims erased together, parity.
/// The plain job of the shared mechanism (one victim, one move at a time, no restriction) is not
/// planned at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InPlane {
    /// Moves in flight at once (1 for serial migration).
    pub workers: u8,
    /// Victims erased together (1 without IPPBE).
    pub erase_blocks: u8,
    /// The copyback parity restriction.
    pub parity: Parity,
}

impl InPlane {
    /// The plan a configuration asks for: `None` for the plain job (serial migration, one victim,
    /// no parity restriction) and for instant migration. `registers` is
    /// `geometry.registers_per_plane`, the workers when `gc.workers` is 0.
    pub fn new(
        migration: Migration,
        workers: u32,
        registers: u32,
        erase_blocks: u32,
        parity: Parity,
    ) -> Option<InPlane> {
        let workers = match migration {
            Migration::Instant => return None,
            Migration::Serial => 1,
            Migration::Parallel if workers == 0 => registers,
            Migration::Parallel => workers,
        };
        let plan = InPlane {
            workers: workers.clamp(1, crate::flash::MAX_REGISTERS as u32) as u8,
            erase_blocks: erase_blocks.clamp(1, MAX_ERASE_BLOCKS as u32) as u8,
            parity,
        };
        let plain =
            migration == Migration::Serial && plan.erase_blocks == 1 && parity == Parity::None;
        (!plain).then_some(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_setting_that_changes_the_job_plans_it() {
        assert_eq!(InPlane::new(Migration::Serial, 0, 4, 1, Parity::None), None);
        assert_eq!(
            InPlane::new(Migration::Instant, 4, 4, 2, Parity::None),
            None
        );
        let p = InPlane::new(Migration::Parallel, 0, 4, 1, Parity::None).unwrap();
        assert_eq!((p.workers, p.erase_blocks), (4, 1));
        let p = InPlane::new(Migration::Parallel, 2, 4, 1, Parity::None).unwrap();
        assert_eq!(p.workers, 2);
        let p = InPlane::new(Migration::Serial, 0, 4, 2, Parity::None).unwrap();
        assert_eq!((p.workers, p.erase_blocks), (1, 2));
        let p = InPlane::new(Migration::Serial, 0, 1, 1, Parity::InOrder).unwrap();
        assert_eq!((p.workers, p.parity), (1, Parity::InOrder));
    }
}
