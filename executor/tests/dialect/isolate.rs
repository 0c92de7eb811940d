//! End to end: the dialect over the QuickJS isolate executor, the composition a codemode
//! host ships.

use codemode_executor::dialect::{
    CodemodeExecutor, ExecuteOptions, ExecuteResult, Provider, Tools,
};
use codemode_executor::isolate::IsolateExecutor;
use codemode_executor::protocol::{JsValue, Timeout};

use crate::support::{codemode, tool};

async fn run(executor: &CodemodeExecutor<IsolateExecutor>, code: &str) -> ExecuteResult {
    executor
        .execute(code, Tools::Providers(vec![]), ExecuteOptions::default())
        .await
        .unwrap()
}

fn result(value: JsValue, error: Option<&str>, logs: &[&str]) -> ExecuteResult {
    ExecuteResult::new(
        value,
        error.map(str::to_string),
        logs.iter().map(|s| s.to_string()).collect(),
    )
}

/// The three examples closing "Output normalization" in `docs/dialect.md`.
#[tokio::test]
async fn the_designs_three_examples_run_end_to_end() {
    let executor = codemode();
    assert_eq!(
        run(&executor, "const answer = 6 * 7\nanswer").await,
        result(JsValue::Number(42.0), None, &[])
    );
    assert_eq!(
        run(&executor, "return 6 * 7").await,
        result(JsValue::Number(42.0), None, &[])
    );
    assert_eq!(
        run(&executor, "```js\nconsole.warn(\"late\")\n```").await,
        result(JsValue::Undefined, None, &["[warn] late"])
    );
    executor.dispose().await;
}

#[tokio::test]
async fn tools_are_called_by_their_sanitized_name_and_raw_names_are_refused() {
    let executor = codemode();
    let gh = Provider::new("gh").tool("list-issues", tool(|args| Ok(JsValue::Array(args))));
    let answer = executor
        .execute(
            "async () => gh.list_issues({ repo: 'x' }, 2)",
            Tools::Providers(vec![gh.clone()]),
            ExecuteOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(
        answer.result,
        JsValue::Array(vec![
            JsValue::Object(vec![("repo".into(), JsValue::String("x".into()))]),
            JsValue::Number(2.0),
        ])
    );
    let refused = executor
        .execute(
            "async () => gh['list-issues']({ repo: 'x' })",
            Tools::Providers(vec![gh]),
            ExecuteOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(
        refused,
        result(
            JsValue::Undefined,
            Some("Tool \"list-issues\" not found"),
            &[]
        )
    );
    executor.dispose().await;
}

#[tokio::test]
async fn errors_render_as_the_dialect_reports_them() {
    let executor = codemode();
    assert_eq!(
        run(&executor, "console.log('a', 1); throw new Error('boom')").await,
        result(JsValue::Undefined, Some("boom"), &["a 1"])
    );
    assert_eq!(
        run(&executor, "throw new Error('')").await,
        result(JsValue::Undefined, None, &[])
    );
    assert_eq!(
        executor
            .execute(
                "throw null",
                Tools::Providers(vec![]),
                ExecuteOptions::default()
            )
            .await,
        Err(codemode_executor::Error::Rejected(
            "Cannot read properties of null (reading 'message')".into()
        ))
    );
    let timed_out = executor
        .execute(
            "await new Promise(() => {})",
            Tools::Providers(vec![]),
            ExecuteOptions::new().timeout(Timeout::Millis(100)),
        )
        .await
        .unwrap();
    assert_eq!(
        timed_out,
        result(JsValue::Undefined, Some("Execution timed out"), &[])
    );
    executor.dispose().await;
}
