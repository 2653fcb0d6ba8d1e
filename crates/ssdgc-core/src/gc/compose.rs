//! One GC scheme built from its axes: the trigger decides, the other axes shape its decisions.
//!
//! [`Composed`] is the [`GcScheme`] the drive's per-die scheduler asks. Before the trigger it lets
//! the planes axis commit DRAM-buffered GC pages (TC-PaGC); the trigger ([`Trigger::next`]) then
//! chooses the action, starting jobs through [`Axes::start`] (the planes axis) and running them
//! through [`Axes::run`] (held, or one operation at a time, by the preemption axis). Suspension and
//! point A are answered from the preemption axis with the trigger's rule of who may preempt.

use super::migration::{InPlane, Migration};
use super::planes::pagc::{Join, Pagc};
use super::planes::{PlaneMode, Planes};
use super::preempt::{merge, PreemptMode, Preemption};
use super::scheme::{Action, DieContext, GcScheme, Interrupt, SchemeStats};
use super::schemes::GcAxes;
use super::when::agc::Agc;
use super::when::agc_dgc::AgcDgc;
use super::when::dgc::Dgc;
use super::when::idle::Idle;
use super::when::ncq::Ncq;
use super::when::on_demand::OnDemand;
use super::when::states::States;
use super::when::{Trigger, When};
use super::GcOp;
use crate::config::Config;

/// The axes a trigger works with.
#[derive(Clone, Debug)]
pub struct Axes {
    /// Preemption and its capabilities.
    pub preempt: Preemption,
    /// Which planes collect together.
    pub planes: PlaneMode,
    /// How pages move.
    pub migration: Migration,
    /// How a job of one plane is planned (parallel migration, IPPBE, copyback parity), when it is.
    pub inplane: Option<InPlane>,
}

impl Axes {
    /// Starts a job for `plane` (and the planes that join it, by the planes axis; or a planned
    /// job of the plane, by the migration axis and its settings); returns its index on the die.
    pub fn start(&mut self, cx: &mut DieContext<'_>, plane: u32) -> Option<usize> {
        match self.inplane {
            Some(how) => cx.start_planned_job(plane, how),
            None => self.planes.start(cx, plane),
        }
    }

    /// Runs job `j`: held to its erase, or its next operation only (a preemption point after it).
    pub fn run(&self, j: usize) -> Action {
        match self.preempt.mode {
            PreemptMode::None => Action::GcJob(j),
            PreemptMode::Ops => Action::Gc(j),
        }
    }

    /// Queued read `txn` merged into job `job`, when merging is on and applies.
    pub fn merge(&self, cx: &DieContext<'_>, txn: usize, job: usize) -> Option<Action> {
        merge::action(self.preempt.merge, cx, txn, job)
    }
}

/// The trigger of a composed scheme, one variant per value of the *when* axis: the scheduler asks
/// it at every decision of every die, so it is dispatched by `match` (inlined), not through a
/// trait object.
#[derive(Clone, Debug)]
enum AnyTrigger {
    OnDemand(OnDemand),
    Idle(Idle),
    States(States),
    Ncq(Ncq),
    Agc(Box<Agc>),
    Dgc(Box<Dgc>),
    AgcDgc(Box<AgcDgc>),
}

/// Runs `$body` with `$t` bound to the trigger behind `$self`.
macro_rules! with_trigger {
    ($self:expr, $t:ident => $body:expr) => {
        match $self {
            AnyTrigger::OnDemand($t) => $body,
            AnyTrigger::Idle($t) => $body,
            AnyTrigger::States($t) => $body,
            AnyTrigger::Ncq($t) => $body,
            AnyTrigger::Agc($t) => $body,
            AnyTrigger::Dgc($t) => $body,
            AnyTrigger::AgcDgc($t) => $body,
        }
    };
}

impl Trigger for AnyTrigger {
    #[inline(always)]
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action {
        with_trigger!(self, t => t.next(cx, gc))
    }

    #[inline(always)]
    fn quick_next(
        &self,
        die: u32,
        head: Option<&super::scheme::QueuedTxn>,
        ftl: &crate::ftl::Ftl,
    ) -> Option<Action> {
        with_trigger!(self, t => t.quick_next(die, head, ftl))
    }

    #[inline]
    fn may_preempt(&self, cx: &DieContext<'_>, t: &super::scheme::QueuedTxn) -> bool {
        with_trigger!(self, tr => tr.may_preempt(cx, t))
    }

