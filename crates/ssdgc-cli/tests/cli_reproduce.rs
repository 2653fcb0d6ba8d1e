//! `ssdgc reproduce`: the quick variants of the PGC, PaGC, AGC/DGC, parallel-page-migration and
//! practical-GC papers run, write their files, and the headline claims keep their direction (where
//! ssdgc disagrees with a paper, the disagreement is pinned too, so that a change of it is noticed).

mod common;

use common::*;
use serde_json::Value;

fn claim<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["claims"]
        .as_array()
        .expect("claims is an array")
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("claim {id} missing"))
}

/// The fields of one CSV line (a field in double quotes may hold commas and doubled quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut f, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                f.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut f)),
            c => f.push(c),
        }
    }
    fields.push(f);
    fields
}

/// An experiment's CSV as rows of (column, value) maps.
fn csv_rows(
    dir: &std::path::Path,
    experiment: &str,
) -> Vec<std::collections::HashMap<String, String>> {
    let text =
        std::fs::read_to_string(dir.join(format!("{experiment}.csv"))).expect("experiment CSV");
    let mut lines = text.lines();
    let header = csv_fields(lines.next().expect("a header"));
    lines
        .map(|l| {
            let row = csv_fields(l);
            assert_eq!(row.len(), header.len(), "{experiment}.csv: {l}");
            header.iter().cloned().zip(row).collect()
        })
        .collect()
}

/// Runs `ssdgc reproduce PAPER --quick` into a scratch directory and checks the files; the claims
/// and the directory.
fn reproduce_in(paper: &str, experiments: &[&str]) -> Option<(Value, std::path::PathBuf)> {
    traces_dir()?;
    let dir = scratch_dir(&format!("reproduce-{paper}"));
    let out = ssdgc(&[
        "reproduce",
        paper,
        "--quick",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.success(), "reproduce {paper} failed: {}", out.stderr);
    assert!(out.stdout.contains("| claim id |"), "{}", out.stdout);
    assert!(dir.join("claims.md").is_file());
    for e in experiments {
        let csv = std::fs::read_to_string(dir.join(format!("{e}.csv"))).expect("experiment CSV");
        assert!(csv.starts_with("experiment,scheme,seed,workload"), "{csv}");
        assert!(
            csv.lines()
                .next()
                .unwrap()
                .ends_with(",erase_min,erase_max,erase_std"),
            "{csv}"
        );
        assert!(!csv_rows(&dir, e).is_empty(), "{e}.csv has no rows");
    }
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("claims.json")).unwrap()).unwrap();
    assert_eq!(v["paper"], paper);
    assert_eq!(v["quick"], true);
    for c in v["claims"].as_array().unwrap() {
        for k in [
            "id", "claim", "source", "paper", "ssdgc", "agrees", "margin", "gc_jobs",
        ] {
            assert!(c.get(k).is_some(), "claim {} lacks {k}", c["id"]);
        }
    }
    Some((v, dir))
}

/// [`reproduce_in`], the claims only.
fn reproduce(paper: &str, experiments: &[&str]) -> Option<Value> {
    reproduce_in(paper, experiments).map(|(v, _)| v)
}

fn ratio(v: &Value, id: &str) -> f64 {
    let c = claim(v, id);
    c["value"]
        .as_f64()
        .unwrap_or_else(|| panic!("claim {id} not measured: {c}"))
}

