//! `CodemodeExecutor::execute` against a fake native executor: what crosses, what stays, and
//! how the outcome comes back.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode_executor::Error;
use codemode_executor::dialect::{
    CodemodeExecutor, Connector, ConnectorBinding, DEPRECATION_WARNING, ExecuteOptions,
    ExecuteResult, Provider, Thrown, ToolFn, Tools,
};
use codemode_executor::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, JsValue, LogLevel, LogLine, Outbound,
    Outcome, ProviderDescriptor, RunError, Timeout, ToolCall, texts,
};

use crate::support::tool;

type Script =
    Arc<dyn Fn(ExecuteRequest) -> BoxFuture<'static, Result<Outcome, Error>> + Send + Sync>;

/// A native executor that records each request and answers with a script.
struct Fake {
    script: Script,
    seen: Mutex<Vec<ExecuteRequest>>,
    disposed: AtomicBool,
}

impl Fake {
    fn new(
        script: impl Fn(ExecuteRequest) -> BoxFuture<'static, Result<Outcome, Error>>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        Self {
            script: Arc::new(script),
            seen: Mutex::new(Vec::new()),
            disposed: AtomicBool::new(false),
        }
    }

    fn returning(result: JsValue) -> Self {
        Self::new(move |_| {
            let result = result.clone();
            Box::pin(async move { Ok(success(result)) })
        })
    }

    fn requests(&self) -> Vec<ExecuteRequest> {
        self.seen.lock().unwrap().clone()
    }
}

impl Executor for Fake {
    fn execute(
        &self,
        request: ExecuteRequest,
    ) -> impl Future<Output = Result<Outcome, Error>> + Send {
        self.seen.lock().unwrap().push(request.clone());
        (self.script)(request)
    }

    fn dispose(&self) -> impl Future<Output = ()> + Send {
        self.disposed.store(true, Ordering::SeqCst);
        async {}
    }
}

fn success(result: JsValue) -> Outcome {
    Outcome {
        result,
        error: None,
        logs: vec![],
    }
}

fn echo() -> ToolFn {
    tool(|args| Ok(JsValue::Array(args)))
}

fn provider(name: &str, fns: Vec<(&str, ToolFn)>) -> Provider {
    fns.into_iter()
        .fold(Provider::new(name), |provider, (n, f)| provider.tool(n, f))
}

fn call(provider: &str, tool: &str, args_json: &str) -> ToolCall {
    ToolCall {
        provider: provider.into(),
        tool: tool.into(),
        args_json: args_json.into(),
    }
}

/// A fake whose run makes `calls` in order and returns their envelopes as an array of
/// `{result}` / `{error}` objects.
fn calling(calls: Vec<ToolCall>) -> Fake {
    Fake::new(move |request| {
        let calls = calls.clone();
        Box::pin(async move {
            let dispatch = request.dispatch.expect("every request carries a dispatch");
            let mut answers = Vec::new();
            for call in calls {
                answers.push(match dispatch.dispatch(call).await {
                    Envelope::Result(v) => JsValue::Object(vec![("result".into(), v)]),
                    Envelope::Error(e) => {
                        JsValue::Object(vec![("error".into(), JsValue::String(e.into()))])
                    }
                });
            }
            Ok(success(JsValue::Array(answers)))
        })
    })
}

fn ok(v: JsValue) -> JsValue {
    JsValue::Object(vec![("result".into(), v)])
}

fn err(text: &str) -> JsValue {
    JsValue::Object(vec![("error".into(), JsValue::String(text.into()))])
}

fn num(n: f64) -> JsValue {
    JsValue::Number(n)
}

fn s(text: &str) -> JsValue {
    JsValue::String(text.into())
}

#[tokio::test]
async fn a_bare_record_warns_on_the_host_and_becomes_codemode() {
    let warnings = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&warnings);
    let executor = CodemodeExecutor::new(calling(vec![call("codemode", "echo", "[1]")]))
        .with_warning_sink(Arc::new(move |text| sink.lock().unwrap().push(text.into())));
    let result = executor
        .execute(
            "async () => 1",
            Tools::Fns(vec![("echo".into(), echo())]),
            ExecuteOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(*warnings.lock().unwrap(), vec![DEPRECATION_WARNING]);
    assert_eq!(
        DEPRECATION_WARNING,
        "[@cloudflare/codemode] Passing raw fns to executor.execute() is deprecated. Use ResolvedProvider[] instead. This will be removed in the next major version."
    );
    assert_eq!(result.logs, Vec::<String>::new());
    assert_eq!(
        result.result,
        JsValue::Array(vec![ok(JsValue::Array(vec![num(1.0)]))])
    );
    let request = &executor.native().requests()[0];
    assert_eq!(request.providers[0].name, "codemode");
    assert_eq!(request.providers[0].tools, vec!["echo"]);
}

