//! Tool behaviours: what a declared tool does when called, the same on both sides.

use serde_json::Value;

use super::values::decode_value;

/// A tool behaviour, as declared.
#[derive(Debug, Clone, PartialEq)]
pub struct Behaviour {
    /// What the tool does when called.
    pub kind: BehaviourKind,
    /// Milliseconds to wait before acting.
    pub delay_ms: Option<u64>,
    /// The declaration as written, which is what the reference worker receives.
    pub raw: Value,
}

/// What a behaviour does.
#[derive(Debug, Clone, PartialEq)]
pub enum BehaviourKind {
    /// `{returns: V}`: resolves with V.
    Returns(Value),
    /// `{returns_seq: [V1, V2, …]}`: resolves with the n-th value on the n-th call, the last
    /// one repeating.
    ReturnsSeq(Vec<Value>),
    /// `{echo: args}`: resolves with the array of its arguments.
    EchoArgs,
    /// `{echo: first}`: resolves with its first argument.
    EchoFirst,
    /// `{echo: [i, key, …]}`: resolves with the value at that path inside the argument array.
    EchoPath(Vec<PathStep>),
    /// `{throws: "message"}`: rejects with `new Error(message)`.
    Throws(String),
    /// `{throws_value: V}`: rejects with V itself.
    ThrowsValue(Value),
    /// `{control: pause}`: (connectors) resolves with the dialect's pause marker.
    ControlPause,
    /// `{control: {error: "m"}}`: (connectors) resolves with the dialect's error marker.
    ControlError(String),
}

/// One step of an `echo` path: an index into an array or a key into an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathStep {
    /// An index into an array.
    Index(usize),
    /// A key into an object.
    Key(String),
}

const KINDS: &str = "returns, returns_seq, echo, throws, throws_value or control";

impl Behaviour {
    /// Reads a behaviour from its declaration; the error says what is wrong with it.
    pub fn parse(raw: &Value) -> Result<Behaviour, String> {
        let Value::Object(map) = raw else {
            return Err(format!(
                "a tool behaviour is a mapping with one of {KINDS}, not {raw}"
            ));
        };
        let mut delay_ms = None;
        let mut kinds = Vec::new();
        for (key, value) in map {
            match key.as_str() {
                "delay_ms" => {
                    delay_ms = Some(value.as_u64().ok_or_else(|| {
                        format!("delay_ms takes a whole number of milliseconds, not {value}")
                    })?)
                }
                "returns" | "returns_seq" | "echo" | "throws" | "throws_value" | "control" => {
                    kinds.push((key.as_str(), value))
                }
                other => {
                    return Err(format!(
                        "unknown tool behaviour \"{other}\" (expected one of {KINDS}, with an optional delay_ms)"
                    ));
                }
            }
        }
        let [(key, value)] = kinds.as_slice() else {
            return Err(format!(
                "a tool behaviour takes exactly one of {KINDS}; this one has {}",
                kinds.len()
            ));
        };
        let check = |v: &Value| decode_value(v).map(|_| ()).map_err(|e| e.0);
        let kind = match (*key, value) {
            ("returns", v) => {
                check(v)?;
                BehaviourKind::Returns((*v).clone())
            }
            ("returns_seq", Value::Array(items)) if !items.is_empty() => {
                items.iter().try_for_each(check)?;
                BehaviourKind::ReturnsSeq(items.clone())
            }
            ("returns_seq", _) => return Err("returns_seq takes a non-empty list of values".into()),
            ("echo", Value::String(s)) if s == "args" => BehaviourKind::EchoArgs,
            ("echo", Value::String(s)) if s == "first" => BehaviourKind::EchoFirst,
            ("echo", Value::Array(steps)) if !steps.is_empty() => BehaviourKind::EchoPath(
                steps
                    .iter()
                    .map(|step| match step {
                        Value::Number(n) if n.is_u64() => {
                            Ok(PathStep::Index(n.as_u64().unwrap_or(0) as usize))
                        }
                        Value::String(key) => Ok(PathStep::Key(key.clone())),
                        other => Err(format!(
                            "an echo path step is an index or a key, not {other}"
                        )),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            ("echo", other) => {
                return Err(format!(
                    "echo takes args, first or a path list, not {other}"
                ));
            }
            ("throws", Value::String(message)) => BehaviourKind::Throws(message.clone()),
            ("throws", other) => {
                return Err(format!(
                    "throws takes the error's message as a string, not {other} (use throws_value for a non-Error)"
                ));
            }
            ("throws_value", v) => {
                check(v)?;
                BehaviourKind::ThrowsValue((*v).clone())
            }
            ("control", Value::String(s)) if s == "pause" => BehaviourKind::ControlPause,
            ("control", Value::Object(m))
                if m.len() == 1 && m.get("error").is_some_and(Value::is_string) =>
            {
                BehaviourKind::ControlError(m["error"].as_str().unwrap_or_default().to_string())
            }
            ("control", other) => {
                return Err(format!(
                    "control takes pause or {{error: \"message\"}}, not {other}"
                ));
            }
            _ => unreachable!("every kind is matched above"),
        };
        Ok(Behaviour {
            kind,
            delay_ms,
            raw: raw.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_behaviour_parses() {
        assert_eq!(
            Behaviour::parse(&json!({"echo": "args"})).unwrap().kind,
            BehaviourKind::EchoArgs
        );
        assert_eq!(
            Behaviour::parse(&json!({"echo": [0, "q"]})).unwrap().kind,
            BehaviourKind::EchoPath(vec![PathStep::Index(0), PathStep::Key("q".into())])
        );
        let delayed = Behaviour::parse(&json!({"returns": 1, "delay_ms": 5})).unwrap();
        assert_eq!(
            (delayed.kind, delayed.delay_ms),
            (BehaviourKind::Returns(json!(1)), Some(5))
        );
        assert_eq!(
            Behaviour::parse(&json!({"control": {"error": "m"}}))
                .unwrap()
                .kind,
            BehaviourKind::ControlError("m".into())
        );
    }

    #[test]
    fn mistakes_are_named() {
        assert!(
            Behaviour::parse(&json!({"retruns": 1}))
                .unwrap_err()
                .contains("unknown tool behaviour \"retruns\"")
        );
        assert!(
            Behaviour::parse(&json!({"returns": 1, "throws": "x"}))
                .unwrap_err()
                .contains("exactly one")
        );
        assert!(
            Behaviour::parse(&json!({"echo": "all"}))
                .unwrap_err()
                .contains("echo takes")
        );
    }
}