#[test]
fn pgc_quick_headlines() {
    let Some((v, dir)) = reproduce_in(
        "pgc",
        &[
            "synthetic-sweeps",
            "suspension",
            "host-gc-pipelining",
            "hard-threshold",
            "cots-variability",
        ],
    ) else {
        return;
    };
    // Every experiment runs: Fig. 13 and Table II read the time series.
    assert!(v["not_yet_reproducible"].as_array().unwrap().is_empty());
    // Fig. 13 on the amplified Cello stand-in: at the smallest T_hard some plane's free blocks
    // reach 0 (as the paper's Fig. 13(a)); a lower T_hard uses up more free blocks and answers
    // faster.
    assert_eq!(ratio(&v, "fig13-no-hard-starves"), 0.0);
    assert_eq!(claim(&v, "fig13-no-hard-starves")["agrees"], true);
    for id in ["fig13-lower-hard-tradeoff", "fig13-lower-hard-response"] {
        let r = ratio(&v, id);
        assert!(r < 1.0, "{id}: T_hard 20% / 80% of T_soft = {r}");
        assert!(
            claim(&v, id)["gc_jobs"].as_u64().unwrap() > 0,
            "{id}: no GC"
        );
    }
    // Table II on the simulated drive: the bandwidth per second varies about as much with 80%
    // writes as with 40% (the CV of both is counting noise over hundreds of GC jobs a second;
    // the ratio's sign follows the ageing draw: 0.94 and 1.04), far below the paper's SLC drive's
    // 1.56. What is pinned is that no systematic effect appears, not a direction.
    for id in ["tab2-cots-cv-ssd-a", "tab2-cots-cv-ssd-b"] {
        let c = claim(&v, id);
        assert_eq!(c["status"], "measured", "{c}");
        let r = ratio(&v, id);
        assert!((0.8..1.25).contains(&r), "{c}");
        assert!(c["gc_jobs"].as_u64().unwrap() > 0, "{c}");
    }
    // The figure data over time: one row per point, free blocks and bandwidth.
    for (e, width) in [("hard-threshold", "0.01"), ("cots-variability", "1")] {
        let text = std::fs::read_to_string(dir.join(format!("{e}-time-series.csv")))
            .expect("time-series CSV");
        let mut lines = text.lines();
        let header = csv_fields(lines.next().unwrap());
        assert!(header.ends_with(&["bandwidth_mib_s".into(), "min_free_blocks".into()]));
        let rows: Vec<Vec<String>> = lines.map(csv_fields).collect();
        assert!(rows.len() > 10, "{e}: {} points", rows.len());
        assert!(rows.iter().all(|r| r[5] == width), "{e}: interval_s");
    }
    assert!(!dir.join("synthetic-sweeps-time-series.csv").exists());
    // Host commands pipelined with GC and merged into GC moves (Table IX) are counted: shares
    // of the host page commands, merging far rarer than pipelining.
    let share = ratio(&v, "tab9-cello-pipelining");
    assert!(share > 0.0 && share < 1.0, "pipelined share {share}");
    let merged = ratio(&v, "tab9-cello-merging");
    assert!(merged > 0.0 && merged < share, "merged share {merged}");
    assert_eq!(claim(&v, "tab9-merging-rare")["agrees"], true);
    // Every measured headline claim keeps the paper's direction.
    assert_headlines_agree(&v, 5);
    // PGC's mean response time and variance are lower than the non-preemptible baseline's, and
    // a lower T_hard (20% rather than 80% of T_soft) helps on the amplified Cello stand-in.
    for id in [
        "abs-mean-66.56",
        "abs-var-83.30",
        "fig10-size-8k-mean",
        "fig10-size-64k-mean",
        "fig14-hard-18",
    ] {
        let r = ratio(&v, id);
        assert!(r < 1.0, "{id}: pgc / baseline = {r}");
        assert!(
            claim(&v, id)["gc_jobs"].as_u64().unwrap() > 0,
            "{id}: no GC"
        );
    }
}

#[test]
fn pagc_quick_headlines() {
    let Some(v) = reproduce("pagc", &["main-cwdp-greedy"]) else {
        return;
    };
    assert_headlines_agree(&v, 2);
    // GC slows the baseline down against the zero-latency bound.
    let r = ratio(&v, "intro-gc-slowdown");
    assert!(r > 1.0, "baseline / zero = {r}");
    // T-PaGC is not slower than the baseline on the low-GC stand-ins, and PaGC gains on average.
    let r = ratio(&v, "fig9-tpagc-lowgc-4-12");
    assert!(r <= 1.0, "T-PaGC / baseline = {r}");
    let r = ratio(&v, "abs-avg-32");
    assert!(r <= 1.0, "PaGC / baseline = {r}");
    // T-PaGC on the MSR windows rests on three seeds (a 95% interval) and its GC-job count; the
    // high-GC claims rest on the hour-long 1&1 loads, thousands of GC jobs.
    let c = claim(&v, "fig9-tpagc-lowgc-4-12");
    assert!(c["ci95"].as_f64().is_some(), "no seed interval: {c}");
    assert!(c["gc_jobs"].as_u64().unwrap() > 0, "{c}");
    let c = claim(&v, "fig14-all-improve-highgc");
    assert!(c["gc_jobs"].as_u64().unwrap() > 1000, "{c}");
    // On the high-GC loads every PaGC variant removes the paired plane's GC from the wait.
    let r = ratio(&v, "fig14-all-improve-highgc");
    assert!(r < 1.0, "PaGC / baseline on the 1&1 loads = {r}");
}

