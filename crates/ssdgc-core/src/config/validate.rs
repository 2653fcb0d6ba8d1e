//! Validation: every impossible setting rejected with a reason naming its key.

use super::*;

/// Longest accepted idle threshold (`gc.long_idle`) and excess bound (`host.excess_bound`): a day.
const MAX_IDLE: SimTime = 86_400 * SEC;

impl Config {
    /// Rejects impossible settings with a reason.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let g = &self.geometry;
        let bad = |m: String| Err(ConfigError::invalid(m));
        for (name, v) in [
            ("geometry.channels", g.channels),
            ("geometry.chips_per_channel", g.chips_per_channel),
            ("geometry.dies_per_chip", g.dies_per_chip),
            ("geometry.planes_per_die", g.planes_per_die),
            ("geometry.blocks_per_plane", g.blocks_per_plane),
            ("geometry.pages_per_block", g.pages_per_block),
        ] {
            if v == 0 {
                return bad(format!("{name} must be at least 1"));
            }
        }
        if g.pages_per_block > u16::MAX as u32 {
            return bad(format!(
                "geometry.pages_per_block = {} exceeds the supported maximum {}",
                g.pages_per_block,
                u16::MAX
            ));
        }
        if g.page_size.0 < 512 || !g.page_size.0.is_multiple_of(512) {
            return bad(format!(
                "geometry.page_size = {} must be a positive multiple of 512 bytes",
                g.page_size.0
            ));
        }
        if g.page_size.0 > MAX_PAGE_SIZE {
            return bad(format!(
                "geometry.page_size = {} exceeds the supported maximum of {MAX_PAGE_SIZE} bytes (1 MiB)",
                g.page_size.0
            ));
        }
        if g.planes_per_die > MAX_PLANES_PER_DIE {
            return bad(format!(
                "geometry.planes_per_die = {} exceeds the supported maximum {MAX_PLANES_PER_DIE}",
                g.planes_per_die
            ));
        }
        let pagc_max = crate::gc::pagc_plan::MAX_PLANES as u32;
        let axes = self.gc_axes().ok();
        if axes.is_some_and(|a| a.planes.is_pagc()) && g.planes_per_die > pagc_max {
            return bad(format!(
                "geometry.planes_per_die = {} exceeds {pagc_max}, the most planes per die the PaGC \
                 schemes handle (gc.planes = {})",
                g.planes_per_die,
                axes.map(|a| a.planes.to_string()).unwrap_or_default()
            ));
        }
        if !(0.0..0.95).contains(&g.overprovision) || g.overprovision.is_nan() {
            return bad(format!(
                "geometry.overprovision = {} must be in [0, 0.95)",
                g.overprovision
            ));
        }
        // Checked products: the plane count, and the physical pages, which must fit a `Ppn` (u32,
        // with the top bit reserved).
        let max_pages = (1u64 << 31) - 1;
        let planes = [g.chips_per_channel, g.dies_per_chip, g.planes_per_die]
            .iter()
            .try_fold(g.channels as u64, |a, &b| a.checked_mul(b as u64));
        let pages = planes.and_then(|p| {
            p.checked_mul(g.blocks_per_plane as u64)?
                .checked_mul(g.pages_per_block as u64)
        });
        let (Some(planes), Some(pages)) = (planes, pages.filter(|&p| p <= max_pages)) else {
            return bad(format!(
                "the drive has {} physical pages (geometry.channels × chips_per_channel × \
                 dies_per_chip × planes_per_die × blocks_per_plane × pages_per_block); at most \
                 {max_pages} are supported (use larger pages)",
                pages.map_or_else(|| "more than 2^64".to_string(), |p| p.to_string())
            ));
        };
        let logical = (pages as f64 * (1.0 - g.overprovision)).floor() as u64;
        if logical == 0 {
            return bad(format!(
                "the drive has no logical page: {pages} physical pages with geometry.overprovision = {} \
                 leave none for the host; lower geometry.overprovision or add blocks",
                g.overprovision
            ));
        }
        if !(self.gc.threshold > 0.0 && self.gc.threshold < 0.5) {
            return bad(format!(
                "gc.threshold = {} must be a free-block share in (0, 0.5)",
                self.gc.threshold
            ));
        }
        if self.gc.ncq_busy == 0 {
            return bad("gc.ncq_busy = 0 must be at least 1 command".to_string());
        }
        if !(0.0..1.0).contains(&self.gc.ncq_min_gain) {
            return bad(format!(
                "gc.ncq_min_gain = {} must be a share of a block's pages in [0, 1)",
                self.gc.ncq_min_gain
            ));
        }
        for (name, v) in [
            ("gc.idle_threshold", self.gc.idle_threshold),
            ("gc.soft_threshold", self.gc.soft_threshold),
            ("gc.hard_threshold", self.gc.hard_threshold),
        ] {
            if !(0.0..0.5).contains(&v) {
                return bad(format!(
                    "{name} = {v} must be 0 (the default) or a free-block share in (0, 0.5)"
                ));
            }
        }
        if self.gc.hard_threshold > 0.0
            && self.gc.soft_threshold > 0.0
            && self.gc.hard_threshold > self.gc.soft_threshold
        {
            return bad(format!(
                "gc.hard_threshold = {} must not exceed gc.soft_threshold = {}",
                self.gc.hard_threshold, self.gc.soft_threshold
            ));
        }
        if !self.gc.copyback && self.gc.copyback_ecc != super::CopybackEcc::None {
            return bad(
                "gc.copyback_ecc = \"round-trip\" needs gc.copyback = true: without copyback every move already crosses the channel".into(),
            );
        }
        if !(0.0..0.9).contains(&self.gc.pagc_threshold) {
            return bad(format!(
                "gc.pagc_threshold = {} must be a free-page share in [0, 0.9) (0: derived from gc.threshold by gc.pagc_margin)",
                self.gc.pagc_threshold
            ));
        }
        self.check_mapping()?;
        // Each plane holds ceil(logical / planes) logical pages; it needs blocks for them, for the
        // free blocks the trigger holds back, for three write points (host, GC, aligned GC), and at
        // least one block of slack so that a victim with an invalid page always exists (the
        // minimum-spare rule of MODEL.md). A log-block mapping needs one update block instead of
        // the write points and the slack.
        let per_plane_logical = logical.div_ceil(planes);
        let per_plane_blocks_needed = per_plane_logical.div_ceil(g.pages_per_block as u64)
            + self.gc_threshold_blocks() as u64
            + self.spare_slack();
        if per_plane_blocks_needed > g.blocks_per_plane as u64 && self.ftl.mapping.is_log_block() {
            return bad(format!(
                "impossible geometry: with overprovision {} each plane must hold {} logical pages, \
                 whose {} data blocks with {} free blocks held back by gc.threshold = {} and one \
                 update block need {} blocks, but a plane has {}; raise geometry.overprovision or \
                 lower gc.threshold",
                g.overprovision,
                per_plane_logical,
                per_plane_logical.div_ceil(g.pages_per_block as u64),
                self.gc_threshold_blocks(),
                self.gc.threshold,
                per_plane_blocks_needed,
                g.blocks_per_plane
            ));
        }
        if per_plane_blocks_needed > g.blocks_per_plane as u64 {
            return bad(format!(
                "impossible geometry: with overprovision {} each plane must hold {} logical pages, which \
                 with {} free blocks held back by gc.threshold = {} and the write points needs {} blocks, \
                 but a plane has {}; raise geometry.overprovision or lower gc.threshold",
                g.overprovision,
                per_plane_logical,
                self.gc_threshold_blocks(),
                self.gc.threshold,
                per_plane_blocks_needed,
                g.blocks_per_plane
            ));
        }
        if axes.is_some_and(|a| a.planes == crate::gc::planes::Planes::Superblock) {
            // The superblock drive merges the planes of a die: one plane per die.
            let dies = planes / g.planes_per_die as u64;
            let sb_pages = pages / g.planes_per_die as u64;
            let sb_logical = (sb_pages as f64 * (1.0 - g.overprovision)).floor() as u64;
            let needed = sb_logical.div_ceil(dies).div_ceil(g.pages_per_block as u64)
                + self.gc_threshold_blocks() as u64
                + 4;
            if needed > g.blocks_per_plane as u64 {
                return bad(format!(
                    "impossible geometry for gc.scheme = superblock: a superblock plane needs {needed} \
                     blocks (its logical pages, the gc.threshold = {} reserve and the write points) but \
                     has {}; raise geometry.overprovision or lower gc.threshold",
                    self.gc.threshold, g.blocks_per_plane
                ));
            }
        }
        self.check_reachable_thresholds(per_plane_logical)?;
        let b = &self.buffer;
        if b.size.0 > 0 && b.size.0 < g.page_size.0 {
            return bad(format!(
                "buffer.size = {} must be 0 (no buffer) or at least one page ({} bytes)",
                b.size.0, g.page_size.0
            ));
        }
        if b.size.0 / g.page_size.0 > u32::MAX as u64 {
            return bad(format!("buffer.size = {} is too large", b.size.0));
        }
        let t = &self.timing;
        if t.read.0 == 0 || t.program.0 == 0 || t.erase.0 == 0 {
            return bad("timing.read, timing.program and timing.erase must be positive".into());
        }
        for (name, d) in [
            ("timing.read", t.read),
            ("timing.program", t.program),
            ("timing.erase", t.erase),
            ("timing.command", t.command),
            ("timing.suspend", t.suspend),
            ("buffer.latency", b.latency),
        ] {
            if d.0 > MAX_DURATION {
                return bad(format!(
                    "{name} = {} exceeds the supported maximum of 1s",
                    format_duration(d.0)
                ));
            }
        }
        if t.channel_rate_mts == 0
            || t.channel_width_bits == 0
            || !t.channel_width_bits.is_multiple_of(8)
        {
            return bad(
                "timing.channel_rate_mts must be positive and timing.channel_width_bits a positive multiple of 8"
                    .into(),
            );
        }
        if self.host.queue_depth == 0 || self.host.queue_depth > 65_536 {
            return bad(format!(
                "host.queue_depth = {} must be in 1..=65536",
                self.host.queue_depth
            ));
        }
        if !(self.host.time_scale > 0.0 && self.host.time_scale <= MAX_TIME_SCALE) {
            return bad(format!(
                "host.time_scale = {:?} must be a positive number of at most {MAX_TIME_SCALE:e}",
                self.host.time_scale
            ));
        }
        if !(self.precondition.overwrites >= 0.0 && self.precondition.overwrites <= 1000.0) {
            return bad(format!(
                "precondition.overwrites = {} must be in [0, 1000]",
                self.precondition.overwrites
            ));
        }
        let a = &self.array;
        if a.drives == 0 || a.drives > MAX_DRIVES {
            return bad(format!(
                "array.drives = {} must be in 1..={MAX_DRIVES}",
                a.drives
            ));
        }
        if a.chunk.0 == 0 || !a.chunk.0.is_multiple_of(g.page_size.0) {
            return bad(format!(
                "array.chunk = {} must be a positive multiple of the page size ({} bytes)",
                a.chunk.0, g.page_size.0
            ));
        }
        if !a.disks.is_empty() {
            if a.disks.len() != a.drives as usize {
                return bad(format!(
                    "array.disks lists the disks of {} drives but array.drives = {}: give one list per drive",
                    a.disks.len(),
                    a.drives
                ));
            }
            let mut seen = std::collections::BTreeSet::new();
            for (d, disks) in a.disks.iter().enumerate() {
                if disks.is_empty() {
                    return bad(format!(
                        "array.disks: drive {d} replaces no disk (each drive needs at least one)"
                    ));
                }
                if disks.len() as u64 > logical {
                    return bad(format!(
                        "array.disks: drive {d} replaces {} disks but has {logical} logical pages",
                        disks.len()
                    ));
                }
                for &k in disks {
                    if !seen.insert(k) {
                        return bad(format!(
                            "array.disks: disk {k} is listed twice (a disk is replaced by one drive)"
                        ));
                    }
                }
            }
        }
        let gc = &self.gc;
        if gc.long_idle.0 == 0 || gc.long_idle.0 > MAX_IDLE {
            return bad(format!(
                "gc.long_idle = {} must be positive and at most 1 day",
                format_duration(gc.long_idle.0)
            ));
        }
        if !(0.0..=10.0).contains(&gc.agc_threshold) {
            return bad(format!(
                "gc.agc_threshold = {} must be a share above the GC threshold in [0, 10]",
                gc.agc_threshold
            ));
        }
        if !(0.0..=1.0).contains(&gc.dgc_reserve) {
            return bad(format!(
                "gc.dgc_reserve = {} must be a share of the GC threshold's free blocks in [0, 1]",
                gc.dgc_reserve
            ));
        }
        if self.host.excess_bound.0 > MAX_IDLE {
            return bad(format!(
                "host.excess_bound = {} must be at most 1 day",
                format_duration(self.host.excess_bound.0)
            ));
        }
        crate::gc::schemes::GcAxes::resolve(&self.gc).map_err(ConfigError::invalid)?;
        self.check_migration_settings()?;
        Ok(())
    }

    /// The settings of page migration and erase inside a plane: registers, workers, IPPBE's
    /// victims per erase, the copyback parity restriction.
    fn check_migration_settings(&self) -> Result<(), ConfigError> {
        use crate::gc::migration::{Migration, Parity, MAX_ERASE_BLOCKS};
        let bad = |m: String| Err(ConfigError::invalid(m));
        let g = &self.geometry;
        let gc = &self.gc;
        let max_regs = crate::flash::MAX_REGISTERS as u32;
        if !(1..=max_regs).contains(&g.registers_per_plane) {
            return bad(format!(
                "geometry.registers_per_plane = {} must be in 1..={max_regs}",
                g.registers_per_plane
            ));
        }
        if !(1..=MAX_ERASE_BLOCKS as u32).contains(&gc.erase_blocks) {
            return bad(format!(
                "gc.erase_blocks = {} must be in 1..={MAX_ERASE_BLOCKS} (victims erased together)",
                gc.erase_blocks
            ));
        }
        let Ok(axes) = self.gc_axes() else {
            return Ok(());
        };
        let parallel = axes.migration == Migration::Parallel;
        if gc.workers > g.registers_per_plane {
            return bad(format!(
                "gc.workers = {} exceeds geometry.registers_per_plane = {}: each worker moves its page through a register of the plane",
                gc.workers, g.registers_per_plane
            ));
        }
        if gc.workers >= 2 && !parallel {
            return bad(format!(
                "gc.workers = {} takes effect only with gc.migration = \"parallel\" (gc.migration is \"{}\")",
                gc.workers, axes.migration
            ));
        }
        if gc.erase_blocks > 1 {
            if axes.migration == Migration::Instant {
                return bad(format!(
                    "gc.erase_blocks = {} saves erase time, which gc.migration = \"instant\" (the zero-latency oracle) does not spend: use gc.erase_blocks = 1",
                    gc.erase_blocks
                ));
            }
            if axes.planes.is_pagc() {
                return bad(format!(
                    "gc.erase_blocks = {} erases several victims of one plane, while gc.planes = \"{}\" collects one victim in each of several planes: use gc.planes = \"serial\" or \"superblock\" with IPPBE",
                    gc.erase_blocks, axes.planes
                ));
            }
        }
        if gc.copyback_parity != Parity::None {
            let p = gc.copyback_parity;
            if !gc.copyback {
                return bad(format!(
                    "gc.copyback_parity = \"{p}\" restricts copyback; with gc.copyback = false pages are read out and written back, with no parity restriction"
                ));
            }
            if !g.pages_per_block.is_multiple_of(2) {
                return bad(format!(
                    "gc.copyback_parity = \"{p}\" needs an even geometry.pages_per_block (odd and even pages alternate across blocks), not {}",
                    g.pages_per_block
                ));
            }
            if p == Parity::Paper && !parallel {
                return bad(
                    "gc.copyback_parity = \"paper\" is the parallel-page-migration paper's pairing of a job's address pairs (Algorithm 3): it needs gc.migration = \"parallel\" (use \"in-order\" for serial moves)".into(),
                );
            }
            if p == Parity::InOrder && self.gc.victim.name() != "greedy" {
                return bad(format!(
                    "gc.copyback_parity = \"in-order\" wastes a page for each page of the majority parity beyond balance, so a victim with few invalid pages gains nothing; it needs gc.victim = \"greedy\" (the victim with the most invalid pages), not \"{}\"",
                    self.gc.victim.name()
                ));
            }
            if self.ftl.hot_cold {
                return bad(format!(
                    "gc.copyback_parity = \"{p}\" with ftl.hot_cold = true is not modelled: a page's hot or cold destination is known only when it moves, too late to keep its parity"
                ));
            }
            if axes.planes.is_pagc() || axes.migration == Migration::Instant {
                return bad(format!(
                    "gc.copyback_parity = \"{p}\" applies to the single-plane copyback moves of serial or parallel migration, not to gc.planes = \"{}\" with gc.migration = \"{}\"",
                    axes.planes, axes.migration
                ));
            }
        }
        Ok(())
    }

    /// Rejects thresholds a plane can never reach (a scheme waiting for them would collect forever):
    /// every threshold the scheme uses, converted to blocks (or, for free-page shares, pages), must
    /// not exceed the free blocks a plane can keep: its blocks less those its logical pages fill,
    /// three write points and one block of slack (the limit `gc.threshold` itself obeys).
    fn check_reachable_thresholds(&self, per_plane_logical: u64) -> Result<(), ConfigError> {
        let g = &self.geometry;
        let ppb = g.pages_per_block as u64;
        let bpp = g.blocks_per_plane as u64;
        let limit_blocks = bpp.saturating_sub(per_plane_logical.div_ceil(ppb) + self.spare_slack());
        let limit_pages = limit_blocks * ppb;
        let pages_per_plane = bpp * ppb;
        let share = |v: f64, of: u64| (v * of as f64).ceil() as u64;
        // The thresholds the configured GC axes use (an invalid GC configuration is reported by
        // `validate` itself).
        let Ok(axes) = self.gc_axes() else {
            return Ok(());
        };
        use crate::gc::{planes::Planes, when::When};
        let default_note = |set: f64, note: &str| {
            if set > 0.0 {
                String::new()
            } else {
                format!(" (the default, {note})")
            }
        };
        let unreachable = |key: &str,
                           value: f64,
                           note: String,
                           need: u64,
                           unit: &str,
                           limit: u64| {
            Err(ConfigError::invalid(format!(
                "{key} = {value}{note} asks for {need} free {unit} per plane, but a plane can keep at \
                 most {limit} free {unit} (blocks_per_plane {bpp} less {} for its logical pages, {}); \
                 lower {key} or raise geometry.overprovision",
                per_plane_logical.div_ceil(ppb),
                if self.ftl.mapping.is_log_block() {
                    "1 update block"
                } else {
                    "3 write points and 1 spare"
                }
            )))
        };
        // Preemptible GC: below the hard threshold writes stop preempting GC and wait for it, so an
        // unreachable one makes every write wait for GC that never ends. The soft threshold may lie
        // beyond reach (GC then runs preemptibly all along, as in the paper's Table V test).
        if axes.when == When::States {
            let (_, hard) = self.pgc_threshold_blocks();
            if hard as u64 > limit_blocks {
                let note = default_note(self.gc.hard_threshold, "half of gc.soft_threshold");
                let soft_v = if self.gc.soft_threshold > 0.0 {
                    self.gc.soft_threshold
                } else {
                    self.gc.threshold
                };
                let hard_v = if self.gc.hard_threshold > 0.0 {
                    self.gc.hard_threshold
                } else {
                    soft_v / 2.0
                };
                return unreachable(
                    "gc.hard_threshold",
                    hard_v,
                    note,
                    hard as u64,
                    "blocks",
                    limit_blocks,
                );
            }
        }
        // The idle level and the PaGC join level are checked when set: their defaults, derived from
        // gc.threshold, may lie beyond reach on a drive with little spare, where idle GC stops at
        // the first job that gains nothing and every paired plane joins; neither waits forever.
        if matches!(axes.when, When::Idle | When::Ncq) && self.gc.idle_threshold > 0.0 {
            let v = self.idle_threshold();
            let need = share(v, pages_per_plane);
            if need > limit_pages {
                let note = String::new();
                return unreachable("gc.idle_threshold", v, note, need, "pages", limit_pages);
            }
        }
        if matches!(axes.planes, Planes::PagcThreshold | Planes::PagcCache)
            && self.gc.pagc_threshold > 0.0
        {
            let v = self.pagc_threshold();
            let need = share(v, pages_per_plane);
            if need > limit_pages {
                let note = String::new();
                return unreachable("gc.pagc_threshold", v, note, need, "pages", limit_pages);
            }
        }
        Ok(())
    }
}
