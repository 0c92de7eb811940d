//! Recorded columns: the outcomes an earlier run measured, read back from its
//! `<generator>.json`, so that iterating on our executor re-runs only ours against the
//! reference outcomes that run measured live (seconds instead of minutes, no `wrangler dev`).
//!
//! Guarantees: a recording is used only for the very programs it holds: every program of the
//! new run must be the recorded program of the same number, character for character, or the
//! recording is refused with the first program that differs (same generator text, count and
//! seed give the same programs). Only the recorded non-`ours` columns are taken; ours always
//! runs.

use std::path::Path;

use serde_json::Value;

use super::expand::Program;
use super::run::Outcomes;
use crate::error::{Error, Result};
use crate::matrix::OURS;

/// The recorded columns of an earlier run.
#[derive(Debug, Clone)]
pub struct Recording {
    /// Where it was read from, for messages.
    pub file: String,
    /// The recorded columns, in the recorded order (ours left out).
    pub columns: Vec<String>,
    /// Per recorded program: its code and its outcome on each of [`Recording::columns`].
    pub programs: Vec<(String, Outcomes)>,
}

/// Reads an earlier run's `<generator>.json`.
pub fn read(path: &Path) -> Result<Recording> {
    let read = read_entries(path, "an explore recording", &[])?;
    Ok(Recording {
        file: read.file,
        columns: read.columns,
        programs: read
            .entries
            .into_iter()
            .map(|entry| (entry.code, entry.outcomes))
            .collect(),
    })
}

/// One entry of a recording, as [`read_entries`] reads it.
pub(crate) struct Entry {
    /// The entry's other string fields, in the order they were asked for.
    pub fields: Vec<String>,
    /// The program the entry records.
    pub code: String,
    /// Its outcome on each recorded column.
    pub outcomes: Outcomes,
}

/// A recording's entries, as [`read_entries`] reads them.
pub(crate) struct Entries {
    /// Where they were read from, for messages.
    pub file: String,
    /// The recorded columns, in the recorded order (ours left out).
    pub columns: Vec<String>,
    /// Every entry, in the recorded order.
    pub entries: Vec<Entry>,
}

/// Reads a recording: a JSON array whose entries each hold the string `fields`, a `code` and
/// `outcomes` on the same columns (a side's error as `{"error of the side": text}`). Refused,
/// with a sentence calling the file `kind`, when an entry lacks one, the columns differ from
/// the first entry's, or no column besides ours is recorded.
pub(crate) fn read_entries(path: &Path, kind: &str, fields: &[&str]) -> Result<Entries> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let bad = |why: String| Error::Usage(format!("{file} is not {kind}: {why}"));
    let values: Vec<Value> = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let mut columns: Option<Vec<String>> = None;
    let mut entries = Vec::with_capacity(values.len());
    for (index, entry) in values.iter().enumerate() {
        let field = |key: &str| {
            entry
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| bad(format!("entry {} has no {key}", index + 1)))
        };
        let fields = fields.iter().map(|key| field(key)).collect::<Result<_>>()?;
        let code = field("code")?;
        let outcomes = entry
            .get("outcomes")
            .and_then(Value::as_object)
            .ok_or_else(|| bad(format!("entry {} has no outcomes", index + 1)))?;
        let names: Vec<String> = outcomes.keys().filter(|k| *k != OURS).cloned().collect();
        let columns = columns.get_or_insert_with(|| names.clone());
        if names != *columns {
            return Err(bad(format!(
                "entry {} has the columns {names:?}, the first entry {columns:?}",
                index + 1
            )));
        }
        let outcomes = names
            .iter()
            .map(|column| match &outcomes[column] {
                Value::Object(map) if map.contains_key("error of the side") => {
                    Err(map["error of the side"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string())
                }
                outcome => Ok(outcome.clone()),
            })
            .collect();
        entries.push(Entry {
            fields,
            code,
            outcomes,
        });
    }
    let columns = columns.unwrap_or_default();
    if columns.is_empty() {
        return Err(bad("it records no column besides ours".into()));
    }
    Ok(Entries {
        file,
        columns,
        entries,
    })
}

impl Recording {
    /// The recorded outcomes of these programs, in program order; refused unless every
    /// program is the recorded one.
    pub fn outcomes_for(&self, programs: &[Program]) -> Result<Vec<Outcomes>> {
        programs
            .iter()
            .map(|program| match self.programs.get(program.number - 1) {
                Some((code, outcomes)) if *code == program.code => Ok(outcomes.clone()),
                Some(_) => Err(Error::Usage(format!(
                    "{} records another program {}; run with the generator, count and seed it was recorded with",
                    self.file, program.number
                ))),
                None => Err(Error::Usage(format!(
                    "{} records {} programs, fewer than this run's {}",
                    self.file,
                    self.programs.len(),
                    programs.len()
                ))),
            })
            .collect()
    }
}
