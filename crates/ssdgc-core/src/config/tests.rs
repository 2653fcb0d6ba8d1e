//! Unit tests of the configuration: layering, typed keys, errors naming their source, validation.

use super::*;

#[test]
fn durations_parse_exactly() {
    assert_eq!(parse_duration("25us"), Ok(25_000));
    assert_eq!(parse_duration("1.5ms"), Ok(1_500_000));
    assert_eq!(parse_duration("183.2us"), Ok(183_200));
    assert_eq!(parse_duration("2s"), Ok(2_000_000_000));
    assert_eq!(parse_duration("100ns"), Ok(100));
    assert!(parse_duration("1.5ns").is_err());
    assert!(parse_duration("25").is_err());
    assert!(parse_duration("x ms").is_err());
}

#[test]
fn sizes_parse() {
    assert_eq!(parse_size("8KiB"), Ok(8192));
    assert_eq!(parse_size("4096"), Ok(4096));
    assert_eq!(parse_size("1.5KiB"), Ok(1536));
    assert!(parse_size("lots").is_err());
}

#[test]
fn every_preset_is_valid() {
    for (name, _) in presets() {
        Config::preset(name).unwrap_or_else(|e| panic!("preset {name}: {e}"));
    }
}

#[test]
fn overrides_apply_and_typos_are_errors() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("geometry.blocks_per_plane=300").unwrap();
    b.set("ftl.allocation=PCWD").unwrap();
    b.set("timing.read=30us").unwrap();
    let c = b.clone().build().unwrap();
    assert_eq!(c.geometry.blocks_per_plane, 300);
    assert_eq!(c.ftl.allocation.to_string(), "PCWD");
    assert_eq!(c.timing.read.ns(), 30_000);
    let e = b.set("geometry.blocks_per_plan=3").unwrap_err();
    assert!(e
        .to_string()
        .contains("unknown key 'geometry.blocks_per_plan'"));
    let e = b.set("timing.read=fast").unwrap_err();
    assert!(e.to_string().contains("timing.read"), "{e}");
    let e = b.set("gc.threshold=true").unwrap_err();
    assert!(e.to_string().contains("must be a number"), "{e}");
}

#[test]
fn file_errors_name_the_line() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    let text = "[geometry]\nchannels = 4\nplanez = 2\n";
    let e = b.merge_text(text, "drive.toml").unwrap_err();
    assert_eq!(e.source_name, "drive.toml");
    assert_eq!(e.line, Some(3));
    let e = b.merge_text("[geometry\n", "bad.toml").unwrap_err();
    assert_eq!(e.line, Some(1));
    let e = b.merge_text("[nosuch]\na = 1\n", "x.toml").unwrap_err();
    assert_eq!(e.line, Some(1));
    assert!(e.msg.contains("unknown section"));
    // A mistyped dotted key outside any section names its line too.
    let e = b
        .merge_text("# drive\n\ngeometry.planez = 2\n", "dotted.toml")
        .unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.msg.contains("geometry.planez"));
    let e = b
        .merge_text(
            "[gc]\nthreshold = 0.05\nwhen = \"sometimes\"\n",
            "axes.toml",
        )
        .unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.msg.contains("gc.when"));
}

#[test]
fn impossible_geometry_is_rejected_with_a_reason() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("geometry.overprovision=0.0").unwrap();
    let e = b.build().unwrap_err();
    assert!(e.msg.contains("impossible geometry"), "{e}");
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("geometry.channels=0").unwrap();
    assert!(b.build().is_err());
    let mut b = ConfigBuilder::preset("default").unwrap();
    let e = b.set("ftl.allocation=CWDX").unwrap_err();
    assert_eq!(
        e.to_string(),
        "--set ftl.allocation=CWDX: 'ftl.allocation' = 'CWDX' is not an allocation order: use a permutation of C, W, D and P such as CWDP"
    );
}

fn build_with(sets: &[&str]) -> Result<Config, ConfigError> {
    let mut b = ConfigBuilder::preset("default")?;
    for s in sets {
        b.set(s)?;
    }
    b.build()
}

