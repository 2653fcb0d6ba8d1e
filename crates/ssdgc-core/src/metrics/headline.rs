//! The headline figures of a run: the rows of `ssdgc compare`'s table and the columns of the
//! Python package's summaries and sweeps, in that order. Each is a path into the JSON report
//! (`docs/report-schema.md`) and a divisor, so that a front end reading a report's JSON (the
//! Python package reading the command's `--json` output or a sweep's store) computes exactly
//! what the command shows.

use super::report::Report;

/// One headline figure: a column name, a label for tables, and where it is in the report.
#[derive(Clone, Copy, Debug)]
pub struct Figure {
    /// Column name (`p99_us`): lower case, the unit in the name.
    pub key: &'static str,
    /// Label of a text table's row (`p99 us`).
    pub label: &'static str,
    /// Keys from the report's top level to the number.
    pub path: &'static [&'static str],
    /// The figure is the number divided by this (1 but for unit changes).
    pub divisor: f64,
}

impl Figure {
    /// The figure in a report's JSON value (NaN when the report has no such number).
    pub fn of(&self, report: &serde_json::Value) -> f64 {
        let mut v = report;
        for k in self.path {
            match v.get(k) {
                Some(next) => v = next,
                None => return f64::NAN,
            }
        }
        v.as_f64().map_or(f64::NAN, |x| x / self.divisor)
    }
}

/// The headline figures, in the order tables list them.
pub const HEADLINE: [Figure; 13] = [
    Figure {
        key: "mean_us",
        label: "mean us",
        path: &["latency_us", "all", "mean"],
        divisor: 1.0,
    },
    Figure {
        key: "std_us",
        label: "std us",
        path: &["latency_us", "all", "std"],
        divisor: 1.0,
    },
    Figure {
        key: "p99_us",
        label: "p99 us",
        path: &["latency_us", "all", "p99"],
        divisor: 1.0,
    },
    Figure {
        key: "p999_us",
        label: "p99.9 us",
        path: &["latency_us", "all", "p999"],
        divisor: 1.0,
    },
    Figure {
        key: "p9999_us",
        label: "p99.99 us",
        path: &["latency_us", "all", "p9999"],
        divisor: 1.0,
    },
    Figure {
        key: "max_us",
        label: "max us",
        path: &["latency_us", "all", "max"],
        divisor: 1.0,
    },
    Figure {
        key: "read_mean_us",
        label: "read mean us",
        path: &["latency_us", "read", "mean"],
        divisor: 1.0,
    },
    Figure {
        key: "write_mean_us",
        label: "write mean us",
        path: &["latency_us", "write", "mean"],
        divisor: 1.0,
    },
    Figure {
        key: "waf",
        label: "WAF",
        path: &["flash", "waf"],
        divisor: 1.0,
    },
    Figure {
        key: "gc_invocations",
        label: "GC invocations",
        path: &["gc", "invocations"],
        divisor: 1.0,
    },
    Figure {
        key: "gc_time_ms",
        label: "GC time ms",
        path: &["gc", "total_time_us"],
        divisor: 1e3,
    },
    Figure {
        key: "blocks_erased",
        label: "blocks erased",
        path: &["flash", "blocks_erased"],
        divisor: 1.0,
    },
    Figure {
        key: "erase_max",
        label: "erase max",
        path: &["wear", "erase_max"],
        divisor: 1.0,
    },
];

impl Report {
    /// The headline figures of this report, `(key, value)` in [`HEADLINE`] order.
    pub fn headline(&self) -> Vec<(&'static str, f64)> {
        let v = serde_json::to_value(self).expect("a report always serialises");
        HEADLINE.iter().map(|f| (f.key, f.of(&v))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::HEADLINE;

    #[test]
    fn keys_and_labels_are_unique() {
        for (i, a) in HEADLINE.iter().enumerate() {
            for b in &HEADLINE[i + 1..] {
                assert_ne!(a.key, b.key);
                assert_ne!(a.label, b.label);
            }
            assert!(a
                .key
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_'));
        }
    }
}
