//! The named GC schemes: presets of axis values.
//!
//! A GC configuration is a set of independent choices ([`GcAxes`]): *when* GC runs and how much
//! one invocation collects ([`crate::gc::when`]), whether and how host requests preempt it
//! ([`crate::gc::preempt`]), which planes collect together ([`crate::gc::planes`]), and how pages
//! move ([`crate::gc::migration`]); the victim policy is `gc.victim`. `gc.scheme` names a preset
//! of these values, and each axis key of `[gc]` (`when`, `collect`, `preempt`, `merge`,
//! `pipeline`, `suspend`, `planes`, `migration`) overrides the preset's value when it is not
//! `"scheme"`: `--gc pagc-threshold --set gc.when=states --set gc.suspend=all` is T-PaGC's parallel
//! jobs under the preemptible-GC states with F-PGC's suspension. A combination that means nothing
//! is rejected with the reason ([`GcAxes::check`]).

use std::fmt;

use super::migration::Migration;
use super::planes::Planes;
use super::preempt::{PreemptMode, Preemption, Suspend};
use super::when::{Collect, When};
use crate::config::GcConfig;

/// One value on every GC axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GcAxes {
    /// When GC runs.
    pub when: When,
    /// How much one on-demand invocation collects.
    pub collect: Collect,
    /// Preemption and its capabilities.
    pub preempt: Preemption,
    /// Which planes collect together.
    pub planes: Planes,
    /// How pages move.
    pub migration: Migration,
}

const fn axes(when: When, preempt: Preemption, planes: Planes, migration: Migration) -> GcAxes {
    GcAxes {
        when,
        collect: Collect::Restore,
        preempt,
        planes,
        migration,
    }
}

const SERIAL: Migration = Migration::Serial;
const NONE: Preemption = Preemption::NONE;

