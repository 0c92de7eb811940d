//! Grouping differences by their shape: which outcome keys differ, and for each, what the
//! two sides hold with the program's own names and values abstracted away. Two programs
//! that fail the same way on different names (`x is not iterable` against
//! `value is not iterable`, and `5 is not iterable` against the same) share a shape, so each
//! shape is one thing to fix, counted once per program it costs.

use serde_json::Value;

use crate::catalogue::load::id_part;

/// How a shape shows a key one side's outcome does not have.
pub const ABSENT: &str = "(absent)";

/// The placeholder a program's own name or value becomes in a shape.
pub const PLACEHOLDER: &str = "<v>";

/// The keys of a normalized outcome, in the order shapes name them.
const KEYS: [&str; 5] = ["result", "error", "logs", "calls", "threw"];

/// Words of the engines' own texts that a slot value may spell too (a variable named `a`,
/// `value` or `undefined`): abstracting them would blur the texts rather than the program.
const KEEP: &[&str] = &[
    "a",
    "an",
    "and",
    "as",
    "at",
    "be",
    "by",
    "cannot",
    "false",
    "for",
    "function",
    "in",
    "is",
    "it",
    "its",
    "new",
    "not",
    "null",
    "object",
    "of",
    "on",
    "or",
    "the",
    "to",
    "true",
    "undefined",
];

/// The shape of one difference between the deciding column's outcome and another's.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    /// The outcome keys that differ, in [`KEYS`] order.
    pub keys: Vec<String>,
    /// For each differing key: the deciding side's value, abstracted ([`ABSENT`] when absent).
    pub expected: Vec<String>,
    /// For each differing key: the other side's value, abstracted.
    pub actual: Vec<String>,
}

impl Shape {
    /// The shape of the difference between two outcomes; `values` are the program's own
    /// names and values, abstracted out of both. `None` when the outcomes are equal.
    pub fn of(expected: &Value, actual: &Value, values: &[String]) -> Option<Shape> {
        let mut keys: Vec<String> = KEYS.iter().map(|k| k.to_string()).collect();
        for outcome in [expected, actual] {
            for key in outcome.as_object().into_iter().flat_map(|m| m.keys()) {
                if !keys.contains(key) {
                    keys.push(key.clone());
                }
            }
        }
        let mut shape = Shape {
            keys: Vec::new(),
            expected: Vec::new(),
            actual: Vec::new(),
        };
        for key in keys {
            let (e, a) = (expected.get(&key), actual.get(&key));
            if e != a {
                shape.expected.push(describe(e, values));
                shape.actual.push(describe(a, values));
                shape.keys.push(key);
            }
        }
        (!shape.keys.is_empty()).then_some(shape)
    }

