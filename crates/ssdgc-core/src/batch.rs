//! Several runs at once: on every core, ageing each distinct drive once.
//!
//! A [`Job`] is one run: a way to build its [`Simulator`] (configuration, workload, options, any
//! sink) and the key of its ageing ([`AgeingKey`]: what preconditioning depends on). [`run`] groups
//! the jobs by key; a group of one runs as it would alone; in a larger group the first job ages its
//! drives, every other job of the group restores that aged state ([`Simulator::restore_aged`])
//! instead of ageing its own, and the group's runs go on in parallel. Groups run in parallel too
//! (rayon's pool: every core unless `RAYON_NUM_THREADS` says otherwise). Each report is exactly the
//! one its job would give run alone ([`crate::ageing::state`]), and the reports come back in the
//! jobs' order, whatever the scheduling.
//!
//! With a `preloaded` state (an aged drive read from a file) every job restores it, and a job whose
//! key differs fails naming the differing input.
//!
//! Memory: each running job holds its simulator, and each group in progress one aged state
//! (about 4 bytes per logical page and 17 per block) until its last run has started.

use rayon::prelude::*;

use crate::ageing::{AgedState, AgeingKey};
use crate::sim::{Progress, SimError, Simulator};
use crate::Report;

/// One run of a batch.
pub struct Job<'a> {
    /// What its ageing depends on: [`Job::key_of`] for a configuration and options.
    pub key: AgeingKey,
    /// Builds its simulator (called once, on the thread that runs it).
    pub build: Box<dyn Fn() -> Result<Simulator, SimError> + Send + Sync + 'a>,
    /// Hears the run's progress (preconditioning, then the run), if anyone listens.
    pub progress: Option<Box<dyn FnMut(Progress) + Send + 'a>>,
}

impl Job<'_> {
    /// The ageing key of a run of `cfg` with `opts` on `workload` (the drive as its GC scheme
    /// sees it).
    pub fn key_of(
        cfg: &crate::Config,
        opts: &crate::RunOptions,
        workload: &crate::host::Workload,
    ) -> Result<AgeingKey, SimError> {
        AgeingKey::new(
            &crate::gc::scheme::drive_for(cfg),
            opts.precondition,
            opts.seed,
            &workload.identity(),
        )
        .map_err(SimError::Config)
    }
}

