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
        ("host", "fold") => parse(|s| s.parse::<Fold>().map(drop)),
        ("precondition", "mode") => parse(|s| s.parse::<AgeingMode>().map(drop)),
        ("ftl", "pool") => parse(|s| s.parse::<crate::ftl::PoolOrder>().map(drop)),
        ("ftl", "hot_to") => parse(|s| s.parse::<crate::ftl::HotTo>().map(drop)),
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
        let e = "sometimes".parse::<AgeingMode>().unwrap_err();
        assert_eq!(
            e,
            "'precondition.mode' = 'sometimes' must be one of: none, fill, steady"
        );
    }
}
