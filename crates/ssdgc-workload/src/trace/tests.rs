//! Cross-format tests: compression, robustness.

use std::io::Write;

use super::testutil::*;
use crate::{open_trace, read_all_from_bytes, Format, TraceOptions, TraceReader};

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

#[test]
fn offset_plus_length_overflowing_64_bits_is_an_error_naming_the_line() {
    let text = "1,h,0,Write,0,4096,1\n2,h,0,Write,18446744073709551615,4096,1\n\
                3,h,0,Write,18446744073709551615,0,1\n4,h,0,Write,18446744073709547519,4096,1\n";
    let opts = TraceOptions {
        format: Format::Msr,
        ..TraceOptions::default()
    };
    let (recs, errs) = read_all_from_bytes(text.as_bytes(), &opts);
    assert_eq!(recs.len(), 2, "{recs:?}");
    assert_eq!(recs[1].offset, 18_446_744_073_709_547_519);
    assert_eq!(errs.len(), 2);
    assert_eq!(
        errs[0].to_string(),
        "<bytes>:2: offset 18446744073709551615 + length 4096 overflows 64 bits"
    );
    assert_eq!(errs[1].line, 3);
}

#[test]
fn a_request_longer_than_the_limit_is_an_error_naming_the_line() {
    let max = crate::trace::MAX_REQUEST_BYTES;
    let text = format!(
        "1,h,0,Write,0,{max},1\n2,h,0,Write,0,{},1\n3,h,0,Read,0,18446744073709551615,1\n",
        max + 1
    );
    let opts = TraceOptions {
        format: Format::Msr,
        ..TraceOptions::default()
    };
    let (recs, errs) = read_all_from_bytes(text.as_bytes(), &opts);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].len, max);
    assert_eq!(errs.len(), 2);
    assert_eq!(errs[0].line, 2);
    assert!(
        errs[0].msg.contains("longest accepted request"),
        "{}",
        errs[0]
    );
    assert_eq!(errs[1].line, 3);
}

#[test]
fn an_endless_line_is_an_error_not_a_memory_blow_up() {
    use std::io::{BufReader, Read};
    for format in [Format::Auto, Format::Msr, Format::Tencent] {
        let opts = TraceOptions {
            format: format.clone(),
            ..TraceOptions::default()
        };
        // An endless stream of zero bytes, as /dev/zero.
        let input = Box::new(BufReader::new(std::io::repeat(0).take(u64::MAX)));
        let err = match TraceReader::from_reader("zero", input, &opts) {
            Err(e) => e,
            Ok(mut rd) => {
                let e = rd.next().expect("an error").expect_err("not a record");
                assert!(
                    rd.next().is_none(),
                    "the stream ends after an over-long line"
                );
                e
            }
        };
        assert_eq!(err.line, 1, "{format}: {err}");
        assert!(err.msg.contains("line is longer than 65536 bytes"), "{err}");
    }
}

#[test]
fn lines_up_to_the_limit_are_read_and_longer_ones_are_not() {
    use crate::trace::MAX_LINE_BYTES;
    let rec = "1,h,0,Write,0,4096,1";
    for (pad, eol, ok) in [
        (MAX_LINE_BYTES - rec.len(), "\n", true),
        (MAX_LINE_BYTES - rec.len(), "\r\n", true),
        (MAX_LINE_BYTES - rec.len(), "", true),
        (MAX_LINE_BYTES - rec.len() + 1, "\n", false),
        (MAX_LINE_BYTES - rec.len() + 1, "", false),
    ] {
        // Trailing spaces in the last field are trimmed by the MSR parser.
        let text = format!("0,h,0,Read,0,512,1\n{rec}{}{eol}", " ".repeat(pad));
        let opts = TraceOptions {
            format: Format::Msr,
            ..TraceOptions::default()
        };
        let (recs, errs) = read_all_from_bytes(text.as_bytes(), &opts);
        if ok {
            assert!(errs.is_empty(), "{pad} {eol:?}: {errs:?}");
            assert_eq!(recs.len(), 2);
        } else {
            assert_eq!(errs.len(), 1, "{pad} {eol:?}");
            assert_eq!(errs[0].line, 2);
            assert_eq!(recs.len(), 1);
        }
    }
}

#[test]
fn a_volume_without_records_names_the_volumes_present() {
    let text = "1538323200,0,8,1,1058\n1538323200,8,8,1,1058\n1538323201,0,8,0,1063\n";
    for format in [Format::Tencent, Format::Auto] {
        let opts = TraceOptions {
            format,
            volume: Some(7),
            ..TraceOptions::default()
        };
        let (recs, errs) = read_all_from_bytes(text.as_bytes(), &opts);
        assert!(recs.is_empty());
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(
            errs[0].to_string(),
            "<bytes>: volume 7 has no records; volumes present: 1058 (2 records), 1063 (1 record)"
        );
    }
    // MSR disk numbers are volumes too; a volume that has records is no error.
    let msr = "1,h,3,Read,0,512,1\n";
    let opts = TraceOptions {
        format: Format::Msr,
        volume: Some(4),
        ..TraceOptions::default()
    };
    let (_, errs) = read_all_from_bytes(msr.as_bytes(), &opts);
    assert_eq!(
        errs[0].msg,
        "volume 4 has no records; volumes present: 3 (1 record)"
    );
    let opts = TraceOptions {
        volume: Some(3),
        ..opts
    };
    let (recs, errs) = read_all_from_bytes(msr.as_bytes(), &opts);
    assert_eq!((recs.len(), errs.len()), (1, 0));
}

#[test]
fn records_past_the_time_limit_are_errors_naming_the_line() {
    let text = "0,h,0,Read,0,512,1\n10,h,0,Read,0,512,1\n11,h,0,Read,0,512,1\n";
    let opts = TraceOptions {
        format: Format::Msr,
        max_time_ns: 1000,
        ..TraceOptions::default()
    };
    let (recs, errs) = read_all_from_bytes(text.as_bytes(), &opts);
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[1].time_ns, 1000);
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].line, 3);
    assert!(
        errs[0].msg.contains("longest supported replay span"),
        "{}",
        errs[0]
    );
    assert_eq!(TraceOptions::default().max_time_ns, crate::MAX_ARRIVAL_NS);
}

/// With `all_volumes`, no volume is picked (Tencent) and every record is counted under its
/// volume; with a volume as well, only that one is kept and counted; without the option nothing
/// is counted.
#[test]
fn all_volumes_keeps_and_counts_every_volume() {
    let text = "0,100,8,0,1063\n0,200,8,1,1058\n1,300,8,1,1063\n2,400,8,0,7\n";
    let read = |all: bool, volume: Option<u64>| {
        let opts = TraceOptions {
            format: Format::Tencent,
            volume,
            all_volumes: all,
            ..TraceOptions::default()
        };
        let input: Box<dyn std::io::BufRead + Send> =
            Box::new(std::io::Cursor::new(text.as_bytes().to_vec()));
        let mut r = TraceReader::from_reader("t", input, &opts).unwrap();
        let n = r.by_ref().filter(|x| x.is_ok()).count();
        let counts = r
            .volumes()
            .map(|(m, beyond)| (m.iter().map(|(&k, &v)| (k, v)).collect::<Vec<_>>(), beyond));
        (n, counts)
    };
    assert_eq!(
        read(true, None),
        (4, Some((vec![(7, 1), (1058, 1), (1063, 2)], 0)))
    );
    assert_eq!(read(true, Some(1063)), (2, Some((vec![(1063, 2)], 0))));
    assert_eq!(read(false, None), (2, None));
}
