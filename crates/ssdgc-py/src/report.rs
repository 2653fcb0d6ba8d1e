//! `NativeReport`: one run's report, as the core made it, and the configuration it ran.

use pyo3::prelude::*;
use ssdgc_core::Report;

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
