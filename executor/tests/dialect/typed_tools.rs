//! Typed tools and the builders, end to end: the dialect over the QuickJS isolate, as a host
//! ships them.

use std::time::Duration;

use codemode_executor::{
    Connector, ExecuteOptions, ExecuteResult, IsolateOptions, JsValue, Provider, Thrown, Timeout,
    ToolError, ToolFn, Tools, tool, tool_positional,
};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

use crate::support::codemode;

async fn run(tools: impl Into<Tools>, code: &str) -> ExecuteResult {
    let executor = codemode();
    let result = executor
        .execute(code, tools, ExecuteOptions::new())
        .await
        .unwrap();
    executor.dispose().await;
    result
}

#[derive(Deserialize)]
struct Args {
    city: String,
    days: Option<u8>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Reply {
    city: String,
    temp_c: f64,
    days: u8,
}

fn weather() -> Provider {
    Provider::new("weather").tool(
        "get-weather",
        tool(|args: Args| async move {
            Ok::<_, ToolError>(Reply {
                city: args.city,
                temp_c: 21.5,
                days: args.days.unwrap_or(1),
            })
        }),
    )
}

#[tokio::test]
async fn a_typed_tool_reads_its_first_argument_and_answers_a_plain_object() {
    let result = run(
        weather(),
        "async () => { const r = await weather.get_weather({ city: 'Paris', extra: true }); return [r, Object.keys(r)]; }",
    )
    .await;
    assert_eq!(result.error, None);
    let (reply, keys): (Reply, Vec<String>) = result.result_as().unwrap();
    assert_eq!(
        reply,
        Reply {
            city: "Paris".into(),
            temp_c: 21.5,
            days: 1
        }
    );
    assert_eq!(keys, ["city", "tempC", "days"]);
}

#[tokio::test]
async fn arguments_that_do_not_fit_reject_the_call_with_a_sentence_naming_the_tool() {
    let cases = [
        (
            "weather.get_weather({ city: 3 })",
            "Tool \"weather.get_weather\" could not read its arguments: at arguments[0].city, invalid type: number `3`, expected a string.",
        ),
        (
            "weather.get_weather({ town: 'Paris' })",
            "Tool \"weather.get_weather\" could not read its arguments: at arguments[0], missing field `city`.",
        ),
        (
            "weather.get_weather()",
            "Tool \"weather.get_weather\" could not read its arguments: at arguments[0], invalid type: undefined, expected struct Args.",
        ),
        (
            "weather.get_weather({ city: 'Paris', days: 300 })",
            "Tool \"weather.get_weather\" could not read its arguments: at arguments[0].days, invalid value: number `300`, expected u8.",
        ),
    ];
    for (call, text) in cases {
        let result = run(
            weather(),
            &format!("async () => {{ try {{ await {call}; }} catch (e) {{ return [e instanceof Error, e.message]; }} }}"),
        )
        .await;
        assert_eq!(
            result.result_as::<(bool, String)>().unwrap(),
            (true, text.to_string()),
            "{call}"
        );
    }
}

#[tokio::test]
async fn a_positional_tool_reads_every_argument_as_a_function_does() {
    let math = Provider::new("math").tool(
        "join",
        tool_positional(|(a, b, sep): (f64, f64, Option<String>)| async move {
            Ok::<_, ToolError>(format!("{a}{}{b}", sep.unwrap_or_else(|| "+".into())))
        }),
    );
    let result = run(
        math.clone(),
        "async () => [await math.join(1, 2), await math.join(1.5, 2, ' and ', 'ignored')]",
    )
    .await;
    assert_eq!(
        result.result_as::<Vec<String>>().unwrap(),
        ["1+2", "1.5 and 2"]
    );
    let result = run(math, "async () => math.join(1, 'two')").await;
    assert_eq!(
        result.error.as_deref(),
        Some(
            "Tool \"math.join\" could not read its arguments: at arguments[1], invalid type: string \"two\", expected f64."
        )
    );
}

#[tokio::test]
async fn errors_reject_with_their_message_and_convert_with_the_question_mark() {
    let files = Provider::new("files")
        .tool(
            "read",
            tool(|path: String| async move {
                let text = std::fs::read_to_string(&path)?;
                Ok::<_, ToolError>(text)
            }),
        )
        .tool(
            "refuse",
            tool(|(): ()| async move { Err::<(), _>(ToolError::new("No, thank you.")) }),
        )
        .tool(
            "nothing",
            tool(|(): ()| async move { Ok::<_, ToolError>(()) }),
        );
    let result = run(
        files,
        "async () => { const out = []; for (const f of [() => files.read('/nonexistent/x'), () => files.refuse()]) { try { await f(); } catch (e) { out.push(e.message); } } out.push(typeof await files.nothing()); return out; }",
    )
    .await;
    let messages: Vec<String> = result.result_as().unwrap();
    assert!(
        messages[0].starts_with("No such file or directory"),
        "{messages:?}"
    );
    assert_eq!(messages[1..], ["No, thank you.", "undefined"]);
}

#[tokio::test]
async fn a_result_with_no_javascript_form_rejects_the_call() {
    let ids = Provider::new("ids").tool(
        "next",
        tool(|(): ()| async move { Ok::<_, ToolError>(vec![1u64, 1 << 60]) }),
    );
    let result = run(ids, "async () => ids.next()").await;
    assert_eq!(
        result.error.as_deref(),
        Some(
            "Tool \"ids.next\" could not return its result: at result[1], the integer 1152921504606846976 is beyond what a JavaScript number holds exactly (±9007199254740991); send it as a string."
        )
    );
}

#[tokio::test]
async fn bytes_cross_as_uint8array_both_ways() {
    let blobs = Provider::new("blobs").tool(
        "reverse",
        tool(|bytes: ByteBuf| async move {
            let mut bytes = bytes.into_vec();
            bytes.reverse();
            Ok::<_, ToolError>(ByteBuf::from(bytes))
        }),
    );
    let result = run(
        blobs,
        "async () => { const r = await blobs.reverse(new Uint8Array([1, 2, 3])); return [r instanceof Uint8Array, Array.from(r)]; }",
    )
    .await;
    assert_eq!(
        result.result_as::<(bool, Vec<u8>)>().unwrap(),
        (true, vec![3, 2, 1])
    );
}

#[tokio::test]
async fn raw_tools_closure_connectors_and_option_builders_work_together() {
    let raw: ToolFn = std::sync::Arc::new(|args: Vec<JsValue>| {
        Box::pin(async move { Ok(JsValue::Number(args.len() as f64)) })
    });
    let provider = Provider::new("raw")
        .tool("count", raw)
        .prelude("globalThis.fromPrelude = 7;");
    let connector = Connector::new("conn", |tool: String, arg: JsValue| async move {
        if tool == "fail" {
            return Err(Thrown::Error("connector says no".into()));
        }
        Ok(JsValue::Array(vec![JsValue::String(tool.into()), arg]))
    });
    let options = ExecuteOptions::new()
        .connector(connector)
        .module("lib.js", "export const eight = 8;")
        .timeout(Duration::from_secs(5));
    assert_eq!(options.timeout, Some(Timeout::Millis(5000)));
    let executor = codemode();
    let result = executor
        .execute(
            "import { eight } from 'lib.js'; async () => { let failed; try { await conn.fail(); } catch (e) { failed = e.message; } return [await raw.count(1, 2, 3), fromPrelude, eight, await conn.echo('x'), failed]; }",
            [provider],
            options,
        )
        .await
        .unwrap();
    assert_eq!(result.error, None, "{result:?}");
    assert_eq!(
        result.result.to_js_string(),
        "3,7,8,echo,x,connector says no"
    );
    executor.dispose().await;
}

#[test]
fn builders_start_from_the_dialects_defaults() {
    let provider = Provider::new("p");
    assert_eq!(provider.name, "p");
    assert!(provider.fns.is_empty());
    assert_eq!(
        (
            provider.prelude.clone(),
            provider.positional_args,
            provider.proxy_source.clone()
        ),
        (None, None, None)
    );
    let provider = provider
        .positional_args(false)
        .proxy_source("({})")
        .tool("a-b", tool(|(): ()| async { Ok::<_, ToolError>(()) }));
    assert_eq!(provider.positional_args, Some(false));
    assert_eq!(provider.proxy_source.as_deref(), Some("({})"));
    assert_eq!(provider.fns[0].0, "a-b");

    let options = ExecuteOptions::new();
    assert!(options.connectors.is_empty());
    assert_eq!((options.modules, options.timeout), (None, None));
    assert!(options.outbound.is_none());
    let options = ExecuteOptions::new()
        .module("a", "1")
        .module("b", "2")
        .timeout(Timeout::Maximum);
    assert_eq!(options.modules.unwrap().len(), 2);
    assert_eq!(options.timeout, Some(Timeout::Maximum));

    let isolate = IsolateOptions::default()
        .workers(3)
        .memory_limit_bytes(1 << 20)
        .default_timeout_ms(10)
        .max_timeout_ms(20)
        .max_stack_bytes(1 << 16)
        .prepared_sandboxes(2);
    assert_eq!(
        (
            isolate.workers,
            isolate.memory_limit_bytes,
            isolate.default_timeout_ms,
            isolate.max_timeout_ms,
            isolate.max_stack_bytes,
            isolate.prepared_sandboxes
        ),
        (3, 1 << 20, 10, 20, 1 << 16, 2)
    );
    let defaults = IsolateOptions::default();
    assert_eq!(
        (
            defaults.memory_limit_bytes,
            defaults.default_timeout_ms,
            defaults.max_timeout_ms
        ),
        (64 << 20, 60_000, 300_000)
    );
}
