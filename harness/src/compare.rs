//! Comparing outcomes: an outcome against a case's `expect` (matchers applied), and two
//! outcomes against each other, whole.

use regex::Regex;
use serde_json::Value;

/// Whether `actual` satisfies `expected`, where any value of `expected` may be a matcher:
/// `{"$matches": "regex"}`, `{"$startsWith": "text"}` or `{"$any": true}`. On a mismatch, the
/// path of the first difference and why.
pub fn matches_expectation(expected: &Value, actual: &Value) -> Result<(), String> {
    match_at("$", expected, actual)
}

fn match_at(path: &str, expected: &Value, actual: &Value) -> Result<(), String> {
    if let Some(matcher) = as_matcher(expected) {
        return matcher.check(path, actual);
    }
    match (expected, actual) {
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                return Err(format!(
                    "{path}: expected {} items, got {}",
                    e.len(),
                    a.len()
                ));
            }
            e.iter()
                .zip(a)
                .enumerate()
                .try_for_each(|(i, (e, a))| match_at(&format!("{path}[{i}]"), e, a))
        }
        (Value::Object(e), Value::Object(a)) => {
            if let Some(key) = e.keys().find(|k| !a.contains_key(*k)) {
                return Err(format!("{path}.{key}: expected, but absent"));
            }
            if let Some(key) = a.keys().find(|k| !e.contains_key(*k)) {
                return Err(format!("{path}.{key}: present, but not expected"));
            }
            e.iter()
                .try_for_each(|(k, e)| match_at(&format!("{path}.{k}"), e, &a[k]))
        }
        (Value::Number(e), Value::Number(a)) if e.as_f64() == a.as_f64() => Ok(()),
        (e, a) if e == a => Ok(()),
        (e, a) => Err(format!("{path}: expected {e}, got {a}")),
    }
}

enum Matcher {
    Matches(Regex),
    StartsWith(String),
    Any,
}

fn as_matcher(value: &Value) -> Option<Matcher> {
    let map = value.as_object()?;
    if map.len() != 1 {
        return None;
    }
    let (key, arg) = map.iter().next()?;
    match (key.as_str(), arg) {
        ("$matches", Value::String(pattern)) => Regex::new(pattern).ok().map(Matcher::Matches),
        ("$startsWith", Value::String(prefix)) => Some(Matcher::StartsWith(prefix.clone())),
        ("$any", Value::Bool(true)) => Some(Matcher::Any),
        _ => None,
    }
}

impl Matcher {
    fn check(&self, path: &str, actual: &Value) -> Result<(), String> {
        let text = match actual {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match self {
            Matcher::Any => Ok(()),
            Matcher::Matches(re) if re.is_match(&text) => Ok(()),
            Matcher::Matches(re) => Err(format!("{path}: {actual} does not match /{re}/")),
            Matcher::StartsWith(prefix) if text.starts_with(prefix.as_str()) => Ok(()),
            Matcher::StartsWith(prefix) => {
                Err(format!("{path}: {actual} does not start with {prefix:?}"))
            }
        }
    }
}

/// Checks every matcher of an `expect` for validity, so a broken regex is a catalogue error
/// rather than a silent mismatch.
pub fn invalid_matchers(expected: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk_matchers(expected, &mut out);
    out
}

fn walk_matchers(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map)
            if map.len() == 1
                && map.keys().all(|k| k.starts_with('$'))
                && as_matcher(value).is_none() =>
        {
            out.push(format!("{value} is not a matcher ($matches with a valid regex, $startsWith with text, or $any: true)"));
        }
        Value::Object(map) => map.values().for_each(|v| walk_matchers(v, out)),
        Value::Array(items) => items.iter().for_each(|v| walk_matchers(v, out)),
        _ => {}
    }
}

/// A unified diff of two pretty-printed values, `left` as `-`, `right` as `+`.
pub fn render_diff(left_name: &str, left: &Value, right_name: &str, right: &Value) -> String {
    let left_text = pretty(left);
    let right_text = pretty(right);
    similar::TextDiff::from_lines(&left_text, &right_text)
        .unified_diff()
        .context_radius(3)
        .header(left_name, right_name)
        .to_string()
}

/// A value pretty-printed, with a trailing newline.
pub fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string());
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matchers_apply_anywhere() {
        let expected = json!({"result": {"id": {"$matches": "^[0-9a-f-]{36}$"}, "n": 1}, "logs": [{"$startsWith": "[warn] "}], "calls": {"$any": true}});
        let actual = json!({"result": {"id": "0b6d9f5c-1c9e-4a55-9d0e-3f2b6b8a7c11", "n": 1}, "logs": ["[warn] late"], "calls": [1]});
        assert_eq!(matches_expectation(&expected, &actual), Ok(()));
    }

    #[test]
    fn mismatches_name_the_path() {
        let err = matches_expectation(&json!({"result": [1, 2]}), &json!({"result": [1, 3]}))
            .unwrap_err();
        assert_eq!(err, "$.result[1]: expected 2, got 3");
        let err = matches_expectation(&json!({"logs": []}), &json!({"logs": [], "error": "x"}))
            .unwrap_err();
        assert_eq!(err, "$.error: present, but not expected");
    }

    #[test]
    fn bad_matchers_are_found() {
        assert_eq!(invalid_matchers(&json!({"a": {"$matches": "("}})).len(), 1);
        assert_eq!(invalid_matchers(&json!({"a": {"$matches": "x"}})).len(), 0);
    }

    #[test]
    fn diffs_show_both_sides() {
        let diff = render_diff(
            "reference",
            &json!({"result": 1}),
            "ours",
            &json!({"result": 2}),
        );
        assert!(
            diff.contains("-  \"result\": 1") && diff.contains("+  \"result\": 2"),
            "{diff}"
        );
    }
}
