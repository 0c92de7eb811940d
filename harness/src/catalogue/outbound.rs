//! A case's outbound mode (`options.outbound`): blocked, or a described handler that answers
//! the sandbox's `fetch()`, the same on both sides (`reference-worker/src/outbound.js`).

use indexmap::IndexMap;
use serde_json::Value;

use super::values::decode_value;

/// `options.outbound`, as declared.
#[derive(Debug, Clone, PartialEq)]
pub enum OutboundSpec {
    /// `blocked`: `fetch()` fails with the reference's text (also the default).
    Blocked,
    /// A described handler.
    Handler(OutboundBehaviour),
}

/// A described outbound handler.
#[derive(Debug, Clone, PartialEq)]
pub struct OutboundBehaviour {
    /// How the handler answers.
    pub kind: OutboundKind,
    /// Milliseconds the handler waits before answering each request.
    pub delay_ms: Option<u64>,
    /// The declaration as written, which is what the reference worker receives.
    pub raw: Value,
}

/// What the handler answers.
#[derive(Debug, Clone, PartialEq)]
pub enum OutboundKind {
    /// `respond`, `echo` (one answer for every request) or `respond_seq` (the n-th request
    /// gets the n-th answer, the last repeats).
    Answers(Vec<Answer>),
    /// `throws: text`: the handler fails with `new Error(text)`.
    Throws(String),
}

/// One answer of a handler.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A declared response.
    Respond(ResponseSpec),
    /// `echo: true`: 200, `application/json`, `{method, url, headers, body}` of the request.
    Echo,
}

/// One declared response.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseSpec {
    /// 200 when not given.
    pub status: u16,
    /// `None`: the runtime's default text for the status.
    pub status_text: Option<String>,
    /// Header name → value, in the order written.
    pub headers: IndexMap<String, String>,
    /// A string, or a `$<Type>` binary value; `None` for no body.
    pub body: Option<Value>,
}

const KINDS: &str = "respond, respond_seq, echo or throws";

impl OutboundSpec {
    /// The declaration the reference worker receives.
    pub fn raw(&self) -> Value {
        match self {
            OutboundSpec::Blocked => Value::String("blocked".into()),
            OutboundSpec::Handler(handler) => handler.raw.clone(),
        }
    }

    /// Reads `options.outbound`; the error says what is wrong with it.
    pub fn parse(raw: &Value) -> Result<OutboundSpec, String> {
        match raw {
            Value::String(mode) if mode == "blocked" => Ok(OutboundSpec::Blocked),
            Value::Object(map) => {
                let mut delay_ms = None;
                let mut kinds = Vec::new();
                for (key, value) in map {
                    match key.as_str() {
                        "delay_ms" => {
                            delay_ms = Some(value.as_u64().ok_or_else(|| {
                                format!(
                                    "outbound delay_ms takes a whole number of milliseconds, not {value}"
                                )
                            })?)
                        }
                        "respond" | "respond_seq" | "echo" | "throws" => {
                            kinds.push((key.as_str(), value))
                        }
                        other => {
                            return Err(format!(
                                "unknown outbound handler key \"{other}\" (expected one of {KINDS}, with an optional delay_ms)"
                            ));
                        }
                    }
                }
                let [(key, value)] = kinds.as_slice() else {
                    return Err(format!(
                        "an outbound handler takes exactly one of {KINDS}; this one has {}",
                        kinds.len()
                    ));
                };
                let kind = match (*key, value) {
                    ("respond", v) => {
                        OutboundKind::Answers(vec![Answer::Respond(ResponseSpec::parse(v)?)])
                    }
                    ("respond_seq", Value::Array(items)) if !items.is_empty() => {
                        OutboundKind::Answers(
                            items
                                .iter()
                                .map(|item| match item {
                                    Value::Object(m)
                                        if m.len() == 1
                                            && m.get("echo") == Some(&Value::Bool(true)) =>
                                    {
                                        Ok(Answer::Echo)
                                    }
                                    other => ResponseSpec::parse(other).map(Answer::Respond),
                                })
                                .collect::<Result<_, _>>()?,
                        )
                    }
                    ("respond_seq", _) => {
                        return Err("respond_seq takes a non-empty list of responses".into());
                    }
                    ("echo", Value::Bool(true)) => OutboundKind::Answers(vec![Answer::Echo]),
                    ("echo", other) => return Err(format!("echo takes true, not {other}")),
                    ("throws", Value::String(text)) => OutboundKind::Throws(text.clone()),
                    ("throws", other) => {
                        return Err(format!(
                            "outbound throws takes the error's message as a string, not {other}"
                        ));
                    }
                    _ => unreachable!("every kind is matched above"),
                };
                Ok(OutboundSpec::Handler(OutboundBehaviour {
                    kind,
                    delay_ms,
                    raw: raw.clone(),
                }))
            }
            other => Err(format!(
                "outbound is blocked or a handler mapping with one of {KINDS}, not {other}"
            )),
        }
    }
}

