//! Tests of the synthetic generator: parsing, determinism, the short path against the general
//! one, batch filling.

use super::*;

#[test]
fn below_is_a_uniform_draw_compared() {
    for p in [0.0, -0.5, 1.0, 1.5, 1e-300, 0.3, 0.999_999, f64::NAN] {
        let mut a = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut b = a.clone();
        for _ in 0..10_000 {
            assert_eq!(below(&mut a, p), b.gen::<f64>() < p, "{p}");
        }
        assert_eq!(a.gen::<u64>(), b.gen::<u64>(), "the same draws, {p}");
    }
}

#[test]
fn uniform_below_is_gen_range() {
    let mut pick = Xoshiro256PlusPlus::seed_from_u64(9);
    let mut ns: Vec<u64> = vec![1, 2, 3, 5, 7, 940_646, 1 << 20, (1 << 63) + 1, u64::MAX];
    ns.extend((0..200).map(|_| (pick.gen_range(1..=u64::MAX) >> pick.gen_range(0..64)).max(1)));
    for n in ns {
        let mut a = Xoshiro256PlusPlus::seed_from_u64(n);
        let mut b = a.clone();
        let zone = zone_below(n);
        for _ in 0..500 {
            assert_eq!(uniform_below(&mut a, n, zone), b.gen_range(0..n), "{n}");
        }
        assert_eq!(a.gen::<u64>(), b.gen::<u64>(), "the same draws, {n}");
    }
}

/// The plain generator gives what the general one gives for the same spec.
#[test]
fn plain_is_the_general_generator() {
    for spec in [
        "count=3000",
        "count=3000,read=0.3,seq=0.4,size=16KiB",
        "count=3000,read=1,seq=1",
        "count=3000,read=0,seq=0.9,size=1MiB,span=0.001",
        "count=3000,size=3000,align=512,seq=0.5",
        "count=3000,size=4GiB",
    ] {
        for logical in [1u64 << 30, 12_345 * 4096, 4096] {
            let g = Synthetic::new(&spec.parse().unwrap(), logical, 3);
            assert!(g.plain || g.slots == 0, "{spec}");
            let mut general = g.clone();
            general.plain = false;
            let a: Vec<_> = g.collect();
            let b: Vec<_> = general.collect();
            assert_eq!(a, b, "{spec} over {logical}");
        }
    }
}

/// A plain generator's batches give the records of the general generator, whether its batch loop
/// is specialised on its direction and sequential probabilities or not.
#[test]
fn plain_fill_gives_the_records_of_the_general_generator() {
    for spec in [
        "count=500",
        "count=500,read=1",
        "count=500,read=0.4",
        "count=500,seq=1",
        "count=500,read=1,seq=0.3",
        "count=500,read=0,seq=0,size=8KiB",
    ] {
        let g = Synthetic::new(&spec.parse().unwrap(), 1 << 30, 5);
        assert!(g.plain, "{spec}");
        let mut general = g.clone();
        general.plain = false;
        let want: Vec<IoRecord> = general.collect();
        let mut g = g;
        let mut got = Vec::new();
        for n in 1.. {
            let mut buf = vec![want[0]; n % 11];
            let k = g.fill(&mut buf);
            got.extend_from_slice(&buf[..k]);
            if k < buf.len() {
                break;
            }
        }
        assert_eq!(got, want, "{spec}");
    }
}

#[test]
fn fill_gives_the_records_of_next() {
    let spec = "count=1000,read=0.3,size=exp:32KiB,seq=0.4,interarrival=exp:3ms,zipf:0.9";
    let logical = 1u64 << 32;
    let want = gen(spec, logical, 3);
    let mut g = Synthetic::new(&spec.parse().unwrap(), logical, 3);
    let mut got = Vec::new();
    // Uneven batches, the last one cut short by the end of the workload.
    for n in 1.. {
        let mut buf = vec![
            IoRecord {
                time_ns: 0,
                op: Op::Read,
                offset: 0,
                len: 0
            };
            n % 13
        ];
        let k = g.fill(&mut buf);
        got.extend_from_slice(&buf[..k]);
        if k < buf.len() {
            break;
        }
    }
    assert_eq!(got, want);
    assert_eq!(g.fill(&mut [want[0]; 4]), 0);
}

