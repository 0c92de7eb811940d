//! A case's described outbound handler materialized for our executor, meaning exactly what
//! `reference-worker/src/outbound.js` makes it mean on the reference side, where it is the
//! executor's `globalOutbound` (a loopback `Fetcher` onto the worker's own entrypoint).
//!
//! Each answer is the response the reference's handler builds, as it reaches the sandbox:
//! a response built without a status text carries the runtime's default
//! ([`default_status_text`](codemode_executor::protocol::default_status_text)), a string body gets `content-type: text/plain;charset=UTF-8`
//! unless the case names one, and the echo answers as `Response.json` does.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codemode_executor::protocol::{
    BoxFuture, JsValue, Outbound, OutboundHandler, OutboundRequest, OutboundResponse,
};
use serde_json::Value;

use crate::catalogue::{
    Answer, OutboundBehaviour, OutboundKind, OutboundSpec, ResponseSpec, decode_value,
};

/// The executor's outbound mode for a case's `options.outbound`.
pub fn materialize(spec: &OutboundSpec) -> Outbound {
    match spec {
        OutboundSpec::Blocked => Outbound::Blocked,
        OutboundSpec::Handler(behaviour) => Outbound::Host(Arc::new(CaseHandler {
            behaviour: behaviour.clone(),
            requests: AtomicUsize::new(0),
        })),
    }
}

/// A described handler, with its own request counter for `respond_seq`.
struct CaseHandler {
    behaviour: OutboundBehaviour,
    requests: AtomicUsize,
}

impl OutboundHandler for CaseHandler {
    fn fetch(
        &self,
        request: OutboundRequest,
    ) -> BoxFuture<'static, Result<OutboundResponse, String>> {
        let n = self.requests.fetch_add(1, Ordering::SeqCst);
        let delay = self.behaviour.delay_ms.filter(|ms| *ms > 0);
        let answer = match &self.behaviour.kind {
            OutboundKind::Throws(text) => Err(text.clone()),
            OutboundKind::Answers(answers) => Ok(match &answers[n.min(answers.len() - 1)] {
                Answer::Echo => echo(&request),
                Answer::Respond(spec) => respond(spec),
            }),
        };
        Box::pin(async move {
            if let Some(ms) = delay {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            answer
        })
    }
}

/// The response a declared one becomes.
fn respond(spec: &ResponseSpec) -> OutboundResponse {
    let mut response = OutboundResponse::new(spec.status);
    if let Some(text) = &spec.status_text {
        response.status_text = text.clone();
    }
    response.headers = spec
        .headers
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    match &spec.body {
        Some(Value::String(text)) => {
            if !spec
                .headers
                .keys()
                .any(|k| k.eq_ignore_ascii_case("content-type"))
            {
                response
                    .headers
                    .push(("content-type".into(), "text/plain;charset=UTF-8".into()));
            }
            response.body = text.as_bytes().to_vec();
        }
        Some(binary) => {
            if let Ok(JsValue::Binary(binary)) = decode_value(binary) {
                response.body = binary.bytes;
            }
        }
        None => {}
    }
    response
}

/// `Response.json({method, url, headers, body})` of the request: headers as an object in the
/// request's (sorted, lower-cased) order, the last value winning for a repeated name; the
/// body decoded as UTF-8 with replacement characters, or `null`.
fn echo(request: &OutboundRequest) -> OutboundResponse {
    let mut headers = serde_json::Map::new();
    for (name, value) in &request.headers {
        headers.insert(name.clone(), Value::String(value.clone()));
    }
    let body = match &request.body {
        Some(bytes) => Value::String(String::from_utf8_lossy(bytes).into_owned()),
        None => Value::Null,
    };
    let text = format!(
        "{{\"method\":{},\"url\":{},\"headers\":{},\"body\":{}}}",
        Value::String(request.method.clone()),
        Value::String(request.url.clone()),
        Value::Object(headers),
        body
    );
    OutboundResponse::new(200)
        .header("content-type", "application/json")
        .body(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn handler(raw: Value) -> Arc<dyn OutboundHandler> {
        match materialize(&OutboundSpec::parse(&raw).unwrap()) {
            Outbound::Host(handler) => handler,
            _ => panic!("a handler"),
        }
    }

    fn get(url: &str) -> OutboundRequest {
        OutboundRequest {
            method: "GET".into(),
            url: url.into(),
            headers: vec![("x-b".into(), "2".into())],
            body: None,
        }
    }

    #[tokio::test]
    async fn echo_answers_the_request_as_json() {
        let response = handler(json!({"echo": true}))
            .fetch(get("http://x.test/"))
            .await
            .unwrap();
        assert_eq!(
            (response.status, response.status_text.as_str()),
            (200, "OK")
        );
        assert_eq!(
            String::from_utf8(response.body).unwrap(),
            r#"{"method":"GET","url":"http://x.test/","headers":{"x-b":"2"},"body":null}"#
        );
    }

    #[tokio::test]
    async fn respond_seq_repeats_its_last_response_and_strings_get_a_type() {
        let handler = handler(
            json!({"respond_seq": [{"status": 302, "headers": {"location": "/b"}}, {"body": "x"}]}),
        );
        let first = handler.fetch(get("http://x.test/a")).await.unwrap();
        assert_eq!((first.status, first.status_text.as_str()), (302, "Found"));
        for _ in 0..2 {
            let next = handler.fetch(get("http://x.test/b")).await.unwrap();
            assert_eq!(next.body, b"x");
            assert_eq!(
                next.headers,
                vec![(
                    "content-type".to_string(),
                    "text/plain;charset=UTF-8".to_string()
                )]
            );
        }
    }

    #[tokio::test]
    async fn throws_fails_the_request() {
        let answer = handler(json!({"throws": "down"}))
            .fetch(get("http://x.test/"))
            .await;
        assert_eq!(answer, Err("down".to_string()));
    }
}
