//! The report of a `wpt` run: per file, how many entries each column answers as WPT expects,
//! how many of the deciding column's right answers ours gives too, and how many entries ours
//! answers exactly as the deciding column does; every entry where ours and the deciding column
//! answer differently, as a candidate case (`wpt-candidates.yaml`). Written as text (printed)
//! and JSON.
//!
//! Guarantees: a candidate's `expect` is the deciding column's normalized outcome, whole, and
//! the candidates' file is checked by loading it back with the catalogue loader before it is
//! written, so it always runs with `matrix --cases`.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};

use super::judge::Verdict;
use super::suite::Entry;
use crate::catalogue::load::{id_part, load_text};
use crate::error::{Error, Result};

/// The name of our column.
const OURS: &str = crate::matrix::OURS;

/// Each file run, in report order: its path in the checkout and what it left out, by reason.
pub type Files = [(&'static str, Vec<(String, usize)>)];

/// One entry's verdict on one column.
#[derive(Debug, Clone, Serialize)]
pub struct ColumnVerdict {
    /// The side's answers are WPT's.
    pub pass: bool,
    /// Why not, when they are not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl From<&Verdict> for ColumnVerdict {
    fn from(verdict: &Verdict) -> Self {
        ColumnVerdict {
            pass: verdict.is_ok(),
            detail: verdict.as_ref().err().cloned(),
        }
    }
}

/// One entry's verdicts (in [`Report::columns`] order) and whether ours answered as the
/// deciding column did.
#[derive(Debug, Clone, Serialize)]
pub struct EntryResult {
    /// The entry's file.
    pub file: String,
    /// The entry's place in its file, from 0.
    pub index: usize,
    /// What the entry is about, on one line.
    pub label: String,
    /// Each column's verdict.
    pub verdicts: Vec<ColumnVerdict>,
    /// Whether ours answered exactly as the deciding column did, when both ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ours_as_deciding: Option<bool>,
}

/// Counts for one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileCounts {
    /// The file's path in the checkout.
    pub file: String,
    /// Entries run.
    pub entries: usize,
    /// Entries (or parts of entries) no program here can run, by reason.
    pub left_out: Vec<(String, usize)>,
    /// Entries each column answers as WPT expects, by column name (in column order).
    pub right: Vec<(String, usize)>,
    /// Of the deciding column's right answers, how many ours gives exactly too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ours_of_deciding_right: Option<usize>,
    /// Entries ours answers exactly as the deciding column does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ours_as_deciding: Option<usize>,
}

/// An entry where ours and the deciding column answer differently.
#[derive(Debug, Clone, Serialize)]
pub struct Difference {
    /// The candidate case's id.
    pub id: String,
    /// The entry's file.
    pub file: String,
    /// The entry's place in its file, from 0.
    pub index: usize,
    /// What the entry is about, on one line.
    pub label: String,
    /// The deciding column's outcome, and ours (or why a side could not run it).
    pub deciding: Value,
    /// Ours, or why it could not run it.
    pub ours: Value,
    /// The program, as the candidate case runs it.
    pub code: String,
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The command line that reproduces the run.
    pub command_line: String,
    /// The WPT checkout the files were read from.
    pub checkout: String,
    /// The columns, in verdict order.
    pub columns: Vec<String>,
    /// The first reference column: its answers are what ours is held to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deciding: Option<String>,
    /// Per file.
    pub files: Vec<FileCounts>,
    /// Every entry where ours and the deciding column differ.
    pub differences: Vec<Difference>,
    /// Every entry run, with its verdicts.
    pub entries: Vec<EntryResult>,
}

/// The outcome as a report shows it: the normalized outcome, or why the side could not run it.
fn shown(outcome: &std::result::Result<Value, String>) -> Value {
    match outcome {
        Ok(value) => value.clone(),
        Err(why) => serde_json::json!({ "error of the side": why }),
    }
}

/// The id of an entry's candidate case: `wpt/<file name without extension>-<index>`.
pub fn case_id(entry: &Entry) -> String {
    let stem = Path::new(entry.file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("entry");
    format!("wpt/{}-{}", id_part(stem), entry.index)
}

/// Builds the report. `files` holds each file's entries (in order) and left-out counts;
/// `outcomes[i]` is entry `i`'s outcome on each column (the entries of all files, in order),
/// and `verdicts[i]` its verdict on each column.
pub fn build(
    command_line: String,
    checkout: String,
    columns: Vec<String>,
    files: &Files,
    entries: &[Entry],
    outcomes: &[Vec<std::result::Result<Value, String>>],
) -> Report {
    let ours = columns.iter().position(|c| c == OURS);
    let deciding = columns.iter().position(|c| c != OURS);
    let compared = ours.zip(deciding);
    let mut results = Vec::new();
    let mut differences = Vec::new();
    let mut counts: Vec<FileCounts> = files
        .iter()
        .map(|(file, left_out)| FileCounts {
            file: file.to_string(),
            entries: 0,
            left_out: left_out.clone(),
            right: columns.iter().map(|c| (c.clone(), 0)).collect(),
            ours_of_deciding_right: compared.map(|_| 0),
            ours_as_deciding: compared.map(|_| 0),
        })
        .collect();
    for (entry, outcomes) in entries.iter().zip(outcomes) {
        let verdicts: Vec<ColumnVerdict> = outcomes
            .iter()
            .map(|o| ColumnVerdict::from(&super::judge::judge(entry, o)))
            .collect();
        let same = compared.map(|(o, d)| match (&outcomes[o], &outcomes[d]) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        });
        if let Some(file) = counts.iter_mut().find(|c| c.file == entry.file) {
            file.entries += 1;
            for ((_, right), verdict) in file.right.iter_mut().zip(&verdicts) {
                *right += usize::from(verdict.pass);
            }
            if let (Some(true), Some((_, d))) = (same, compared) {
                *file.ours_as_deciding.as_mut().expect("compared") += 1;
                if verdicts[d].pass {
                    *file.ours_of_deciding_right.as_mut().expect("compared") += 1;
                }
            }
        }
        if let (Some(false), Some((o, d))) = (same, compared) {
            differences.push(Difference {
                id: case_id(entry),
                file: entry.file.to_string(),
                index: entry.index,
                label: entry.label.clone(),
                deciding: shown(&outcomes[d]),
                ours: shown(&outcomes[o]),
                code: entry.program.clone(),
            });
        }
        results.push(EntryResult {
            file: entry.file.to_string(),
            index: entry.index,
            label: entry.label.clone(),
            verdicts,
            ours_as_deciding: same,
        });
    }
    Report {
        command_line,
        checkout,
        deciding: deciding.map(|d| columns[d].clone()),
        columns,
        files: counts,
        differences,
        entries: results,
    }
}

impl Report {
    /// The text summary: the table, what was left out, and every difference.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "WPT at {}", self.checkout);
        let _ = writeln!(out, "command: {}", self.command_line);
        let _ = writeln!(out);
        let _ = writeln!(out, "{}", self.table());
        for file in &self.files {
            for (reason, count) in &file.left_out {
                let _ = writeln!(out, "{}: {count} left out: {reason}", file.file);
            }
        }
        if let Some(deciding) = &self.deciding
            && self.columns.iter().any(|c| c == OURS)
        {
            let _ = writeln!(
                out,
                "\nentries ours answers differently from {deciding} ({}), written as candidate cases:",
                self.differences.len()
            );
            for d in &self.differences {
                let _ = writeln!(
                    out,
                    "  {} ({}): {}",
                    d.id,
                    d.label,
                    first_difference(&d.deciding, &d.ours)
                );
            }
        }
        out
    }

    /// The per-file table, in Markdown.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let mut header = "| WPT file | entries |".to_string();
        let mut rule = "|---|---:|".to_string();
        for column in &self.columns {
            let _ = write!(header, " {column} = WPT |");
            rule.push_str("---:|");
        }
        let compared = self
            .deciding
            .as_ref()
            .filter(|_| self.columns.iter().any(|c| c == OURS));
        if let Some(deciding) = compared {
            let _ = write!(
                header,
                " ours = {deciding}, where {deciding} = WPT | ours = {deciding}, all entries |"
            );
            rule.push_str("---:|---:|");
        }
        let _ = writeln!(out, "{header}\n{rule}");
        for file in &self.files {
            let mut line = format!("| `{}` | {} |", file.file, file.entries);
            for (_, right) in &file.right {
                let _ = write!(line, " {right} |");
            }
            if let (Some(deciding), Some(of_right), Some(all)) =
                (compared, file.ours_of_deciding_right, file.ours_as_deciding)
            {
                let theirs = file
                    .right
                    .iter()
                    .find(|(c, _)| c == deciding)
                    .map_or(0, |r| r.1);
                let _ = write!(
                    line,
                    " {of_right}/{theirs} ({}) | {all}/{} ({}) |",
                    percent(of_right, theirs),
                    file.entries,
                    percent(all, file.entries)
                );
            }
            let _ = writeln!(out, "{line}");
        }
        out
    }

    /// The candidate cases, one per difference, checked by loading them back (`file` is
    /// where they will be written).
    pub fn candidates(&self, file: &Path) -> Result<String> {
        let deciding = self.deciding.clone().unwrap_or_default();
        let mut text = format!(
            "# Entries ours answers differently from {deciding}, found by: {}\n# Every expect is {deciding}'s outcome, measured live; review a case before moving it\n# into cases/.\n",
            self.command_line
        );
        #[derive(Serialize)]
        struct OutCase<'a> {
            id: &'a str,
            about: String,
            code: &'a str,
            expect: Value,
        }
        let mut cases = Vec::new();
        let mut expected = Vec::new();
        for d in &self.differences {
            // A side that could not run the entry gives no outcome to expect.
            if d.deciding.get("error of the side").is_some() {
                continue;
            }
            expected.push(d.deciding.clone());
            cases.push(OutCase {
                id: &d.id,
                about: format!(
                    "WPT {} entry {}: {}; ours differs: {}",
                    d.file,
                    d.index,
                    d.label,
                    first_difference(&d.deciding, &d.ours)
                ),
                code: &d.code,
                expect: expect_json(&d.deciding),
            });
        }
        if cases.is_empty() {
            text.push_str("[]\n");
        } else {
            let yaml = serde_saphyr::to_string(&cases).map_err(|e| {
                Error::Usage(format!(
                    "the candidate cases could not be written as YAML: {e}"
                ))
            })?;
            text.push_str(&yaml);
        }
        let mut problems = Vec::new();
        let loaded = load_text(file, &text, &mut problems);
        if !problems.is_empty() {
            return Err(Error::Catalogue(problems));
        }
        for (case, outcome) in loaded.iter().zip(&expected) {
            if case.expect.to_outcome_json() != *outcome {
                return Err(Error::Usage(format!(
                    "candidate case {} loads back with expect {} where the outcome was {outcome}",
                    case.id,
                    case.expect.to_outcome_json()
                )));
            }
        }
        if loaded.len() != expected.len() {
            return Err(Error::Usage(format!(
                "the candidate cases load back as {} cases where {} were written",
                loaded.len(),
                expected.len()
            )));
        }
        Ok(text)
    }
}