#[test]
fn unreachable_thresholds_are_rejected_for_the_schemes_that_use_them() {
    // The default drive: 256 blocks per plane, 205 of them for logical pages, so at most
    // 256 - 205 - 4 = 47 free blocks (3,008 pages) per plane.
    let e = build_with(&["gc.scheme=pgc-none", "gc.soft_threshold=0.4"]).unwrap_err();
    assert!(
        e.msg.starts_with(
            "gc.hard_threshold = 0.2 (the default, half of gc.soft_threshold) asks for 52"
        ),
        "{e}"
    );
    assert!(e.msg.contains("at most 47 free blocks"), "{e}");
    let e = build_with(&[
        "gc.scheme=fpgc",
        "gc.soft_threshold=0.4",
        "gc.hard_threshold=0.19",
    ])
    .unwrap_err();
    assert!(
        e.msg.starts_with("gc.hard_threshold = 0.19 asks for 49"),
        "{e}"
    );
    // A soft threshold beyond reach is allowed: GC then runs preemptibly all along.
    build_with(&[
        "gc.scheme=pgc-none",
        "gc.soft_threshold=0.4",
        "gc.hard_threshold=0.18",
    ])
    .unwrap();
    build_with(&["gc.scheme=pgc-none", "gc.soft_threshold=0.36"]).unwrap();
    build_with(&["gc.scheme=baseline", "gc.soft_threshold=0.4"]).unwrap();
    let e = build_with(&["gc.scheme=idle", "gc.idle_threshold=0.19"]).unwrap_err();
    assert!(e.msg.contains("gc.idle_threshold = 0.19"), "{e}");
    build_with(&["gc.scheme=idle", "gc.idle_threshold=0.18"]).unwrap();
    let e = build_with(&["gc.scheme=pagc-cache", "gc.pagc_threshold=0.2"]).unwrap_err();
    assert!(e.msg.contains("gc.pagc_threshold = 0.2"), "{e}");
    build_with(&["gc.scheme=pagc-blind", "gc.pagc_threshold=0.2"]).unwrap();
    for name in presets().map(|(n, _)| n) {
        let mapping = Config::preset(name).unwrap().ftl.mapping;
        for scheme in crate::gc::schemes::PRESETS.iter().map(|(n, _, _)| *n) {
            let mut b = ConfigBuilder::preset(name).unwrap();
            b.set(&format!("gc.scheme={scheme}")).unwrap();
            match b.build() {
                Ok(_) => {}
                // A log-block preset (agc-*) rejects the schemes its mapping cannot honour (PaGC,
                // superblock, merging of reads), naming the mapping.
                Err(e) if mapping.is_log_block() => assert!(
                    e.msg.contains(&format!("ftl.mapping = \"{mapping}\""))
                        && matches!(
                            scheme,
                            "pagc-blind"
                                | "pagc-threshold"
                                | "pagc-cache"
                                | "superblock"
                                | "parallel"
                                | "pgc-merge"
                                | "pgc"
                                | "pgc-se"
                                | "fpgc"
                        ),
                    "preset {name}, scheme {scheme}: {e}"
                ),
                Err(e) => panic!("preset {name}, scheme {scheme}: {e}"),
            }
        }
    }
}

#[test]
fn geometry_products_are_checked_and_a_drive_needs_logical_pages() {
    let e = build_with(&[
        "geometry.channels=65536",
        "geometry.chips_per_channel=65536",
        "geometry.dies_per_chip=65536",
        "geometry.planes_per_die=64",
    ])
    .unwrap_err();
    assert!(e.msg.contains("more than 2^64 physical pages"), "{e}");
    let e = build_with(&[
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.planes_per_die=1",
        "geometry.blocks_per_plane=8",
        "geometry.pages_per_block=1",
        "geometry.overprovision=0.9",
    ])
    .unwrap_err();
    assert!(e.msg.contains("no logical page"), "{e}");
    let e = build_with(&["gc.scheme=pagc-blind", "geometry.planes_per_die=9"]).unwrap_err();
    assert!(e.msg.contains("exceeds 8"), "{e}");
    build_with(&["gc.scheme=pagc-blind", "geometry.planes_per_die=8"]).unwrap();
}

#[test]
fn durations_and_time_scale_are_bounded() {
    build_with(&["timing.erase=\"1s\""]).unwrap();
    let e = build_with(&["timing.erase=1000000001"]).unwrap_err();
    assert!(e.msg.contains("timing.erase = 1000000001ns exceeds"), "{e}");
    let e = build_with(&["buffer.latency=\"2s\""]).unwrap_err();
    assert!(e.msg.contains("buffer.latency"), "{e}");
    build_with(&["host.time_scale=1e6"]).unwrap();
    for bad in ["1e300", "inf", "nan", "0", "-1"] {
        let e = build_with(&[&format!("host.time_scale={bad}")]).unwrap_err();
        assert!(e.msg.contains("host.time_scale"), "{bad}: {e}");
    }
}

