//! Where the shared sample traces are: the real block-I/O traces the reproductions, examples,
//! benchmarks and tests replay, kept beside the repository (`../shared/traces`), never in it.

use std::path::{Path, PathBuf};

/// The shared traces' directory: `SSDGC_TRACES`, else `shared/traces` beside the current directory
/// or any of its ancestors (`../shared/traces` from the repository), else beside the source tree.
pub fn shared_traces_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("SSDGC_TRACES") {
        return Some(PathBuf::from(d));
    }
    if let Ok(cwd) = std::env::current_dir() {
        for a in cwd.ancestors() {
            let d = a.join("shared").join("traces");
            if d.is_dir() {
                return Some(d);
            }
        }
    }
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/traces");
    d.is_dir().then_some(d)
}

/// A shared trace by file name, or a clear error.
pub fn shared_trace(name: &str) -> Result<PathBuf, String> {
    let dir = shared_traces_dir().ok_or_else(|| {
        format!(
            "trace {name}: shared traces directory not found (looked for shared/traces beside the \
             current directory and its parents; set SSDGC_TRACES)"
        )
    })?;
    let p = dir.join(name);
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("trace {name}: not found in {}", dir.display()))
    }
}
