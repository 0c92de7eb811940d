//! Every string JavaScript can hold crosses: lone surrogates in results, keys, logs, tool
//! arguments and tool results, kept code unit for code unit.

use std::sync::Arc;

use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, JsString, JsValue, ProviderDescriptor,
    RunError, Timeout, ToolCall, decode_codec_json,
};

/// Answers every call with its arguments, and keeps the last argument text it saw.
struct Echo;

impl Dispatch for Echo {
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope> {
        Box::pin(async move {
            match decode_codec_json(&call.args_json) {
                Ok(JsValue::Array(items)) => {
                    Envelope::Result(items.into_iter().next().unwrap_or(JsValue::Undefined))
                }
                other => Envelope::Error(format!("{other:?}")),
            }
        })
    }
}

async fn run(code: &str) -> codemode_executor::protocol::Outcome {
    let executor = IsolateExecutor::new(IsolateOptions::default().workers(1));
    executor
        .execute(ExecuteRequest {
            code: code.into(),
            providers: vec![ProviderDescriptor {
                name: "codemode".into(),
                ..ProviderDescriptor::default()
            }],
            dispatch: Some(Arc::new(Echo)),
            timeout: Some(Timeout::Millis(5_000)),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap()
}

fn units(text: &[u16]) -> JsValue {
    JsValue::String(JsString::from_utf16(text))
}

#[tokio::test]
async fn a_cut_emoji_is_the_result_and_the_log() {
    let outcome =
        run("async () => { const s = 'hi 😀 there'.slice(0, 4); console.log(s); return s }").await;
    assert_eq!(outcome.error, None);
    assert_eq!(outcome.result, units(&[0x68, 0x69, 0x20, 0xD83D]));
    assert_eq!(outcome.logs[0].text, "hi \\ud83d");
}

#[tokio::test]
async fn keys_and_map_entries_keep_their_surrogates() {
    let outcome =
        run("async () => { const s = '😀'.slice(1); return [{[s]: s}, new Map([[s, 1]])] }").await;
    let low = JsString::from_utf16(&[0xDE00]);
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![
            JsValue::Object(vec![(low.clone(), JsValue::String(low.clone()))]),
            JsValue::Map(vec![(JsValue::String(low), JsValue::Number(1.0))]),
        ])
    );
}

#[tokio::test]
async fn a_tool_echoes_a_lone_surrogate_back_unchanged() {
    let outcome = run(
        "async () => { const s = 'a' + '😀'.slice(0, 1) + '\\\\ud83d'; const r = await codemode.echo({[s]: s}); const k = Object.keys(r)[0]; return [r[s] === s, k === s, k.length, k.charCodeAt(1)] }",
    )
    .await;
    assert_eq!(outcome.error, None, "{outcome:?}");
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![
            JsValue::Bool(true),
            JsValue::Bool(true),
            JsValue::Number(8.0),
            JsValue::Number(f64::from(0xD83Du16)),
        ])
    );
}

#[tokio::test]
async fn a_thrown_message_keeps_its_surrogate() {
    let outcome = run("async () => { throw new Error('x' + '😀'.slice(0, 1)) }").await;
    match outcome.error {
        Some(RunError::Threw {
            message: Some(message),
            ..
        }) => assert_eq!(message, units(&[0x78, 0xD83D])),
        other => panic!("expected a throw, got {other:?}"),
    }
}
