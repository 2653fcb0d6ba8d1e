//! Cross-format tests: compression, robustness.

use std::io::Write;

use super::testutil::*;
use crate::{open_trace, read_all_from_bytes, Format, TraceOptions};

fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ssdgc-workload-test-{}-{}",
        std::process::id(),
        name
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn gzip_and_zstd_are_read_transparently() {
    let Some(path) = sample_path("systor17_vdi_snia_sample.csv") else {
        return;
    };
    let raw = std::fs::read(&path).unwrap();
    let plain = read_path(&path, Format::Systor);

    // Misleading names: compression is told by magic bytes.
    let gz = temp_file("systor.csv");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&raw).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let zst = temp_file("systor.zst");
    std::fs::write(&zst, zstd::encode_all(&raw[..], 3).unwrap()).unwrap();

    for p in [&gz, &zst] {
        let mut rd = open_trace(p, &TraceOptions::default()).unwrap();
        assert_eq!(rd.format(), &Format::Systor);
        assert_eq!(collect_ok(&mut rd), plain);
        std::fs::remove_dir_all(p.parent().unwrap()).unwrap();
    }
}

#[test]
fn truncated_gzip_is_an_error_not_a_panic() {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    for i in 0..10_000 {
        writeln!(enc, "{i},h,0,Read,0,512,1").unwrap();
    }
    let bytes = enc.finish().unwrap();
    let (recs, errs) = read_all_from_bytes(&bytes[..bytes.len() / 2], &TraceOptions::default());
    assert!(!recs.is_empty());
    assert_eq!(errs.len(), 1);
    assert!(errs[0].msg.starts_with("read error"), "{}", errs[0]);
}

#[test]
fn open_errors_name_the_file() {
    let e = open_trace(
        std::path::Path::new("/nonexistent/trace.csv"),
        &TraceOptions::default(),
    )
    .err()
    .unwrap();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/trace.csv: cannot open"),
        "{e}"
    );
}

#[test]
fn invalid_utf8_is_an_error_for_its_line() {
    let opts = TraceOptions {
        format: Format::Msr,
        ..TraceOptions::default()
    };
    let (r, e) = read_all_from_bytes(b"1,h,0,Read,0,512,1\n\xff\xfe\n2,h,0,Read,0,512,1\n", &opts);
    assert_eq!(r.len(), 2);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].line, 2);
}

fn all_formats() -> Vec<Format> {
    let mut v = vec![Format::Auto];
    v.extend(Format::detectable());
    v.push(
        "columns:time=1:ms,op=2,offset=3,len=4,dev=5,sep=space"
            .parse()
            .unwrap(),
    );
    v.push(
        "columns:op=1,offset=2:sectors,len=3:kib,unsorted,read=1"
            .parse()
            .unwrap(),
    );
    v
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    fn check(bytes: &[u8]) {
        for format in all_formats() {
            for window in [1usize, 4096] {
                let opts = TraceOptions {
                    format: format.clone(),
                    reorder_window: window,
                    volume: if window == 1 { Some(0) } else { None },
                    ..TraceOptions::default()
                };
                let (recs, _) = read_all_from_bytes(bytes, &opts);
                if let Some(first) = recs.first() {
                    assert_eq!(first.time_ns, 0);
                }
                assert!(recs.windows(2).all(|w| w[0].time_ns <= w[1].time_ns));
            }
        }
    }

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            "[ -~]{0,80}",
            "[0-9]{1,20}(\\.[0-9]{0,12})?[ ,;]{1,2}[0-9a-zA-Z,]{1,20}",
            "[0-9]{1,12},[0-9]{1,12},[0-9]{1,5},[01],[0-9]{1,4}",
            "[0-9]{1,19},h,[0-9],(Read|Write|x),[0-9]{1,20},[0-9]{1,20},[0-9]",
            "[0-9.]{1,14} [0-9]{1,2} [0-9]{1,20} [0-9]{1,20} [0-9]{1,2}",
            "  8,0 +[0-9] +[0-9]+ +[0-9.]{1,12} +[0-9]+ +[DQC] +[RWSDFN]{1,3} [0-9]{1,20} \\+ [0-9]{1,20}",
            "[0-9.]{1,12} ; [0-9]{1,20} ; [0-9]{1,6} ; [RWX] ; 0.0 ; 0.0",
            "fio version [23] iolog",
            "[0-9]{0,5} ?f (read|write|trim|open) [0-9]{1,20} [0-9]{1,20}",
            "[0-9.]{1,20},[0-9.]{1,8},[RW],[0-9],[0-9]{1,20},[0-9]{1,20}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            check(&bytes);
        }

        #[test]
        fn arbitrary_lines_never_panic(lines in proptest::collection::vec(line(), 0..24)) {
            check(lines.join("\n").as_bytes());
        }
    }
}

/// Parsing speed on the largest samples: `cargo test --release -p ssdgc-workload -- --ignored
/// --nocapture throughput`.
#[test]
#[ignore]
fn throughput() {
    for (name, format) in [
        ("blkreplay_1and1_linux_mysql.load", Format::Blkreplay),
        ("tencent_cbs_snia_sample.csv", Format::Tencent),
        ("ssdsim_example.ascii", Format::Disksim),
    ] {
        let Some(path) = sample_path(name) else {
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        let opts = TraceOptions {
            format,
            ..TraceOptions::default()
        };
        let start = std::time::Instant::now();
        let mut lines = 0;
        for _ in 0..20 {
            let input = Box::new(std::io::Cursor::new(bytes.clone()));
            let mut rd = crate::TraceReader::from_reader(name, input, &opts).unwrap();
            for r in &mut rd {
                r.unwrap();
            }
            lines += rd.stats().lines;
        }
        let secs = start.elapsed().as_secs_f64();
        println!("{name}: {:.1} M lines/s", lines as f64 / secs / 1e6);
    }
}
