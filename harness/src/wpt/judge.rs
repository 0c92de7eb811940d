//! The verdict on a side's answers to an entry, by WPT's own expectation: what WPT's test
//! script for the file asserts (`url-constructor`, `url-origin`, `url-statics-canparse`,
//! `url-setters`, `urlencoded-parser`, `urlpatterntests.js`, `toascii.window.js`, `percent-encoding.window.js`,
//! `textdecoder-labels` and the replacement-encoding tests), written here again over the JSON
//! of the answers.

use serde_json::{Map, Value};

use super::suite::{Entry, Kind};

/// Whether a side's answers are the ones WPT expects; `Err` says what differs first.
pub type Verdict = std::result::Result<(), String>;

/// Judges a side's normalized outcome of the entry's program (or why the side could not run
/// it) against the entry's expectation.
pub fn judge(entry: &Entry, outcome: &std::result::Result<Value, String>) -> Verdict {
    let outcome = outcome
        .as_ref()
        .map_err(|why| format!("the side could not run it: {why}"))?;
    if let Some(error) = outcome.get("error") {
        return Err(format!("the program failed: {}", text(error)));
    }
    if let Some(threw) = outcome.get("threw") {
        return Err(format!("the run was refused: {}", text(threw)));
    }
    let answer = outcome.get("result").unwrap_or(&Value::Null);
    let data = &entry.data;
    match entry.kind {
        Kind::UrlParsing => url_parsing(data, answer),
        Kind::UrlSetters => url_setters(data, answer),
        Kind::UrlPattern => url_pattern(data, answer),
        Kind::ToAscii => to_ascii(data, answer),
        Kind::UrlEncodedParser => equal("the pairs", answer, &data["output"]),
        Kind::PercentEncoding => {
            let utf8 = data["output"]["utf-8"].as_str().unwrap_or_default();
            equal(
                "search",
                &answer["search"],
                &Value::String(format!("?{utf8}")),
            )?;
            equal("hash", &answer["hash"], &Value::String(format!("#{utf8}")))
        }
        Kind::EncodingLabels => {
            let name = data["name"].as_str().unwrap_or_default();
            // The replacement encoding's labels are refused (`api-replacement-encodings`).
            let expected = if name == "replacement" {
                "RangeError".to_string()
            } else {
                name.to_ascii_lowercase()
            };
            let spellings = answer
                .as_array()
                .ok_or("the answer is not a list of spellings")?;
            for (i, got) in spellings.iter().enumerate() {
                equal(
                    &format!("spelling {i}'s encoding"),
                    got,
                    &Value::String(expected.clone()),
                )?;
            }
            if spellings.len() != 7 {
                return Err(format!(
                    "{} spellings answered where 7 were asked",
                    spellings.len()
                ));
            }
            Ok(())
        }
    }
}

const GETTERS: [&str; 10] = [
    "href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search",
    "hash",
];

fn url_parsing(data: &Value, answer: &Value) -> Verdict {
    if data.get("failure").is_some_and(|f| f == true) {
        equal(
            "the failure",
            &answer["failure"],
            &Value::String("TypeError".into()),
        )?;
        return equal("URL.canParse", &answer["canParse"], &Value::Bool(false));
    }
    if let Some(failure) = answer.get("failure") {
        return Err(format!("new URL threw {}", text(failure)));
    }
    for key in GETTERS {
        equal(key, &answer[key], &data[key])?;
    }
    for key in ["origin", "searchParams"] {
        if let Some(expected) = data.get(key) {
            equal(key, &answer[key], expected)?;
        }
    }
    equal("URL.canParse", &answer["canParse"], &Value::Bool(true))
}

fn url_setters(data: &Value, answer: &Value) -> Verdict {
    if let Some(threw) = answer.get("threw") {
        return Err(format!("the setter threw {}", text(threw)));
    }
    for (key, expected) in data["expected"].as_object().into_iter().flatten() {
        equal(key, &answer[key.as_str()], expected)?;
    }
    Ok(())
}

fn to_ascii(data: &Value, answer: &Value) -> Verdict {
    match &data["output"] {
        Value::String(host) => {
            let url = &answer["url"];
            equal("the host", &url["host"], &data["output"])?;
            equal("the hostname", &url["hostname"], &data["output"])?;
            equal(
                "the pathname",
                &url["pathname"],
                &Value::String("/x".into()),
            )?;
            equal(
                "the href",
                &url["href"],
                &Value::String(format!("https://{host}/x")),
            )?;
            equal("URL.host", &answer["host"], &data["output"])?;
            equal("URL.hostname", &answer["hostname"], &data["output"])
        }
        _ => {
            equal(
                "the failure",
                &answer["url"]["failure"],
                &Value::String("TypeError".into()),
            )?;
            equal("URL.host", &answer["host"], &Value::String("x".into()))?;
            equal(
                "URL.hostname",
                &answer["hostname"],
                &Value::String("x".into()),
            )
        }
    }
}

/// The components `urlpatterntests.js` checks (it names `password` twice).
const COMPONENTS: [&str; 8] = [
    "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash",
];