#[test]
fn out_of_range_integers_and_line_breaks_name_the_key() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    let e = b
        .merge_text("[geometry]\n\nchannels = 4294967296\n", "big.toml")
        .unwrap_err();
    assert_eq!((e.source_name.as_str(), e.line), ("big.toml", Some(3)));
    assert!(
        e.msg
            .starts_with("'geometry.channels' = 4294967296 is out of range"),
        "{e}"
    );
    let e = b
        .merge_text("[buffer]\nsize = -1\n", "neg.toml")
        .unwrap_err();
    assert_eq!(e.line, Some(2));
    assert_eq!(e.msg, "'buffer.size' = -1 must not be negative");
    b.merge_text("[geometry]\nchannels = 4294967295\n", "max.toml")
        .unwrap();
    let e = b
        .set("gc.threshold=0.1\n[host]\nqueue_depth=1")
        .unwrap_err();
    assert_eq!(e.to_string().lines().count(), 1, "{e}");
    assert!(e.msg.contains("one line"), "{e}");
}

#[test]
fn the_first_problem_in_check_order_is_reported() {
    // Sections and keys are checked in the parsed table's order (sorted by name). An integer that
    // does not fit, before an unknown key or an unknown section: the integer is named, at its line.
    for later in ["zzz = 1", "[nosuch]\nx = 1", "[host]\nqueue_depth = \"x\""] {
        let mut b = ConfigBuilder::preset("default").unwrap();
        let text = format!("[geometry]\nchannels = 1\nplanes_per_die = -2\n{later}\n");
        let e = b.merge_text(&text, "order.toml").unwrap_err();
        assert_eq!(e.line, Some(3), "{later}: {e}");
        assert_eq!(e.msg, "'geometry.planes_per_die' = -2 must not be negative");
    }
    // A problem before the integer is reported instead.
    let mut b = ConfigBuilder::preset("default").unwrap();
    let e = b
        .merge_text("[geometry]\nbogus = 1\nchannels = -1\n", "order.toml")
        .unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.msg.starts_with("unknown key 'geometry.bogus'"), "{e}");
    // Integers that fit are merged; of two that do not, the first checked is named.
    b.merge_text("[geometry]\nchannels = 2\nplanes_per_die = 4\n", "ok.toml")
        .unwrap();
    let e = b
        .merge_text(
            "[host]\nqueue_depth = -1\n[geometry]\nchannels = -1\n",
            "two.toml",
        )
        .unwrap_err();
    assert_eq!(e.line, Some(4), "{e}");
    assert!(e.msg.starts_with("'geometry.channels' = -1"), "{e}");
}

#[test]
fn array_settings_are_checked() {
    let c = Config::default();
    assert_eq!((c.array.drives, c.array.chunk.0), (1, 64 << 10));
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("array.drives=3").unwrap();
    b.set("array.chunk=\"16KiB\"").unwrap();
    let c = b.build().unwrap();
    assert_eq!((c.array.drives, c.array.chunk.0), (3, 16 << 10));
    for (set, needle) in [
        ("array.drives=0", "array.drives"),
        ("array.drives=65", "array.drives"),
        ("array.chunk=\"6KiB\"", "array.chunk"),
        ("array.chunk=0", "array.chunk"),
    ] {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set(set).unwrap();
        let e = b.build().unwrap_err();
        assert!(e.msg.contains(needle), "{set}: {e}");
    }
    let mut b = ConfigBuilder::preset("default").unwrap();
    let e = b.set("array.stripes=2").unwrap_err();
    assert!(e.to_string().contains("unknown key 'array.stripes'"), "{e}");
    let e = b.set("array.chunk=big").unwrap_err();
    assert!(e.to_string().contains("array.chunk"), "{e}");
}

#[test]
fn ftl_pool_and_hot_to_are_typed_and_errors_name_the_key() {
    let c = Config::default();
    assert_eq!(c.ftl.pool, crate::ftl::PoolOrder::Fifo);
    assert_eq!(c.ftl.hot_to, crate::ftl::HotTo::Young);
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("ftl.pool=youngest").unwrap();
    b.set("ftl.hot_to=\"old\"").unwrap();
    let c = b.clone().build().unwrap();
    assert_eq!(c.ftl.pool, crate::ftl::PoolOrder::Youngest);
    assert_eq!(c.ftl.hot_to, crate::ftl::HotTo::Old);
    assert!(c.to_toml().contains("pool = \"youngest\""));
    let e = b.set("ftl.pool=lifo").unwrap_err();
    assert!(e.to_string().contains("'ftl.pool'") && e.msg.contains("fifo, youngest, oldest"));
    let e = b.set("ftl.hot_to=warm").unwrap_err();
    assert!(e.to_string().contains("'ftl.hot_to'") && e.msg.contains("young, old"));
    let e = b.merge_text("[ftl]\npool = 3\n", "drive.toml").unwrap_err();
    assert_eq!(e.line, Some(2));
    let e = b
        .merge_text("[ftl]\nallocation = \"CWDP\"\nhot_to = \"hot\"\n", "d.toml")
        .unwrap_err();
    assert_eq!((e.line, e.msg.contains("ftl.hot_to")), (Some(3), true));
}

