//! The message mode of `test262` (`--messages`): every error text a test makes the engine
//! produce, compared between ours and the deciding column. The programs record the texts
//! themselves ([`super::program::RECORDER`]); this module judges them: per directory, the share
//! of the tests that throw on both sides whose recorded texts are identical, and every
//! disagreement grouped by the shape of its first differing text (as `explore` groups its
//! differences, [`crate::explore::shape`]), written as a catalogue that loads.
//!
//! Guarantees: a test counts when both sides recorded at least one text; it agrees when the
//! two lists are equal, text for text, in order; the same outcomes give the same report and
//! the same grouping; the written catalogue is loaded back and every `expect` checked before
//! it is written; a recording ([`read_recording`]) stands for a column only on the very
//! programs it recorded.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::program::{self, BOUND_MS};
use crate::error::{Error, Result};
use crate::explore::output::{self, OutCase};
use crate::explore::recorded;
use crate::explore::run::Outcomes;
use crate::explore::shape::{ABSENT, Shape, abstract_text, group};
use crate::matrix::OURS;

/// How many cases of one shape the catalogue holds (the summary counts them all): a test's
/// program carries its harness includes, so a shape of hundreds would be megabytes of the
/// same lesson.
pub const CASES_PER_SHAPE: usize = 10;

/// One test's outcome on every column, in the report's column order.
#[derive(Debug, Clone)]
pub struct MessageTest {
    /// The path under `test/`.
    pub path: String,
    /// The program that ran.
    pub code: String,
    /// Per column.
    pub outcomes: Outcomes,
}

/// Counts for one directory.
#[derive(Debug, Clone, Default, Serialize)]
pub struct MessageDirectory {
    /// The directory (`total` for the whole run).
    pub directory: String,
    /// Tests run.
    pub run: usize,
    /// Tests that recorded at least one text on ours and on the deciding column.
    pub throw_on_both: usize,
    /// Of those, the tests whose texts are identical.
    pub identical: usize,
}

impl MessageDirectory {
    /// The identical share of the tests that throw on both sides, in percent.
    pub fn percent(&self) -> f64 {
        if self.throw_on_both == 0 {
            100.0
        } else {
            100.0 * self.identical as f64 / self.throw_on_both as f64
        }
    }
}

/// Tests whose first differing text has one shape.
#[derive(Debug, Clone, Serialize)]
pub struct MessageGroup {
    /// The deciding column's text, abstracted ([`ABSENT`] when it recorded fewer).
    pub reference: String,
    /// Ours, abstracted.
    pub ours: String,
    /// The tests, by path.
    pub tests: Vec<String>,
    #[serde(skip)]
    shape: Shape,
    #[serde(skip)]
    indexes: Vec<usize>,
}

/// The judged run.
#[derive(Debug, Clone, Serialize)]
pub struct MessageReport {
    /// The command line that reproduces the run.
    pub command_line: String,
    /// The columns, in outcome order.
    pub columns: Vec<String>,
    /// The deciding column.
    pub deciding: String,
    /// Two-segment directories, then top directories, then `total`.
    pub directories: Vec<MessageDirectory>,
    /// Disagreements by shape, largest first.
    pub groups: Vec<MessageGroup>,
}

static ABSTRACTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"-?\b\d+(?:\.\d+)?(?:e[+-]?\d+)?n?\b|'([^']*)'|`([^`]*)`|"([^"]*)""#)
        .expect("the pattern is valid")
});

/// The values a shape abstracts out of two texts: numbers, and what quotes enclose.
fn values_of(texts: &[&str]) -> Vec<String> {
    let mut values = Vec::new();
    for text in texts {
        for found in ABSTRACTED.captures_iter(text) {
            let value = (1..=4)
                .find_map(|i| found.get(i))
                .unwrap_or_else(|| found.get(0).expect("a match"));
            if !value.as_str().is_empty() {
                values.push(value.as_str().to_string());
            }
        }
    }
    values
}

/// The shape of two text lists' first difference; `None` when they are equal.
pub fn shape_of(reference: &[String], ours: &[String]) -> Option<Shape> {
    let at = (0..reference.len().max(ours.len())).find(|&i| reference.get(i) != ours.get(i))?;
    let (r, o) = (reference.get(at), ours.get(at));
    let values = values_of(&[r.map_or("", String::as_str), o.map_or("", String::as_str)]);
    let shown = |t: Option<&String>| t.map_or(ABSENT.to_string(), |t| abstract_text(t, &values));
    Some(Shape {
        keys: vec!["texts".into()],
        expected: vec![shown(r)],
        actual: vec![shown(o)],
    })
}

