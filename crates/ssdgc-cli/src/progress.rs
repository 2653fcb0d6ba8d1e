//! The progress bar: one per run, on a terminal only, shown once the run has taken a second.
//!
//! [`View`] decides what a bar shows from the simulator's progress reports and the time elapsed
//! (pure, tested); [`Bar`] draws it with indicatif. Nothing is drawn before [`SHOW_AFTER`]: the bar
//! joins the terminal display only then, with its first frame complete. Preconditioning counts page
//! writes out of their total; the run counts requests out of the workload's count when it is known
//! (synthetic workloads), and without a total otherwise (traces).

use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use ssdgc_core::sim::Progress;

/// Runs shorter than this draw nothing.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

/// What a bar shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The total, when known.
    pub length: Option<u64>,
    pub position: u64,
    pub message: String,
}

/// The state of one run's bar.
#[derive(Debug)]
pub struct View {
    label: String,
    last: Option<Frame>,
}

impl View {
    pub fn new(label: &str) -> View {
        View {
            label: label.to_string(),
            last: None,
        }
    }

    /// The frame to draw for progress `p` after `elapsed`: `None` while the run is younger than
    /// [`SHOW_AFTER`] or nothing changed.
    pub fn update(&mut self, p: &Progress, elapsed: Duration) -> Option<Frame> {
        if elapsed < SHOW_AFTER {
            return None;
        }
        let frame = if p.preconditioning {
            Frame {
                length: p.expected,
                position: p.completed,
                message: format!("{}: preconditioning (page writes)", self.label),
            }
        } else {
            Frame {
                length: p.expected,
                position: p.completed,
                message: format!(
                    "{}: {:.2} s simulated (requests)",
                    self.label,
                    p.now as f64 / 1e9
                ),
            }
        };
        if self.last.as_ref() == Some(&frame) {
            return None;
        }
        self.last = Some(frame.clone());
        Some(frame)
    }
}

/// A run's bar on the terminal (or nothing when progress is not shown).
pub struct Bar {
    multi: Option<MultiProgress>,
    view: View,
    started: Instant,
    bar: Option<ProgressBar>,
    known: Option<bool>,
}

impl Bar {
    /// A bar for the run `label`, drawn into `multi` (`None`: never drawn).
    pub fn new(multi: Option<&MultiProgress>, label: &str) -> Bar {
        Bar {
            multi: multi.cloned(),
            view: View::new(label),
            started: Instant::now(),
            bar: None,
            known: None,
        }
    }

    /// Progress `p` of the run.
    pub fn update(&mut self, p: Progress) {
        let Some(multi) = &self.multi else {
            return;
        };
        let Some(f) = self.view.update(&p, self.started.elapsed()) else {
            return;
        };
        let known = f.length.is_some();
        let bar = self.bar.get_or_insert_with(|| {
            ProgressBar::with_draw_target(f.length, ProgressDrawTarget::hidden())
        });
        if self.known != Some(known) {
            let template = if known {
                "{bar:30} {pos}/{len} · {msg} · {elapsed}"
            } else {
                "{spinner} {pos} · {msg} · {elapsed}"
            };
            bar.set_style(
                ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
        }
        match f.length {
            Some(n) => bar.set_length(n),
            None => bar.unset_length(),
        }
        bar.set_position(f.position);
        bar.set_message(f.message);
        if self.known.is_none() {
            // First frame: complete before it joins the display.
            *bar = multi.add(bar.clone());
        }
        self.known = Some(known);
    }

    /// The run ended: the bar goes away (as it does when dropped).
    pub fn finish(self) {}
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(pre: bool, completed: u64, expected: Option<u64>, now: u64) -> Progress {
        Progress {
            preconditioning: pre,
            completed,
            expected,
            now,
        }
    }

    #[test]
    fn nothing_is_drawn_in_the_first_second() {
        let mut v = View::new("baseline");
        for ms in [0, 100, 500, 999] {
            let e = Duration::from_millis(ms);
            assert_eq!(v.update(&p(true, 1 << 20, Some(1 << 24), 0), e), None);
            assert_eq!(v.update(&p(false, 500, None, 1_000), e), None);
        }
    }

    #[test]
    fn the_first_frame_has_its_message_and_the_run_drops_the_preconditioning_total() {
        let mut v = View::new("pgc");
        let f = v
            .update(&p(true, 1 << 20, Some(18_874_368), 0), SHOW_AFTER)
            .unwrap();
        assert_eq!(f.length, Some(18_874_368));
        assert_eq!(f.message, "pgc: preconditioning (page writes)");
        // A trace: the count of requests is not known.
        let f = v
            .update(
                &p(false, 80_794, None, 2_500_000_000),
                Duration::from_secs(2),
            )
            .unwrap();
        assert_eq!(f.length, None, "the preconditioning total must not stay");
        assert_eq!(f.position, 80_794);
        assert_eq!(f.message, "pgc: 2.50 s simulated (requests)");
        // A synthetic workload: the count is known.
        let mut v = View::new("x");
        let f = v
            .update(&p(false, 10, Some(200_000), 1), SHOW_AFTER)
            .unwrap();
        assert_eq!((f.length, f.position), (Some(200_000), 10));
        assert_eq!(v.update(&p(false, 10, Some(200_000), 1), SHOW_AFTER), None);
    }
}
