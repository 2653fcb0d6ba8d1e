//! Validation of the FTL's mapping scheme (`ftl.mapping`) and its settings: the log-block mappings'
//! parameters, and the settings that mean nothing under them, each rejected with the reason.

use super::{Config, ConfigError, ThresholdUnit};
use crate::ftl::MappingKind;
use crate::gc::victim::VictimKind;

/// Most logical blocks per H-FTL group (`ftl.group_data_blocks`).
pub const MAX_GROUP_DATA_BLOCKS: u32 = 16;
/// Most update blocks per H-FTL group (`ftl.group_update_blocks`).
pub const MAX_GROUP_UPDATE_BLOCKS: u32 = 64;
/// The H-FTL group shape of the paper (2:8), the defaults of `ftl.group_data_blocks` and
/// `ftl.group_update_blocks`.
const PAPER_SHAPE: (u32, u32) = (2, 8);

impl Config {
    /// Blocks a plane keeps beyond its logical pages' blocks and the free blocks the GC threshold
    /// holds back: three write points and one block of slack under page mapping; one update block
    /// under a log-block mapping (validation's minimum spare, MODEL.md).
    pub(super) fn spare_slack(&self) -> u64 {
        if self.ftl.mapping.is_log_block() {
            1
        } else {
            4
        }
    }

    /// Rejects log-block settings without a log-block mapping, out-of-range group shapes, and the
    /// settings a log-block mapping cannot honour.
    pub(super) fn check_mapping(&self) -> Result<(), ConfigError> {
        let bad = |m: String| Err(ConfigError::invalid(m));
        let f = &self.ftl;
        let mapping = f.mapping;
        if !mapping.is_log_block() && f.log_blocks != 0 {
            return bad(format!(
                "ftl.log_blocks = {} applies to the log-block mappings (ftl.mapping = \"lftl\" or \
                 \"hftl\"), not to ftl.mapping = \"{mapping}\"",
                f.log_blocks
            ));
        }
        if mapping != MappingKind::Hftl
            && (f.group_data_blocks, f.group_update_blocks) != PAPER_SHAPE
        {
            return bad(format!(
                "ftl.group_data_blocks and ftl.group_update_blocks shape H-FTL's groups \
                 (ftl.mapping = \"hftl\"); under ftl.mapping = \"{mapping}\" leave them at {} and {}",
                PAPER_SHAPE.0, PAPER_SHAPE.1
            ));
        }
        if !mapping.is_log_block() {
            return Ok(());
        }
        if !(1..=MAX_GROUP_DATA_BLOCKS).contains(&f.group_data_blocks) {
            return bad(format!(
                "ftl.group_data_blocks = {} must be in 1..={MAX_GROUP_DATA_BLOCKS} (logical blocks \
                 per H-FTL group)",
                f.group_data_blocks
            ));
        }
        if !(1..=MAX_GROUP_UPDATE_BLOCKS).contains(&f.group_update_blocks) {
            return bad(format!(
                "ftl.group_update_blocks = {} must be in 1..={MAX_GROUP_UPDATE_BLOCKS} (update \
                 blocks per H-FTL group)",
                f.group_update_blocks
            ));
        }
        if f.log_blocks > self.geometry.blocks_per_plane {
            return bad(format!(
                "ftl.log_blocks = {} exceeds geometry.blocks_per_plane = {}",
                f.log_blocks, self.geometry.blocks_per_plane
            ));
        }
        let under = format!("under ftl.mapping = \"{mapping}\"");
        if f.hot_cold {
            return bad(format!(
                "ftl.hot_cold = true separates hot and cold pages into GC write points of the \
                 page-mapped FTL; {under} a merge copies every page to its own offset in a data \
                 block: set ftl.hot_cold = false"
            ));
        }
        if self.gc.trigger == ThresholdUnit::Pages {
            return bad(format!(
                "gc.trigger = \"pages\" counts the free pages of a plane's write points; {under} \
                 free pages sit in update blocks that belong to one group each, so GC is triggered \
                 by free blocks: use gc.trigger = \"blocks\""
            ));
        }
        if !matches!(
            self.gc.victim,
            VictimKind::Greedy | VictimKind::Fifo | VictimKind::Random
        ) {
            return bad(format!(
                "gc.victim = \"{}\" ranks victim blocks by their pages, age or wear; {under} GC \
                 merges logical groups and chooses one by greedy (fewest pages copied per update \
                 block released), fifo (oldest update block) or random",
                self.gc.victim.name()
            ));
        }
        let Ok(axes) = self.gc_axes() else {
            return Ok(()); // reported by `validate`
        };
        use crate::gc::planes::Planes;
        if axes.planes.is_pagc() {
            return bad(format!(
                "gc.planes = \"{}\" pairs the planes of a die with aligned write points of the \
                 page-mapped FTL; {under} a merge copies pages to fixed offsets of one plane: use \
                 gc.planes = \"serial\"",
                axes.planes
            ));
        }
        if axes.planes == Planes::Superblock {
            return bad(format!(
                "gc.planes = \"superblock\" merges the planes of a die into one page-mapped plane; \
                 {under} use gc.planes = \"serial\""
            ));
        }
        let mut planned = Vec::new();
        if axes.migration == crate::gc::migration::Migration::Parallel {
            planned.push("gc.migration = \"parallel\"".to_string());
        }
        if self.gc.erase_blocks > 1 {
            planned.push(format!("gc.erase_blocks = {}", self.gc.erase_blocks));
        }
        if self.gc.copyback_parity != crate::gc::migration::Parity::None {
            planned.push(format!(
                "gc.copyback_parity = \"{}\"",
                self.gc.copyback_parity
            ));
        }
        if !planned.is_empty() {
            return bad(format!(
                "{} plan{} the moves of a page-mapped plane's victims; {under} a merge copies \
                 pages to fixed offsets of its data blocks: use gc.migration = \"serial\", \
                 gc.erase_blocks = 1 and gc.copyback_parity = \"none\"",
                planned.join(" and "),
                if planned.len() == 1 { "s" } else { "" }
            ));
        }
        if self.ftl.multiplane != super::HostMultiplane::Off {
            return bad(format!(
                "ftl.multiplane = \"{}\" joins host pages at the page-mapped FTL's host write \
                 points; {under} a write goes to its logical block's update block: set \
                 ftl.multiplane = \"off\"",
                self.ftl.multiplane
            ));
        }
        if axes.preempt.merge {
            return bad(format!(
                "gc.merge = true serves a read from a GC move taken out of its order; {under} a \
                 merge programs its data blocks' pages in offset order: set gc.merge = false"
            ));
        }
        let floor = crate::gc::when::ncq::LATE_FLOOR;
        if axes.when == crate::gc::when::When::Ncq && f.group_data_blocks >= floor {
            return bad(format!(
                "gc.when = \"ncq\" lets writes through down to {floor} free blocks under a busy \
                 queue, and a full merge of an H-FTL group takes ftl.group_data_blocks = {} fresh \
                 blocks: use at most {} logical blocks per group with it",
                f.group_data_blocks,
                floor - 1
            ));
        }
        Ok(())
    }
}
