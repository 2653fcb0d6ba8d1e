//! `NativeReport`: one run's report, as the core made it, and the configuration it ran.

use pyo3::prelude::*;
use ssdgc_core::metrics::LatencyClass;
use ssdgc_core::Report;

use crate::error;

/// One run's report (`ssdgc-report/2`) and the configuration it ran; `ssdgc.Report` wraps it.
#[pyclass(module = "ssdgc._native", frozen)]
pub struct NativeReport {
    report: Report,
    config: ssdgc_core::Config,
}

impl NativeReport {
    pub fn new(report: Report, config: ssdgc_core::Config) -> Self {
        NativeReport { report, config }
    }
}

#[pymethods]
impl NativeReport {
    /// The report as the JSON object `ssdgc run --json` prints (without its final newline).
    fn to_json(&self) -> String {
        self.report.to_json()
    }

    /// The headline figures, `(key, value)` in the order of `headline_figures()`.
    fn headline(&self) -> Vec<(&'static str, f64)> {
        self.report.headline()
    }

    /// The distribution of the response times of `kind` (`all`, `read`, `write`) as a CDF from
    /// the run's HDR histogram: response times in µs, and the share of requests at or below each
    /// (`Report::latency_cdf` of the core).
    fn latency_cdf(&self, kind: &str) -> PyResult<(Vec<f64>, Vec<f64>)> {
        let class = LatencyClass::ALL
            .into_iter()
            .find(|c| c.name() == kind)
            .ok_or_else(|| error(format!("kind '{kind}': use all, read or write")))?;
        let points = self.report.latency_cdf(class);
        Ok((
            points.iter().map(|p| p.value_us).collect(),
            points.iter().map(|p| p.share).collect(),
        ))
    }

    /// The effective configuration of the run as TOML (`--dump-config` of the same run).
    fn config_toml(&self) -> String {
        self.config.to_toml()
    }

    /// The GC scheme of the run.
    #[getter]
    fn scheme(&self) -> String {
        self.report.scheme.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "NativeReport(scheme={:?}, workload={:?}, requests={})",
            self.report.scheme, self.report.workload.name, self.report.requests.total
        )
    }
}