#[test]
fn parameters_follow_the_settings() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("gc.trigger=pages").unwrap();
    b.set("ftl.pool=oldest").unwrap();
    let c = b.build().unwrap();
    let p = c.ftl_params().unwrap();
    assert_eq!(p.pool, crate::ftl::PoolOrder::Oldest);
    assert_eq!(p.trigger.blocks, c.gc_threshold_blocks());
    assert_eq!(
        p.trigger.pages,
        Some((0.03f64 * 256.0 * 64.0).ceil() as u64)
    );
    assert_eq!(
        crate::ftl::CandidateIndexKind::name(p.candidates.as_ref()),
        "greedy"
    );
    assert_eq!(p.allocation, c.ftl.allocation);
    let g = crate::flash::Geometry::new(&c);
    assert_eq!(g, crate::flash::Geometry::new(c.geometry_params()));
    assert_eq!(g.planes, 8);
    let t = crate::flash::Timing::new(&c);
    assert_eq!(t.read, c.timing.read.ns());
}

#[test]
fn config_round_trips_through_toml() {
    let c = Config::preset("pagc").unwrap();
    let text = c.to_toml();
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.merge_text(&text, "dump").unwrap();
    assert_eq!(b.build().unwrap(), c);
}

#[test]
fn victim_table_and_string_forms_are_one_setting() {
    use crate::gc::victim::VictimKind;
    let build = |f: &dyn Fn(&mut ConfigBuilder) -> Result<(), ConfigError>| {
        let mut b = ConfigBuilder::preset("default").unwrap();
        f(&mut b).unwrap();
        b.build().unwrap()
    };
    let string = build(&|b| b.set("gc.victim=rga:8"));
    let forms = [
        build(&|b| b.set("gc.victim=\"RGA:8\"")),
        build(&|b| b.set("gc.victim=rga")),
        build(&|b| b.set("gc.victim={ policy = \"rga\", d = 8 }")),
        build(&|b| b.merge_text("[gc]\nvictim = { policy = \"rga\", d = 8 }\n", "v.toml")),
        build(&|b| b.merge_text("[gc.victim]\npolicy = \"rga\"\nd = 8\n", "v.toml")),
        build(&|b| b.merge_text("[gc]\nvictim = \"rga:8\"\n", "v.toml")),
    ];
    assert_eq!(string.gc.victim, VictimKind::Rga(8));
    for c in &forms {
        assert_eq!(c, &string);
    }
    // Written back in the canonical string form, which reads back to the same configuration.
    let text = string.to_toml();
    assert!(text.contains("victim = \"rga:8\""), "{text}");
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.merge_text(&text, "dump").unwrap();
    assert_eq!(b.build().unwrap(), string);
    // The allocation order too, upper case.
    let lower = build(&|b| b.set("ftl.allocation=pcwd"));
    assert!(lower.to_toml().contains("allocation = \"PCWD\""));
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.merge_text(&lower.to_toml(), "dump").unwrap();
    assert_eq!(b.build().unwrap(), lower);
}

#[test]
fn victim_and_allocation_errors_name_the_key_and_the_line() {
    let file = |text: &str| {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.merge_text(text, "v.toml").unwrap_err().to_string()
    };
    let set = |a: &str| {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set(a).unwrap_err().to_string()
    };
    assert_eq!(
        file("[gc]\nthreshold = 0.05\nvictim = { policy = \"rga\", d = 0 }\n"),
        "v.toml:3: 'gc.victim.d' = 0 must be an integer in 1..=4294967295"
    );
    assert_eq!(
        file("[ftl]\npool = \"fifo\"\n\n[gc.victim]\npolicy = \"rga\"\nq = 1\n"),
        "v.toml:4: 'gc.victim.q' is not a parameter of rga (known: policy, d)"
    );
    assert_eq!(
        file("[gc]\nvictim = \"lru\"\n"),
        "v.toml:2: 'gc.victim' = 'lru' must be one of: greedy, rga:D, random, random+, fifo, cost-benefit, cat, wear-aware, alpha:ALPHA"
    );
    assert_eq!(
        file("[gc]\nvictim = 3\n"),
        "v.toml:2: 'gc.victim' must be a string (\"rga:8\") or a table ({ policy = \"rga\", d = 8 }), not an integer"
    );
    assert_eq!(
        file("[ftl]\nallocation = \"CWDD\"\n"),
        "v.toml:2: 'ftl.allocation' = 'CWDD' repeats 'D': an allocation order names each of C, W, D and P once"
    );
    assert_eq!(
        set("gc.victim=rga:0"),
        "--set gc.victim=rga:0: 'gc.victim' = 'rga:0': D must be an integer in 1..=4294967295 (rga:D: blocks sampled per choice)"
    );
    assert_eq!(
        set("gc.victim={ policy = \"greedy\", d = 2 }"),
        "--set gc.victim={ policy = \"greedy\", d = 2 }: 'gc.victim.d' is not a parameter of greedy (known: policy)"
    );
}