#[test]
fn agc_quick_headlines() {
    let Some(v) = reproduce("agc", &["lo-6ssd", "hi-6ssd", "three-ssd"]) else {
        return;
    };
    // Against L-FTL's and H-FTL's on-demand merges (AGC+DGC runs on L-FTL, as in the paper):
    // AGC+DGC cuts GC overhead, worst-case response time, erases and GC jobs, on both low- and
    // high-intensity stand-ins, on thousands of GC jobs.
    for id in [
        "abs-vs-lftl-96.7",
        "abs-vs-hftl-98.2",
        "s62-wcrt-vs-lftl-98.6",
        "s62-wcrt-vs-hftl-96.4",
        "intro-erases-16.6",
        "intro-no-extra-gc",
        "fig9d-together-hides",
        "fig10a-negligible",
        "fig13-14-3ssd-similar",
    ] {
        let r = ratio(&v, id);
        assert!(r < 1.0, "{id}: agc-dgc / baseline = {r}");
        assert_eq!(claim(&v, id)["agrees"], true, "{id}");
    }
    assert!(ratio(&v, "s62-wcrt-vs-lftl-98.6") < 0.1);
    assert!(ratio(&v, "s62-wcrt-vs-hftl-96.4") < 0.1);
    for id in ["abs-vs-lftl-96.7", "abs-vs-hftl-98.2"] {
        assert!(claim(&v, id)["gc_jobs"].as_u64().unwrap() > 1000, "{id}");
    }
    // Against P-FTL ssdgc disagrees: the stand-ins write less than P-FTL's buffer holds, so its
    // writes never wait for GC (docs/reproductions/agc.md).
    for id in ["abs-vs-pftl-66.7", "s62-wcrt-vs-pftl-65.2"] {
        assert!(ratio(&v, id) > 1.0, "{id}");
        assert_eq!(claim(&v, id)["agrees"], false, "{id}");
    }
    // DGC alone falls back to on-demand GC once its delay blocks are used up on the burst.
    assert!(ratio(&v, "fig9c-dgc-alone-4m") > 0.0);
}

#[test]
fn ppm_quick_headlines() {
    let Some(v) = reproduce(
        "ppm",
        &[
            "slc-thresholds",
            "mlc-10",
            "parity",
            "sharing",
            "combined",
            "global",
        ],
    ) else {
        return;
    };
    // Every experiment runs now: nothing waits for a missing feature.
    assert!(v["not_yet_reproducible"].as_array().unwrap().is_empty());
    // Four workers cut total GC time against the serial scheme (-70% at 14%) and against IPPBE
    // (-57%), on thousands of GC jobs.
    assert_headlines_agree(&v, 2);
    for id in ["abs-vs-existing-70", "abs-vs-ippbe-57"] {
        let c = claim(&v, id);
        assert!(c["gc_jobs"].as_u64().unwrap() > 1000, "{c}");
    }
    // More workers, less GC time; each added worker gains less (the erase stays serial).
    for thr in [5, 10, 14] {
        let (r2, r4) = (
            ratio(&v, &format!("gc-{thr}-2w")),
            ratio(&v, &format!("gc-{thr}-4w")),
        );
        assert!(
            r4 < r2 && r2 < 1.0,
            "{thr}%: 2 workers {r2}, 4 workers {r4}"
        );
        assert!(
            r4 > r2 / 2.0,
            "{thr}%: four workers halve two workers' time: {r2} {r4}"
        );
    }
    // The mean latency falls with parallel migration on every workload and threshold.
    let r = ratio(&v, "ours-lat-always-better");
    assert!(r < 1.0, "parallel / baseline mean latency = {r}");
    // The MLC drive gains more: a page move is a larger share of a GC job (1:2.8 against 1:6.6).
    assert!(ratio(&v, "mlc-gc-4w") < ratio(&v, "gc-10-4w"));
}

