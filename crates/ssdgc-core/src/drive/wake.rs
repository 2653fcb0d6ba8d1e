//! Wake-ups: a scheme asks to be called back at a time ([`DieContext::wake_at`]), for work that no
//! event would otherwise prompt — GC after the device has been idle for a while (AGC/DGC paper §4.1,
//! long idle periods), or the next step of an incremental GC (§5.1).
//!
//! A drive has one timer, kept by the event queue ([`EventQueue::set_timer`]): a new request
//! replaces the pending one (which then never fires), [`DieContext::cancel_wake`] removes it. When
//! it fires ([`crate::engine::Event::Wake`]) every free die of the drive decides with
//! [`DieContext::woken`] set; a busy die decides as usual when its operation ends. A wake-up runs
//! among the events of its instant in the order it was asked for, so runs stay reproducible.
//!
//! [`DieContext::wake_at`]: crate::gc::scheme::DieContext::wake_at
//! [`DieContext::cancel_wake`]: crate::gc::scheme::DieContext::cancel_wake
//! [`DieContext::woken`]: crate::gc::scheme::DieContext::woken

use super::{Drive, Running};
use crate::engine::EventQueue;
use crate::gc::scheme::Wake;
use crate::units::SimTime;

impl Drive {
    /// Carries out what the scheme asked of the drive's timer.
    #[inline(never)]
    pub(super) fn apply_wake(&mut self, ev: &mut EventQueue, w: Wake) {
        match w {
            Wake::At(t) => {
                let t = t.max(self.now);
                ev.set_timer(self.id, t);
                self.view.timer = Some(t);
            }
            Wake::Cancel => {
                ev.cancel_timer(self.id);
                self.view.timer = None;
            }
        }
    }

    /// The drive's wake-up fires at `now`: every free die decides, woken.
    pub fn on_wake(&mut self, ev: &mut EventQueue, now: SimTime) {
        self.now = now;
        self.view.timer = None;
        for d in 0..self.geo.dies {
            if matches!(self.dies[d as usize].running, Running::Nothing) {
                self.decide(ev, d, true);
            }
        }
    }

