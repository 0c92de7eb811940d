//! Ours against the reference, side by side in one run: a trivial program and one tool
//! call, executed on our executor through its public APIs and on the newest reference column
//! (the real `DynamicWorkerExecutor` under `wrangler dev`, over its HTTP wire), interleaved so
//! that both see the same machine. Prints the median and the 99th percentile of each, and the
//! ratio of the medians.
//!
//! Run with `cargo bench -p codemode-compat --bench versus_reference`. It installs the
//! reference toolchain if needed and stops its `wrangler dev` at the end.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_compat::catalogue::load_dirs;
use codemode_compat::sides::reference::{
    ReferenceSide, discover, ensure_installed, install_exit_guards,
};
use codemode_executor::dialect::{CodemodeExecutor, ExecuteOptions, Provider, Tools};
use codemode_executor::isolate::IsolateExecutor;
use codemode_executor::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, JsValue, ProviderDescriptor, ToolCall,
};

const ROUNDS: usize = 200;
const OURS_PER_ROUND: usize = 10;

const CATALOGUE: &str = r#"
- id: bench/trivial
  code: async () => 1 + 1
  expect:
    result: 2
- id: bench/one-tool-call
  code: async () => await codemode.echo(1)
  providers:
    - name: codemode
      tools:
        echo: {returns: 1}
  expect:
    result: 1
"#;

struct One;

impl Dispatch for One {
    fn dispatch(&self, _call: ToolCall) -> BoxFuture<'static, Envelope> {
        Box::pin(async { Envelope::Result(JsValue::Number(1.0)) })
    }
}

/// The median and the 99th percentile of `samples`.
fn median_p99(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)];
    (at(0.5), at(0.99))
}

fn native_request(code: &str) -> ExecuteRequest {
    ExecuteRequest {
        code: code.into(),
        providers: vec![ProviderDescriptor {
            name: "codemode".into(),
            tools: vec!["echo".into()],
            ..ProviderDescriptor::default()
        }],
        dispatch: Some(Arc::new(One)),
        ..ExecuteRequest::default()
    }
}

fn dialect_tools() -> Tools {
    let echo: codemode_executor::dialect::ToolFn =
        Arc::new(|_args| Box::pin(async { Ok(JsValue::Number(1.0)) }));
    Tools::Providers(vec![Provider::new("codemode").tool("echo", echo)])
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let _guard = runtime.enter();
    install_exit_guards(false);

    let scratch = std::env::temp_dir().join(format!("versus-reference-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    std::fs::write(scratch.join("bench.yaml"), CATALOGUE).expect("the bench catalogue");
    let catalogue = load_dirs(std::slice::from_ref(&scratch)).expect("the bench catalogue loads");
    let toolchain = ensure_installed(&root).expect("the reference toolchain");
    let column = discover(&toolchain)
        .expect("reference columns")
        .into_iter()
        .max_by_key(|column| column.version())
        .expect("at least one reference column");
    let state = scratch.join("state");
    let side = runtime
        .block_on(ReferenceSide::start(&toolchain, column, &state, 1))
        .expect("the reference column starts");
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
        let (reference, reference_p99) = median_p99(reference);
        let (dialect_median, dialect_p99) = median_p99(ours_dialect);
        let (native_median, native_p99) = median_p99(ours_native);
        println!("{}", case.id);
        println!(
            "  reference (wrangler dev, HTTP)   median {reference:>10.1?}  p99 {reference_p99:>10.1?}"
        );
        println!(
            "  ours, CodemodeExecutor           median {dialect_median:>10.1?}  p99 {dialect_p99:>10.1?}  ({:.0}x faster)",
            reference.as_secs_f64() / dialect_median.as_secs_f64()
        );
        println!(
            "  ours, IsolateExecutor            median {native_median:>10.1?}  p99 {native_p99:>10.1?}  ({:.0}x faster)",
            reference.as_secs_f64() / native_median.as_secs_f64()
        );
    }
    runtime.block_on(side.stop());
    runtime.block_on(dialect.dispose());
    let _ = std::fs::remove_dir_all(&scratch);
}
