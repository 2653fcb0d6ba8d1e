//! Plane-level superblock: the PaGC paper's comparison point, §VII-E ("Comparative analysis of PaGC
//! and superblock").
//!
//! The blocks and pages of the planes of a die are clustered into super-blocks and super-pages, and
//! the FTL reads, writes, maps and collects at that granularity, every flash operation being a
//! multi-plane operation over all planes of the die. ssdgc models it as the drive it amounts to:
//! each die becomes one plane whose pages are `planes_per_die` times larger (one super-page: the
//! same page offset in the same block of every plane) with unchanged read, program and erase
//! latencies (a multi-plane operation costs one operation) and a channel transfer as long as the
//! super-page. GC then runs on super-blocks as the trigger and preemption axes say (on demand and
//! held, in the paper). Requests smaller than a super-page
//! still program a whole super-page — the access-pattern sensitivity the paper reports for
//! small random writes. The report's `drive` section describes the transformed drive.
//!
//! When not to use it: to study plane-level scheduling; every plane of a die is always busy with the
//! same operation here.

use crate::config::{ByteSize, Config};

/// The drive a plane-level superblock FTL sees: one plane per die, super-pages of
/// `planes_per_die × page_size`.
pub fn superblock_drive(cfg: &Config) -> Config {
    let mut c = cfg.clone();
    let p = cfg.geometry.planes_per_die as u64;
    c.geometry.page_size = ByteSize(cfg.geometry.page_size.0 * p);
    c.geometry.planes_per_die = 1;
    c
}
