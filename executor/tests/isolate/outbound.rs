//! Outbound requests on the isolate executor: `fetch` blocked by default, or routed through
//! the host's handler (the reference's `globalOutbound`), bounded by the run's clock.
//! What a program sees of each answer is pinned against the reference in
//! `cases/outbound.yaml`; these tests pin the native contract around it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use codemode_executor::protocol::{
    BoxFuture, ExecuteRequest, Executor, JsValue, Outbound, OutboundHandler, OutboundRequest,
    OutboundResponse, Outcome, RunError, Timeout, default_status_text,
};

use crate::support::one_worker;

/// Records every request; answers after `delay` (never, with `None`), or fails on `/fail`.
struct Recorder {
    requests: Mutex<Vec<OutboundRequest>>,
    delay: Option<Duration>,
    finished: Arc<AtomicUsize>,
}

impl Recorder {
    fn new(delay: Option<Duration>) -> Arc<Self> {
        Arc::new(Self {
            requests: Mutex::new(Vec::new()),
            delay,
            finished: Arc::new(AtomicUsize::new(0)),
        })
    }
}

impl OutboundHandler for Recorder {
    fn fetch(
        &self,
        request: OutboundRequest,
    ) -> BoxFuture<'static, Result<OutboundResponse, String>> {
        self.requests.lock().unwrap().push(request.clone());
        let delay = self.delay;
        let finished = self.finished.clone();
        Box::pin(async move {
            match delay {
                Some(delay) => tokio::time::sleep(delay).await,
                None => std::future::pending::<()>().await,
            }
            finished.fetch_add(1, Ordering::SeqCst);
            if request.url.ends_with("/fail") {
                return Err("the proxy refused".into());
            }
            Ok(OutboundResponse::new(201)
                .header("X-Seen", request.method.clone())
                .body(request.body.unwrap_or_default()))
        })
    }
}

async fn run(code: &str, outbound: Option<Outbound>, count_host_waits: bool) -> Outcome {
    one_worker()
        .execute(ExecuteRequest {
            code: code.into(),
            outbound,
            count_host_waits,
            timeout: Some(Timeout::Millis(300)),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap()
}

fn string(s: &str) -> JsValue {
    JsValue::String(s.into())
}

#[tokio::test]
async fn blocked_is_the_default_with_the_reference_text() {
    for outbound in [None, Some(Outbound::Blocked)] {
        let outcome = run(
            r#"async () => { try { await fetch("https://x.test/"); } catch (e) { return e.message; } }"#,
            outbound,
            false,
        )
        .await;
        let JsValue::String(text) = outcome.result else {
            panic!("a text: {outcome:?}")
        };
        assert!(
            text.to_text()
                .starts_with("This worker is not permitted to access the internet")
        );
    }
}

#[tokio::test]
async fn the_handler_gets_the_request_and_answers_the_program() {
    let handler = Recorder::new(Some(Duration::ZERO));
    let outcome = run(
        r#"async () => {
            const r = await fetch("https://api.test/p?q=1", {method: "post", body: "hi", headers: {"X-B": "2", "a": "1"}});
            return [r.status, r.statusText, r.headers.get("x-seen"), await r.text()];
        }"#,
        Some(Outbound::Host(handler.clone())),
        false,
    )
    .await;
    assert_eq!(outcome.error, None);
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![
            JsValue::Number(201.0),
            string("Created"),
            string("POST"),
            string("hi"),
        ])
    );
    let requests = handler.requests.lock().unwrap();
    assert_eq!(
        *requests,
        vec![OutboundRequest {
            method: "POST".into(),
            url: "https://api.test/p?q=1".into(),
            headers: vec![
                ("a".into(), "1".into()),
                ("content-length".into(), "2".into()),
                ("content-type".into(), "text/plain;charset=UTF-8".into()),
                ("x-b".into(), "2".into()),
            ],
            body: Some(b"hi".to_vec()),
        }]
    );
}

#[tokio::test]
async fn a_failing_handler_rejects_the_fetch_with_its_text() {
    let outcome = run(
        r#"async () => { try { await fetch("https://api.test/fail"); } catch (e) { return [e.name, e.message]; } }"#,
        Some(Outbound::Host(Recorder::new(Some(Duration::ZERO)))),
        false,
    )
    .await;
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![string("Error"), string("the proxy refused")])
    );
}

#[tokio::test]
async fn a_handler_that_never_answers_is_bounded_by_the_run_clock() {
    // Counting host waits, the bound is wall-clock time.
    let started = Instant::now();
    let outcome = run(
        r#"async () => { await fetch("https://api.test/"); return "unreached"; }"#,
        Some(Outbound::Host(Recorder::new(None))),
        true,
    )
    .await;
    assert!(
        matches!(outcome.error, Some(RunError::TimedOut { bound_ms: 300 })),
        "{outcome:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn without_counting_host_waits_a_slow_handler_does_not_use_the_bound() {
    let outcome = run(
        r#"async () => (await fetch("https://api.test/", {method: "PUT", body: "late"})).text()"#,
        Some(Outbound::Host(Recorder::new(Some(Duration::from_millis(
            600,
        ))))),
        false,
    )
    .await;
    assert_eq!(outcome.error, None);
    assert_eq!(outcome.result, string("late"));
}

#[tokio::test]
async fn an_abandoned_request_is_dropped_and_never_answers_a_later_run() {
    let handler = Recorder::new(Some(Duration::from_millis(200)));
    let executor = one_worker();
    let first = executor
        .execute(ExecuteRequest {
            code: r#"async () => { fetch("https://api.test/"); const c = new AbortController(); const p = fetch("https://api.test/", {signal: c.signal}); await new Promise((r) => setTimeout(r, 10)); c.abort(); try { await p; } catch (e) { return e.name; } }"#.into(),
            outbound: Some(Outbound::Host(handler.clone())),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(first.result, string("AbortError"));
    // The second run waits past the time the first run's handlers would have answered.
    let second = executor
        .execute(ExecuteRequest {
            code:
                r#"async () => { await new Promise((r) => setTimeout(r, 400)); return "second"; }"#
                    .into(),
            outbound: Some(Outbound::Host(handler.clone())),
            ..ExecuteRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(second.result, string("second"));
    assert_eq!(handler.requests.lock().unwrap().len(), 2);
    assert_eq!(
        handler.finished.load(Ordering::SeqCst),
        0,
        "both handlers were dropped with their run"
    );
}

#[tokio::test]
async fn concurrent_requests_each_get_their_answer() {
    let outcome = run(
        r#"async () => Promise.all(["a", "b", "c"].map((b) => fetch("https://api.test/", {method: "POST", body: b}).then((r) => r.text())))"#,
        Some(Outbound::Host(Recorder::new(Some(Duration::from_millis(20))))),
        true,
    )
    .await;
    assert_eq!(
        outcome.result,
        JsValue::Array(vec![string("a"), string("b"), string("c")])
    );
}

/// `fixtures/status_texts.json` was measured on the live reference (reference@0.5.6): for each
/// status 200–599, a `globalOutbound` answering `new Response(null, {status})` and the
/// sandbox reading `statusText`.
#[test]
fn default_status_texts_are_the_measured_ones() {
    let measured: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(include_str!("../fixtures/status_texts.json")).unwrap();
    assert_eq!(measured.len(), 400);
    for (status, text) in measured {
        assert_eq!(
            default_status_text(status.parse().unwrap()),
            text.as_str().unwrap(),
            "status {status}"
        );
    }
}
