//! `ssdgc._native`: the Python bindings of ssdgc, a thin layer over `ssdgc-core`.
//!
//! Every run is set up by `ssdgc_core::setup`, as the `ssdgc` command sets up its runs, so the
//! Python package applies settings in the same order and fails with the same one-line messages.
//! One exception type crosses the boundary ([`SsdgcError`], a `ValueError`); a simulation runs
//! with the interpreter released (`Python::detach`), so runs in several Python threads proceed
//! in parallel. The Python package (`python/ssdgc/`) wraps these functions with docstrings,
//! pandas frames, plots, the HTML report and sweeps; `python/ssdgc/_native.pyi` mirrors this
//! module's interface.

use pyo3::prelude::*;

mod config;
mod report;
mod run;

pyo3::create_exception!(
    _native,
    SsdgcError,
    pyo3::exceptions::PyValueError,
    "A bad setting, workload or run: the message is the one line the ssdgc command prints."
);

/// An error with ssdgc's one-line message.
pub(crate) fn error(msg: impl Into<String>) -> PyErr {
    SsdgcError::new_err(msg.into())
}

/// `(name, description)` of every drive preset.
#[pyfunction]
fn presets() -> Vec<(String, String)> {
    ssdgc_core::config::presets()
        .map(|(n, d)| (n.to_string(), d.to_string()))
        .collect()
}

/// `(name, description, axes)` of every named GC scheme.
#[pyfunction]
fn schemes() -> Vec<(String, String, String)> {
    ssdgc_core::gc::schemes::PRESETS
        .iter()
        .map(|(n, d, axes)| (n.to_string(), d.to_string(), axes.to_string()))
        .collect()
}

/// `(name, description)` of every victim policy.
#[pyfunction]
fn victims() -> Vec<(String, String)> {
    ssdgc_core::gc::victim::list()
        .into_iter()
        .map(|(n, d)| (n, d.to_string()))
        .collect()
}

/// `(name, description)` of every trace format.
#[pyfunction]
fn formats() -> Vec<(String, String)> {
    ssdgc_workload::formats()
        .iter()
        .map(|(n, d)| (n.to_string(), d.to_string()))
        .collect()
}

/// The headline figures, `(key, label, path, divisor)` in table order: each is the number at
/// `path` in a report's JSON object divided by `divisor` (`ssdgc compare`'s rows).
#[pyfunction]
fn headline_figures() -> Vec<(&'static str, &'static str, Vec<&'static str>, f64)> {
    ssdgc_core::metrics::headline::HEADLINE
        .iter()
        .map(|f| (f.key, f.label, f.path.to_vec(), f.divisor))
        .collect()
}

/// A TOML document as JSON text (sweep specs); errors are one line, `SOURCE:LINE: message`.
#[pyfunction]
fn toml_to_json(text: &str, source: &str) -> PyResult<String> {
    let value: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e
            .span()
            .map(|s| text[..s.start].lines().count().max(1))
            .map_or(String::new(), |l| format!(":{l}"));
        let msg: Vec<&str> = e
            .message()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        error(format!("{source}{line}: {}", msg.join(": ")))
    })?;
    serde_json::to_string(&value).map_err(|e| error(format!("{source}: {e}")))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SsdgcError", m.py().get_type::<SsdgcError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "REPORT_SCHEMA",
        ssdgc_core::metrics::report::SCHEMA.to_string(),
    )?;
    m.add(
        "COMPARE_SCHEMA",
        ssdgc_core::metrics::report::COMPARE_SCHEMA.to_string(),
    )?;
    m.add(
        "DEFAULT_WORKLOAD",
        ssdgc_core::host::Workload::DEFAULT_SPEC.to_string(),
    )?;
    m.add_class::<config::Config>()?;
    m.add_class::<report::NativeReport>()?;
    m.add_function(wrap_pyfunction!(config::config_from_layers, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(run::resolve, m)?)?;
    m.add_function(wrap_pyfunction!(toml_to_json, m)?)?;
    m.add_function(wrap_pyfunction!(run::compare, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(schemes, m)?)?;
    m.add_function(wrap_pyfunction!(victims, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(headline_figures, m)?)?;
    Ok(())
}
