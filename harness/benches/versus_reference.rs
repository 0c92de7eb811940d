//! Ours against the reference, side by side in one run: a trivial program and one tool
//! call, executed on our executor through its public APIs and on the newest reference column
//! (the real `DynamicWorkerExecutor` under `wrangler dev`, over its HTTP wire), interleaved so
//! that both see the same machine. Prints the median and the 99th percentile of each, and the
//! ratio of the medians.
//!
//! Run with `cargo bench -p codemode-compat --bench versus_reference`. It installs the
//! reference toolchain if needed and stops its `wrangler dev` at the end.

mod support;

use std::time::Instant;

use bench_support::{Figures, dialect_tools, native_request};
use codemode_executor::dialect::{CodemodeExecutor, ExecuteOptions};
use codemode_executor::isolate::IsolateExecutor;
use codemode_executor::protocol::Executor;

const ROUNDS: usize = 200;
const OURS_PER_ROUND: usize = 10;

fn main() {
    let runtime = support::runtime();
    let _guard = runtime.enter();
    let (scratch, catalogue) = support::catalogue("versus-reference");
    let side = support::newest_reference(&runtime, &scratch.join("state"));
    println!("reference column: {}", side.column.name);

    let dialect = CodemodeExecutor::new(IsolateExecutor::default());
    let native = IsolateExecutor::default();

    for case in &catalogue.cases {
        let code = case.code.as_str();
        let (mut reference, mut ours_dialect, mut ours_native) = (vec![], vec![], vec![]);
        runtime.block_on(async {
            for round in 0..ROUNDS + 10 {
                let started = Instant::now();
                let outcome = side.run(case, code).await.expect("the reference runs");
                let elapsed = started.elapsed();
                assert!(outcome["error"].is_null(), "{outcome}");
                // Each executor in a block of its own, so that one's sandbox preparation
                // does not compete with the other's runs; the block that follows the
                // reference's run alternates, since that one finds the machine as the
                // reference's `wrangler dev` left it (caches cold, its process still busy).
                for block in 0..2 {
                    if (block == 0) == (round % 2 == 0) {
                        for _ in 0..OURS_PER_ROUND {
                            let started = Instant::now();
                            let result = dialect
                                .execute(code, dialect_tools(), ExecuteOptions::default())
                                .await
                                .expect("ours runs");
                            let dialect_elapsed = started.elapsed();
                            assert_eq!(result.error, None);
                            if round >= 10 {
                                ours_dialect.push(dialect_elapsed);
                            }
                        }
                    } else {
                        for _ in 0..OURS_PER_ROUND {
                            let started = Instant::now();
                            let outcome = native.execute(native_request(code)).await.expect("runs");
                            let native_elapsed = started.elapsed();
                            assert!(outcome.error.is_none());
                            if round >= 10 {
                                ours_native.push(native_elapsed);
                            }
                        }
                    }
                }
                if round >= 10 {
                    reference.push(elapsed);
                }
            }
        });
        let reference = Figures::of(reference);
        let dialect = Figures::of(ours_dialect);
        let native = Figures::of(ours_native);
        let faster = |ours: Figures| reference.median.as_secs_f64() / ours.median.as_secs_f64();
        println!("{}", case.id);
        println!("  reference (wrangler dev, HTTP)   {reference}");
        println!(
            "  ours, CodemodeExecutor           {dialect}  ({:.0}x faster)",
            faster(dialect)
        );
        println!(
            "  ours, IsolateExecutor            {native}  ({:.0}x faster)",
            faster(native)
        );
    }
    runtime.block_on(side.stop());
    runtime.block_on(dialect.dispose());
    let _ = std::fs::remove_dir_all(&scratch);
}