#[test]
fn parse_full_spec() {
    let s: SyntheticSpec =
        "count=100000,read=0.4,size=exp:32KiB,seq=0.4,interarrival=exp:3ms,qd=32,span=1.0,zipf:0.9"
            .parse()
            .unwrap();
    assert_eq!(s.count, 100_000);
    assert_eq!(s.read, 0.4);
    assert_eq!(s.size, SizeDist::Exp { mean: 32 << 10 });
    assert_eq!(s.interarrival, Some(TimeDist::Exp { mean_ns: 3_000_000 }));
    assert_eq!(s.zipf, Some(0.9));
    assert!(!s.is_closed_loop());
    let d: SyntheticSpec = "".parse().unwrap();
    assert_eq!(d, SyntheticSpec::default());
    assert!(d.is_closed_loop());
    let s: SyntheticSpec = "size=8192,interarrival=2ms,zipf=1.2,align=512,span=0.5"
        .parse()
        .unwrap();
    assert_eq!(s.size, SizeDist::Fixed(8192));
    assert_eq!(s.interarrival, Some(TimeDist::Fixed(2_000_000)));
    assert_eq!((s.zipf, s.align, s.span), (Some(1.2), 512, 0.5));
    let s: SyntheticSpec = "size=1.5MiB,interarrival=0".parse().unwrap();
    assert_eq!(s.size, SizeDist::Fixed(3 << 19));
    assert!(s.is_closed_loop());
    // A key given twice is an error, not "the last one wins".
    let e = "size=1.5MiB,interarrival=0,size=64K"
        .parse::<SyntheticSpec>()
        .unwrap_err();
    assert_eq!(e, "size: given more than once");
}