#[test]
fn practical_quick_bursts_and_wear() {
    let Some((v, dir)) = reproduce_in(
        "practical",
        &["iometer-alpha-sweep", "iometer-alpha-only", "burst-6.2g"],
    ) else {
        return;
    };
    // Every experiment runs (Fig. 8's on/off bursts exist).
    assert!(v["not_yet_reproducible"].as_array().unwrap().is_empty());
    // NCQ-aware timing alone collects in the gaps between bursts and writes faster than greedy
    // on-demand GC.
    let r = ratio(&v, "fig8-ncq-alone");
    assert!(r < 1.0, "ncq / greedy write time = {r}");
    // Wear spreads as alpha grows, with and without hot/cold separation; the alpha victim alone
    // copies more at 0.1 than greedy.
    for id in [
        "fig7-wear-spread-alpha09-vs-01",
        "fig7-wear-spread-alpha09-vs-01-alpha-only",
        "fig4-alpha01-copybacks-6-alpha-only",
    ] {
        let r = ratio(&v, id);
        assert!(r > 1.0, "{id}: {r}");
    }
    // Fig. 7's distribution in the CSV: the erase counts' range is narrower at alpha = 0.1 than
    // at 0.9.
    let rows = csv_rows(&dir, "iometer-alpha-sweep");
    let spread = |label: &str| {
        let r = rows
            .iter()
            .find(|r| r["scheme"] == label)
            .unwrap_or_else(|| panic!("no {label} row"));
        let (lo, hi): (u32, u32) = (
            r["erase_min"].parse().unwrap(),
            r["erase_max"].parse().unwrap(),
        );
        assert!(
            lo <= hi && r["erase_std"].parse::<f64>().unwrap() >= 0.0,
            "{r:?}"
        );
        hi - lo
    };
    assert!(
        spread("alpha-0.1") < spread("alpha-0.9"),
        "erase range at 0.1 is not narrower than at 0.9"
    );
}

/// Every headline claim with a figure agrees with the paper's direction; at least `min` are measured.
fn assert_headlines_agree(v: &Value, min: usize) {
    let mut measured = 0;
    for c in v["claims"].as_array().unwrap() {
        if c["headline"] != true || c["status"] != "measured" {
            continue;
        }
        measured += 1;
        assert_eq!(c["agrees"], true, "headline claim disagrees: {c}");
    }
    assert!(measured >= min, "only {measured} headline claims measured");
}

/// The README's Table VII example, run as printed: both schemes collect (GC jobs in the thousands)
/// and PGC is faster than NPGC.
#[test]
fn readme_table_vii_example_collects() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md");
    let start = readme
        .find("ssdgc compare --gc baseline,pgc --preset pgc")
        .expect("the Table VII example is in the README");
    let mut cmd = String::new();
    for line in readme[start..].lines() {
        let more = line.trim_end().ends_with('\\');
        cmd.push_str(line.trim_end().trim_end_matches('\\'));
        cmd.push(' ');
        if !more {
            break;
        }
    }
    let mut args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
    args.extend(["--json", "-q"]);
    let v = json(&args);
    let runs = v["runs"].as_array().expect("compare gives runs");
    assert_eq!(runs.len(), 2);
    let mean = |r: &Value| r["latency_us"]["all"]["mean"].as_f64().unwrap();
    for r in runs {
        let jobs = r["gc"]["invocations"].as_u64().unwrap();
        assert!(jobs > 10_000, "{}: {jobs} GC jobs", r["scheme"]);
    }
    assert!(mean(&runs[1]) < mean(&runs[0]), "PGC not faster than NPGC");
}

/// One victim per invocation (the papers' simulators) does not storm: on Table VII's workload the
/// baseline is faster with `gc.collect = one` than with `restore`, for about the same GC work.
#[test]
fn one_victim_per_invocation_does_not_storm() {
    let run = |collect: &str| {
        json(&[
            "run",
            "--preset",
            "pgc",
            "--set",
            "geometry.blocks_per_plane=64",
            "--set",
            &format!("gc.collect={collect}"),
            "--synthetic",
            "count=60000,size=exp:32KiB,interarrival=exp:3ms,seq=0.4,read=0.4",
            "--json",
            "-q",
        ])
    };
    let (one, restore) = (run("one"), run("restore"));
    let mean = |r: &Value| r["latency_us"]["all"]["mean"].as_f64().unwrap();
    let jobs = |r: &Value| r["gc"]["invocations"].as_f64().unwrap();
    assert!(
        mean(&one) < 0.6 * mean(&restore),
        "one {} vs restore {}",
        mean(&one),
        mean(&restore)
    );
    assert!((jobs(&one) / jobs(&restore) - 1.0).abs() < 0.02);
}

#[test]
fn unknown_paper_is_one_line() {
    let line = user_error(&["reproduce", "nope", "--quick"]);
    assert_mentions(&line, &["nope", "pagc", "pgc"]);
}