    fn stats(&self) -> SchemeStats {
        with_trigger!(self, t => t.stats())
    }

    fn idle_gc(&self) -> super::when::jobs::IdleGcStats {
        with_trigger!(self, t => t.idle_gc())
    }
}

/// A GC scheme made of a trigger and the other axes.
pub struct Composed {
    trigger: AnyTrigger,
    axes: Axes,
}

impl Composed {
    /// The scheme of `axes` for the drive of `cfg` (thresholds and sizes from `cfg`).
    pub fn new(axes: GcAxes, cfg: &Config) -> Composed {
        let g = &cfg.geometry;
        let trigger = match axes.when {
            When::OnDemand => AnyTrigger::OnDemand(OnDemand::new(axes.collect)),
            When::Idle => AnyTrigger::Idle(Idle::new(
                cfg.idle_threshold(),
                g.pages_per_block,
                axes.collect,
            )),
            When::States => {
                let (soft, hard) = cfg.pgc_threshold_blocks();
                AnyTrigger::States(States::new(soft, hard, g.pages_per_block))
            }
            When::Ncq => AnyTrigger::Ncq(Ncq::new(
                cfg.idle_threshold(),
                cfg.gc.ncq_busy,
                cfg.gc.ncq_min_gain,
                g.pages_per_block,
                cfg.gc_threshold_blocks(),
            )),
            When::Agc => AnyTrigger::Agc(Box::new(Agc::new(cfg, axes.collect))),
            When::Dgc => AnyTrigger::Dgc(Box::new(Dgc::new(cfg))),
            When::AgcDgc => AnyTrigger::AgcDgc(Box::new(AgcDgc::new(cfg))),
        };
        let join = match axes.planes {
            Planes::Serial | Planes::Superblock => None,
            Planes::PagcBlind => Some(Join::Blind),
            Planes::PagcThreshold => Some(Join::Threshold),
            Planes::PagcCache => Some(Join::Cache),
        };
        let planes = match join {
            None => PlaneMode::Serial,
            Some(j) => PlaneMode::Pagc(Pagc::new(
                j,
                cfg.pagc_threshold(),
                g.planes_per_die,
                g.pages_per_block,
            )),
        };
        let inplane = InPlane::new(
            axes.migration,
            cfg.gc.workers,
            g.registers_per_plane,
            cfg.gc.erase_blocks,
            cfg.gc.copyback_parity,
        );
        Composed {
            trigger,
            axes: Axes {
                preempt: axes.preempt,
                planes,
                migration: axes.migration,
                inplane,
            },
        }
    }
}

impl GcScheme for Composed {
    #[inline(always)]
    fn next(&mut self, cx: &mut DieContext<'_>) -> Action {
        if cx.jobs().is_empty() && self.axes.planes.wants_flush(cx) {
            return Action::Flush;
        }
        self.trigger.next(cx, &mut self.axes)
    }

    /// The trigger's shortcut, where no planes axis may flush first (serial GC).
    #[inline(always)]
    fn quick_next(
        &self,
        die: u32,
        head: Option<&super::scheme::QueuedTxn>,
        ftl: &crate::ftl::Ftl,
    ) -> Option<Action> {
        if !matches!(self.axes.planes, PlaneMode::Serial) {
            return None;
        }
        self.trigger.quick_next(die, head, ftl)
    }

    fn pipelined(&self) -> bool {
        self.axes.preempt.pipeline
    }

    fn previews(&self) -> bool {
        matches!(self.trigger, AnyTrigger::Ncq(_))
    }

    fn looks_ahead(&self) -> bool {
        matches!(self.trigger, AnyTrigger::Agc(_) | AnyTrigger::AgcDgc(_))
    }

    fn interrupts(&mut self, cx: &DieContext<'_>, op: &GcOp) -> Option<Interrupt> {
        let may = |t: &super::scheme::QueuedTxn| self.trigger.may_preempt(cx, t);
        if !cx.queue().iter().any(may) {
            return None;
        }
        self.axes
            .preempt
            .suspend
            .applies(op)
            .then_some(Interrupt::Suspend)
    }

    fn stats(&self) -> SchemeStats {
        self.trigger.stats()
    }

    fn idle_gc(&self) -> super::when::jobs::IdleGcStats {
        self.trigger.idle_gc()
    }
}