/// The named schemes `--gc` accepts: (name, description, axis values).
pub const PRESETS: &[(&str, &str, GcAxes)] = &[
    (
        "baseline",
        "on-demand serial GC (NPGC): per-plane free-block trigger, GC before host I/O, non-preemptible, holds the die",
        axes(When::OnDemand, NONE, Planes::Serial, SERIAL),
    ),
    (
        "idle",
        "idle-time GC: collects planes below gc.idle_threshold while the device queue is empty, preemptible between operations; on-demand at the threshold",
        axes(When::Idle, Preemption::ops(false, false, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "pagc-blind",
        "B-PaGC: when a plane of a die collects, every plane of the die collects in parallel (multi-plane moves and erase)",
        axes(When::OnDemand, NONE, Planes::PagcBlind, SERIAL),
    ),
    (
        "pagc-threshold",
        "T-PaGC: a paired plane joins only if its free-page share is below gc.pagc_threshold",
        axes(When::OnDemand, NONE, Planes::PagcThreshold, SERIAL),
    ),
    (
        "pagc-cache",
        "TC-PaGC: as T-PaGC, single-plane moves go through the DRAM buffer and are committed later with multi-plane programs",
        axes(When::OnDemand, NONE, Planes::PagcCache, SERIAL),
    ),
    (
        "superblock",
        "plane-level superblock (PaGC paper §VII-E): the planes of a die read, write, map and collect as one, with multi-plane operations",
        axes(When::OnDemand, NONE, Planes::Superblock, SERIAL),
    ),
    (
        "pgc-none",
        "semi-preemptible GC: GC below gc.soft_threshold runs one page move at a time and host requests preempt it between moves; below gc.hard_threshold only reads do; a waiting write then makes the job finish first",
        axes(When::States, Preemption::ops(false, false, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "pgc-merge",
        "pgc-none with merging: a preempting read of a page the GC job still has to move is served from the move's register (the page moves first); a preempting write to it goes into the page buffer and is programmed once, at the GC write point",
        axes(When::States, Preemption::ops(true, false, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "pgc-pipeline",
        "pgc-none with pipelining: a host command is pipelined with a GC command of the same type through the cache register (a write at point A during the move's program, a read at point B during the next move's read)",
        axes(When::States, Preemption::ops(false, true, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "pgc",
        "PGC: semi-preemptible GC with merging and pipelining",
        axes(When::States, Preemption::ops(true, true, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "pgc-se",
        "PGC+SE: pgc, and a preempting request suspends a GC erase in progress (timing.suspend)",
        axes(When::States, Preemption::ops(true, true, Suspend::Erase), Planes::Serial, SERIAL),
    ),
    (
        "fpgc",
        "F-PGC: pgc, and a preempting request suspends any GC operation in progress (timing.suspend)",
        axes(When::States, Preemption::ops(true, true, Suspend::All), Planes::Serial, SERIAL),
    ),
    (
        "practical",
        "NCQ-aware timing (practical-GC paper, §III-D): collect while the device queue is empty (skipping low-gain planes), on demand while it holds fewer than gc.ncq_busy commands, at the last free blocks when it holds more; preemptible between operations",
        axes(When::Ncq, Preemption::ops(false, false, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "agc",
        "AGC (AGC/DGC paper §5.1): look-ahead GC in short idle periods for the next command's writes (if eq. 2 fits), proactive block compaction after gc.long_idle of idleness below gc.agc_threshold; incremental (preemptible between operations); on demand otherwise",
        axes(When::Agc, Preemption::ops(false, false, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "dgc",
        "DGC (AGC/DGC paper §5.2): a write whose GC is due takes a delay block instead of waiting (up to gc.dgc_reserve of the threshold's free blocks); retroactive compaction in idle periods; on demand once the reserve is used up",
        axes(When::Dgc, Preemption::ops(false, false, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "agc-dgc",
        "AGC+DGC (AGC/DGC paper §5.3, Algorithm 1): DGC defers what AGC did not prevent; idle periods run retroactive compaction, then look-ahead GC or proactive compaction",
        axes(When::AgcDgc, Preemption::ops(false, false, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "pftl",
        "P-FTL (AGC/DGC paper §6): partial GC — GC from the threshold runs one page move at a time between host requests, writes wait only below half of it — with its non-volatile write buffer as buffer.size (14 GB per 64 GB drive in the paper; none by default)",
        axes(When::States, Preemption::ops(false, false, Suspend::None), Planes::Serial, SERIAL),
    ),
    (
        "zero",
        "zero-latency oracle: all GC bookkeeping, no GC time (the lower bound for every scheme)",
        axes(When::OnDemand, NONE, Planes::Serial, Migration::Instant),
    ),
    (
        "parallel",
        "parallel page migration (Zhu et al. 2020): baseline GC whose jobs move gc.workers pages of the victim's plane at once on its page registers (geometry.registers_per_plane), address pairs computed once per job",
        axes(When::OnDemand, NONE, Planes::Serial, Migration::Parallel),
    ),
];

/// The preset axis values of scheme `name`.
pub fn preset(name: &str) -> Result<GcAxes, String> {
    PRESETS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, _, a)| *a)
        .ok_or_else(|| {
            format!(
                "unknown GC scheme '{name}' (known: {})",
                PRESETS
                    .iter()
                    .map(|(n, _, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

impl GcAxes {
    /// The axes a `[gc]` section asks for: the preset `gc.scheme`, with every axis key that is not
    /// `"scheme"` overriding it; checked ([`GcAxes::check`]).
    pub fn resolve(gc: &GcConfig) -> Result<GcAxes, String> {
        let p = preset(&gc.scheme).map_err(|e| format!("gc.scheme: {e}"))?;
        let a = GcAxes {
            when: gc.when.or(p.when),
            collect: gc.collect.or(p.collect),
            preempt: Preemption {
                mode: gc.preempt.or(p.preempt.mode),
                merge: gc.merge.or(super::axis::Toggle(p.preempt.merge)).0,
                pipeline: gc.pipeline.or(super::axis::Toggle(p.preempt.pipeline)).0,
                suspend: gc.suspend.or(p.preempt.suspend),
            },
            planes: gc.planes.or(p.planes),
            migration: gc.migration.or(p.migration),
        };
        a.check()?;
        Ok(a)
    }

    /// Why this combination means nothing, if it does not.
    pub fn check(&self) -> Result<(), String> {
        self.preempt.check()?;
        if self.when == When::OnDemand && self.preempt.mode == PreemptMode::Ops {
            return Err(
                "gc.preempt = \"ops\" needs a trigger that collects before space runs out (gc.when = \"states\" or \"idle\"): with gc.when = \"on-demand\" the write that triggered a job waits for all of it, so nothing can preempt the job"
                    .into(),
            );
        }
        if self.migration == Migration::Instant {
            if self.when != When::OnDemand {
                return Err("gc.migration = \"instant\" (the zero-latency oracle) collects on demand: it needs gc.when = \"on-demand\"".into());
            }
            if self.preempt.mode != PreemptMode::None {
                return Err("gc.migration = \"instant\" takes no time, so there is nothing to preempt: it needs gc.preempt = \"none\"".into());
            }
            if self.planes.is_pagc() {
                return Err("gc.migration = \"instant\" moves no page over the flash, so planes cannot pair: it needs gc.planes = \"serial\" or \"superblock\"".into());
            }
        }
        if self.migration == Migration::Parallel && self.planes.is_pagc() {
            return Err("gc.migration = \"parallel\" moves one plane's pages on that plane's registers, while gc.planes = \"pagc-*\" moves pages of several planes with multi-plane commands (one register each): use gc.planes = \"serial\" or \"superblock\" with parallel migration".into());
        }
        Ok(())
    }
}

impl fmt::Display for GcAxes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.preempt;
        write!(
            f,
            "when={} collect={} preempt={} merge={} pipeline={} suspend={} planes={} migration={}",
            self.when,
            self.collect,
            p.mode,
            super::axis::Toggle(p.merge),
            super::axis::Toggle(p.pipeline),
            p.suspend,
            self.planes,
            self.migration
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gc::axis::{AxisSetting, Toggle};
    use crate::Config;

    fn gc(scheme: &str) -> GcConfig {
        let mut g = Config::default().gc;
        g.scheme = scheme.into();
        g
    }

    #[test]
    fn every_preset_resolves_to_itself_and_is_meaningful() {
        for (name, _, axes) in PRESETS {
            assert_eq!(GcAxes::resolve(&gc(name)).as_ref(), Ok(axes), "{name}");
        }
    }

    #[test]
    fn axis_keys_override_the_preset() {
        let mut g = gc("pgc-none");
        g.merge = AxisSetting::Set(Toggle(true));
        g.pipeline = AxisSetting::Set(Toggle(true));
        g.suspend = AxisSetting::Set(Suspend::All);
        assert_eq!(GcAxes::resolve(&g), preset("fpgc"));
        let mut g = gc("pagc-threshold");
        g.when = AxisSetting::Set(When::States);
        g.preempt = AxisSetting::Set(PreemptMode::Ops);
        g.suspend = AxisSetting::Set(Suspend::All);
        let a = GcAxes::resolve(&g).unwrap();
        assert_eq!(a.planes, Planes::PagcThreshold);
        assert_eq!(a.preempt.suspend, Suspend::All);
    }

    #[test]
    fn meaningless_combinations_are_rejected_with_the_key() {
        type Case = (&'static str, fn(&mut GcConfig), &'static str);
        let cases: &[Case] = &[
            (
                "baseline",
                |g| g.suspend = AxisSetting::Set(Suspend::All),
                "gc.suspend",
            ),
            (
                "baseline",
                |g| g.merge = AxisSetting::Set(Toggle(true)),
                "gc.merge",
            ),
            (
                "baseline",
                |g| g.preempt = AxisSetting::Set(PreemptMode::Ops),
                "gc.when",
            ),
            (
                "zero",
                |g| g.when = AxisSetting::Set(When::Idle),
                "gc.migration",
            ),
            (
                "zero",
                |g| g.planes = AxisSetting::Set(Planes::PagcBlind),
                "gc.planes",
            ),
            ("nope", |_| {}, "gc.scheme"),
        ];
        for (scheme, set, key) in cases {
            let mut g = gc(scheme);
            set(&mut g);
            let e = GcAxes::resolve(&g).expect_err(scheme);
            assert!(e.contains(key), "{scheme}: {e}");
        }
    }

    #[test]
    fn one_victim_per_invocation_combines_with_every_scheme() {
        // Drive presets set gc.collect (the paper's simulator's semantics), whatever the scheme.
        for (name, _, _) in PRESETS {
            let mut g = gc(name);
            g.collect = AxisSetting::Set(Collect::One);
            let a = GcAxes::resolve(&g).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(a.collect, Collect::One, "{name}");
        }
    }

    #[test]
    fn display_names_every_axis() {
        let s = preset("fpgc").unwrap().to_string();
        assert_eq!(
            s,
            "when=states collect=restore preempt=ops merge=on pipeline=on suspend=all planes=serial migration=serial"
        );
    }
}
