//! Several seeds of one run: the headline figures' ([`super::headline::HEADLINE`]) mean and 95 %
//! confidence interval over the seeds (Student's t), with every seed's value — the report's `seeds`
//! section.
//!
//! The seeds change every random choice of a run (preconditioning's overwrites, victim draws, a
//! synthetic workload), so the spread of a figure over seeds says how much of a difference between
//! two schemes is noise. With `n` seeds of values `x₁…xₙ`: mean `x̄`, sample standard deviation
//! `s` (divisor `n − 1`), and the interval `x̄ ± t₀.₉₇₅,ₙ₋₁ · s / √n`; one seed gives the value
//! itself as both bounds.

use std::collections::BTreeMap;

use serde::Serialize;

use super::headline::HEADLINE;
use super::report::Report;

/// One figure over the seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeedFigure {
    pub mean: f64,
    pub ci95_low: f64,
    pub ci95_high: f64,
    /// The value of each seed, in the order of `seeds`.
    pub values: Vec<f64>,
}

/// The `seeds` section of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeedsReport {
    /// The seeds, in order; the report around this section is the first seed's.
    pub seeds: Vec<u64>,
    /// Per headline figure, keyed by its column name (`p99_us`, [`HEADLINE`]'s `key`).
    pub figures: BTreeMap<String, SeedFigure>,
}

/// `t₀.₉₇₅` of Student's t distribution with `df` degrees of freedom (1 to 30 from the table,
/// beyond from the Cornish–Fisher expansion around the normal quantile, within 10⁻⁵).
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
        2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922,
        2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
        2.048407, 2.045230, 2.042272,
    ];
    if df == 0 {
        return f64::NAN;
    }
    if df <= 30 {
        return TABLE[df as usize - 1];
    }
    let z: f64 = 1.959_963_984_540_054;
    let v = df as f64;
    let g1 = (z.powi(3) + z) / 4.0;
    let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
    let g3 = (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0;
    let g4 = (79.0 * z.powi(9) + 776.0 * z.powi(7) + 1482.0 * z.powi(5)
        - 1920.0 * z.powi(3)
        - 945.0 * z)
        / 92160.0;
    z + g1 / v + g2 / v.powi(2) + g3 / v.powi(3) + g4 / v.powi(4)
}

/// Mean and 95 % confidence interval of `values` (module documentation).
pub fn figure(values: Vec<f64>) -> SeedFigure {
    let n = values.len();
    let mean = values.iter().sum::<f64>() / n.max(1) as f64;
    let half = if n > 1 {
        let var = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        t975(n as u64 - 1) * var.sqrt() / (n as f64).sqrt()
    } else {
        0.0
    };
    SeedFigure {
        mean,
        ci95_low: mean - half,
        ci95_high: mean + half,
        values,
    }
}

/// The `seeds` section for the reports of one run under several seeds (in seed order).
pub fn summarise(reports: &[Report]) -> SeedsReport {
    let values: Vec<Vec<(&str, f64)>> = reports.iter().map(Report::headline).collect();
    SeedsReport {
        seeds: reports.iter().map(|r| r.seed).collect(),
        figures: HEADLINE
            .iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    f.key.to_string(),
                    figure(values.iter().map(|v| v[i].1).collect()),
                )
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_table_and_the_normal_limit() {
        assert_eq!(t975(1), 12.706205);
        assert_eq!(t975(9), 2.262157);
        // The expansion continues the table smoothly (exact values: 31 → 2.039513, 60 → 2.000298,
        // 120 → 1.979930).
        assert!((t975(31) - 2.039513).abs() < 1e-5, "{}", t975(31));
        assert!((t975(60) - 2.000298).abs() < 1e-5, "{}", t975(60));
        assert!((t975(120) - 1.979930).abs() < 1e-5, "{}", t975(120));
        assert!((t975(1_000_000) - 1.959964).abs() < 1e-5);
        assert!((29..200).all(|d| t975(d) > t975(d + 1)));
    }

    #[test]
    fn interval_of_known_values() {
        // 10 values 1..=10: mean 5.5, s = 3.02765, half = 2.262157 × 3.02765 / √10 = 2.16585.
        let f = figure((1..=10).map(f64::from).collect());
        assert_eq!(f.mean, 5.5);
        assert!((f.ci95_low - (5.5 - 2.165_852)).abs() < 1e-5, "{f:?}");
        assert!((f.ci95_high - (5.5 + 2.165_852)).abs() < 1e-5, "{f:?}");
        let one = figure(vec![3.0]);
        assert_eq!((one.mean, one.ci95_low, one.ci95_high), (3.0, 3.0, 3.0));
        let same = figure(vec![2.0; 4]);
        assert_eq!((same.ci95_low, same.ci95_high), (2.0, 2.0));
    }
}