/// The components a component is said to follow: one of them in the init means a wildcard,
/// not the base URL's value.
fn earlier(component: &str) -> &'static [&'static str] {
    match component {
        "hostname" => &["protocol"],
        "port" => &["protocol", "hostname"],
        "pathname" => &["protocol", "hostname", "port"],
        "search" => &["protocol", "hostname", "port", "pathname"],
        "hash" => &["protocol", "hostname", "port", "pathname", "search"],
        _ => &[],
    }
}

fn url_pattern(data: &Value, answer: &Value) -> Verdict {
    let pattern = &answer["pattern"];
    if data["expected_obj"] == "error" {
        return equal(
            "the constructor's error",
            &pattern["error"],
            &Value::String("TypeError".into()),
        );
    }
    if let Some(error) = pattern.get("error") {
        return Err(format!("the constructor threw {}", text(error)));
    }
    let args = data["pattern"].as_array().cloned().unwrap_or_default();
    let init = args.first().and_then(Value::as_object);
    let empty: Vec<Value> = Vec::new();
    let exactly_empty = data["exactly_empty_components"]
        .as_array()
        .unwrap_or(&empty);
    let is_empty = |c: &str| exactly_empty.iter().any(|e| e == c);
    let has_base =
        init.is_some_and(|i| truthy(i.get("baseURL"))) || args.get(1).is_some_and(Value::is_string);
    for component in COMPONENTS {
        let given = data["expected_obj"].get(component).filter(|v| !v.is_null());
        let expected = match given {
            Some(v) => v.clone(),
            None if is_empty(component) => Value::String(String::new()),
            None if init.is_some_and(|i| truthy(i.get(component))) => {
                init.unwrap()[component].clone()
            }
            None if init.is_some_and(|i| earlier(component).iter().any(|c| i.contains_key(*c))) => {
                "*".into()
            }
            None if has_base && component != "username" && component != "password" => {
                let base = &answer["base"];
                if let Some(error) = base.get("error") {
                    return Err(format!("the base URL threw {}", text(error)));
                }
                let value = base[component].as_str().unwrap_or_default();
                let value = match component {
                    "protocol" => value.strip_suffix(':').unwrap_or(value),
                    "search" => value.strip_prefix('?').unwrap_or(value),
                    "hash" => value.strip_prefix('#').unwrap_or(value),
                    _ => value,
                };
                Value::String(value.into())
            }
            None => "*".into(),
        };
        equal(
            &format!("the pattern's {component}"),
            &pattern[component],
            &expected,
        )?;
    }
    let expected_match = &data["expected_match"];
    if expected_match == "error" {
        equal(
            "test()'s error",
            &answer["test"]["error"],
            &Value::String("TypeError".into()),
        )?;
        return equal(
            "exec()'s error",
            &answer["exec"]["error"],
            &Value::String("TypeError".into()),
        );
    }
    equal(
        "test()",
        &answer["test"],
        &Value::Bool(truthy(Some(expected_match))),
    )?;
    let Some(expected_match) = expected_match.as_object() else {
        return equal("exec()", &answer["exec"], expected_match);
    };
    let exec = answer["exec"]
        .as_object()
        .ok_or_else(|| format!("exec() gave {}", text(&answer["exec"])))?;
    let inputs = expected_match.get("inputs").unwrap_or(&data["inputs"]);
    let got_inputs = exec
        .get("inputs")
        .and_then(Value::as_array)
        .ok_or("exec() has no inputs")?;
    let want_inputs = inputs
        .as_array()
        .ok_or("the entry's inputs are not a list")?;
    if got_inputs.len() != want_inputs.len() {
        return Err(format!(
            "exec() has {} inputs where {} were given",
            got_inputs.len(),
            want_inputs.len()
        ));
    }
    for (i, (got, want)) in got_inputs.iter().zip(want_inputs).enumerate() {
        if got.is_string() {
            equal(&format!("exec()'s inputs[{i}]"), got, want)?;
            continue;
        }
        for component in COMPONENTS {
            let got = got.get(component).unwrap_or(&Value::Null);
            let want = want.get(component).unwrap_or(&Value::Null);
            equal(&format!("exec()'s inputs[{i}].{component}"), got, want)?;
        }
    }
    for component in COMPONENTS {
        let expected = match expected_match.get(component) {
            Some(v) if truthy(Some(v)) => v.clone(),
            _ => {
                let mut groups = Map::new();
                if !is_empty(component) {
                    groups.insert("0".into(), Value::String(String::new()));
                }
                serde_json::json!({ "input": "", "groups": groups })
            }
        };
        equal(
            &format!("exec()'s {component}"),
            &exec.get(component).cloned().unwrap_or(Value::Null),
            &expected,
        )?;
    }
    Ok(())
}

/// JavaScript's truthiness of a JSON value (absent is `undefined`).
fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n != 0.0 && !n.is_nan()),
        Some(_) => true,
    }
}

fn equal(what: &str, got: &Value, expected: &Value) -> Verdict {
    if got == expected {
        Ok(())
    } else {
        Err(format!(
            "{what} is {} where WPT expects {}",
            text(got),
            text(expected)
        ))
    }
}

fn text(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
