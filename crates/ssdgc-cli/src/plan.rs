//! What a command runs: its points (the grid of the varied settings' values, `--gc` being one of
//! them) and, per point, its seeds.

use ssdgc_core::Config;

use crate::args::Common;
use crate::setup::{build_config, Overrides};
use crate::UserError;

/// Most runs (points × seeds) one command may ask for.
pub const MAX_RUNS: usize = 10_000;

/// A varied setting and its values.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// As written: `gc`, `victim`, `preset`, `precondition` or `section.key`.
    pub key: String,
    pub values: Vec<String>,
}

/// One point of the grid: a value of every axis.
#[derive(Clone, Debug)]
pub struct Point {
    /// How tables and files name it: the value (one axis) or `key=value …` (several).
    pub label: String,
    pub overrides: Overrides,
    pub cfg: Config,
}

/// Splits `V1,V2,...` into trimmed, non-empty values.
fn values(key: &str, list: &[String]) -> Result<Vec<String>, UserError> {
    let vals: Vec<String> = list
        .iter()
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().to_string())
        .collect();
    if vals.is_empty() || vals.iter().any(String::is_empty) {
        return Err(UserError(format!(
            "--vary {key}: a value is empty (write {key}=V1,V2,...)"
        )));
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(d) = vals.iter().find(|v| !seen.insert(v.as_str())) {
        return Err(UserError(format!(
            "--vary {key}: value '{d}' is given twice"
        )));
    }
    Ok(vals)
}

/// The axes of a command: `--gc A,B` (when it names more than one scheme) then every `--vary`, in
/// the order given.
pub fn axes(gc: &[String], vary: &[String]) -> Result<Vec<Axis>, UserError> {
    let mut axes = Vec::new();
    if !gc.is_empty() {
        let v = values("gc", gc)?;
        axes.push(Axis {
            key: "gc".into(),
            values: v,
        });
    }
    for spec in vary {
        let (key, list) = spec.split_once('=').ok_or_else(|| {
            UserError(format!(
                "--vary {spec}: expected KEY=V1,V2,... (e.g. victim=greedy,fifo)"
            ))
        })?;
        let key = key.trim().to_string();
        let canonical = match key.as_str() {
            "gc" | "gc.scheme" | "scheme" => "gc",
            "victim" | "gc.victim" => "victim",
            "preset" => "preset",
            "precondition" => "precondition",
            k if k.contains('.') => k,
            k => {
                return Err(UserError(format!(
                    "--vary {k}: not a setting: use gc, victim, preset, precondition or section.key (e.g. gc.threshold)"
                )))
            }
        };
        if let Some(a) = axes.iter().find(|a: &&Axis| a.key == canonical) {
            return Err(UserError(format!(
                "--vary {key}: {} is already varied",
                a.key
            )));
        }
        axes.push(Axis {
            key: canonical.to_string(),
            values: values(&key, &[list.to_string()])?,
        });
    }
    Ok(axes)
}

/// The points of the grid of `axes` (the first axis changing slowest), each configured; with no
/// axis, the one point of the command's own settings (`gc` the scheme of `run --gc`).
pub fn points(c: &Common, gc: Option<&str>, axes: &[Axis]) -> Result<Vec<Point>, UserError> {
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for a in axes {
        combos = combos
            .into_iter()
            .flat_map(|prefix| {
                a.values.iter().map(move |v| {
                    let mut p = prefix.clone();
                    p.push((a.key.clone(), v.clone()));
                    p
                })
            })
            .collect();
        if combos.len() > MAX_RUNS {
            return Err(UserError(format!(
                "--vary: the grid has more than {MAX_RUNS} points"
            )));
        }
    }
    combos
        .into_iter()
        .map(|settings| {
            let mut o = Overrides {
                gc: gc.map(str::to_string),
                ..Overrides::default()
            };
            for (k, v) in &settings {
                match k.as_str() {
                    "gc" => o.gc = Some(v.clone()),
                    "victim" => o.victim = Some(v.clone()),
                    "preset" => o.preset = Some(v.clone()),
                    "precondition" => o.precondition = Some(v.clone()),
                    _ => o.sets.push(format!("{k}={v}")),
                }
            }
            let cfg = build_config(c, &o).map_err(|e| {
                if settings.is_empty() {
                    e
                } else {
                    UserError(format!("{}: {}", label(&settings), e.0))
                }
            })?;
            Ok(Point {
                label: if settings.is_empty() {
                    cfg.gc.scheme.clone()
                } else {
                    label(&settings)
                },
                overrides: o,
                cfg,
            })
        })
        .collect()
}

/// `value` for one axis, `key=value key=value …` for several.
fn label(settings: &[(String, String)]) -> String {
    match settings {
        [(_, v)] => v.clone(),
        _ => settings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn gc_and_vary_make_a_grid_in_the_order_given() {
        let a = axes(
            &s(&["baseline", " zero"]),
            &s(&["victim=greedy, fifo,rga:8", "gc.threshold=0.05,0.1"]),
        )
        .unwrap();
        assert_eq!(a.len(), 3);
        assert_eq!(a[0].values, ["baseline", "zero"]);
        assert_eq!(a[1].key, "victim");
        assert_eq!(a[1].values, ["greedy", "fifo", "rga:8"]);
        assert_eq!(a[2].key, "gc.threshold");
        assert_eq!(label(&[("gc".into(), "zero".into())]), "zero");
        assert_eq!(
            label(&[
                ("gc".into(), "zero".into()),
                ("victim".into(), "fifo".into())
            ]),
            "gc=zero victim=fifo"
        );
    }

    #[test]
    fn bad_axes_are_one_line_errors() {
        for (gc, vary, want) in [
            (&[][..], &["victim"][..], "expected KEY=V1,V2"),
            (&[], &["victim=a,,b"], "a value is empty"),
            (&[], &["victim=fifo,fifo"], "given twice"),
            (&[], &["threshold=0.1"], "not a setting"),
            (&["baseline"][..], &["gc.scheme=zero"][..], "already varied"),
            (&[], &["victim=fifo", "gc.victim=greedy"], "already varied"),
        ] {
            let e = axes(&s(gc), &s(vary)).unwrap_err();
            assert!(e.0.contains(want), "{gc:?} {vary:?}: {}", e.0);
        }
    }
}