#[tokio::test]
async fn a_refused_request_never_reaches_the_native_executor() {
    let cases: Vec<(Vec<Provider>, Vec<&str>, &str)> = vec![
        (
            vec![provider("__logs", vec![])],
            vec![],
            "Provider name \"__logs\" is reserved",
        ),
        (
            vec![provider("class", vec![])],
            vec![],
            "Provider name \"class\" is a JavaScript reserved word",
        ),
        (
            vec![provider("api", vec![])],
            vec!["api"],
            "Duplicate name \"api\" (connector clashes with provider)",
        ),
        (
            vec![provider(
                "gh",
                vec![("list-issues", echo()), ("list.issues", echo())],
            )],
            vec![],
            "Tool names \"list-issues\" and \"list.issues\" both sanitize to \"list_issues\" in provider \"gh\"",
        ),
    ];
    for (providers, connectors, text) in cases {
        let executor = CodemodeExecutor::new(Fake::returning(num(1.0)));
        let options = connectors
            .iter()
            .fold(ExecuteOptions::new(), |options, name| {
                options.connector(Connector::new(*name, Binding::default()))
            });
        let result = executor
            .execute("1", Tools::Providers(providers), options)
            .await
            .unwrap();
        assert_eq!(
            result,
            ExecuteResult::new(JsValue::Undefined, Some(text.into()), vec![])
        );
        assert!(executor.native().requests().is_empty(), "{text}");
    }
}

#[tokio::test]
async fn the_request_carries_the_plan_and_the_options() {
    let executor = CodemodeExecutor::new(Fake::returning(JsValue::Undefined));
    let mut gh = provider(
        "gh",
        vec![("list-issues", echo()), ("2fa", echo()), ("delete", echo())],
    );
    gh.prelude = Some("gh.local = () => 1".into());
    gh.positional_args = Some(false);
    gh.proxy_source = Some("({})".into());
    let modules = BTreeMap::from([("lib.js".to_string(), "export const a = 1".to_string())]);
    let mut options = ExecuteOptions::new()
        .connector(Connector::new("conn", Binding::default()))
        .timeout(Timeout::Millis(300))
        .outbound(Outbound::Blocked);
    options.modules = Some(modules.clone());
    executor
        .execute(
            "1 + 2",
            Tools::Providers(vec![gh, provider("plain", vec![])]),
            options,
        )
        .await
        .unwrap();
    let request = executor.native().requests().remove(0);
    assert_eq!(request.code, "async () => {\nreturn (1 + 2)\n}");
    assert!(request.count_host_waits);
    assert!(request.dispatch.is_some());
    assert_eq!(request.modules, Some(modules));
    assert_eq!(request.timeout, Some(Timeout::Millis(300)));
    assert_eq!(request.outbound, Some(Outbound::Blocked));
    assert_eq!(
        request.providers,
        vec![
            ProviderDescriptor {
                name: "gh".into(),
                tools: vec!["list_issues".into(), "_2fa".into(), "delete_".into()],
                positional_args: Some(false),
                proxy_source: Some("({})".into()),
                prelude: Some("gh.local = () => 1".into()),
            },
            ProviderDescriptor {
                name: "plain".into(),
                ..ProviderDescriptor::default()
            },
            ProviderDescriptor {
                name: "conn".into(),
                ..ProviderDescriptor::default()
            },
        ]
    );
}

#[tokio::test]
async fn absent_options_stay_absent_and_the_bound_defaults() {
    let executor = CodemodeExecutor::new(Fake::returning(JsValue::Undefined));
    executor
        .execute("", Tools::Providers(vec![]), ExecuteOptions::default())
        .await
        .unwrap();
    let request = executor.native().requests().remove(0);
    assert_eq!(request.code, "async () => {}");
    assert_eq!(request.timeout, Some(Timeout::Millis(60_000)));
    assert_eq!(request.modules, None);
    assert_eq!(request.outbound, None);
    assert!(request.dispatch.is_some(), "dispatch rides every request");

    let executor = CodemodeExecutor::new(Fake::returning(JsValue::Undefined))
        .with_default_timeout(Timeout::Millis(5));
    executor
        .execute("1", Tools::Providers(vec![]), ExecuteOptions::default())
        .await
        .unwrap();
    assert_eq!(
        executor.native().requests()[0].timeout,
        Some(Timeout::Millis(5))
    );
}

