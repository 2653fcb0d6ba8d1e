//! GC jobs of the AGC/DGC family by kind — Jung, Prabhakar, Kandemir, "Taking Garbage Collection
//! Overheads off the Critical Path in SSDs", Middleware 2012 (`agc-dgc-idle-time-gc.txt`), §5 and
//! Fig. 15(a): which kind each die's job in progress is (on-demand, look-ahead, proactive,
//! retroactive), whether it was interrupted at a checkpoint (incremental GC, §5.1), and the counts
//! by kind; plus GC's cost estimate of eq. 2, with which look-ahead GC weighs a job against the
//! idle time at hand.
//!
//! Decisions are the triggers' ([`super::agc`], [`super::dgc`], [`super::agc_dgc`]); this module
//! only keeps their books.

use crate::config::Config;
use crate::flash::Timing;
use crate::gc::compose::Axes;
use crate::gc::scheme::{Action, DieContext};
use crate::gc::GcJob;
use crate::units::SimTime;

/// The kind of a GC job (AGC/DGC paper Fig. 15(a)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A host write waits for it (the GC AGC and DGC try to take off the critical path).
    OnDemand,
    /// AGC: the GC a previewed write would trigger, done ahead in a short idle period.
    LookAhead,
    /// AGC: compaction of full blocks in a long idle period.
    Proactive,
    /// DGC: a deferred GC done in an idle period.
    Retroactive,
}

/// Counters of the AGC/DGC family, per drive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdleGcStats {
    /// Jobs a host write waited for.
    pub on_demand: u64,
    /// Jobs started by look-ahead GC.
    pub look_ahead: u64,
    /// Jobs started by proactive block compaction.
    pub proactive: u64,
    /// Jobs started by retroactive block compaction.
    pub retroactive: u64,
    /// Delay blocks taken: host writes whose GC was due and that opened a fresh block instead of
    /// waiting (update block replacement, §5.2), each a deferred GC.
    pub delayed: u64,
    /// On-demand jobs run because the plane's delay reserve was used up.
    pub fallbacks: u64,
    /// Interrupted jobs taken up again in a later idle period (incremental GC, §5.1).
    pub resumed: u64,
    /// Jobs weighed by look-ahead GC and given up because eq. 2's estimate did not fit the idle
    /// time before the previewed command.
    pub unfit: u64,
}

/// The bookkeeping of one trigger of the family: per die the kind of its job in progress and
/// whether a host request interrupted it; `owed` per die as the on-demand trigger keeps it
/// (`gc.collect = "one"`).
#[derive(Clone, Debug, Default)]
pub struct Books {
    kind: Vec<Kind>,
    paused: Vec<bool>,
    owed: Vec<bool>,
    /// Per die: an idle-time victim would have gained nothing; no idle-time GC until the die
    /// serves a host write.
    quiet: Vec<bool>,
    /// Host transactions served while a job of their die was in progress.
    pub preemptions: u64,
    /// Counts by kind.
    pub stats: IdleGcStats,
}

impl Books {
    /// Sizes the per-die state for die `die`.
    #[inline]
    pub fn reach(&mut self, die: usize) {
        if self.kind.len() <= die {
            self.kind.resize(die + 1, Kind::OnDemand);
            self.paused.resize(die + 1, false);
            self.owed.resize(die + 1, false);
            self.quiet.resize(die + 1, false);
        }
    }

    /// True when die `die` starts no idle-time GC until it serves a host write.
    pub fn is_quiet(&self, die: usize) -> bool {
        self.quiet.get(die).copied().unwrap_or(false)
    }

    /// Die `die` found only victims that gain nothing: no idle-time GC until a host write.
    pub fn hush(&mut self, die: usize) {
        self.reach(die);
        self.quiet[die] = true;
    }

    /// Die `die` serves a host write: idle-time GC may gain again.
    pub fn wrote(&mut self, die: usize) {
        self.reach(die);
        self.quiet[die] = false;
    }

    /// Job `j` of die `die` started as a `kind` job: counts it.
    pub fn started(&mut self, die: usize, kind: Kind) {
        self.reach(die);
        self.kind[die] = kind;
        self.paused[die] = false;
        let s = &mut self.stats;
        match kind {
            Kind::OnDemand => s.on_demand += 1,
            Kind::LookAhead => s.look_ahead += 1,
            Kind::Proactive => s.proactive += 1,
            Kind::Retroactive => s.retroactive += 1,
        }
    }

    /// The kind of die `die`'s job in progress.
    pub fn kind(&self, die: usize) -> Kind {
        self.kind.get(die).copied().unwrap_or(Kind::OnDemand)
    }

