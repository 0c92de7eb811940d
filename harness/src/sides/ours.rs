//! Our side: the in-repo executor, through its public API, exactly as a Rust host uses it.

use std::sync::Arc;

use codemode_executor::dialect::{CodemodeExecutor, ExecuteOptions};
use codemode_executor::protocol::{Executor, Timeout};
use serde_json::Value;

use crate::catalogue::Case;
use crate::outcome::{assemble, project};
use crate::tools::{CallLog, materialize};

/// The name of our column.
pub const OURS: &str = "ours";

/// `CodemodeExecutor` over a native executor, running catalogue cases.
pub struct OursSide<N> {
    executor: CodemodeExecutor<N>,
}

impl<N: Executor> OursSide<N> {
    /// Wraps a native executor in the dialect. Host-side warnings (the deprecation text for
    /// raw tool functions) are no part of an outcome on either side: the reference prints its
    /// own into wrangler's output, which the harness does not show, so ours are dropped too
    /// rather than interleaved with the harness's progress.
    pub fn new(native: N) -> Self {
        Self {
            executor: CodemodeExecutor::new(native).with_warning_sink(Arc::new(|_| {})),
        }
    }

    /// Runs one case (with `code` in place of the case's own, for `eval`) and returns its
    /// normalized outcome.
    pub async fn run(&self, case: &Case, code: &str) -> Value {
        let log = CallLog::default();
        let (tools, connectors) = materialize(case, &log);
        let mut options = ExecuteOptions::new();
        options.connectors = connectors;
        options.modules = case
            .options
            .modules
            .as_ref()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        options.timeout = case.options.timeout_ms.map(Timeout::Millis);
        options.outbound = case
            .options
            .outbound
            .as_ref()
            .map(crate::outbound::materialize);
        let result = self.executor.execute(code, tools, options).await;
        let calls = log.snapshot();
        match result {
            Ok(result) => assemble(
                project(&result.result),
                result.error.map(Value::String),
                result.logs.into_iter().map(Value::String).collect(),
                calls,
                None,
            ),
            Err(error) => assemble(None, None, Vec::new(), calls, Some(error.to_string())),
        }
    }

    /// Releases the executor.
    pub async fn dispose(&self) {
        self.executor.dispose().await
    }
}
