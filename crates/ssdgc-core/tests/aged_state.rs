//! Aged states (`ageing::state`): a run given another simulator's aged drive reports exactly what
//! it reports ageing its own; the ageing key holds the inputs that matter and no others; a state
//! file survives a round trip, and a damaged one is an error, never a panic.

use ssdgc_core::ageing::{AgedState, AgeingKey, Precondition};
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{Config, ConfigBuilder, Report, RunOptions, Simulator};

mod common;

fn config(sets: &[&str]) -> Config {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in sets {
        b.set(s).unwrap();
    }
    b.build().unwrap()
}

fn sim(cfg: &Config, seed: u64, how: Precondition) -> Simulator {
    let geo = ssdgc_core::flash::Geometry::new(cfg);
    let bytes = geo.logical_bytes() * u64::from(cfg.array.drives);
    let recs = common::random_records(1_500, bytes, 11, 120_000, 0.3, 3);
    let mut opts = RunOptions::from_config(cfg, seed).unwrap();
    opts.precondition = how;
    Simulator::new(
        cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "t"),
        opts,
    )
    .unwrap()
}

fn json(mut r: Report) -> String {
    r.sim.wall_s = 0.0;
    for d in r.drives.iter_mut().flatten() {
        d.sim.wall_s = 0.0;
    }
    r.to_json()
}

/// The state a simulator of `cfg` ages to, written to bytes and read back.
fn aged(cfg: &Config, seed: u64, how: Precondition) -> (AgedState, Vec<u8>) {
    let mut s = sim(cfg, seed, how);
    s.precondition(&mut |_| {}).unwrap();
    let state = s.aged_state().unwrap();
    let mut bytes = Vec::new();
    state.write_to(&mut bytes).unwrap();
    let key = s.ageing_key().unwrap();
    let back = AgedState::read_from(&bytes[..], &key, s.drive_config()).unwrap();
    assert_eq!(back, state, "the file round trip keeps the state");
    (state, bytes)
}

/// A run that restores an aged state reports exactly what the run that ages itself reports.
fn assert_shared_equals_alone(sets: &[&str], how: Precondition) {
    let cfg = config(sets);
    let alone = sim(&cfg, 3, how).run().unwrap();
    let (state, _) = aged(&cfg, 3, how);
    let mut s = sim(&cfg, 3, how);
    s.restore_aged(&state).unwrap();
    let shared = s.run().unwrap();
    if matches!(how, Precondition::Steady(_)) {
        assert!(alone.gc.invocations > 0, "{sets:?}: the run should collect");
    }
    assert_eq!(json(alone), json(shared), "{sets:?}");
}

#[test]
fn every_scheme_reports_the_same_on_a_shared_aged_drive() {
    for scheme in [
        "baseline",
        "idle",
        "pagc-blind",
        "pagc-threshold",
        "pagc-cache",
        "superblock",
        "pgc",
        "fpgc",
        "practical",
        "zero",
    ] {
        assert_shared_equals_alone(
            &[&format!("gc.scheme=\"{scheme}\"")],
            Precondition::Steady(1.0),
        );
    }
}

#[test]
fn every_victim_policy_and_pool_reports_the_same_on_a_shared_aged_drive() {
    for victim in [
        "greedy",
        "rga:4",
        "random",
        "random+",
        "fifo",
        "cost-benefit",
        "cat",
        "wear-aware",
        "alpha:0.5",
    ] {
        assert_shared_equals_alone(
            &[&format!("gc.victim=\"{victim}\"")],
            Precondition::Steady(1.5),
        );
    }
    for extra in [
        &["ftl.pool=\"youngest\""][..],
        &["ftl.pool=\"oldest\"", "ftl.hot_cold=true"],
        &[
            "ftl.pool=\"youngest\"",
            "ftl.hot_cold=true",
            "ftl.hot_to=\"old\"",
        ],
        &["gc.trigger=\"pages\"", "gc.threshold=0.06"],
        &["ftl.allocation=\"PCWD\""],
        &["array.drives=2", "array.chunk=\"8KiB\""],
    ] {
        assert_shared_equals_alone(extra, Precondition::Steady(1.0));
    }
    assert_shared_equals_alone(&[], Precondition::Fill);
    assert_shared_equals_alone(&["gc.threshold=0.1"], Precondition::None);
}

fn key(sets: &[&str], seed: u64, how: Precondition) -> AgeingKey {
    sim(&config(sets), seed, how).ageing_key().unwrap()
}