    /// When the drive's wake-up fires, if one is pending.
    pub fn wake_pending(&self) -> Option<SimTime> {
        self.view.timer
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use crate::ageing::Precondition;
    use crate::gc::scheme::{Action, Command, DieContext, GcScheme};
    use crate::host::{ReplayMode, Workload};
    use crate::units::SimTime;
    use crate::{ConfigBuilder, RunOptions, Simulator};
    use ssdgc_workload::{IoRecord, Op};

    const MS: SimTime = 1_000_000;

    /// One decision as the probe saw it.
    #[derive(Clone, Debug)]
    struct Seen {
        now: SimTime,
        woken: bool,
        commands: Vec<Command>,
    }

    type Plan = Box<dyn FnMut(&mut DieContext<'_>, usize) + Send>;

    /// A scheme with no GC that logs every decision and asks for wake-ups as `plan` says (given
    /// the decision's number).
    struct Probe {
        log: Arc<Mutex<Vec<Seen>>>,
        plan: Plan,
    }

    impl GcScheme for Probe {
        fn next(&mut self, cx: &mut DieContext<'_>) -> Action {
            let mut log = self.log.lock().unwrap();
            (self.plan)(cx, log.len());
            log.push(Seen {
                now: cx.now,
                woken: cx.woken,
                commands: cx.device_queue().commands(),
            });
            if cx.queue().is_empty() {
                Action::Idle
            } else {
                Action::Host(0)
            }
        }

        fn previews(&self) -> bool {
            true
        }
    }

    fn write(time_ns: u64, page: u64, pages: u64) -> IoRecord {
        IoRecord {
            time_ns,
            op: Op::Write,
            offset: page * 4096,
            len: pages * 4096,
        }
    }

    /// Runs `records` (open loop, queue depth `qd`) on a fresh `default` drive under a probe
    /// following `plan`; returns what the probe saw.
    fn run(records: Vec<IoRecord>, qd: u32, plan: Plan) -> Vec<Seen> {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set(&format!("host.queue_depth={qd}")).unwrap();
        let cfg = b.build().unwrap();
        let mut opts = RunOptions::from_config(&cfg, 1).unwrap();
        opts.precondition = Precondition::None;
        let wl = Workload::from_records(records, ReplayMode::OpenLoop, "probe");
        let mut sim = Simulator::new(&cfg, wl, opts).unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        sim.set_scheme(
            0,
            Box::new(Probe {
                log: log.clone(),
                plan,
            }),
        );
        sim.run().unwrap();
        let seen = log.lock().unwrap().clone();
        seen
    }

    #[test]
    fn a_wake_up_fires_at_the_time_asked_and_only_then() {
        // Requests at 0 and 10 ms; at its first decision the scheme asks for 5 ms.
        let seen = run(
            vec![write(0, 0, 1), write(10 * MS, 1, 1)],
            4,
            Box::new(|cx, n| {
                if n == 0 {
                    cx.wake_at(5 * MS);
                    assert_eq!(cx.wake_pending(), Some(5 * MS));
                }
            }),
        );
        let woken: Vec<SimTime> = seen.iter().filter(|s| s.woken).map(|s| s.now).collect();
        // Every free die decides once, woken, at 5 ms.
        assert!(!woken.is_empty());
        assert!(woken.iter().all(|&t| t == 5 * MS), "{woken:?}");
        assert!(seen.iter().any(|s| !s.woken && s.now == 10 * MS));
    }

    #[test]
    fn a_replaced_wake_up_does_not_fire_and_a_cancelled_one_neither() {
        // 5 ms is replaced by 7 ms; 8 ms is asked and then cancelled.
        let seen = run(
            vec![write(0, 0, 1), write(MS, 1, 1), write(10 * MS, 2, 1)],
            4,
            Box::new(|cx, _| {
                if cx.now == 0 && cx.wake_pending().is_none() {
                    cx.wake_at(5 * MS);
                } else if cx.now == MS && cx.wake_pending() == Some(5 * MS) {
                    cx.wake_at(7 * MS);
                } else if cx.woken {
                    cx.wake_at(8 * MS);
                    cx.cancel_wake();
                    assert_eq!(cx.wake_pending(), None);
                }
            }),
        );
        let woken: Vec<SimTime> = seen.iter().filter(|s| s.woken).map(|s| s.now).collect();
        assert!(!woken.is_empty());
        assert!(woken.iter().all(|&t| t == 7 * MS), "{woken:?}");
    }

    #[test]
    fn the_preview_shows_arrived_commands_only() {
        // Four requests 1 ms apart; the first covers pages 100..103. The queue is deep enough
        // to admit each on arrival.
        let records = vec![
            write(0, 100, 3),
            write(MS, 7, 1),
            write(2 * MS, 8, 1),
            write(3 * MS, 9, 1),
        ];
        let arrivals: Vec<SimTime> = records.iter().map(|r| r.time_ns).collect();
        let seen = run(records, 32, Box::new(|_, _| {}));
        for s in &seen {
            for c in &s.commands {
                assert!(c.arrival <= s.now, "{c:?} seen at {}", s.now);
                assert_eq!(c.arrival, arrivals[c.seq as usize]);
            }
            // Every request that has arrived and is not done is listed: at most those arrived.
            let arrived = arrivals.iter().filter(|&&a| a <= s.now).count();
            assert!(s.commands.len() <= arrived);
        }
        let first = seen.first().expect("a decision");
        assert_eq!(first.now, 0);
        assert_eq!(
            first.commands,
            vec![Command {
                write: true,
                first: 100,
                pages: 3,
                arrival: 0,
                seq: 0,
            }]
        );
        // The others are seen once they arrive.
        for (i, &a) in arrivals.iter().enumerate().skip(1) {
            assert!(seen
                .iter()
                .any(|s| s.now == a && s.commands.iter().any(|c| c.seq == i as u64)));
        }
    }
}