    /// A slug naming the shape in case ids (a [`id_part`]): the differing keys, then the first
    /// words of the deciding side's text (of our text where the deciding side has none).
    pub fn slug(&self) -> String {
        let mut slug = self.keys.join("-");
        let text = self
            .expected
            .iter()
            .chain(&self.actual)
            .find(|t| *t != ABSENT)
            .map(|t| message_line(t))
            .unwrap_or_default();
        let words: Vec<String> = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty() && *w != "v")
            .take(5)
            .map(|w| w.to_ascii_lowercase())
            .collect();
        for word in words {
            if slug.len() + word.len() + 1 > 60 {
                break;
            }
            slug.push('-');
            slug.push_str(&word);
        }
        id_part(&slug)
    }

    /// One line per differing key: `key: deciding side → other side`.
    pub fn describe(&self, deciding: &str, other: &str) -> String {
        self.keys
            .iter()
            .zip(self.expected.iter().zip(&self.actual))
            .map(|(key, (e, a))| format!("{key}: {deciding} {} · {other} {}", shown(e), shown(a)))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A value in a description: quoted, unless absent.
fn shown(value: &str) -> String {
    if value == ABSENT {
        value.to_string()
    } else {
        format!("{value:?}")
    }
}

/// The line of a text that carries the message (`Uncaught SyntaxError: …` inside a start
/// failure), without its `…Error:` prefix.
fn message_line(text: &str) -> &str {
    let line = text
        .lines()
        .find(|l| l.contains("Error: "))
        .unwrap_or_else(|| text.lines().next().unwrap_or(text));
    line.rsplit_once("Error: ").map_or(line, |(_, rest)| rest)
}

fn describe(value: Option<&Value>, values: &[String]) -> String {
    match value {
        None => ABSENT.to_string(),
        Some(Value::String(text)) => abstract_text(text, values),
        Some(other) => abstract_text(&other.to_string(), values),
    }
}

/// `text` with every occurrence of the program's own values (whole tokens, longest first)
/// replaced by [`PLACEHOLDER`], except the words in [`KEEP`].
pub fn abstract_text(text: &str, values: &[String]) -> String {
    let mut values: Vec<&str> = values
        .iter()
        .map(|v| v.trim())
        .filter(|v| !v.is_empty() && !KEEP.contains(&v.to_ascii_lowercase().as_str()))
        .collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    values.dedup();
    let mut out = text.to_string();
    for value in values {
        out = replace_token(&out, value);
    }
    out
}

fn token_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Replaces `value` where it stands as a whole token: not touching a letter, digit, `_` or
/// `$` on either side (nor, for a number, a `.` that continues it).
fn replace_token(text: &str, value: &str) -> String {
    let numeric = value
        .trim_start_matches('-')
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit());
    let joins = |c: Option<char>| c.is_some_and(|c| token_char(c) || (numeric && c == '.'));
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(value) {
        let before = if at > 0 {
            rest[..at].chars().last()
        } else {
            out.chars().last()
        };
        let after = rest[at + value.len()..].chars().next();
        let joined = (value.starts_with(token_char) && joins(before))
            || (value.ends_with(token_char) && joins(after));
        out.push_str(&rest[..at]);
        out.push_str(if joined { value } else { PLACEHOLDER });
        rest = &rest[at + value.len()..];
    }
    out.push_str(rest);
    out
}

/// Differences grouped by shape, largest group first (ties in shape order, so the grouping
/// is the same for the same differences).
pub fn group(differences: Vec<(Shape, usize)>) -> Vec<(Shape, Vec<usize>)> {
    let mut groups: std::collections::BTreeMap<Shape, Vec<usize>> = Default::default();
    for (shape, program) in differences {
        groups.entry(shape).or_default().push(program);
    }
    let mut groups: Vec<(Shape, Vec<usize>)> = groups.into_iter().collect();
    for (_, members) in &mut groups {
        members.sort_unstable();
    }
    groups.sort_by_key(|(_, members)| std::cmp::Reverse(members.len()));
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn values(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_and_values_are_abstracted_as_whole_tokens() {
        assert_eq!(
            abstract_text(
                "Cannot destructure property 'b' of 'ab' as it is undefined.",
                &values(&["b", "ab"])
            ),
            "Cannot destructure property '<v>' of '<v>' as it is undefined."
        );
        assert_eq!(abstract_text("1.5 and 1", &values(&["1"])), "1.5 and <v>");
        assert_eq!(
            abstract_text("a is not iterable", &values(&["a"])),
            "a is not iterable",
            "engine words stay"
        );
    }

    #[test]
    fn only_differing_keys_make_the_shape() {
        let reference = json!({"error": "x is not iterable", "logs": [], "calls": []});
        let ours = json!({"error": "value is not iterable", "logs": [], "calls": []});
        let shape = Shape::of(&reference, &ours, &values(&["x"])).unwrap();
        assert_eq!(shape.keys, vec!["error"]);
        assert_eq!(shape.expected, vec!["<v> is not iterable"]);
        assert_eq!(shape.slug(), "error-is-not-iterable");
        assert_eq!(Shape::of(&reference, &reference, &[]), None);
    }

    #[test]
    fn start_failures_slug_by_their_message() {
        let reference = json!({"logs": [], "calls": [], "threw": "Failed to start Worker:\nUncaught SyntaxError: Missing initializer in const declaration"});
        let ours = json!({"logs": [], "calls": [], "threw": "Failed to start Worker:\nUncaught SyntaxError: Unexpected token ':'"});
        let shape = Shape::of(&reference, &ours, &[]).unwrap();
        assert_eq!(
            shape.slug(),
            "threw-missing-initializer-in-const-declaration"
        );
    }
}