#[test]
fn parse_errors_name_the_key() {
    for (bad, why) in [
        ("read=1.5", "read:"),
        ("seq=x", "seq:"),
        ("size=4KB", "size: unknown size unit 'KB'"),
        ("size=0", "size: must be more"),
        ("interarrival=3", "needs a unit"),
        ("interarrival=exp:0ms", "interarrival:"),
        ("interarrival=3h", "unknown time unit 'h'"),
        ("qd=0", "qd:"),
        ("span=0", "span:"),
        ("span=1.1", "span:"),
        ("zipf=-1", "zipf:"),
        ("align=1000", "align:"),
        ("count=-1", "count:"),
        ("colour=red", "unknown key 'colour'"),
        ("read", "KEY=VALUE"),
        ("count=10,count=20", "count: given more than once"),
        ("zipf=0.5,zipf:0.9", "zipf: given more than once"),
        (
            "count=100000,interarrival=18446744073709551615ns",
            "interarrival: count × interarrival",
        ),
        ("count=1000,interarrival=exp:1000000s", "interarrival:"),
    ] {
        let e = bad.parse::<SyntheticSpec>().unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn the_arrival_span_limit_is_inclusive() {
    let at = format!("count=1024,interarrival={}ns", MAX_SPAN_NS / 1024);
    let spec: SyntheticSpec = at.parse().unwrap();
    assert_eq!(spec.arrival_span_ns(), u128::from(MAX_SPAN_NS));
    let over = format!("count=1025,interarrival={}ns", MAX_SPAN_NS / 1024);
    assert!(over.parse::<SyntheticSpec>().is_err());
    assert_eq!(
        "count=5"
            .parse::<SyntheticSpec>()
            .unwrap()
            .arrival_span_ns(),
        0
    );
}

fn gen(spec: &str, logical: u64, seed: u64) -> Vec<IoRecord> {
    Synthetic::new(&spec.parse().unwrap(), logical, seed).collect()
}

#[test]
fn deterministic_and_in_bounds() {
    let spec = "count=20000,read=0.3,size=exp:32KiB,seq=0.4,interarrival=exp:3ms,zipf:0.9,span=0.5";
    let logical = 1u64 << 32;
    let a = gen(spec, logical, 7);
    assert_eq!(a, gen(spec, logical, 7));
    assert_ne!(a, gen(spec, logical, 8));
    assert_eq!(a.len(), 20_000);
    assert_eq!(a[0].time_ns, 0);
    let span = logical / 2;
    let mut reads = 0;
    let mut seq = 0;
    for (i, r) in a.iter().enumerate() {
        assert!(r.len >= 512 && r.len % 512 == 0);
        assert!(r.offset + r.len <= span, "{r:?}");
        if i > 0 {
            assert!(r.time_ns >= a[i - 1].time_ns);
            if r.offset == a[i - 1].offset + a[i - 1].len {
                seq += 1;
            }
        }
        reads += usize::from(r.op == Op::Read);
    }
    assert!((5_000..7_000).contains(&reads), "{reads}");
    assert!((7_000..9_500).contains(&seq), "{seq}");
    let mean_gap = a.last().unwrap().time_ns as f64 / 19_999.0;
    assert!((2.8e6..3.2e6).contains(&mean_gap), "{mean_gap}");
    let mean_len = a.iter().map(|r| r.len as f64).sum::<f64>() / 20_000.0;
    assert!((31_000.0..35_000.0).contains(&mean_len), "{mean_len}");
}

#[test]
fn closed_loop_uniform_aligned() {
    let a = gen("count=5000,size=16KiB", 1 << 30, 1);
    assert!(a
        .iter()
        .all(|r| r.time_ns == 0 && r.op == Op::Write && r.len == 16384));
    assert!(a
        .iter()
        .all(|r| r.offset % 4096 == 0 && r.offset + r.len <= 1 << 30));
    let b = gen("count=100,read=1,interarrival=2ms", 1 << 30, 1);
    assert!(b.iter().all(|r| r.op == Op::Read));
    assert_eq!(b[99].time_ns, 99 * 2_000_000);
}

#[test]
fn zipf_is_skewed_and_spread() {
    let slots = 1u64 << 16;
    let a = gen("count=50000,zipf=1.1", slots * 4096, 3);
    let mut counts = std::collections::HashMap::new();
    for r in &a {
        *counts.entry(r.offset / 4096).or_insert(0u32) += 1;
    }
    let mut v: Vec<(u64, u32)> = counts.into_iter().collect();
    v.sort_by_key(|y| std::cmp::Reverse(y.1));
    let top10: u32 = v.iter().take(10).map(|x| x.1).sum();
    assert!(top10 > 10_000, "top10 {top10}");
    // Hot slots are not packed at the start of the space.
    assert!(v.iter().take(10).any(|x| x.0 > slots / 2), "{:?}", &v[..10]);
}

#[test]
fn scramble_is_a_bijection() {
    for n in [1u64, 2, 3, 5, 17, 1000, 4096] {
        let s = Scramble::new(n);
        let mut seen = vec![false; n as usize];
        for x in 0..n {
            let y = s.apply(x);
            assert!(y < n && !seen[y as usize]);
            seen[y as usize] = true;
        }
    }
}

#[test]
fn bursts_parse_and_are_checked() {
    let s: SyntheticSpec = "count=10,burst=4,idle=1s".parse().unwrap();
    assert_eq!(s.bursts(), Some((4, 1_000_000_000)));
    assert!(s.is_closed_loop());
    // Closed loop: two gaps between three bursts count in the arrival span.
    assert_eq!(s.arrival_span_ns(), 2_000_000_000);
    let s: SyntheticSpec = "count=9,burst=3,idle=2ms,interarrival=1ms".parse().unwrap();
    assert_eq!(s.arrival_span_ns(), 9 * 1_000_000 + 2 * 2_000_000);
    for (bad, why) in [
        ("burst=4", "burst: needs idle"),
        ("idle=1s", "idle: needs burst"),
        ("burst=0,idle=1s", "burst: '0'"),
        ("burst=x,idle=1s", "burst: 'x'"),
        (
            "burst=2,idle=0",
            "idle: the time between bursts must be more than 0",
        ),
        ("burst=2,idle=5", "idle: '5' needs a unit"),
        ("burst=2,idle=1s,burst=3", "burst: given more than once"),
    ] {
        let e = bad.parse::<SyntheticSpec>().unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn open_loop_bursts_are_separated_by_the_idle_time() {
    let a = gen("count=10,burst=4,idle=1s,interarrival=1ms", 1 << 30, 1);
    let times: Vec<u64> = a.iter().map(|r| r.time_ns).collect();
    let ms = 1_000_000;
    let s = 1_000_000_000;
    assert_eq!(
        times,
        [
            0,
            ms,
            2 * ms,
            3 * ms,
            3 * ms + s,
            4 * ms + s,
            5 * ms + s,
            6 * ms + s
        ]
        .into_iter()
        .chain([6 * ms + 2 * s, 7 * ms + 2 * s])
        .collect::<Vec<_>>()
    );
    // Bursts leave the addresses and directions drawn as without them (same draws per request
    // with fixed arrivals).
    let plain = gen("count=10,interarrival=1ms", 1 << 30, 1);
    assert!(a
        .iter()
        .zip(&plain)
        .all(|(x, y)| (x.offset, x.len, x.op) == (y.offset, y.len, y.op)));
    // Closed loop: every record at 0, the simulator paces the bursts.
    let c = gen("count=10,burst=4,idle=1s", 1 << 30, 1);
    assert!(c.iter().all(|r| r.time_ns == 0));
}

#[test]
fn tiny_spaces_do_not_panic() {
    for logical in [0u64, 100, 4096, 10_000] {
        let a = gen("count=50,size=exp:8KiB,seq=0.5,zipf=1", logical, 0);
        assert_eq!(a.len(), 50);
        assert!(a.iter().all(|r| r.offset + r.len <= logical));
    }
}