/// The outcome as a case's `expect`: empty `logs` and `calls` left out.
fn expect_json(outcome: &Value) -> Value {
    let mut expect = Map::new();
    for (key, value) in outcome.as_object().into_iter().flatten() {
        let empty_list = value.as_array().is_some_and(Vec::is_empty);
        if (key == "logs" || key == "calls") && empty_list {
            continue;
        }
        expect.insert(key.clone(), value.clone());
    }
    Value::Object(expect)
}

/// The first place two outcomes differ, as `path: deciding's value / ours`.
pub fn first_difference(deciding: &Value, ours: &Value) -> String {
    fn walk(path: &str, a: &Value, b: &Value) -> Option<String> {
        if a == b {
            return None;
        }
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for key in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                    let (va, vb) = (x.get(key), y.get(key));
                    let sub = format!("{path}.{key}");
                    match (va, vb) {
                        (Some(va), Some(vb)) => {
                            if let Some(found) = walk(&sub, va, vb) {
                                return Some(found);
                            }
                        }
                        _ => return Some(format!("{sub}: {} / ours {}", show(va), show(vb))),
                    }
                }
                None
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (va, vb))| walk(&format!("{path}[{i}]"), va, vb)),
            _ => Some(format!(
                "{path}: {} / ours {}",
                show(Some(a)),
                show(Some(b))
            )),
        }
    }
    fn show(v: Option<&Value>) -> String {
        v.map_or("absent".into(), |v| {
            serde_json::to_string(v).unwrap_or_default()
        })
    }
    walk("outcome", deciding, ours).unwrap_or_else(|| "the same".into())
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "—".into();
    }
    let share = 100.0 * part as f64 / whole as f64;
    // 99.95% and up is not 100%: only all is all.
    if part < whole && share >= 99.95 {
        return format!("{share:.2}%");
    }
    format!("{share:.1}%")
}