#[tokio::test]
async fn calls_reach_tools_by_their_sanitized_identifier() {
    let gh = provider(
        "gh",
        vec![
            ("list-issues", echo()),
            ("fail", tool(|_| Err(Thrown::Error("boom".into())))),
            ("throw-value", tool(|_| Err(Thrown::Value(num(42.0))))),
            ("empty", tool(|_| Err(Thrown::Error(String::new())))),
            ("nothing", tool(|_| Ok(JsValue::Undefined))),
        ],
    );
    let executor = CodemodeExecutor::new(calling(vec![
        call("gh", "list_issues", "[{\"repo\":\"x\"},2]"),
        call("gh", "list-issues", "[]"),
        call("github", "list_issues", "[]"),
        call("gh", "fail", "[]"),
        call("gh", "throw_value", "[]"),
        call("gh", "empty", "[]"),
        call("gh", "nothing", "[]"),
        call("gh", "list_issues", ""),
        call("gh", "list_issues", "7"),
    ]));
    let result = executor
        .execute(
            "async () => 1",
            Tools::Providers(vec![gh]),
            ExecuteOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(
        result.result,
        JsValue::Array(vec![
            ok(JsValue::Array(vec![
                JsValue::Object(vec![("repo".into(), s("x"))]),
                num(2.0)
            ])),
            err("Tool \"list-issues\" not found"),
            err("Tool \"list_issues\" not found"),
            err("boom"),
            err("42"),
            err(""),
            ok(JsValue::Undefined),
            ok(JsValue::Array(vec![])),
            ok(JsValue::Array(vec![num(7.0)])),
        ])
    );
}

/// A connector binding that records its calls and answers by tool name.
#[derive(Default)]
struct Binding {
    calls: Mutex<Vec<(String, JsValue)>>,
}

impl ConnectorBinding for Binding {
    fn call_tool(&self, tool: String, arg: JsValue) -> BoxFuture<'static, Result<JsValue, Thrown>> {
        self.calls.lock().unwrap().push((tool.clone(), arg.clone()));
        Box::pin(async move {
            match tool.as_str() {
                "pause" => Ok(JsValue::Object(vec![(
                    "__codemode_control__".into(),
                    s("pause"),
                )])),
                "deny" => Ok(JsValue::Object(vec![
                    ("__codemode_control__".into(), s("error")),
                    ("message".into(), s("denied")),
                ])),
                "fail" => Err(Thrown::Error("rpc failed".into())),
                _ => Ok(arg),
            }
        })
    }
}

#[tokio::test]
async fn connectors_take_the_first_argument_and_turn_markers_into_errors() {
    let binding = Arc::new(Binding::default());
    let executor = CodemodeExecutor::new(calling(vec![
        call("conn", "anything", "[1,2]"),
        call("conn", "none", "[]"),
        call("conn", "pause", "[]"),
        call("conn", "deny", "[]"),
        call("conn", "fail", "[]"),
    ]));
    let mut options = ExecuteOptions::new();
    options
        .connectors
        .push(Connector::shared("conn", binding.clone()));
    let result = executor
        .execute("async () => 1", Tools::Providers(vec![]), options)
        .await
        .unwrap();
    assert_eq!(
        result.result,
        JsValue::Array(vec![
            ok(num(1.0)),
            ok(JsValue::Undefined),
            err("__CODEMODE_PAUSE__"),
            err("denied"),
            err("rpc failed"),
        ])
    );
    assert_eq!(
        binding.calls.lock().unwrap()[..2],
        [
            ("anything".to_string(), num(1.0)),
            ("none".to_string(), JsValue::Undefined)
        ]
    );
}