#[test]
fn errors_stay_on_one_line_whatever_the_value_holds() {
    for text in [
        "[gc]\ntrigger = \"a\\nb\"\n",
        "[gc]\nvictim = \"rga\\n:3\"\n",
        "[ftl]\nallocation = \"CW\\rP\"\n",
        "[gc]\n\"a\\nb\" = 1\n",
    ] {
        let mut b = ConfigBuilder::preset("default").unwrap();
        let e = b.merge_text(text, "v.toml").unwrap_err().to_string();
        assert!(!e.contains(['\n', '\r']), "{text:?}: {e:?}");
        assert!(e.starts_with("v.toml:"), "{e}");
    }
}

/// Each paper's preset carries its paper's setup and its simulator's GC semantics.
#[test]
fn paper_presets_pin_their_papers_setups() {
    use crate::gc::schemes::GcAxes;
    use crate::gc::when::Collect;
    let axes = |c: &Config| GcAxes::resolve(&c.gc).unwrap();

    // PaGC (SSDsim): one victim per write that finds the plane below 7 % free pages; T-PaGC's
    // join threshold 5 % larger (7.35 %), 7 % + 5 points as the named alternative.
    for name in ["pagc", "pagc-small"] {
        let c = Config::preset(name).unwrap();
        assert_eq!(axes(&c).collect, Collect::One, "{name}");
        assert_eq!(c.gc.trigger, ThresholdUnit::Pages, "{name}");
        assert_eq!(c.gc.threshold, 0.07, "{name}");
        assert!((c.pagc_threshold() - 0.0735).abs() < 1e-12, "{name}");
        let mut b = ConfigBuilder::preset(name).unwrap();
        b.set("gc.pagc_margin=points").unwrap();
        assert!((b.build().unwrap().pagc_threshold() - 0.12).abs() < 1e-12);
        assert_eq!(c.geometry.planes_per_die, 2, "{name}");
        assert_eq!(c.geometry.pages_per_block, 256, "{name}");
    }

    // Preemptible GC (MSR SSD simulator): one 8-plane element per channel as one die, 102.4 µs
    // per 4 KiB transfer, one victim per call, a single fill, 5 % T_soft.
    let c = Config::preset("pgc").unwrap();
    let g = &c.geometry;
    assert_eq!(
        (
            g.channels,
            g.chips_per_channel,
            g.dies_per_chip,
            g.planes_per_die
        ),
        (8, 1, 1, 8)
    );
    assert_eq!((g.blocks_per_plane, g.pages_per_block), (2048, 64));
    assert_eq!(g.page_size.0, 4096);
    let t = crate::flash::Timing::new(&c);
    assert_eq!(t.transfer, 102_400);
    assert_eq!((t.read, t.program, t.erase), (25_000, 200_000, 1_500_000));
    assert_eq!(axes(&c).collect, Collect::One);
    assert_eq!(c.precondition.mode, AgeingMode::Fill);
    assert_eq!(c.gc.threshold, 0.05);
    // Table VI: 32 GiB raw.
    let raw = g.channels as u64
        * g.planes_per_die as u64
        * g.blocks_per_plane as u64
        * g.pages_per_block as u64
        * 4096;
    assert_eq!(raw, 32 << 30);

    // Parallel page migration, Table 1: 4 ch x 4 chips x 2 dies x 2 planes x 2,048 blocks of 64
    // (SLC) or 256 (MLC) 4 KiB pages, 15 % over-provisioned, 25/200/1500 us and 75/1300/3800 us,
    // greedy; GC below 10 % free blocks (the main threshold of §V-A), one victim per plane per
    // trigger (the MSR SSD extension), GC > reads > writes, 4 registers per plane with full
    // overlap (Fig. 3), preconditioned from the workload (§V-A-3).
    for (name, pages, times) in [
        ("ppm-slc", 64, (25_000, 200_000, 1_500_000)),
        ("ppm-mlc", 256, (75_000, 1_300_000, 3_800_000)),
    ] {
        let c = Config::preset(name).unwrap();
        let g = &c.geometry;
        assert_eq!(
            (
                g.channels,
                g.chips_per_channel,
                g.dies_per_chip,
                g.planes_per_die
            ),
            (4, 4, 2, 2),
            "{name}"
        );
        assert_eq!((g.blocks_per_plane, g.pages_per_block), (2048, pages));
        assert_eq!((g.page_size.0, g.overprovision), (4096, 0.15));
        let t = crate::flash::Timing::new(&c);
        assert_eq!((t.read, t.program, t.erase), times, "{name}");
        assert_eq!(c.gc.victim.name(), "greedy");
        assert_eq!(c.gc.threshold, 0.10, "{name}");
        assert_eq!(c.gc.trigger, ThresholdUnit::Blocks);
        assert_eq!(axes(&c).collect, Collect::One, "{name}");
        assert_eq!(c.host.priority, HostPriority::ReadsFirst);
        assert_eq!(g.registers_per_plane, 4);
        assert_eq!(g.register_sharing, crate::flash::RegisterSharing::None);
        assert_eq!(c.precondition.mode, AgeingMode::Trace);
        // The paper's three thresholds fit its 15 % over-provisioning.
        for thr in ["0.05", "0.14"] {
            let mut b = ConfigBuilder::preset(name).unwrap();
            b.set(&format!("gc.threshold={thr}")).unwrap();
            b.build().unwrap_or_else(|e| panic!("{name} at {thr}: {e}"));
        }
    }

    // The default drive keeps ssdgc's own semantics.
    let d = Config::default();
    assert_eq!(axes(&d).collect, Collect::Restore);
    assert_eq!(d.gc.pagc_margin, PagcMargin::Relative);
}

