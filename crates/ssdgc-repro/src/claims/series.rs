//! Statistics over a report's time series (`series.by_time`) for claims.

use serde_json::Value;

/// A statistic over the points of `series.by_time`: `AGG(series.by_time.FIELD)`.
///
/// Which points count depends on the field:
/// - `min_free_blocks`: every point that carries it (an interval with no block taken carries the
///   count its predecessor ended with; the last, partial interval counts too: its minimum was
///   seen). The minimum over the points is the run's lowest free-block count, whatever the
///   interval width.
/// - `bandwidth` (bytes per second: (`read_bytes` + `write_bytes`) / `interval_s`), `read_bytes`,
///   `write_bytes`: the *full* intervals of the host's activity: the points from the first (time 0,
///   the first arrival) up to, not including, the last point holding completed bytes. That last
///   point holds the workload's end, so its interval runs past the last completion and its
///   bandwidth is understated; points after it (GC after the last completion) are no host
///   activity. Intervals in between with no completion count as 0: a drive that delivers nothing
///   for an interval is the variation the metric measures.
/// - `mean_us`, `max_us`, `p50_us`, `p99_us`: the points where at least one request arrived.
///
/// `cv` is the population standard deviation over the points divided by their mean; it needs two
/// points and a positive mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeriesStat {
    pub agg: SeriesAgg,
    pub field: SeriesField,
}

/// How the points' values are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesAgg {
    Min,
    Max,
    Mean,
    /// Coefficient of variation: population std / mean.
    Cv,
}

/// A field of a `series.by_time` point, or one derived from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesField {
    MinFreeBlocks,
    /// (`read_bytes` + `write_bytes`) / `interval_s`, bytes per second.
    Bandwidth,
    ReadBytes,
    WriteBytes,
    MeanUs,
    MaxUs,
    P50Us,
    P99Us,
}

impl SeriesField {
    pub(super) const ALL: [(&'static str, SeriesField); 8] = [
        ("min_free_blocks", SeriesField::MinFreeBlocks),
        ("bandwidth", SeriesField::Bandwidth),
        ("read_bytes", SeriesField::ReadBytes),
        ("write_bytes", SeriesField::WriteBytes),
        ("mean_us", SeriesField::MeanUs),
        ("max_us", SeriesField::MaxUs),
        ("p50_us", SeriesField::P50Us),
        ("p99_us", SeriesField::P99Us),
    ];
}

impl SeriesStat {
    /// `min(series.by_time.min_free_blocks)` anywhere in `text` (the rest is commentary).
    pub fn parse(text: &str) -> Option<SeriesStat> {
        let at = text.find("(series.by_time.")?;
        let agg: String = text[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let agg = match agg.as_str() {
            "min" => SeriesAgg::Min,
            "max" => SeriesAgg::Max,
            "mean" => SeriesAgg::Mean,
            "cv" => SeriesAgg::Cv,
            _ => return None,
        };
        let rest = &text[at + "(series.by_time.".len()..];
        let name = &rest[..rest.find(')')?];
        let field = SeriesField::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)?;
        Some(SeriesStat { agg, field })
    }

    /// The points' values that the statistic combines (see [`SeriesStat`]), or `None` when the
    /// report has no time series.
    pub fn values(&self, report: &Value) -> Option<Vec<f64>> {
        let series = report.get("series")?;
        let points = series.get("by_time")?.as_array()?;
        let num = |p: &Value, k: &str| p.get(k).and_then(Value::as_f64);
        let vals = match self.field {
            SeriesField::MinFreeBlocks => points
                .iter()
                .filter_map(|p| num(p, "min_free_blocks"))
                .collect(),
            SeriesField::Bandwidth | SeriesField::ReadBytes | SeriesField::WriteBytes => {
                let interval = series.get("interval_s")?.as_f64()?;
                let bytes = |p: &Value| {
                    let r = num(p, "read_bytes").unwrap_or(0.0);
                    let w = num(p, "write_bytes").unwrap_or(0.0);
                    match self.field {
                        SeriesField::ReadBytes => r,
                        SeriesField::WriteBytes => w,
                        _ => (r + w) / interval,
                    }
                };
                let total = |p: &Value| {
                    num(p, "read_bytes").unwrap_or(0.0) + num(p, "write_bytes").unwrap_or(0.0)
                };
                let last = points.iter().rposition(|p| total(p) > 0.0).unwrap_or(0);
                points[..last].iter().map(bytes).collect()
            }
            SeriesField::MeanUs | SeriesField::MaxUs | SeriesField::P50Us | SeriesField::P99Us => {
                let key = SeriesField::ALL
                    .iter()
                    .find(|(_, f)| *f == self.field)
                    .map(|(n, _)| *n)?;
                points
                    .iter()
                    .filter(|p| num(p, "requests").unwrap_or(0.0) > 0.0)
                    .filter_map(|p| num(p, key))
                    .collect()
            }
        };
        Some(vals)
    }

    /// The statistic on one report, or `None` without a series or too few points.
    pub fn eval(&self, report: &Value) -> Option<f64> {
        let v = self.values(report)?;
        let n = v.len() as f64;
        match self.agg {
            SeriesAgg::Min => v.iter().copied().reduce(f64::min),
            SeriesAgg::Max => v.iter().copied().reduce(f64::max),
            SeriesAgg::Mean => (!v.is_empty()).then(|| v.iter().sum::<f64>() / n),
            SeriesAgg::Cv => {
                if v.len() < 2 {
                    return None;
                }
                let mean = v.iter().sum::<f64>() / n;
                if mean <= 0.0 {
                    return None;
                }
                let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
                Some(var.sqrt() / mean)
            }
        }
    }
}
