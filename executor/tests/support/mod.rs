//! What several of the executor's test files share: the executors they run on, the request
//! they send most, and the small builders of values and tools.

use std::sync::Arc;

use codemode_executor::dialect::{CodemodeExecutor, Thrown, ToolFn};
use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{ExecuteRequest, JsValue, Timeout};

/// An isolate executor with one worker, so runs in sequence share it.
pub fn one_worker() -> IsolateExecutor {
    IsolateExecutor::new(IsolateOptions::default().workers(1))
}

/// The dialect over a one-worker isolate executor: the composition a codemode host ships.
pub fn codemode() -> CodemodeExecutor<IsolateExecutor> {
    CodemodeExecutor::new(one_worker())
}

/// A request to run `code`, bounded at five seconds.
pub fn request(code: &str) -> ExecuteRequest {
    ExecuteRequest {
        code: code.into(),
        timeout: Some(Timeout::Millis(5_000)),
        ..ExecuteRequest::default()
    }
}

/// A JavaScript array of strings.
pub fn strings(items: &[&str]) -> JsValue {
    JsValue::Array(items.iter().map(|s| JsValue::String((*s).into())).collect())
}

/// A raw tool from a synchronous function of its arguments.
pub fn tool(f: impl Fn(Vec<JsValue>) -> Result<JsValue, Thrown> + Send + Sync + 'static) -> ToolFn {
    let f = Arc::new(f);
    Arc::new(move |args| {
        let f = Arc::clone(&f);
        Box::pin(async move { f(args) })
    })
}
