//! The *planes* axis: which planes of a die collect together when one of them starts a job.
//!
//! | value | meaning | file |
//! |---|---|---|
//! | `serial` | the plane alone; the die's other planes wait (serial GC, PaGC paper §III-F) | this file |
//! | `pagc-blind`, `pagc-threshold`, `pagc-cache` | B-, T- and TC-PaGC: paired planes collect too, with multi-plane moves and erase (PaGC paper §V) | [`pagc`] |
//! | `superblock` | the planes of a die read, write, map and collect as one (PaGC paper §VII-E): a drive transform, then serial | [`superblock`] |

pub mod pagc;
pub mod superblock;

use crate::gc::axis::axis_enum;
use crate::gc::scheme::DieContext;

axis_enum!(
    /// Which planes collect together (`gc.planes`).
    Planes, "gc.planes", {
        /// One plane at a time.
        Serial = "serial",
        /// B-PaGC: every plane of the die.
        PagcBlind = "pagc-blind",
        /// T-PaGC: paired planes below `gc.pagc_threshold`.
        PagcThreshold = "pagc-threshold",
        /// TC-PaGC: as T-PaGC, single-plane moves through the DRAM buffer.
        PagcCache = "pagc-cache",
        /// Plane-level superblock.
        Superblock = "superblock",
    }
);

impl Planes {
    /// True for the PaGC values.
    pub fn is_pagc(self) -> bool {
        matches!(
            self,
            Planes::PagcBlind | Planes::PagcThreshold | Planes::PagcCache
        )
    }
}

/// The planes axis at run time.
#[derive(Clone, Debug)]
pub enum PlaneMode {
    /// One plane per job (serial GC, and the superblock's single merged plane).
    Serial,
    /// Parallel jobs over the planes of a die.
    Pagc(pagc::Pagc),
}

impl PlaneMode {
    /// Starts a job for `plane` (and the planes that join it); returns its index on the die.
    #[inline]
    pub fn start(&mut self, cx: &mut DieContext<'_>, plane: u32) -> Option<usize> {
        match self {
            PlaneMode::Serial => cx.start_job(plane),
            PlaneMode::Pagc(p) => p.start(cx, plane),
        }
    }

    /// True when the die should commit DRAM-buffered GC pages now (TC-PaGC).
    #[inline]
    pub fn wants_flush(&self, cx: &DieContext<'_>) -> bool {
        match self {
            PlaneMode::Serial => false,
            PlaneMode::Pagc(p) => p.wants_flush(cx),
        }
    }
}