#[test]
fn ncq_settings_are_checked() {
    let e = build_with(&["gc.when=\"ncq\"", "gc.ncq_busy=0"]).unwrap_err();
    assert!(e.msg.contains("gc.ncq_busy = 0"), "{e}");
    let e = build_with(&["gc.ncq_min_gain=1.0"]).unwrap_err();
    assert!(e.msg.contains("gc.ncq_min_gain = 1"), "{e}");
    let e = build_with(&["gc.ncq_busy=\"many\""]).unwrap_err();
    assert!(e.msg.contains("gc.ncq_busy"), "{e}");
    build_with(&["gc.when=\"ncq\"", "gc.ncq_busy=1", "gc.ncq_min_gain=0"]).unwrap();
    // Hot/cold separation keeps a third free block per plane.
    let cfg = build_with(&["ftl.hot_cold=true", "gc.threshold=0.01"]).unwrap();
    assert_eq!((cfg.reserve_blocks(), cfg.gc_threshold_blocks()), (3, 3));
}

#[test]
fn copyback_ecc_is_a_keyword_that_needs_copyback() {
    let d = Config::default();
    assert_eq!(d.gc.copyback_ecc, super::CopybackEcc::None);
    let build = |sets: &[&str]| {
        let mut b = ConfigBuilder::preset("default").unwrap();
        for s in sets {
            b.set(s).map_err(|e| e.to_string())?;
        }
        b.build().map_err(|e| e.to_string())
    };
    let c = build(&["gc.copyback_ecc=\"round-trip\""]).unwrap();
    assert_eq!(c.gc.copyback_ecc, super::CopybackEcc::RoundTrip);
    let e = build(&["gc.copyback_ecc=\"round-trip\"", "gc.copyback=false"]).unwrap_err();
    assert!(
        e.contains("gc.copyback_ecc") && e.contains("gc.copyback = true"),
        "{e}"
    );
    let e = build(&["gc.copyback_ecc=\"parity\""]).unwrap_err();
    assert!(
        e.contains("gc.copyback_ecc") && e.contains("round-trip"),
        "{e}"
    );
}

