//! A fixed amount of each piece of a run's work, for `valgrind --tool=callgrind` to count
//! (instruction counts are what a shared machine cannot disturb). Prints nothing but what it
//! did; read the counts with `callgrind_annotate --inclusive=yes`.
//!
//! `cargo bench -p codemode-executor --features bench-internals --bench stages --no-run`, then
//! `valgrind --tool=callgrind target/release/deps/stages-* MODE COUNT` with MODE one of
//! `sandboxes` (prepare and free COUNT sandboxes), `trivial`, `tool` (COUNT runs through
//! `IsolateExecutor`, one worker), `dialect-trivial`, `dialect-tool` (through
//! `CodemodeExecutor` over the same kind of pool), `normalize` (the dialect's parse alone).
//!
//! `wall COUNT` is the one mode meant to run without valgrind: it times the dialect and the
//! native executor over one pool, alternately (each goes first in every other round) and 3 ms
//! apart, and prints both medians and p99, and the dialect's parse alone 3 ms after a run
//! (its code cold, as a run finds it).

use bench_support::{
    Figures, ONE_TOOL_CALL as TOOL, TRIVIAL, dialect_tools, median, native_request,
};
use codemode_executor::dialect::{CodemodeExecutor, ExecuteOptions};
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions, time_sandboxes};
use codemode_executor::protocol::Executor;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo bench` passes `--bench`; skip flags.
    let plain: Vec<&str> = args[1..]
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mode = plain.first().copied().unwrap_or("trivial");
    let count: usize = plain.get(1).and_then(|c| c.parse().ok()).unwrap_or(200);
    let runtime = bench_support::runtime_of(1);
    if mode == "sandboxes" {
        time_sandboxes(count).expect("sandboxes");
        println!("prepared and freed {count} sandboxes");
        return;
    }
    if mode == "normalize" {
        let started = std::time::Instant::now();
        for _ in 0..count {
            std::hint::black_box(codemode_executor::dialect::normalize_code(
                std::hint::black_box(TOOL),
            ));
        }
        println!(
            "normalize_code: {:?} per call",
            started.elapsed() / count as u32
        );
        return;
    }
    if mode == "wall" {
        runtime.block_on(wall(count));
        return;
    }
    runtime.block_on(async {
        let options = IsolateOptions::default().workers(1);
        let dialect = CodemodeExecutor::new(IsolateExecutor::new(options));
        let native = dialect.native();
        for _ in 0..count {
            match mode {
                "trivial" | "tool" => {
                    let code = if mode == "tool" { TOOL } else { TRIVIAL };
                    let outcome = native.execute(native_request(code)).await.expect("runs");
                    assert!(outcome.error.is_none(), "{outcome:?}");
                }
                "dialect-trivial" | "dialect-tool" => {
                    let code = if mode == "dialect-tool" {
                        TOOL
                    } else {
                        TRIVIAL
                    };
                    let result = dialect
                        .execute(code, dialect_tools(), ExecuteOptions::default())
                        .await
                        .expect("runs");
                    assert_eq!(result.error, None);
                }
                other => panic!("unknown mode {other}"),
            }
        }
        println!("{mode}: {count} runs");
    });
}

/// Wall-clock medians of the dialect and the native executor over the same pool, run
/// alternately so both see the same machine and the same stock.
async fn wall(count: usize) {
    use std::time::{Duration, Instant};
    let dialect = CodemodeExecutor::new(IsolateExecutor::new(IsolateOptions::default()));
    let mut samples: [Vec<Duration>; 4] = Default::default();
    let mut cold = Vec::new();
    for round in 0..count + 20 {
        for (slot, code) in [TRIVIAL, TOOL].into_iter().enumerate() {
            let native_first = round % 2 == 0;
            let (mut dialect_elapsed, mut native_elapsed) = (Duration::ZERO, Duration::ZERO);
            for turn in 0..2 {
                if (turn == 0) == native_first {
                    let started = Instant::now();
                    let outcome = dialect
                        .native()
                        .execute(native_request(code))
                        .await
                        .expect("runs");
                    native_elapsed = started.elapsed();
                    assert!(outcome.error.is_none());
                } else {
                    let started = Instant::now();
                    let result = dialect
                        .execute(code, dialect_tools(), ExecuteOptions::default())
                        .await
                        .expect("runs");
                    dialect_elapsed = started.elapsed();
                    assert_eq!(result.error, None);
                }
            }
            if round >= 20 {
                samples[slot * 2].push(dialect_elapsed);
                samples[slot * 2 + 1].push(native_elapsed);
            }
            // 3 ms apart: the stock is refilled, as for a host's runs.
            tokio::time::sleep(Duration::from_millis(3)).await;
            // The dialect's parse alone, as a run finds it: its code cold after the pause.
            let started = Instant::now();
            std::hint::black_box(codemode_executor::dialect::normalize_code(code));
            cold.push(started.elapsed());
            tokio::time::sleep(Duration::from_millis(3)).await;
        }
    }
    println!(
        "normalize_code alone, 3 ms after a run        median {:>10.1?}",
        median(cold)
    );
    let labels = [
        "trivial, dialect",
        "trivial, native",
        "one tool call, dialect",
        "one tool call, native",
    ];
    for (label, s) in labels.into_iter().zip(samples) {
        println!("{label:<44} {}", Figures::of(s));
    }
}
