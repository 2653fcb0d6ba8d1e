//! Settings that take one of a few words: typed, parsed with an error that lists the words, and
//! written back as the same words.

use crate::keyword::keyword_enum;

keyword_enum!(
    /// What `gc.threshold` counts (`gc.trigger`).
    ThresholdUnit, "gc.trigger", {
        /// Free blocks in the pool.
        Blocks = "blocks",
        /// Free pages, including the rest of the open blocks (PaGC paper §VI).
        Pages = "pages",
    }
);

keyword_enum!(
    /// How the PaGC join threshold derives from `gc.threshold` when `gc.pagc_threshold` is 0
    /// (`gc.pagc_margin`): the PaGC paper's PaGC_TH is "5% larger than the original GC-invocation
    /// threshold" (§V-B).
    PagcMargin, "gc.pagc_margin", {
        /// 5 % larger: `threshold × 1.05` (7 % → 7.35 %), the natural reading of the paper.
        Relative = "relative",
        /// 5 percentage points more: `threshold + 0.05` (7 % → 12 %).
        Points = "points",
    }
);

impl PagcMargin {
    /// The join threshold this margin gives above the GC threshold `threshold` (a share).
    pub fn apply(self, threshold: f64) -> f64 {
        match self {
            PagcMargin::Relative => threshold * 1.05,
            PagcMargin::Points => threshold + 0.05,
        }
    }
}

keyword_enum!(
    /// What a copyback move does for ECC (`gc.copyback_ecc`). The preemptible-GC paper (Lee et
    /// al., TCAD 2013, §III-B) moves pages with copyback and no channel use ("in case of
    /// copy-back operations, the data transfer is omitted"); the PaGC paper moves valid pages
    /// inside the plane by copyback (§III-B, §III-E) with no ECC step. A controller that checks each moved page's ECC takes it out over the channel
    /// and back, which costs what a move without copyback costs.
    CopybackEcc, "gc.copyback_ecc", {
        /// No ECC check: a copyback move stays inside the plane.
        None = "none",
        /// The page goes out to the controller for ECC and back in over the channel (two
        /// transfers), then is programmed.
        RoundTrip = "round-trip",
    }
);

keyword_enum!(
    /// Host multi-plane commands (`ftl.multiplane`): whether the drive issues queued host reads
    /// (or writes) to different planes of a die as one multi-plane command (PaGC paper §II-B:
    /// same page offset in every plane, blocks may differ, the cost of one operation), as
    /// SSDsim's two-plane commands do.
    HostMultiplane, "ftl.multiplane", {
        /// One plane per host command.
        Off = "off",
        /// Reads whose pages, and writes whose planes' host write points, are at one page offset.
        Aligned = "aligned",
        /// As `aligned`, and writes also when their write points are apart: the planes behind
        /// skip pages to the furthest one's offset (SSDsim's "greed MPW command").
        Greedy = "greedy",
    }
);

keyword_enum!(
    /// Trace addresses beyond the logical space (`host.fold`).
    Fold, "host.fold", {
        /// Folded modulo the capacity.
        Wrap = "wrap",
        /// An error naming the request.
        Reject = "reject",
    }
);

keyword_enum!(
    /// How the drive is aged before measurement (`precondition.mode`).
    AgeingMode, "precondition.mode", {
        /// Not at all: a fresh drive.
        None = "none",
        /// A sequential fill of the logical space.
        Fill = "fill",
        /// A fill, then `precondition.overwrites` × capacity of random overwrites.
        Steady = "steady",
        /// The workload itself (parallel-page-migration paper §V-A-3): the pages it reads, then
        /// those it writes, then shifted copies until every page is written; then
        /// `precondition.overwrites` × capacity of its writes.
        Trace = "trace",
    }
);

keyword_enum!(
    /// The order in which a die serves its queued host transactions (`host.priority`). GC comes
    /// first or not as the GC trigger decides.
    HostPriority, "host.priority", {
        /// Arrival order.
        Fifo = "fifo",
        /// Reads before writes (the parallel-page-migration paper's scheduler, §V-A: GC, then
        /// reads, then writes); a read never passes a queued write of its own page.
        ReadsFirst = "reads-first",
    }
);

/// Checks a keyword setting's value, so that the error names the key: `Some(result)` for keyword
/// keys, `None` for others.
pub(crate) fn check(section: &str, key: &str, v: &toml::Value) -> Option<Result<(), String>> {
    let parse = |f: fn(&str) -> Result<(), String>| {
        Some(match v {
            toml::Value::String(s) => f(s),
            _ => Err(format!("'{section}.{key}' must be a string")),
        })
    };
    match (section, key) {
        ("gc", "trigger") => parse(|s| s.parse::<ThresholdUnit>().map(drop)),
        ("gc", "pagc_margin") => parse(|s| s.parse::<PagcMargin>().map(drop)),
        ("gc", "copyback_ecc") => parse(|s| s.parse::<CopybackEcc>().map(drop)),
        ("host", "fold") => parse(|s| s.parse::<Fold>().map(drop)),
        ("precondition", "mode") => parse(|s| s.parse::<AgeingMode>().map(drop)),
        ("host", "priority") => parse(|s| s.parse::<HostPriority>().map(drop)),
        ("geometry", "register_sharing") => {
            parse(|s| s.parse::<crate::flash::RegisterSharing>().map(drop))
        }
        ("gc", "blocking") => parse(|s| s.parse::<crate::flash::GcScope>().map(drop)),
        ("gc", "copyback_parity") => parse(|s| s.parse::<crate::gc::migration::Parity>().map(drop)),
        ("ftl", "pool") => parse(|s| s.parse::<crate::ftl::PoolOrder>().map(drop)),
        ("ftl", "hot_to") => parse(|s| s.parse::<crate::ftl::HotTo>().map(drop)),
        ("ftl", "mapping") => parse(|s| s.parse::<crate::ftl::MappingKind>().map(drop)),
        ("ftl", "multiplane") => parse(|s| s.parse::<HostMultiplane>().map(drop)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_parse_and_errors_list_them() {
        assert_eq!("pages".parse::<ThresholdUnit>(), Ok(ThresholdUnit::Pages));
        assert_eq!(Fold::Reject.to_string(), "reject");
        assert_eq!("points".parse::<PagcMargin>(), Ok(PagcMargin::Points));
        let e = "sometimes".parse::<AgeingMode>().unwrap_err();
        assert_eq!(
            e,
            "'precondition.mode' = 'sometimes' must be one of: none, fill, steady, trace"
        );
    }

    #[test]
    fn pagc_margin_is_five_percent_larger_or_five_points_more() {
        assert!((PagcMargin::Relative.apply(0.07) - 0.0735).abs() < 1e-12);
        assert!((PagcMargin::Points.apply(0.07) - 0.12).abs() < 1e-12);
    }
}
