//! Determinism of the event loop on our side: every case of `cases/event-loop.yaml` runs
//! 20 times on ours, and each gives one outcome, the one its `expect` (measured on the
//! reference) describes. The runs of a case go in parallel, as a busy host runs programs,
//! so answers and timers race for the same moments.

use std::path::Path;
use std::sync::Arc;

use codemode_compat::catalogue::{Case, load_dirs};
use codemode_compat::compare::matches_expectation;
use codemode_compat::sides::ours::OursSide;
use codemode_executor::isolate::IsolateExecutor;
use futures::future::join_all;

const RUNS: usize = 20;

fn event_loop_cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the harness lives in the workspace");
    let catalogue = load_dirs(&[root.join("cases")]).expect("the catalogue loads");
    let cases: Vec<Case> = catalogue
        .cases
        .into_iter()
        .filter(|case| case.id.starts_with("event-loop/"))
        .collect();
    assert!(
        cases.len() >= 20,
        "cases/event-loop.yaml holds the ordering cases"
    );
    cases
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_ordering_case_gives_one_outcome_in_twenty_runs() {
    let ours = Arc::new(OursSide::new(IsolateExecutor::default()));
    let mut failures = Vec::new();
    for case in event_loop_cases() {
        let runs = (0..RUNS).map(|_| {
            let (ours, case) = (ours.clone(), case.clone());
            async move { ours.run(&case, &case.code).await }
        });
        let outcomes = join_all(runs).await;
        let mut distinct: Vec<&serde_json::Value> = Vec::new();
        for outcome in &outcomes {
            if !distinct.contains(&outcome) {
                distinct.push(outcome);
            }
        }
        if distinct.len() > 1 {
            failures.push(format!(
                "{} gave {} outcomes in {RUNS} runs: {}",
                case.id,
                distinct.len(),
                distinct
                    .iter()
                    .map(|o| o["result"].to_string())
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        } else if let Err(why) = matches_expectation(&case.expect.to_outcome_json(), distinct[0]) {
            failures.push(format!("{}: {why}", case.id));
        }
    }
    ours.dispose().await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
