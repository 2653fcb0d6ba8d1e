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
    /// Division by `pages_per_block` and by `blocks_per_plane` (shifts when they are powers of
    /// two, as they usually are): the address arithmetic of every page operation.
    page_div: Divisor,
    block_div: Divisor,
}

/// Division of page and block numbers by one of the geometry's sizes: a shift when the size is a
/// power of two (the branch always goes the same way in a run), else a division.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Divisor {
    d: u32,
    /// `log2(d)` when `d` is a power of two.
    shift: Option<u32>,
}

impl Divisor {
    fn new(d: u32) -> Divisor {
        Divisor {
            d,
            shift: d.is_power_of_two().then_some(d.trailing_zeros()),
        }
    }

    #[inline(always)]
    fn quotient(self, x: u32) -> u32 {
        match self.shift {
            Some(s) => x >> s,
            None => x / self.d,
        }
    }

    #[inline(always)]
    fn remainder(self, x: u32) -> u32 {
        match self.shift {
            Some(_) => x & (self.d - 1),
            None => x % self.d,
        }
    }
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
            page_div: Divisor::new(g.pages_per_block),
            block_div: Divisor::new(g.blocks_per_plane),
        }
    }

    /// The drive of one of this drive's planes on its own (one channel, chip, die and plane) whose
    /// host sees `logical_pages`: blocks, pages and their sizes are this drive's.
    pub fn one_plane(&self, logical_pages: u32) -> Geometry {
        Geometry {
            channels: 1,
            chips_per_channel: 1,
            dies_per_chip: 1,
            planes_per_die: 1,
            planes: 1,
            dies: 1,
            physical_pages: self.pages_per_plane,
            logical_pages,
            ..self.clone()
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
        let gblock = self.page_div.quotient(ppn);
        PageAddr {
            plane: self.block_div.quotient(gblock),
            block: self.block_div.remainder(gblock),
            page: self.page_div.remainder(ppn),
        }
    }

    /// Drive-wide block index (`plane * blocks_per_plane + block`) of a page.
    #[inline]
    pub fn global_block(&self, ppn: Ppn) -> u32 {
        self.page_div.quotient(ppn)
    }

    /// The page index of a page inside its block.
    #[inline]
    pub fn page_in_block(&self, ppn: Ppn) -> u32 {
        self.page_div.remainder(ppn)
    }

    /// The plane and plane-local block of a drive-wide block index.
    #[inline]
    pub fn split_block(&self, global_block: u32) -> (u32, u32) {
        (
            self.block_div.quotient(global_block),
            self.block_div.remainder(global_block),
        )
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
///
/// The order splits a page number into (channel, chip, die, plane) digits of a mixed radix whose
/// digits multiply to the plane count, so the plane depends on `lpn mod planes` alone: it is looked
/// up in a table of one entry per plane, built once (with a mask instead of the modulo when the
/// plane count is a power of two), rather than split with four divisions on every host write.
#[derive(Clone, Debug)]
pub struct StaticAllocator {
    /// Plane of each residue `lpn mod planes`.
    planes: Box<[u32]>,
    /// `planes - 1` when the plane count is a power of two, else `None`.
    mask: Option<u32>,
}

impl StaticAllocator {
    pub fn new(order: AllocationOrder, geo: &Geometry) -> Self {
        let n = geo.planes;
        let planes = (0..n)
            .map(|i| {
                let (c, w, d, p) = order.split(i as u64, geo);
                geo.plane_at(c, w, d, p)
            })
            .collect();
        StaticAllocator {
            planes,
            mask: n.is_power_of_two().then_some(n.wrapping_sub(1)),
        }
    }

    /// The plane that holds logical page `lpn`.
    #[inline]
    pub fn plane_of(&self, lpn: Lpn) -> u32 {
        let i = match self.mask {
            Some(m) => lpn & m,
            None => lpn % self.planes.len() as u32,
        };
        self.planes[i as usize]
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

    #[test]
    fn addresses_split_alike_with_and_without_shifts() {
        for (ppb, bpp) in [(64, 256), (48, 100), (256, 3), (1, 1)] {
            let g = Geometry::new(GeometryParams {
                pages_per_block: ppb,
                blocks_per_plane: bpp,
                ..test_params()
            });
            for ppn in (0..g.physical_pages)
                .step_by(7)
                .chain([g.physical_pages - 1])
            {
                let a = g.addr(ppn);
                assert_eq!(a.plane, ppn / ppb / bpp);
                assert_eq!(a.block, ppn / ppb % bpp);
                assert_eq!(a.page, ppn % ppb);
                assert_eq!(g.global_block(ppn), ppn / ppb);
                assert_eq!(g.page_in_block(ppn), ppn % ppb);
                assert_eq!(g.split_block(ppn / ppb), (a.plane, a.block));
            }
        }
    }

    #[test]
    fn plane_table_is_the_order_split() {
        // Plane counts that are and are not powers of two, every order.
        for (channels, chips, dies, planes) in
            [(2, 2, 1, 2), (3, 2, 1, 2), (5, 3, 2, 3), (1, 1, 1, 1)]
        {
            let g = Geometry::new(GeometryParams {
                channels,
                chips_per_channel: chips,
                dies_per_chip: dies,
                planes_per_die: planes,
                ..test_params()
            });
            for name in AllocationOrder::all() {
                let order = AllocationOrder::parse(&name).unwrap();
                let a = StaticAllocator::new(order, &g);
                for lpn in (0..5000).chain([u32::MAX - 7, u32::MAX]) {
                    let (c, w, d, p) = order.split(lpn as u64, &g);
                    assert_eq!(a.plane_of(lpn), g.plane_at(c, w, d, p), "{name} lpn {lpn}");
                }
            }
        }
    }
}