/// Judges every test's recorded texts on ours against the deciding column (the first column
/// that is not ours).
pub fn build(command_line: String, columns: Vec<String>, tests: &[MessageTest]) -> MessageReport {
    let ours = columns.iter().position(|c| c == OURS);
    let deciding = columns.iter().position(|c| c != OURS);
    let mut directories: BTreeMap<String, MessageDirectory> = BTreeMap::new();
    let mut differences = Vec::new();
    for (index, test) in tests.iter().enumerate() {
        let texts = |column: Option<usize>| {
            column
                .and_then(|c| program::recorded_texts(&test.outcomes[c]))
                .filter(|t| !t.is_empty())
        };
        let (o, d) = (texts(ours), texts(deciding));
        let both = o.is_some() && d.is_some();
        let shape = match (&o, &d) {
            (Some(o), Some(d)) => shape_of(d, o),
            _ => None,
        };
        let segments: Vec<&str> = test.path.split('/').collect();
        let mut keys = vec!["total".to_string(), segments[0].to_string()];
        if segments.len() > 2 {
            keys.push(segments[..2].join("/"));
        }
        for key in keys {
            let dir = directories
                .entry(key.clone())
                .or_insert_with(|| MessageDirectory {
                    directory: key,
                    ..MessageDirectory::default()
                });
            dir.run += 1;
            dir.throw_on_both += usize::from(both);
            dir.identical += usize::from(both && shape.is_none());
        }
        if let Some(shape) = shape {
            differences.push((shape, index));
        }
    }
    let mut ordered: Vec<MessageDirectory> = directories.into_values().collect();
    ordered.sort_by_key(|d| {
        let depth = if d.directory == "total" {
            0
        } else {
            d.directory.matches('/').count() + 1
        };
        (std::cmp::Reverse(depth), d.directory.clone())
    });
    MessageReport {
        command_line,
        deciding: deciding.map_or_else(String::new, |d| columns[d].clone()),
        columns,
        directories: ordered,
        groups: group(differences)
            .into_iter()
            .map(|(shape, indexes)| MessageGroup {
                reference: shape.expected[0].clone(),
                ours: shape.actual[0].clone(),
                tests: indexes.iter().map(|&i| tests[i].path.clone()).collect(),
                shape,
                indexes,
            })
            .collect(),
    }
}

impl MessageReport {
    /// The text summary: per directory, then every shape with its count and first tests.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "test262 error texts, ours against {}", self.deciding);
        let _ = writeln!(out, "command: {}\n", self.command_line);
        let _ = writeln!(
            out,
            "{:<44} {:>6} {:>14} {:>10} {:>8}",
            "directory", "run", "throw on both", "identical", "share"
        );
        for dir in &self.directories {
            let _ = writeln!(
                out,
                "{:<44} {:>6} {:>14} {:>10} {:>7.1}%",
                dir.directory,
                dir.run,
                dir.throw_on_both,
                dir.identical,
                dir.percent()
            );
        }
        let differing: usize = self.groups.iter().map(|g| g.tests.len()).sum();
        let _ = writeln!(
            out,
            "\ndisagreements: {differing} in {} shapes ({} · ours):",
            self.groups.len(),
            self.deciding
        );
        for (rank, group) in self.groups.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {:>4}. {:>5} × {:?} · {:?}\n         e.g. {}",
                rank + 1,
                group.tests.len(),
                group.reference,
                group.ours,
                group.tests[..group.tests.len().min(3)].join(", ")
            );
        }
        out
    }

    /// The catalogue of disagreements ([`CASES_PER_SHAPE`] per shape), checked by loading it
    /// back (`file` is where it will be written).
    pub fn catalogue(&self, tests: &[MessageTest], file: &Path) -> Result<String> {
        if self.groups.is_empty() {
            // Nothing differs (or one side alone ran, as when recording the reference).
            let text = format!(
                "# Error texts that differ, found by: {}\n# None differ.\n[]\n",
                self.command_line
            );
            output::check(file, &text, &[])?;
            return Ok(text);
        }
        let deciding = self.columns.iter().position(|c| c != OURS).ok_or_else(|| {
            Error::Usage("the message mode needs a reference column to compare with".into())
        })?;
        let ours = self.columns.iter().position(|c| c == OURS).ok_or_else(|| {
            Error::Usage("the message mode needs the ours column to compare".into())
        })?;
        let mut text = format!(
            "# Error texts that differ, found by: {}\n# Every expect is {}'s outcome, measured live; at most {CASES_PER_SHAPE} cases a shape.\n# Grouped by the shape of the first differing text, largest first.\n",
            self.command_line, self.deciding
        );
        let mut expected = Vec::new();
        for (rank, group) in self.groups.iter().enumerate() {
            output::push_shape(
                &mut text,
                rank,
                group.tests.len(),
                "test",
                &group.shape.describe(&self.deciding, OURS),
            );
            let slug = group.shape.slug();
            let mut cases = Vec::new();
            for &index in group.indexes.iter().take(CASES_PER_SHAPE) {
                let test = &tests[index];
                let (Ok(reference), Ok(our)) = (&test.outcomes[deciding], &test.outcomes[ours])
                else {
                    continue;
                };
                let ours_texts = program::recorded_texts(&Ok(our.clone())).unwrap_or_default();
                expected.push(reference.clone());
                cases.push(OutCase {
                    id: format!("test262-messages/{slug}-{}", index + 1),
                    about: output::one_line(&format!(
                        "test262 {}; ours records {}",
                        test.path,
                        serde_json::to_string(&ours_texts).expect("strings serialize")
                    )),
                    code: test.code.clone(),
                    providers: None,
                    options: Some(json!({ "timeout_ms": BOUND_MS })),
                    expect: output::expect_json(reference),
                });
            }
            output::push_cases(&mut text, &cases)?;
        }
        output::check(file, &text, &expected)?;
        Ok(text)
    }
}