/// Runs `jobs` (module documentation); the reports, or each job's error, in the jobs' order.
pub fn run(jobs: Vec<Job<'_>>, preloaded: Option<&AgedState>) -> Vec<Result<Report, SimError>> {
    let n = jobs.len();
    // Groups of equal keys, in the order of their first job.
    let mut groups: Vec<Vec<(usize, Job<'_>)>> = Vec::new();
    let mut index: std::collections::HashMap<AgeingKey, usize> = Default::default();
    for (i, job) in jobs.into_iter().enumerate() {
        match index.get(&job.key) {
            Some(&g) => groups[g].push((i, job)),
            None => {
                index.insert(job.key.clone(), groups.len());
                groups.push(vec![(i, job)]);
            }
        }
    }
    let done: Vec<Vec<(usize, Result<Report, SimError>)>> = groups
        .into_par_iter()
        .map(|group| run_group(group, preloaded))
        .collect();
    let mut out: Vec<Option<Result<Report, SimError>>> = (0..n).map(|_| None).collect();
    for (i, r) in done.into_iter().flatten() {
        out[i] = Some(r);
    }
    out.into_iter().map(|r| r.expect("every job ran")).collect()
}

/// Runs one job on a simulator already built (and perhaps aged).
fn finish(sim: Simulator, job: &mut Job<'_>) -> Result<Report, SimError> {
    match job.progress.as_mut() {
        Some(p) => sim.run_with_progress(&mut |x| p(x)),
        None => sim.run(),
    }
}

/// Builds a job's simulator with `state` installed, and runs it.
fn run_restored(job: &mut Job<'_>, state: &AgedState) -> Result<Report, SimError> {
    let mut sim = (job.build)()?;
    sim.restore_aged(state)?;
    finish(sim, job)
}

fn run_group(
    mut group: Vec<(usize, Job<'_>)>,
    preloaded: Option<&AgedState>,
) -> Vec<(usize, Result<Report, SimError>)> {
    if let Some(state) = preloaded {
        return group
            .into_par_iter()
            .map(|(i, mut job)| (i, run_restored(&mut job, state)))
            .collect();
    }
    if group.len() == 1 {
        let (i, mut job) = group.pop().expect("one job");
        let r = (job.build)().and_then(|sim| finish(sim, &mut job));
        return vec![(i, r)];
    }
    // The first job ages; the others restore its aged drive.
    let (first_i, mut first) = group.remove(0);
    let aged = (first.build)().and_then(|mut sim| {
        match first.progress.as_mut() {
            Some(p) => sim.precondition(&mut |x| p(x))?,
            None => sim.precondition(&mut |_| {})?,
        }
        let state = sim.aged_state().ok();
        Ok((sim, state))
    });
    let (sim, state) = match aged {
        Ok(x) => x,
        Err(e) => {
            // The first job's error is its own; the others run on their own.
            let mut out = vec![(first_i, Err(e))];
            let rest: Vec<_> = group
                .into_par_iter()
                .map(|(i, mut job)| (i, (job.build)().and_then(|sim| finish(sim, &mut job))))
                .collect();
            out.extend(rest);
            return out;
        }
    };
    let mut out = Vec::with_capacity(group.len() + 1);
    let (first_result, rest) = rayon::join(
        || finish(sim, &mut first),
        || {
            group
                .into_par_iter()
                .map(|(i, mut job)| {
                    let r = match &state {
                        Some(state) => run_restored(&mut job, state),
                        // A drive that cannot be kept (a mapping scheme without snapshots) ages
                        // for each run.
                        None => (job.build)().and_then(|sim| finish(sim, &mut job)),
                    };
                    (i, r)
                })
                .collect::<Vec<_>>()
        },
    );
    out.push((first_i, first_result));
    out.extend(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ageing::Precondition;
    use crate::host::Workload;
    use crate::{ConfigBuilder, RunOptions};

    fn job<'a>(sets: &'a [&'a str], seed: u64) -> Job<'a> {
        job_with(
            sets,
            seed,
            Precondition::Steady(1.0),
            "count=800,interarrival=exp:300us,read=0.3",
        )
    }

    fn job_with<'a>(sets: &'a [&'a str], seed: u64, how: Precondition, spec: &'a str) -> Job<'a> {
        let cfg = {
            let mut b = ConfigBuilder::preset("default").unwrap();
            for s in sets {
                b.set(s).unwrap();
            }
            b.build().unwrap()
        };
        let mut opts = RunOptions::from_config(&cfg, seed).unwrap();
        opts.precondition = how;
        let workload = move || Workload::synthetic(spec, 1 << 30, seed).unwrap();
        let key = Job::key_of(&cfg, &opts, &workload()).unwrap();
        Job {
            key,
            build: Box::new(move || Simulator::new(&cfg, workload(), opts.clone())),
            progress: None,
        }
    }

    /// Preconditioning with the workload itself makes the workload an ageing input: runs of one
    /// workload share their ageing, runs of another do not, and each report is the one it gives
    /// alone. Other preconditioning ignores the workload.
    #[test]
    fn trace_preconditioning_shares_only_between_runs_of_one_workload() {
        let small = "geometry.blocks_per_plane=64";
        let specs = [
            ("gc.scheme=\"baseline\"", "count=1500,read=0.3,size=8KiB"),
            ("gc.scheme=\"pgc\"", "count=1500,read=0.3,size=8KiB"),
            ("gc.scheme=\"baseline\"", "count=1500,read=0.3,size=16KiB"),
        ];
        let sets: Vec<[&str; 2]> = specs.iter().map(|(g, _)| [small, *g]).collect();
        let make = |how| -> Vec<Job> {
            sets.iter()
                .zip(&specs)
                .map(|(s, (_, w))| job_with(&s[..], 1, how, w))
                .collect()
        };
        let jobs = make(Precondition::Trace(0.5));
        assert_eq!(jobs[0].key, jobs[1].key);
        assert_ne!(jobs[0].key, jobs[2].key);
        assert!(jobs[2]
            .key
            .mismatch(&jobs[0].key)
            .unwrap()
            .contains("workload"));
        let steady = make(Precondition::Steady(0.5));
        assert_eq!(steady[0].key, steady[2].key);
        let batch: Vec<String> = run(jobs, None).into_iter().map(json).collect();
        let alone: Vec<String> = make(Precondition::Trace(0.5))
            .into_iter()
            .map(|j| json((j.build)().and_then(Simulator::run)))
            .collect();
        assert_eq!(batch, alone);
    }

    /// Each distinct drive is aged once: of three jobs sharing a key only one hears
    /// preconditioning progress (reported every 2^20 page writes, so the drive is large enough to
    /// report some), and the job of another key ages its own.
    #[test]
    fn a_group_ages_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let sets: &[&str] = &["geometry.blocks_per_plane=1024", "geometry.channels=4"];
        let heard: Vec<AtomicUsize> = (0..4).map(|_| AtomicUsize::new(0)).collect();
        let jobs: Vec<Job> = (0..4)
            .map(|i| {
                let mut j = job(sets, if i == 3 { 2 } else { 1 });
                let h = &heard[i];
                j.progress = Some(Box::new(move |p: Progress| {
                    if p.preconditioning {
                        h.fetch_add(1, Ordering::Relaxed);
                    }
                }));
                j
            })
            .collect();
        for r in run(jobs, None) {
            r.unwrap();
        }
        let n: Vec<usize> = heard.iter().map(|h| h.load(Ordering::Relaxed)).collect();
        assert_eq!(n[..3].iter().filter(|&&x| x > 0).count(), 1, "{n:?}");
        assert!(n[3] > 0, "{n:?}");
    }

    fn json(r: Result<Report, SimError>) -> String {
        let mut r = r.unwrap();
        r.sim.wall_s = 0.0;
        r.to_json()
    }

    #[test]
    fn a_batch_reports_what_each_job_reports_alone() {
        let sets: [&[&str]; 7] = [
            &["gc.scheme=\"baseline\""],
            &["gc.scheme=\"pgc\""],
            &["gc.scheme=\"zero\""],
            &["gc.victim=\"fifo\""],
            &["gc.scheme=\"superblock\""],
            &["ftl.mapping=\"lftl\""],
            &["ftl.mapping=\"lftl\"", "host.queue_depth=8"],
        ];
        let mut jobs: Vec<Job> = sets.iter().map(|s| job(s, 1)).collect();
        jobs.push(job(&[], 2));
        // Three share the default drive's ageing; fifo, the superblock and seed 2 age alone; the
        // two L-FTL runs share a key, but a log-block drive has no snapshot: each ages its own.
        assert_eq!(jobs[5].key, jobs[6].key);
        let batch: Vec<String> = run(jobs, None).into_iter().map(json).collect();
        let alone: Vec<String> = sets
            .iter()
            .map(|s| job(s, 1))
            .chain([job(&[], 2)])
            .map(|j| json((j.build)().and_then(|s| s.run())))
            .collect();
        assert_eq!(batch, alone);
    }
}
