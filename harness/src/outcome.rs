//! Outcomes, normalized: each side's outcome brought to one JSON object before anything is
//! compared (`docs/case-format.md`, "The outcome, normalized").
//!
//! The object's keys, in order: `result` (absent when `undefined`), `error`, `logs` (always),
//! `calls` (always), `threw` (when `execute()` itself rejected). Values are the JSON
//! projection: `JSON.stringify` exactly, except binary data (`{"$Uint8Array": [1, 2]}`,
//! `{"$ArrayBuffer": [..]}`, `{"$DataView": [..]}`) and BigInt (`{"$BigInt": "10"}`, which
//! `JSON.stringify` refuses). Numbers are canonical (integers where integral and safe), so a
//! number read from the reference's JSON text and the same number computed here are equal.
//!
//! Redaction beyond that is a named [`Rule`], applied the same way to both sides and listed
//! in every report.

use codemode_executor::protocol::{Binary, BinaryKind, JsValue, number_json};
use regex::Regex;
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// A named normalization rule, applied to both sides alike.
pub struct Rule {
    /// The rule's name, as reports list it.
    pub name: &'static str,
    /// What the rule does, in one sentence.
    pub about: &'static str,
    apply: fn(&mut Map<String, Value>),
}

/// Every rule, in the order they apply. New rules go at the end, so an outcome normalized
/// before a rule existed still compares the same where the rule does not touch it.
pub static RULES: &[Rule] = &[Rule {
    name: "worker-start-location",
    about: "A worker start failure names a line:column inside the generated module (`at executor.js:52:10`), which moves between releases and has no meaning for our executor; the location line is removed from `threw`.",
    apply: redact_start_location,
}];

static START_LOCATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\n\s+at [^\n]*:\d+:\d+\s*$").expect("the pattern is valid"));

fn redact_start_location(outcome: &mut Map<String, Value>) {
    if let Some(Value::String(threw)) = outcome.get_mut("threw")
        && threw.starts_with("Failed to start Worker:")
    {
        *threw = START_LOCATION.replace(threw, "").into_owned();
    }
}

/// The JSON projection of a value; `None` where it is `undefined` (or a function).
pub fn project(value: &JsValue) -> Option<Value> {
    match value {
        JsValue::BigInt(digits) => Some(tagged("$BigInt", Value::String(digits.clone()))),
        JsValue::Array(items) => Some(Value::Array(
            items
                .iter()
                .map(|v| project(v).unwrap_or(Value::Null))
                .collect(),
        )),
        // A method crosses the reference's RPC as a stub, and so does `toJSON`: JSON.stringify
        // calls it, gets an RPC promise (a function), and drops the whole value.
        JsValue::Object(entries)
            if entries
                .iter()
                .any(|(k, v)| k == "toJSON" && *v == JsValue::Function) =>
        {
            None
        }
        JsValue::Object(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                if let Some(json) = project(value) {
                    map.insert(key.to_text().into_owned(), json);
                }
            }
            Some(Value::Object(map))
        }
        other => other.to_json_with(&project_binary),
    }
}

fn project_binary(binary: &Binary) -> Value {
    let key = format!("${}", binary.kind.name());
    let elements = match binary.kind {
        BinaryKind::ArrayBuffer | BinaryKind::DataView => {
            binary.bytes.iter().map(|b| Value::from(*b)).collect()
        }
        _ => binary.elements_json(),
    };
    tagged(&key, Value::Array(elements))
}

fn tagged(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(key.to_string(), value);
    Value::Object(map)
}