    /// A host request goes before die `die`'s job in progress (a checkpoint with a request).
    pub fn pause(&mut self, die: usize) {
        self.reach(die);
        self.paused[die] = true;
    }

    /// Die `die` goes on with its job in progress in idle time: counted once per interruption.
    pub fn resume(&mut self, die: usize) {
        self.reach(die);
        if std::mem::take(&mut self.paused[die]) {
            self.stats.resumed += 1;
        }
    }

    /// Takes die `die`'s owed write: true when an on-demand job of `gc.collect = "one"` has run
    /// for the write at the head of its queue, which then goes first (unless its plane is down to
    /// its reserve). Consumed at the die's next decision with a queued request, as the on-demand
    /// trigger does.
    pub fn take_owed(&mut self, die: usize) -> bool {
        self.reach(die);
        std::mem::take(&mut self.owed[die])
    }

    /// On-demand collection for the write at the head of the die's queue to `plane`: the job in
    /// progress runs to its erase, else a new job in `plane` runs held (`one`: the write goes
    /// after it, `gc.collect = "one"`; `fallback`: DGC's reserve is used up, counted). `None` when
    /// the plane has no candidate.
    pub fn on_demand(
        &mut self,
        cx: &mut DieContext<'_>,
        gc: &mut Axes,
        plane: u32,
        one: bool,
        fallback: bool,
    ) -> Option<Action> {
        let die = cx.die as usize;
        self.reach(die);
        if !cx.jobs().is_empty() {
            self.paused[die] = false;
            return Some(Action::GcJob(0));
        }
        let j = gc.start(cx, plane)?;
        self.started(die, Kind::OnDemand);
        if fallback {
            self.stats.fallbacks += 1;
        }
        self.owed[die] = one;
        Some(Action::GcJob(j))
    }

    /// The counters as the scheme reports them.
    pub fn scheme_stats(&self) -> crate::gc::scheme::SchemeStats {
        crate::gc::scheme::SchemeStats {
            preemptions: self.preemptions,
            ..Default::default()
        }
    }
}

/// GC's latency estimate of eq. 2 (§5.1): `(t_load + t_write) × n_valid + (t_erase + t'_write) ×
/// κ`, with ssdgc's operation times: a page move (`t_load + t_write`: a copyback move, or a read
/// out and write back over the channel without copyback), an erase, and `t'_write`, the metadata
/// write after an erase, as one page program (the paper: "approximately the same"); κ is the
/// number of victim blocks. ssdgc does not program that metadata page; the estimate counts it, as
/// the paper's does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eq2 {
    /// One page move, ns.
    pub t_move: SimTime,
    /// One erase and its metadata write, ns.
    pub t_block: SimTime,
}

impl Eq2 {
    /// The estimate's terms for the drive of `cfg`.
    pub fn new(cfg: &Config) -> Eq2 {
        let t = Timing::new(cfg);
        let copyback = cfg.gc.copyback && cfg.gc.copyback_ecc == crate::config::CopybackEcc::None;
        let t_move = if copyback {
            2 * t.command + t.read + t.program
        } else {
            2 * t.command + t.read + 2 * t.transfer + t.program
        };
        Eq2 {
            t_move,
            t_block: t.command + t.erase + t.program,
        }
    }

    /// The estimated time of `job`, from the valid pages its victims held when chosen (a merge:
    /// the pages it copies) and the blocks it erases.
    pub fn of(&self, job: &GcJob) -> SimTime {
        self.estimate(job.valid_at_pick, job.victims())
    }

    /// The estimated time of a GC that moves `pages` pages and erases `blocks` blocks.
    pub fn estimate(&self, pages: u32, blocks: u32) -> SimTime {
        self.t_move * pages as SimTime + self.t_block * blocks as SimTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq2_counts_moves_and_blocks() {
        let cfg = Config::preset("agc-64g").unwrap();
        let e = Eq2::new(&cfg);
        // Copyback: read 183.2 us + program 860.36 us (no command time in the preset).
        assert_eq!(e.t_move, 183_200 + 860_360);
        assert_eq!(e.t_block, 2_000_000 + 860_360);
        let mut books = Books::default();
        books.started(3, Kind::LookAhead);
        assert_eq!(books.kind(3), Kind::LookAhead);
        books.pause(3);
        books.resume(3);
        books.resume(3);
        assert_eq!(books.stats.resumed, 1, "one interruption, one resumption");
        assert_eq!(books.stats.look_ahead, 1);
    }
}