#[test]
fn mapping_settings_are_checked_and_agc_presets_use_l_ftl() {
    use crate::ftl::MappingKind;
    // The default is page mapping; the log-block settings stay at their defaults.
    let d = Config::default();
    assert_eq!(d.ftl.mapping, MappingKind::Page);
    assert_eq!(
        (
            d.ftl.log_blocks,
            d.ftl.group_data_blocks,
            d.ftl.group_update_blocks
        ),
        (0, 2, 8)
    );
    // The AGC/DGC paper's drives (§6, footnote 2): K9KGA0B0M, 128 pages of 4 KiB, 183.2 µs /
    // 860.36 µs / 2 ms, 3 % free blocks, 1 % GC threshold, measured over L-FTL.
    for (name, ch, ways, blocks) in [("agc-64g", 4, 4, 2048), ("agc-128g", 8, 8, 1024)] {
        let c = Config::preset(name).unwrap();
        let g = &c.geometry;
        assert_eq!((g.channels, g.chips_per_channel), (ch, ways), "{name}");
        assert_eq!(
            (g.blocks_per_plane, g.pages_per_block),
            (blocks, 128),
            "{name}"
        );
        assert_eq!(g.page_size.0, 4096);
        let t = crate::flash::Timing::new(&c);
        assert_eq!((t.read, t.program, t.erase), (183_200, 860_360, 2_000_000));
        assert_eq!((g.overprovision, c.gc.threshold), (0.03, 0.01), "{name}");
        assert_eq!(c.ftl.mapping, MappingKind::Lftl, "{name}");
        assert_eq!(c.precondition.mode, AgeingMode::Fill, "{name}");
        let raw = g.channels as u64
            * g.chips_per_channel as u64
            * g.dies_per_chip as u64
            * g.planes_per_die as u64
            * g.blocks_per_plane as u64
            * 128
            * 4096;
        assert_eq!(raw, if ch == 4 { 64 } else { 128 } << 30, "{name}");
    }
    // Each rejection names its key and the mapping.
    for (sets, key) in [
        (&["ftl.log_blocks=4"][..], "ftl.log_blocks = 4"),
        (
            &["ftl.group_update_blocks=4"][..],
            "ftl.group_update_blocks",
        ),
        (
            &["ftl.mapping=lftl", "ftl.group_data_blocks=1"][..],
            "ftl.group_data_blocks",
        ),
        (
            &["ftl.mapping=hftl", "ftl.group_data_blocks=0"][..],
            "ftl.group_data_blocks = 0",
        ),
        (
            &["ftl.mapping=hftl", "ftl.group_update_blocks=65"][..],
            "ftl.group_update_blocks = 65",
        ),
        (
            &["ftl.mapping=lftl", "ftl.log_blocks=257"][..],
            "ftl.log_blocks = 257",
        ),
        (
            &["ftl.mapping=lftl", "ftl.hot_cold=true"][..],
            "ftl.hot_cold",
        ),
        (&["ftl.mapping=lftl", "gc.trigger=pages"][..], "gc.trigger"),
        (
            &["ftl.mapping=hftl", "gc.victim=cat"][..],
            "gc.victim = \"cat\"",
        ),
        (
            &["ftl.mapping=lftl", "gc.scheme=pagc-blind"][..],
            "gc.planes",
        ),
        (
            &["ftl.mapping=lftl", "gc.scheme=superblock"][..],
            "gc.planes",
        ),
        (&["ftl.mapping=lftl", "gc.scheme=pgc"][..], "gc.merge"),
        (
            &["ftl.mapping=lftl", "gc.migration=parallel"][..],
            "gc.migration = \"parallel\"",
        ),
        (
            &["ftl.mapping=hftl", "gc.erase_blocks=2"][..],
            "gc.erase_blocks = 2",
        ),
        (
            &["ftl.mapping=hftl", "ftl.multiplane=aligned"][..],
            "ftl.multiplane = \"aligned\"",
        ),
        (
            &["ftl.mapping=lftl", "gc.copyback_parity=in-order"][..],
            "gc.copyback_parity = \"in-order\"",
        ),
        (
            &["ftl.mapping=hftl", "gc.when=ncq", "ftl.group_data_blocks=4"][..],
            "gc.when = \"ncq\"",
        ),
        (
            &["ftl.mapping=lftl", "geometry.overprovision=0.01"][..],
            "one update block",
        ),
    ] {
        let e = build_with(sets).unwrap_err();
        assert!(e.msg.contains(key), "{sets:?}: {e}");
        assert!(!e.msg.contains('\n'));
    }
    for victim in ["greedy", "fifo", "random"] {
        build_with(&["ftl.mapping=hftl", &format!("gc.victim={victim}")]).unwrap();
    }
    build_with(&["ftl.mapping=hftl", "gc.when=ncq", "ftl.group_data_blocks=3"]).unwrap();
    build_with(&[
        "ftl.mapping=lftl",
        "gc.scheme=pgc-pipeline",
        "ftl.log_blocks=16",
    ])
    .unwrap();
    // A log-block plane keeps one update block beyond its data blocks and the threshold, where a
    // page-mapped one keeps four (default drive: 246 data blocks, 8 held back, 256 blocks).
    build_with(&["ftl.mapping=lftl", "geometry.overprovision=0.04"]).unwrap();
    build_with(&["geometry.overprovision=0.04"]).unwrap_err();
    // The reserve a full merge needs: n fresh blocks and an update block.
    let h = build_with(&[
        "ftl.mapping=hftl",
        "ftl.group_data_blocks=6",
        "gc.threshold=0.01",
    ])
    .unwrap();
    assert_eq!((h.reserve_blocks(), h.gc_threshold_blocks()), (7, 7));
    let l = build_with(&["ftl.mapping=lftl", "gc.threshold=0.001"]).unwrap();
    assert_eq!(l.reserve_blocks(), 2);
    let p = l.ftl_params().unwrap();
    assert_eq!(p.mapping, MappingKind::Lftl);
}