/// Every test with its program and its outcome on each column, for reading a run again
/// without running its reference columns (`--recorded`).
pub fn raw(columns: &[String], tests: &[MessageTest]) -> Value {
    Value::Array(
        tests
            .iter()
            .map(|test| {
                let outcomes: Map<String, Value> = columns
                    .iter()
                    .zip(&test.outcomes)
                    .map(|(column, outcome)| {
                        let value = match outcome {
                            Ok(outcome) => outcome.clone(),
                            Err(why) => json!({ "error of the side": why }),
                        };
                        (column.clone(), value)
                    })
                    .collect();
                json!({ "path": test.path, "code": test.code, "outcomes": outcomes })
            })
            .collect(),
    )
}

/// The reference columns of an earlier message-mode run (its `messages.json`).
#[derive(Debug, Clone)]
pub struct Recording {
    /// Where it was read from, for messages.
    pub file: String,
    /// The recorded columns besides ours, in the recorded order.
    pub columns: Vec<String>,
    /// Per test path: its program and its outcome on each of [`Recording::columns`].
    pub tests: HashMap<String, (String, Outcomes)>,
}

/// Reads an earlier run's `messages.json`.
pub fn read_recording(path: &Path) -> Result<Recording> {
    let read = recorded::read_entries(path, "a test262 message-mode recording", &["path"])?;
    Ok(Recording {
        file: read.file,
        columns: read.columns,
        tests: read
            .entries
            .into_iter()
            .map(|mut entry| (entry.fields.remove(0), (entry.code, entry.outcomes)))
            .collect(),
    })
}

impl Recording {
    /// The recorded outcomes of these tests, in order; refused unless every test is recorded
    /// with the very same program.
    pub fn outcomes_for<'a>(
        &self,
        tests: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> Result<Vec<Outcomes>> {
        tests
            .map(|(path, code)| match self.tests.get(path) {
                Some((recorded, outcomes)) if recorded == code => Ok(outcomes.clone()),
                Some(_) => Err(Error::Usage(format!(
                    "{} records another program for {path}; record again with this suite and harness",
                    self.file
                ))),
                None => Err(Error::Usage(format!(
                    "{} does not record {path}; run with the filters it was recorded with",
                    self.file
                ))),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_first_differing_text_makes_the_shape_with_values_abstracted() {
        let shape = shape_of(
            &texts(&["TypeError: a", "TypeError: 96 is not iterable"]),
            &texts(&["TypeError: a", "TypeError: object is not iterable"]),
        )
        .unwrap();
        assert_eq!(shape.expected, ["TypeError: <v> is not iterable"]);
        assert_eq!(shape.actual, ["TypeError: object is not iterable"]);
        let quoted = shape_of(
            &texts(&["TypeError: Cannot read properties of null (reading 'x')"]),
            &texts(&[]),
        )
        .unwrap();
        assert_eq!(
            quoted.expected,
            ["TypeError: Cannot read properties of null (reading '<v>')"]
        );
        assert_eq!(quoted.actual, [ABSENT]);
        assert_eq!(shape_of(&texts(&["a"]), &texts(&["a"])), None);
    }
}