impl ResponseSpec {
    fn parse(raw: &Value) -> Result<ResponseSpec, String> {
        let Value::Object(map) = raw else {
            return Err(format!(
                "a response is a mapping of status, status_text, headers and body, not {raw}"
            ));
        };
        let mut spec = ResponseSpec {
            status: 200,
            status_text: None,
            headers: IndexMap::new(),
            body: None,
        };
        for (key, value) in map {
            match (key.as_str(), value) {
                ("status", v) => {
                    spec.status = v
                        .as_u64()
                        .and_then(|s| u16::try_from(s).ok())
                        .filter(|s| (200..=599).contains(s))
                        .ok_or_else(|| format!("a response status is 200 to 599, not {v}"))?
                }
                ("status_text", Value::String(text)) => spec.status_text = Some(text.clone()),
                ("headers", Value::Object(headers)) => {
                    for (name, value) in headers {
                        let Value::String(value) = value else {
                            return Err(format!(
                                "response header \"{name}\" takes a string, not {value}"
                            ));
                        };
                        spec.headers.insert(name.clone(), value.clone());
                    }
                }
                ("body", Value::String(_)) => spec.body = Some(value.clone()),
                ("body", v) => match decode_value(v) {
                    Ok(codemode_executor::protocol::JsValue::Binary(_)) => {
                        spec.body = Some(v.clone())
                    }
                    _ => {
                        return Err(format!(
                            "a response body is a string or a $<Type> binary value, not {v}"
                        ));
                    }
                },
                (other, v) => {
                    return Err(format!(
                        "a response has status, status_text, headers and body; \"{other}\": {v} is none of them"
                    ));
                }
            }
        }
        if spec.body.is_some() && [204, 205, 304].contains(&spec.status) {
            return Err(format!(
                "a {} response has no body (on the reference the handler's Response constructor throws \"Response with null body status (101, 204, 205, or 304) cannot have a body.\")",
                spec.status
            ));
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_mode_parses() {
        assert_eq!(
            OutboundSpec::parse(&json!("blocked")),
            Ok(OutboundSpec::Blocked)
        );
        let Ok(OutboundSpec::Handler(echo)) =
            OutboundSpec::parse(&json!({"echo": true, "delay_ms": 5}))
        else {
            panic!("echo parses")
        };
        assert_eq!(
            (echo.kind, echo.delay_ms),
            (OutboundKind::Answers(vec![Answer::Echo]), Some(5))
        );
        let Ok(OutboundSpec::Handler(respond)) = OutboundSpec::parse(
            &json!({"respond": {"status": 201, "headers": {"a": "1"}, "body": {"$Uint8Array": [1]}}}),
        ) else {
            panic!("respond parses")
        };
        let OutboundKind::Answers(answers) = respond.kind else {
            panic!("a respond kind")
        };
        let [Answer::Respond(spec)] = answers.as_slice() else {
            panic!("one response")
        };
        assert_eq!(spec.status, 201);
        assert_eq!(spec.headers["a"], "1");
    }

    #[test]
    fn mistakes_are_named() {
        let error = |v| OutboundSpec::parse(&v).unwrap_err();
        assert!(error(json!("open")).contains("outbound is blocked or a handler"));
        assert!(error(json!({"echo": true, "throws": "x"})).contains("exactly one"));
        assert!(error(json!({"respond": {"status": 99}})).contains("200 to 599"));
        assert!(error(json!({"respond": {"body": 3}})).contains("a response body"));
        assert!(error(json!({"respond": {"status": 204, "body": ""}})).contains("has no body"));
        assert!(error(json!({"respond": {"delay_ms": 3}})).contains("\"delay_ms\": 3"));
        assert!(error(json!({"eco": true})).contains("unknown outbound handler key \"eco\""));
    }
}