/// Brings every number to its canonical form (see the module docs).
pub fn canonicalize(value: &mut Value) {
    match value {
        Value::Number(n) => {
            if let Some(f) = n.as_f64() {
                *value = number_json(f);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(canonicalize),
        Value::Object(map) => map.values_mut().for_each(canonicalize),
        _ => {}
    }
}

/// Assembles a normalized outcome from its parts and applies every [`Rule`].
pub fn assemble(
    result: Option<Value>,
    error: Option<Value>,
    logs: Vec<Value>,
    calls: Vec<Value>,
    threw: Option<String>,
) -> Value {
    let mut map = Map::new();
    if let Some(result) = result {
        map.insert("result".into(), result);
    }
    if let Some(error) = error {
        map.insert("error".into(), error);
    }
    map.insert("logs".into(), Value::Array(logs));
    map.insert("calls".into(), Value::Array(calls));
    if let Some(threw) = threw {
        map.insert("threw".into(), Value::String(threw));
    }
    for rule in RULES {
        (rule.apply)(&mut map);
    }
    let mut value = Value::Object(map);
    canonicalize(&mut value);
    value
}

/// Normalizes the reference worker's answer (`{"outcome": {...}, "threw"?: "..."}`), taking
/// its parts rather than copying them: a large answer is held once.
pub fn from_reference(mut response: Value) -> Result<Value, String> {
    if !response.get("outcome").is_some_and(Value::is_object) {
        return Err(format!(
            "the reference worker answered without an outcome: {response}"
        ));
    }
    let threw = match response.get_mut("threw").map(Value::take) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text),
        Some(other) => Some(other.to_string()),
    };
    let Some(Value::Object(mut outcome)) = response.get_mut("outcome").map(Value::take) else {
        return Err(format!(
            "the reference worker answered without an outcome: {response}"
        ));
    };
    let mut list = |key: &str| match outcome.remove(key) {
        Some(Value::Array(items)) => Ok(items),
        None => Ok(Vec::new()),
        Some(other) => Err(format!(
            "the reference worker's {key} is not a list: {other}"
        )),
    };
    let logs = list("logs")?;
    let calls = list("calls")?;
    Ok(assemble(
        outcome.remove("result"),
        outcome.remove("error"),
        logs,
        calls,
        threw,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn binary_projects_by_type_and_elements() {
        let u16s = JsValue::Binary(Binary {
            kind: BinaryKind::Uint16Array,
            bytes: vec![1, 1],
        });
        assert_eq!(project(&u16s), Some(json!({"$Uint16Array": [257]})));
        let view = JsValue::Binary(Binary {
            kind: BinaryKind::DataView,
            bytes: vec![0, 7],
        });
        assert_eq!(project(&view), Some(json!({"$DataView": [0, 7]})));
    }

    #[test]
    fn bigint_and_undefined() {
        assert_eq!(
            project(&JsValue::BigInt("10".into())),
            Some(json!({"$BigInt": "10"}))
        );
        assert_eq!(project(&JsValue::Undefined), None);
        assert_eq!(
            project(&JsValue::Array(vec![JsValue::Undefined, JsValue::Function])),
            Some(json!([null, null]))
        );
    }

    #[test]
    fn a_tojson_stub_drops_the_value_as_on_the_reference() {
        let value = JsValue::Object(vec![
            ("toJSON".into(), JsValue::Function),
            ("x".into(), JsValue::Number(1.0)),
        ]);
        assert_eq!(project(&value), None);
        assert_eq!(project(&JsValue::Array(vec![value])), Some(json!([null])));
    }

    #[test]
    fn numbers_from_text_and_from_values_agree() {
        let mut parsed: Value = serde_json::from_str("[2, 2.5, 1152921504606846976, -3]").unwrap();
        canonicalize(&mut parsed);
        let computed = project(&JsValue::Array(vec![
            JsValue::Number(2.0),
            JsValue::Number(2.5),
            JsValue::Number(1152921504606846976.0),
            JsValue::Number(-3.0),
        ]))
        .unwrap();
        assert_eq!(parsed, computed);
    }

    #[test]
    fn start_failure_location_is_redacted() {
        let outcome = assemble(
            None,
            None,
            vec![],
            vec![],
            Some("Failed to start Worker:\nUncaught SyntaxError: Unexpected token 'class'\n  at executor.js:52:10".into()),
        );
        assert_eq!(
            outcome["threw"],
            json!("Failed to start Worker:\nUncaught SyntaxError: Unexpected token 'class'")
        );
    }

    #[test]
    fn reference_answers_normalize() {
        let response = json!({"outcome": {"result": 2, "logs": []}, "elapsed_ms": 3});
        assert_eq!(
            from_reference(response.clone()).unwrap(),
            json!({"result": 2, "logs": [], "calls": []})
        );
    }
}