#[tokio::test]
async fn calls_that_outlive_the_execution_get_the_late_text() {
    let started = Arc::new(AtomicUsize::new(0));
    let finished = Arc::new(AtomicUsize::new(0));
    let (s1, f1) = (Arc::clone(&started), Arc::clone(&finished));
    let slow: ToolFn = Arc::new(move |_| {
        s1.fetch_add(1, Ordering::SeqCst);
        let f1 = Arc::clone(&f1);
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(40)).await;
            f1.fetch_add(1, Ordering::SeqCst);
            Ok(s("done"))
        })
    });
    type Leaked = Option<(Arc<dyn Dispatch>, BoxFuture<'static, Envelope>)>;
    let leaked: Arc<Mutex<Leaked>> = Arc::new(Mutex::new(None));
    let keep = Arc::clone(&leaked);
    let executor = CodemodeExecutor::new(Fake::new(move |request| {
        let keep = Arc::clone(&keep);
        Box::pin(async move {
            let dispatch = request.dispatch.unwrap();
            // Start a call and return without awaiting it.
            let pending = dispatch.dispatch(call("gh", "slow", "[]"));
            *keep.lock().unwrap() = Some((dispatch, pending));
            Ok(success(num(1.0)))
        })
    }));
    let result = executor
        .execute(
            "async () => { gh.slow(); return 1 }",
            Tools::Providers(vec![provider("gh", vec![("slow", slow)])]),
            ExecuteOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(result.result, num(1.0));
    let (dispatch, pending) = leaked.lock().unwrap().take().unwrap();
    assert_eq!(
        pending.await,
        Envelope::Error(texts::LATE_CALL_MESSAGE.into())
    );
    assert_eq!(
        dispatch.dispatch(call("gh", "slow", "[]")).await,
        Envelope::Error(texts::LATE_CALL_MESSAGE.into())
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(started.load(Ordering::SeqCst), 2);
    assert_eq!(
        finished.load(Ordering::SeqCst),
        2,
        "host work is not cancelled"
    );
}

fn failing(error: RunError, logs: Vec<LogLine>) -> Fake {
    Fake::new(move |_| {
        let (error, logs) = (error.clone(), logs.clone());
        Box::pin(async move {
            Ok(Outcome {
                result: JsValue::Undefined,
                error: Some(error),
                logs,
            })
        })
    })
}

async fn run(native: Fake) -> Result<ExecuteResult, Error> {
    CodemodeExecutor::new(native)
        .execute(
            "async () => 1",
            Tools::Providers(vec![]),
            ExecuteOptions::default(),
        )
        .await
}

#[tokio::test]
async fn outcomes_render_as_the_dialect_reports_them() {
    let logs = vec![
        LogLine {
            level: LogLevel::Log,
            text: "hello 1 [object Object]".into(),
        },
        LogLine {
            level: LogLevel::Warn,
            text: "careful 42".into(),
        },
        LogLine {
            level: LogLevel::Error,
            text: "bad".into(),
        },
    ];
    let result = run(failing(RunError::TimedOut { bound_ms: 300 }, logs))
        .await
        .unwrap();
    assert_eq!(
        result,
        ExecuteResult::new(
            JsValue::Undefined,
            Some("Execution timed out".into()),
            vec![
                "hello 1 [object Object]".into(),
                "[warn] careful 42".into(),
                "[error] bad".into()
            ]
        )
    );
    let own = "Execution timed out waiting for the vendor API";
    let result = run(failing(
        RunError::Threw {
            message: Some(s(own)),
            thrown: JsValue::Error {
                name: "Error".into(),
                message: own.into(),
            },
        },
        vec![],
    ))
    .await
    .unwrap();
    assert_eq!(result.error.as_deref(), Some(own));
    let result = run(failing(
        RunError::Threw {
            message: Some(s("")),
            thrown: JsValue::Undefined,
        },
        vec![],
    ))
    .await
    .unwrap();
    assert_eq!(result, ExecuteResult::new(JsValue::Undefined, None, vec![]));
    assert_eq!(
        run(failing(
            RunError::Threw {
                message: None,
                thrown: JsValue::Null
            },
            vec![]
        ))
        .await,
        Err(Error::Rejected(
            "Cannot read properties of null (reading 'message')".into()
        ))
    );
}

#[tokio::test]
async fn a_native_failure_passes_through_and_dispose_forwards() {
    let executor = CodemodeExecutor::new(Fake::new(|_| {
        Box::pin(async { Err(Error::StartFailed("SyntaxError: nope".into())) })
    }));
    assert_eq!(
        executor
            .execute("(", Tools::Providers(vec![]), ExecuteOptions::default())
            .await,
        Err(Error::StartFailed("SyntaxError: nope".into()))
    );
    executor.dispose().await;
    assert!(executor.native().disposed.load(Ordering::SeqCst));
}
