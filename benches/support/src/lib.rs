//! What every bench of the workspace shares, so that each figure in the docs is measured one
//! way: one definition of a percentile ([`quantile`]), the median and p99 printed alike
//! ([`Figures`]), and the workloads the benches time on both sides (a trivial program and
//! one tool call: [`TRIVIAL`], [`ONE_TOOL_CALL`], the same two as a catalogue for the
//! reference, [`CATALOGUE`], and their providers on ours, [`native_request`] and
//! [`dialect_tools`]), the runtime they run on ([`runtime`]) and the scratch catalogue the
//! reference side loads ([`scratch_catalogue`]), and the daemon process the benches over
//! loopback start ([`daemon::DaemonProcess`]).
//!
//! A crate of its own, not published (as cargo's benchsuite crate is), because benches of
//! two packages use it: a module could be shared only by a path that reaches into another
//! package's folder.

pub mod daemon;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use codemode_executor::dialect::{Provider, ToolFn, Tools};
use codemode_executor::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, JsValue, ProviderDescriptor, ToolCall,
};

/// The `q`-quantile of `sorted` (ascending, not empty): the sample at index `⌊n·q⌋`, the last
/// for `q` = 1. The median is `quantile(sorted, 0.5)`, the upper of the two middle samples
/// when `n` is even.
pub fn quantile(sorted: &[Duration], q: f64) -> Duration {
    assert!(!sorted.is_empty(), "a quantile of no samples");
    let index = (sorted.len() as f64 * q) as usize;
    sorted[index.min(sorted.len() - 1)]
}

/// The median of `samples`, by [`quantile`].
pub fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    quantile(&samples, 0.5)
}

/// The median and the 99th percentile of a sample, by [`quantile`]. Displays as
/// `median …  p99 …`, aligned for a table of figures.
#[derive(Clone, Copy, Debug)]
pub struct Figures {
    /// The 0.5-quantile.
    pub median: Duration,
    /// The 0.99-quantile.
    pub p99: Duration,
}

impl Figures {
    /// The figures of `samples` (not empty).
    pub fn of(mut samples: Vec<Duration>) -> Figures {
        samples.sort_unstable();
        Figures {
            median: quantile(&samples, 0.5),
            p99: quantile(&samples, 0.99),
        }
    }
}

impl fmt::Display for Figures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "median {:>10.1?}  p99 {:>10.1?}", self.median, self.p99)
    }
}

/// A program that does no work of its own: what a run costs by itself.
pub const TRIVIAL: &str = "async () => 1 + 1";

/// A program that calls one tool, `codemode.echo`, which answers `1`.
pub const ONE_TOOL_CALL: &str = "async () => await codemode.echo(1)";

/// [`TRIVIAL`] and [`ONE_TOOL_CALL`] as a catalogue, for the reference side.
pub const CATALOGUE: &str = r#"
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

/// The runtime every bench drives the executor from: tokio on two worker threads, as many as
/// the machine the figures in the docs were measured on has cores.
pub fn runtime() -> tokio::runtime::Runtime {
    runtime_of(2)
}

/// A multi-threaded tokio runtime of `workers` threads, every driver enabled.
pub fn runtime_of(workers: usize) -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// A fresh directory under the system's temporary one, `<name>-<process id>`, holding
/// [`CATALOGUE`] as `bench.yaml`, for the harness's catalogue loader. The caller removes it.
pub fn scratch_catalogue(name: &str) -> PathBuf {
    let scratch = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    std::fs::write(scratch.join("bench.yaml"), CATALOGUE).expect("the bench catalogue");
    scratch
}

/// The dispatch of the native benches: every call answers `1`.
struct One;

impl Dispatch for One {
    fn dispatch(&self, _call: ToolCall) -> BoxFuture<'static, Envelope> {
        Box::pin(async { Envelope::Result(JsValue::Number(1.0)) })
    }
}

/// A native request for `code` with the provider `codemode` and its one tool, `echo`.
pub fn native_request(code: &str) -> ExecuteRequest {
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

/// The provider `codemode` with its one tool, `echo`, for `CodemodeExecutor`.
pub fn dialect_tools() -> Tools {
    let echo: ToolFn = Arc::new(|_args| Box::pin(async { Ok(JsValue::Number(1.0)) }));
    Tools::Providers(vec![Provider::new("codemode").tool("echo", echo)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_read_at_the_floor_of_n_q() {
        let samples: Vec<Duration> = (0..100).map(Duration::from_micros).collect();
        let figures = Figures::of(samples.iter().rev().copied().collect());
        assert_eq!(figures.median, Duration::from_micros(50));
        assert_eq!(figures.p99, Duration::from_micros(99));
        assert_eq!(quantile(&samples[..1], 0.99), Duration::from_micros(0));
        assert_eq!(
            median(vec![Duration::from_micros(3), Duration::from_micros(1)]),
            Duration::from_micros(3)
        );
    }
}
