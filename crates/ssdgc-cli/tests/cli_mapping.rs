//! The FTL mapping (`ftl.mapping`) through the command line: L-FTL and H-FTL runs report their
//! merges (JSON `ftl` section, one `ftl:` line of the table) and page mapping reports none; the
//! settings appear in `--dump-config`; what a log-block mapping cannot honour is a one-line error.

mod common;

use common::{assert_mentions, json, ok, u64_at, user_error};

const SYN: &str = "count=400,size=exp:16KiB,interarrival=exp:1ms,read=0.2";

#[test]
fn log_block_runs_report_their_merges() {
    for (mapping, n, m) in [("lftl", 1, 1), ("hftl", 2, 8)] {
        let r = json(&[
            "run",
            "--json",
            "-q",
            "--check",
            "--precondition",
            "steady:0.3",
            "--synthetic",
            SYN,
            "--set",
            &format!("ftl.mapping={mapping}"),
        ]);
        assert_eq!(r["ftl"]["mapping"], mapping);
        assert_eq!(u64_at(&r, &["ftl", "data_blocks_per_group"]), n);
        assert_eq!(u64_at(&r, &["ftl", "update_blocks_per_group"]), m);
        let merges: u64 = ["switch", "partial", "full"]
            .iter()
            .map(|k| u64_at(&r, &["ftl", "merges", k, "count"]))
            .sum();
        assert!(merges > 0, "{mapping}: no merge");
        assert_eq!(merges, u64_at(&r, &["gc", "invocations"]), "{mapping}");
        let copied: u64 = ["switch", "partial", "full"]
            .iter()
            .map(|k| u64_at(&r, &["ftl", "merges", k, "pages_copied"]))
            .sum();
        assert_eq!(
            copied,
            u64_at(&r, &["flash", "gc_pages_moved"]),
            "{mapping}"
        );
        let table = ok(&[
            "run",
            "-q",
            "--precondition",
            "steady:0.3",
            "--synthetic",
            SYN,
            "--set",
            &format!("ftl.mapping={mapping}"),
        ]);
        assert!(
            table
                .lines()
                .any(|l| l.starts_with(&format!("ftl: {mapping} ({n}:{m} groups), merges"))),
            "{table}"
        );
    }
    let page = json(&["run", "--json", "-q", "--synthetic", SYN]);
    assert!(
        page.get("ftl").is_none(),
        "no ftl section under page mapping"
    );
    let table = ok(&["run", "-q", "--synthetic", SYN]);
    assert!(!table.contains("\nftl: "), "{table}");
}

#[test]
fn mapping_settings_are_dumped_and_read_back() {
    let dump = ok(&["run", "--dump-config"]);
    for key in [
        "mapping = \"page\"",
        "log_blocks = 0",
        "group_data_blocks = 2",
        "group_update_blocks = 8",
    ] {
        assert!(dump.contains(key), "{key} in\n{dump}");
    }
    let dump = ok(&["run", "--preset", "agc-64g", "--dump-config"]);
    assert!(dump.contains("mapping = \"lftl\""), "{dump}");
    assert!(dump.contains("mode = \"fill\""), "{dump}");
}

#[test]
fn what_a_log_block_mapping_cannot_honour_is_one_line() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--set", "ftl.mapping=blocky"],
            &["ftl.mapping", "page, lftl, hftl"],
        ),
        (&["--set", "ftl.log_blocks=4"], &["ftl.log_blocks", "lftl"]),
        (
            &["--set", "ftl.mapping=lftl", "--gc", "pagc-threshold"],
            &["gc.planes", "lftl"],
        ),
        (
            &["--set", "ftl.mapping=hftl", "--gc", "pgc"],
            &["gc.merge", "hftl"],
        ),
        (
            &["--set", "ftl.mapping=lftl", "--victim", "cost-benefit"],
            &["gc.victim", "greedy", "fifo", "random"],
        ),
        (
            &[
                "--set",
                "ftl.mapping=hftl",
                "--set",
                "ftl.group_update_blocks=0",
            ],
            &["ftl.group_update_blocks = 0"],
        ),
        (
            &["--preset", "agc-64g", "--set", "ftl.hot_cold=true"],
            &["ftl.hot_cold", "lftl"],
        ),
    ];
    for (args, needles) in cases {
        let mut all = vec!["run", "-q", "--synthetic", "count=10"];
        all.extend_from_slice(args);
        let line = user_error(&all);
        assert_mentions(&line, needles);
    }
}
