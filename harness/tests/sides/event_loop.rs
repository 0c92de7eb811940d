//! Determinism of the event loop on our side: every case of `cases/event-loop.yaml` runs
//! 20 times on ours in process and 20 times behind the executor daemon (an in-process
//! server on a loopback port, reached over the remote wire), and each gives one outcome, the
//! one its `expect` (measured on the reference) describes. The runs of a case go in
//! parallel, as a busy host runs programs, so answers and timers race for the same moments.

use std::path::Path;
use std::sync::Arc;

use codemode_compat::catalogue::{Case, load_dirs};
use codemode_compat::compare::matches_expectation;
use codemode_compat::sides::ours::OursSide;
use codemode_executor::isolate::IsolateExecutor;
use codemode_executor::protocol::Executor;
use codemode_executor::remote::{ConnectOptions, ExecutorServer, RemoteExecutor, ServerOptions};
use futures::future::join_all;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

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

/// Runs every case `RUNS` times on `side`; each case's failures, as sentences.
async fn one_outcome_each<N: Executor + 'static>(
    side: Arc<OursSide<N>>,
    column: &str,
) -> Vec<String> {
    let mut failures = Vec::new();
    for case in event_loop_cases() {
        let runs = (0..RUNS).map(|_| {
            let (side, case) = (side.clone(), case.clone());
            async move { side.run(&case, &case.code).await }
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
                "{column}: {} gave {} outcomes in {RUNS} runs: {}",
                case.id,
                distinct.len(),
                distinct
                    .iter()
                    .map(|o| o["result"].to_string())
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        } else if let Err(why) = matches_expectation(&case.expect.to_outcome_json(), distinct[0]) {
            failures.push(format!("{column}: {}: {why}", case.id));
        }
    }
    failures
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_ordering_case_gives_one_outcome_in_twenty_runs_in_process() {
    let ours = Arc::new(OursSide::new(IsolateExecutor::default()));
    let failures = one_outcome_each(ours.clone(), "ours").await;
    ours.dispose().await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_ordering_case_gives_one_outcome_in_twenty_runs_behind_the_daemon() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let executor = IsolateExecutor::default();
    let options = ServerOptions {
        log: false,
        ..ServerOptions::default()
    };
    let server = ExecutorServer::new(executor, options);
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = tokio::spawn(async move {
        server
            .serve(listener, async {
                let _ = stopped.await;
            })
            .await
    });
    let remote = RemoteExecutor::connect(&url, ConnectOptions::default())
        .await
        .expect("the in-process daemon accepts the connection");
    let side = Arc::new(OursSide::new(remote));
    let failures = one_outcome_each(side.clone(), "remote").await;
    side.dispose().await;
    let _ = stop.send(());
    let _ = serving.await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
