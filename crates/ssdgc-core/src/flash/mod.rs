//! The flash array: geometry and addressing, allocation orders, timing, and the resources that
//! conflict (channels, dies, planes; [`resources`]).
//!
//! Planes are numbered densely in (channel, chip, die, plane) order, plane fastest:
//! `plane = ((channel * chips_per_channel + chip) * dies_per_chip + die) * planes_per_die + p`, so the
//! planes of one die are contiguous and `die = plane / planes_per_die`. Dies are numbered the same way.

mod alloc;
pub mod resources;
mod timing;

pub use alloc::AllocationOrder;
pub use resources::{
    check_multiplane, FlashOp, GcScope, RegisterSharing, Reservation, ResourceParams, Resources,
    MAX_REGISTERS,
};
pub use timing::{Timing, TimingParams};

use crate::units::{Lpn, Ppn};

/// The drive's organisation as configured: the plain values [`Geometry::new`] derives the rest from.
/// (`Config` converts into it: `Geometry::new(&cfg)`.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeometryParams {
    pub channels: u32,
    pub chips_per_channel: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    /// Bytes per page.
    pub page_size: u64,
    /// Share of physical capacity hidden from the host.
    pub overprovision: f64,
}

/// The drive's organisation with the derived counts the hot path needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub channels: u32,
    pub chips_per_channel: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    pub page_size: u64,
    /// Total planes.
    pub planes: u32,
    /// Total dies.
    pub dies: u32,
    /// Pages per plane.
    pub pages_per_plane: u32,
    /// Physical pages.
    pub physical_pages: u32,
    /// Host-visible pages.
    pub logical_pages: u32,
}

/// Where a physical page is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageAddr {
    pub plane: u32,
    pub block: u32,
    pub page: u32,
}

impl Geometry {
    /// Derives the geometry from validated parameters (or anything that converts into them, such as
    /// a configuration).
    pub fn new(params: impl Into<GeometryParams>) -> Geometry {
        let g = params.into();
        let dies = g.channels * g.chips_per_channel * g.dies_per_chip;
        let planes = dies * g.planes_per_die;
        let pages_per_plane = g.blocks_per_plane * g.pages_per_block;
        let physical_pages = planes * pages_per_plane;
        let logical_pages = (physical_pages as f64 * (1.0 - g.overprovision)).floor() as u32;
        Geometry {
            channels: g.channels,
            chips_per_channel: g.chips_per_channel,
            dies_per_chip: g.dies_per_chip,
            planes_per_die: g.planes_per_die,
            blocks_per_plane: g.blocks_per_plane,
            pages_per_block: g.pages_per_block,
            page_size: g.page_size,
            planes,
            dies,
            pages_per_plane,
            physical_pages,
            logical_pages,
        }
    }

    /// Total blocks.
    pub fn blocks(&self) -> u32 {
        self.planes * self.blocks_per_plane
    }

    /// The physical page number of an address.
    #[inline]
    pub fn ppn(&self, plane: u32, block: u32, page: u32) -> Ppn {
        (plane * self.blocks_per_plane + block) * self.pages_per_block + page
    }

    /// Splits a physical page number.
    #[inline]
    pub fn addr(&self, ppn: Ppn) -> PageAddr {
        let page = ppn % self.pages_per_block;
        let gblock = ppn / self.pages_per_block;
        PageAddr {
            plane: gblock / self.blocks_per_plane,
            block: gblock % self.blocks_per_plane,
            page,
        }
    }

    /// Drive-wide block index (`plane * blocks_per_plane + block`) of a page.
    #[inline]
    pub fn global_block(&self, ppn: Ppn) -> u32 {
        ppn / self.pages_per_block
    }

    /// The die of a plane.
    #[inline]
    pub fn die_of_plane(&self, plane: u32) -> u32 {
        plane / self.planes_per_die
    }

    /// The channel of a die.
    #[inline]
    pub fn channel_of_die(&self, die: u32) -> u32 {
        die / (self.chips_per_channel * self.dies_per_chip)
    }

    /// The plane index inside its die.
    #[inline]
    pub fn plane_in_die(&self, plane: u32) -> u32 {
        plane % self.planes_per_die
    }

    /// Plane number from its coordinates.
    pub fn plane_at(&self, channel: u32, chip: u32, die: u32, plane: u32) -> u32 {
        ((channel * self.chips_per_channel + chip) * self.dies_per_chip + die) * self.planes_per_die
            + plane
    }

    /// Sectors per page.
    pub fn sectors_per_page(&self) -> u64 {
        self.page_size / crate::units::SECTOR_BYTES
    }

    /// Logical bytes visible to the host.
    pub fn logical_bytes(&self) -> u64 {
        self.logical_pages as u64 * self.page_size
    }
}

/// Maps a logical page to its plane under a static allocation order. The plane's share of the
/// logical space is dense: `index_in_plane` numbers the logical pages a plane holds.
#[derive(Clone, Debug)]
pub struct StaticAllocator {
    order: AllocationOrder,
    geo: Geometry,
}

impl StaticAllocator {
    pub fn new(order: AllocationOrder, geo: &Geometry) -> Self {
        StaticAllocator {
            order,
            geo: geo.clone(),
        }
    }

    /// The plane that holds logical page `lpn`.
    #[inline]
    pub fn plane_of(&self, lpn: Lpn) -> u32 {
        if self.geo.planes == 1 {
            // A drive of one plane (a plane aged on its own): no divisions.
            return 0;
        }
        let (c, w, d, p) = self.order.split(lpn as u64, &self.geo);
        self.geo.plane_at(c, w, d, p)
    }
}

/// A small geometry for unit tests: 2 channels × 2 chips × 1 die × 2 planes, 256 blocks of 64 pages
/// of 4 KiB, 20 % spare (the default preset's drive).
#[cfg(test)]
pub(crate) fn test_params() -> GeometryParams {
    GeometryParams {
        channels: 2,
        chips_per_channel: 2,
        dies_per_chip: 1,
        planes_per_die: 2,
        blocks_per_plane: 256,
        pages_per_block: 64,
        page_size: 4096,
        overprovision: 0.2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_round_trip() {
        let g = Geometry::new(test_params());
        for ppn in [0, 1, 63, 64, 12345, g.physical_pages - 1] {
            let a = g.addr(ppn);
            assert_eq!(g.ppn(a.plane, a.block, a.page), ppn);
        }
        assert_eq!(g.planes, 8);
        assert_eq!(g.dies, 4);
        assert_eq!(g.die_of_plane(5), 2);
        assert_eq!(g.channel_of_die(2), 1);
    }

    #[test]
    fn static_allocation_spreads_evenly() {
        let g = Geometry::new(test_params());
        for name in ["CWDP", "PCWD", "DPWC"] {
            let a = StaticAllocator::new(AllocationOrder::parse(name).unwrap(), &g);
            let mut counts = vec![0u32; g.planes as usize];
            for lpn in 0..g.logical_pages {
                counts[a.plane_of(lpn) as usize] += 1;
            }
            let (mn, mx) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
            assert!(mx - mn <= 1, "{name}: {counts:?}");
        }
    }
}