#[test]
fn migration_settings_are_checked_naming_their_keys() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["geometry.registers_per_plane=0"],
            &["geometry.registers_per_plane = 0"],
        ),
        (
            &["geometry.registers_per_plane=9"],
            &["geometry.registers_per_plane = 9"],
        ),
        (
            &["gc.migration=parallel", "gc.workers=2"],
            &["gc.workers = 2", "geometry.registers_per_plane = 1"],
        ),
        (
            &["geometry.registers_per_plane=4", "gc.workers=4"],
            &["gc.workers = 4", "gc.migration"],
        ),
        (&["gc.erase_blocks=0"], &["gc.erase_blocks = 0"]),
        (&["gc.erase_blocks=9"], &["gc.erase_blocks = 9"]),
        (
            &["gc.scheme=zero", "gc.erase_blocks=2"],
            &["gc.erase_blocks = 2", "instant"],
        ),
        (
            &["gc.scheme=pagc-blind", "gc.erase_blocks=2"],
            &["gc.erase_blocks = 2", "gc.planes"],
        ),
        (
            &["gc.scheme=pagc-blind", "gc.migration=parallel"],
            &["gc.migration", "gc.planes"],
        ),
        (
            &["gc.copyback=false", "gc.copyback_parity=in-order"],
            &["gc.copyback_parity", "gc.copyback = false"],
        ),
        (
            &["gc.copyback_parity=paper"],
            &["gc.copyback_parity", "gc.migration"],
        ),
        (
            &["gc.copyback_parity=in-order", "geometry.pages_per_block=63"],
            &["gc.copyback_parity", "geometry.pages_per_block"],
        ),
        (
            &["gc.copyback_parity=in-order", "ftl.hot_cold=true"],
            &["gc.copyback_parity", "ftl.hot_cold"],
        ),
        (
            &["gc.copyback_parity=sometimes"],
            &["gc.copyback_parity", "in-order"],
        ),
        (&["gc.blocking=element"], &["gc.blocking", "channel"]),
        (
            &["geometry.register_sharing=bus"],
            &["geometry.register_sharing", "array"],
        ),
        (
            &["host.priority=writes-first"],
            &["host.priority", "reads-first"],
        ),
    ];
    for (sets, words) in cases {
        let e = build_with(sets)
            .expect_err(&format!("{sets:?}"))
            .to_string();
        assert!(!e.contains('\n'), "{e}");
        for w in *words {
            assert!(e.contains(w), "{sets:?}: {e} lacks {w}");
        }
    }
    // Meaningful combinations pass: parallel with IPPBE, parity, any scope, superblock planes.
    for sets in [
        &[
            "geometry.registers_per_plane=4",
            "gc.migration=parallel",
            "gc.workers=2",
            "gc.erase_blocks=2",
            "gc.copyback_parity=paper",
        ][..],
        &[
            "gc.scheme=superblock",
            "gc.migration=parallel",
            "geometry.registers_per_plane=2",
        ],
        &[
            "gc.scheme=fpgc",
            "gc.erase_blocks=3",
            "gc.copyback_parity=in-order",
        ],
        &["gc.blocking=plane", "gc.scheme=pagc-threshold"],
        &["gc.blocking=channel", "gc.scheme=pgc"],
        &["precondition.mode=trace", "host.priority=reads-first"],
    ] {
        build_with(sets).unwrap_or_else(|e| panic!("{sets:?}: {e}"));
    }
}

#[test]
fn host_path_settings_default_off_and_are_checked() {
    let d = Config::default();
    assert!(!d.ftl.rmw);
    assert_eq!(d.ftl.multiplane, super::HostMultiplane::Off);
    let build = |sets: &[&str]| {
        let mut b = ConfigBuilder::preset("default").unwrap();
        for s in sets {
            b.set(s).map_err(|e| e.to_string())?;
        }
        b.build().map_err(|e| e.to_string())
    };
    let c = build(&["ftl.rmw=true", "ftl.multiplane=\"greedy\""]).unwrap();
    assert!(c.ftl.rmw);
    assert_eq!(c.ftl.multiplane, super::HostMultiplane::Greedy);
    let e = build(&["ftl.multiplane=\"both\""]).unwrap_err();
    assert!(
        e.contains("ftl.multiplane") && e.contains("off, aligned, greedy"),
        "{e}"
    );
    let e = build(&["ftl.rmw=\"yes\""]).unwrap_err();
    assert!(e.contains("ftl.rmw"), "{e}");
    // The PaGC presets read the rest of a partial page, as SSDsim does; the others do not.
    for (preset, rmw) in [("pagc", true), ("pagc-small", true), ("pgc", false)] {
        let c = ConfigBuilder::preset(preset).unwrap().build().unwrap();
        assert_eq!(c.ftl.rmw, rmw, "{preset}");
    }
}
