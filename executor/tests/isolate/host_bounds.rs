//! What a run makes the host hold (console lines, tool calls, timers, the result) counts
//! toward the run's memory limit: exceeding it ends the run out of memory, keeping what was
//! captured before.

use std::sync::Arc;

use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, JsValue, LogLevel, ProviderDescriptor,
    RunError, Timeout, ToolCall,
};

const LIMIT: usize = 8 << 20;

fn executor() -> IsolateExecutor {
    IsolateExecutor::new(
        IsolateOptions::default()
            .workers(1)
            .memory_limit_bytes(LIMIT),
    )
}

/// Answers every call with its first argument.
struct Echo;

impl Dispatch for Echo {
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope> {
        Box::pin(async move {
            let args = codemode_executor::protocol::decode_codec_json(&call.args_json);
            match args {
                Ok(JsValue::Array(items)) => {
                    Envelope::Result(items.into_iter().next().unwrap_or(JsValue::Undefined))
                }
                other => Envelope::Error(format!("{other:?}")),
            }
        })
    }
}

fn request(code: &str) -> ExecuteRequest {
    ExecuteRequest {
        code: code.into(),
        providers: vec![ProviderDescriptor {
            name: "codemode".into(),
            ..ProviderDescriptor::default()
        }],
        dispatch: Some(Arc::new(Echo)),
        timeout: Some(Timeout::Millis(20_000)),
        ..ExecuteRequest::default()
    }
}

const OUT_OF_MEMORY: Option<RunError> = Some(RunError::OutOfMemory { limit_bytes: LIMIT });

#[tokio::test]
async fn a_log_flood_ends_out_of_memory_keeping_the_lines_before() {
    let executor = executor();
    let outcome = executor
        .execute(request(
            "async () => { for (let i = 0; ; i++) console.log('line ' + i) }",
        ))
        .await
        .unwrap();
    // Out of memory, not timed out: the limit ended the flood before its time bound.
    assert_eq!(outcome.error, OUT_OF_MEMORY);
    let kept = outcome.logs.len();
    assert!(kept > 10_000, "the lines before the limit are kept: {kept}");
    for (i, line) in outcome.logs.iter().enumerate().step_by(997) {
        assert_eq!(line.level, LogLevel::Log);
        assert_eq!(line.text, format!("line {i}"), "kept in order, none lost");
    }
    let held: usize = outcome.logs.iter().map(|l| l.text.len() + 32).sum();
    assert!(held <= LIMIT, "what the host keeps fits the limit: {held}");
}

#[tokio::test]
async fn a_log_flood_caught_by_the_program_still_ends_out_of_memory() {
    let executor = executor();
    let outcome = executor
        .execute(request(
            "async () => { let n = 0; for (;;) { try { console.log('x'.repeat(100)) } catch (e) { n++; if (n > 5) return 'survived' } } }",
        ))
        .await
        .unwrap();
    assert_eq!(outcome.error, OUT_OF_MEMORY);
    assert_eq!(outcome.result, JsValue::Undefined);
}

#[tokio::test]
async fn a_huge_tool_argument_ends_out_of_memory_before_the_host_holds_it() {
    let executor = executor();
    let outcome = executor
        .execute(request(
            "async () => { console.log('before'); return (await codemode.echo('x'.repeat(3 << 20))).length }",
        ))
        .await
        .unwrap();
    assert_eq!(outcome.error, OUT_OF_MEMORY);
    assert_eq!(outcome.logs.len(), 1, "the line before is kept");
}

#[tokio::test]
async fn many_small_tool_calls_fit_while_their_sum_does_not() {
    let executor = executor();
    let fits = executor
        .execute(request(
            "async () => { let n = 0; for (let i = 0; i < 2000; i++) n += (await codemode.echo([i, i])).length; return n }",
        ))
        .await
        .unwrap();
    assert_eq!(fits.error, None);
    assert_eq!(fits.result, JsValue::Number(4000.0));
    let floods = executor
        .execute(request(
            "async () => { const a = new Array(2000).fill(0); for (;;) await Promise.all([codemode.echo(a), codemode.echo(a)]) }",
        ))
        .await
        .unwrap();
    assert_eq!(floods.error, OUT_OF_MEMORY);
}

#[tokio::test]
async fn a_result_whose_clone_does_not_fit_ends_out_of_memory() {
    let executor = executor();
    let outcome = executor
        .execute(request("async () => new Array(200000).fill(0)"))
        .await
        .unwrap();
    assert_eq!(outcome.error, OUT_OF_MEMORY);
    let fits = executor
        .execute(request("async () => new Array(20000).fill(0).length"))
        .await
        .unwrap();
    assert_eq!(fits.result, JsValue::Number(20000.0));
}

#[tokio::test]
async fn a_sparse_array_of_enormous_length_ends_out_of_memory() {
    let executor = executor();
    let outcome = executor
        .execute(request(
            "async () => { const a = []; a.length = 4294967295; return a }",
        ))
        .await
        .unwrap();
    assert_eq!(outcome.error, OUT_OF_MEMORY);
}

#[tokio::test]
async fn a_timer_storm_is_bounded_and_cleared_timers_are_released() {
    let executor = executor();
    let storm = executor
        .execute(request(
            "async () => { for (;;) setTimeout(() => {}, 1e9) }",
        ))
        .await
        .unwrap();
    // Workers' quota of 10,000 active timers ends a storm before their charge reaches the
    // limit.
    assert!(
        format!("{:?}", storm.error)
            .contains("You have exceeded the number of active timeouts you may set."),
        "{:?}",
        storm.error
    );
    let churn = executor
        .execute(request(
            "async () => { for (let i = 0; i < 300000; i++) clearTimeout(setTimeout(() => {}, 1e9)); return 1 }",
        ))
        .await
        .unwrap();
    assert_eq!(churn.error, None, "cleared timers give their charge back");
}
