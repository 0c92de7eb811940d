//! Hostile programs against the isolate executor's guarantees: what one run does never
//! reaches the next (two runs in sequence on a one-worker pool, the second checking what the
//! first polluted), no global exposes the run loop's hook, a forged dispatch reaches only the
//! run's own dispatch, and the program code that runs while its value is read out (getters,
//! proxy traps, a thrown object's `message`) is stopped at the bound instead of wedging the
//! worker. The catalogue's `hostile.yaml` pins the same programs against the reference.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use codemode_executor::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, Executor, ProviderDescriptor, RunError, Timeout,
    ToolCall, decode_codec_json,
};

use crate::support::{one_worker, strings};

/// Echoes the decoded arguments; records every call it receives.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<ToolCall>>,
}

impl Dispatch for Recorder {
    fn dispatch(&self, call: ToolCall) -> BoxFuture<'static, Envelope> {
        self.calls.lock().unwrap().push(call.clone());
        Box::pin(async move { Envelope::Result(decode_codec_json(&call.args_json).unwrap()) })
    }
}

fn request(code: &str, dispatch: Option<Arc<Recorder>>) -> ExecuteRequest {
    ExecuteRequest {
        code: code.into(),
        providers: vec![ProviderDescriptor {
            name: "codemode".into(),
            tools: vec!["echo".into()],
            ..ProviderDescriptor::default()
        }],
        dispatch: dispatch.map(|d| d as Arc<dyn Dispatch>),
        timeout: Some(Timeout::Millis(500)),
        ..ExecuteRequest::default()
    }
}

#[tokio::test]
async fn what_a_run_pollutes_never_reaches_the_next_one_on_the_same_worker() {
    let executor = one_worker();
    let polluter = "async () => { \
        Object.prototype.polluted = 'yes'; Array.prototype.map = () => 'hijacked'; \
        Function.prototype.call = () => 'hijacked'; JSON.parse = () => 'hijacked'; \
        JSON.stringify = () => '[\"forged\"]'; \
        Map.prototype.set = () => 'hijacked'; globalThis.secret = 'run A'; \
        globalThis.codemode = 'hijacked'; console.log = () => {}; setTimeout(() => {}, 60000); \
        return 'polluted' }";
    let first = executor.execute(request(polluter, None)).await.unwrap();
    assert_eq!(first.error, None, "{first:?}");
    let recorder = Arc::new(Recorder::default());
    let checker = "async () => { console.log('clean'); return [typeof secret, \
        String(({}).polluted), String([1].map((x) => x + 1)), typeof Function.prototype.call, \
        String(JSON.parse('[1]')), JSON.stringify({ a: 1 }), typeof codemode.echo, \
        String(await codemode.echo('clean'))] }";
    let second = executor
        .execute(request(checker, Some(recorder.clone())))
        .await
        .unwrap();
    assert_eq!(second.error, None, "{second:?}");
    assert_eq!(
        second.result,
        strings(&[
            "undefined",
            "undefined",
            "2",
            "function",
            "1",
            "{\"a\":1}",
            "function",
            "clean"
        ])
    );
    assert_eq!(second.logs.len(), 1);
    let calls = recorder.calls.lock().unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].args_json, "[\"clean\"]");
}

#[tokio::test]
async fn no_global_exposes_the_run_loop() {
    let outcome = one_worker()
        .execute(request(
            "async () => Object.getOwnPropertyNames(globalThis).filter((n) => \
             n.startsWith('__') || n.toLowerCase().includes('codemode') || n.toLowerCase().includes('internal'))",
            None,
        ))
        .await
        .unwrap();
    // `codemode` is the run's own provider; `InternalError` is QuickJS's error class.
    assert_eq!(outcome.result, strings(&["InternalError", "codemode"]));
}

#[tokio::test]
async fn a_forged_dispatch_reaches_only_the_runs_own_dispatch() {
    // A proxy source sees the dispatch primitive; calling it with a provider the run was not
    // given reaches the run's own dispatch, which is the only one there is.
    let recorder = Arc::new(Recorder::default());
    let mut forged = request(
        "async () => [typeof __dispatch, await codemode.forge()]",
        Some(recorder.clone()),
    );
    forged.providers[0].proxy_source = Some(
        "({ forge: async () => JSON.parse(await __dispatch('secret', 'readFile', '[\"/etc/passwd\"]')) })"
            .into(),
    );
    let outcome = one_worker().execute(forged).await.unwrap();
    assert_eq!(outcome.error, None, "{outcome:?}");
    let calls = recorder.calls.lock().unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(
        (calls[0].provider.as_str(), calls[0].tool.as_str()),
        ("secret", "readFile")
    );
}

#[tokio::test]
async fn program_code_that_runs_while_the_value_is_read_out_is_bounded() {
    let executor = one_worker();
    for code in [
        "async () => ({ get x() { for (;;) {} } })",
        "async () => new Proxy({}, { ownKeys() { for (;;) {} } })",
        "async () => [1, { get y() { for (;;) {} } }]",
        "async () => { throw { get message() { for (;;) {} } } }",
        "async () => { const e = new Error('x'); Object.defineProperty(e, 'message', { get() { for (;;) {} } }); throw e }",
    ] {
        let started = Instant::now();
        let outcome = executor.execute(request(code, None)).await.unwrap();
        assert_eq!(
            outcome.error,
            Some(RunError::TimedOut { bound_ms: 500 }),
            "{code}: {outcome:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{code} took {:?}",
            started.elapsed()
        );
    }
    // The worker still serves runs.
    let outcome = executor
        .execute(request("async () => ({ get x() { return 1 } })", None))
        .await
        .unwrap();
    assert_eq!(outcome.error, None);
}

#[tokio::test]
async fn a_value_settled_at_the_end_of_the_bound_still_crosses() {
    // The program settles just inside its bound; reading the value out gets at least the
    // crossing grace, so an ordinary result is not turned into a timeout.
    let outcome = one_worker()
        .execute(ExecuteRequest {
            code: "async () => { const end = Date.now() + 2500; while (Date.now() < end) {} \
                   return Array.from({ length: 2000 }, (_, i) => ({ i, s: String(i) })) }"
                .into(),
            timeout: Some(Timeout::Millis(3000)),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(outcome.error, None, "{:?}", outcome.error);
}
