//! Every paper file parses, every experiment's claims exist, and every override of a runnable
//! experiment is accepted by the configuration on its preset.

use ssdgc_core::ConfigBuilder;
use ssdgc_repro::paper::{self, FILES, REPRODUCIBLE};

#[test]
fn every_paper_parses() {
    for (id, text) in FILES {
        let p = paper::parse(id, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.paper.id, *id);
        assert!(!p.claims.is_empty(), "{id}: no claims");
        assert!(!p.experiments.is_empty(), "{id}: no experiments");
    }
}

#[test]
fn ids_are_unique_and_claims_exist() {
    for (id, text) in FILES {
        let p = paper::parse(id, text).unwrap();
        let mut ids = std::collections::HashSet::new();
        for c in &p.claims {
            assert!(ids.insert(c.id.as_str()), "{id}: duplicate claim {}", c.id);
        }
        let mut exps = std::collections::HashSet::new();
        for e in &p.experiments {
            assert!(
                exps.insert(e.id.as_str()),
                "{id}: duplicate experiment {}",
                e.id
            );
            for c in &e.claims {
                assert!(
                    ids.contains(c.as_str()),
                    "{id}: experiment {} lists unknown claim {c}",
                    e.id
                );
            }
        }
    }
}

#[test]
fn sets_of_runnable_experiments_are_accepted() {
    for id in REPRODUCIBLE {
        let p = paper::load(id).unwrap();
        for quick in [false, true] {
            let (run, _) = ssdgc_repro::plan_experiments(&p, quick).unwrap();
            for e in run {
                let mut sets: Vec<String> = e.sets.clone();
                if let Some(v) = &e.vary {
                    sets.extend(v.values.iter().map(|x| format!("{}={x}", v.set)));
                }
                for s in &e.schemes {
                    sets.extend(s.sets().iter().cloned());
                    let mut b = ConfigBuilder::preset(&e.preset)
                        .unwrap_or_else(|err| panic!("{id}/{}: preset: {err}", e.id));
                    b.set(&format!("gc.scheme=\"{}\"", s.scheme()))
                        .unwrap_or_else(|err| panic!("{id}/{}: {err}", e.id));
                }
                for s in &sets {
                    let mut b = ConfigBuilder::preset(&e.preset).unwrap();
                    b.set(s)
                        .unwrap_or_else(|err| panic!("{id}/{} (quick {quick}): {s}: {err}", e.id));
                }
                // Every run's full configuration builds and validates.
                let mut plan = ssdgc_repro::runner::Plan::default();
                plan.add(&e, &mut Default::default()).unwrap();
                for spec in &plan.runs {
                    ssdgc_repro::runner::config(spec)
                        .unwrap_or_else(|err| panic!("{id}/{} (quick {quick}): {err}", e.id));
                }
            }
        }
    }
}

#[test]
fn unknown_paper_is_an_error_naming_the_known_ones() {
    let e = paper::load("nope").unwrap_err();
    assert!(e.contains("pagc") && e.contains("pgc"), "{e}");
}