#[test]
fn the_key_holds_the_ageing_inputs_and_nothing_else() {
    let base = key(&[], 1, Precondition::Steady(2.0));
    // Settings that only matter once the run starts share the key.
    for other in [
        &["gc.scheme=\"pgc\""][..],
        &[
            "gc.scheme=\"pagc-threshold\"",
            "gc.when=\"states\"",
            "gc.preempt=\"ops\"",
        ],
        &["timing.program=\"900us\"", "timing.erase=\"5ms\""],
        &["host.queue_depth=4", "host.time_scale=0.5"],
        &["buffer.size=\"1MiB\""],
    ] {
        assert_eq!(key(other, 1, Precondition::Steady(2.0)), base, "{other:?}");
    }
    // Every ageing input changes it, and the mismatch names it.
    for (other, seed, how, name) in [
        (
            &["gc.victim=\"fifo\""][..],
            1,
            Precondition::Steady(2.0),
            "victim",
        ),
        (
            &["gc.threshold=0.1"],
            1,
            Precondition::Steady(2.0),
            "trigger",
        ),
        (
            &["gc.trigger=\"pages\""],
            1,
            Precondition::Steady(2.0),
            "trigger",
        ),
        (
            &["geometry.blocks_per_plane=300"],
            1,
            Precondition::Steady(2.0),
            "geometry",
        ),
        (
            &["geometry.overprovision=0.25"],
            1,
            Precondition::Steady(2.0),
            "geometry",
        ),
        (
            &["ftl.pool=\"youngest\""],
            1,
            Precondition::Steady(2.0),
            "pool",
        ),
        (
            &["ftl.hot_cold=true"],
            1,
            Precondition::Steady(2.0),
            "hot_cold",
        ),
        (
            &["ftl.allocation=\"PCWD\""],
            1,
            Precondition::Steady(2.0),
            "allocation",
        ),
        (&["array.drives=2"], 1, Precondition::Steady(2.0), "drives"),
        (&[], 2, Precondition::Steady(2.0), "seed"),
        (&[], 1, Precondition::Steady(1.0), "precondition"),
        (&[], 1, Precondition::Fill, "precondition"),
        // The superblock simulates a drive of one plane per die.
        (
            &["gc.scheme=\"superblock\""],
            1,
            Precondition::Steady(2.0),
            "geometry",
        ),
    ] {
        let k = key(other, seed, how);
        assert_ne!(k, base, "{other:?} seed {seed} {how:?}");
        let why = k.mismatch(&base).unwrap();
        assert!(why.contains(&format!("with {name} = ")), "{other:?}: {why}");
    }
}

/// A drive small enough to damage its state file at every byte.
fn tiny() -> Config {
    config(&[
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.planes_per_die=2",
        "geometry.blocks_per_plane=32",
        "geometry.pages_per_block=8",
        "geometry.overprovision=0.4",
        "gc.threshold=0.1",
    ])
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn a_damaged_state_file_is_an_error_never_a_panic() {
    let cfg = tiny();
    let how = Precondition::Steady(2.0);
    let (state, bytes) = aged(&cfg, 5, how);
    let s = sim(&cfg, 5, how);
    let key = s.ageing_key().unwrap();
    let read = |b: &[u8]| AgedState::read_from(b, &key, s.drive_config());
    assert_eq!(read(&bytes).unwrap(), state);
    // Every truncation.
    for n in 0..bytes.len() {
        let e = read(&bytes[..n]).unwrap_err();
        assert!(
            e == "truncated" || e.starts_with("not an ssdgc"),
            "cut at {n}: {e}"
        );
    }
    // Trailing bytes.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(read(&longer).unwrap_err().contains("after its end"));
    // Every single-byte change: the checksum catches it (or the header checks before it).
    let body = bytes.len() - 8;
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        assert!(read(&b).is_err(), "byte {i} changed and accepted");
    }
    // Changes with a recomputed checksum (a hand-made file) reach the FTL's checks: errors or a
    // valid state, never a panic.
    let mut accepted = 0;
    let mut rejected = 0;
    for i in 0..body {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = bytes[..body].to_vec();
            b[i] ^= x;
            let sum = fnv(&b);
            b.extend_from_slice(&sum.to_le_bytes());
            let Ok(st) = read(&b) else {
                rejected += 1;
                continue;
            };
            let mut t = sim(&cfg, 5, how);
            match t.restore_aged(&st) {
                Ok(()) => {
                    accepted += 1;
                    // A state the checks accept runs to the end.
                    t.run().unwrap();
                }
                Err(_) => rejected += 1,
            }
        }
    }
    assert!(
        rejected > accepted,
        "{rejected} rejected, {accepted} accepted"
    );
}

#[test]
fn a_state_of_other_inputs_is_refused_naming_the_input() {
    let cfg = tiny();
    let (_, bytes) = aged(&cfg, 5, Precondition::Steady(2.0));
    let other = sim(&cfg, 6, Precondition::Steady(2.0));
    let e = AgedState::read_from(
        &bytes[..],
        &other.ageing_key().unwrap(),
        other.drive_config(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "it was aged with seed = 5, this run ages with seed = 6 (every ageing input must match)"
    );
    let e = AgedState::read_from(
        &b"ssdgc aged state\n\x02\0\0\0"[..],
        &other.ageing_key().unwrap(),
        other.drive_config(),
    )
    .unwrap_err();
    assert!(e.contains("format version 2"), "{e}");
    let e = AgedState::read_from(
        &b"[geometry]\nchannels = 2\n"[..],
        &other.ageing_key().unwrap(),
        other.drive_config(),
    )
    .unwrap_err();
    assert_eq!(e, "not an ssdgc aged-state file");
}
