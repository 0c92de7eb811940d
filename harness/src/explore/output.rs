//! The run's output: a catalogue of every disagreement as a ready-to-review case, grouped by
//! shape, and a summary (Markdown, and lines to print).
//!
//! Guarantees: each case's `expect` is the deciding column's normalized outcome, whole; the
//! catalogue is checked by loading it back with the catalogue loader before it is written,
//! and every loaded `expect` must equal the outcome it was written from, so a written
//! catalogue always runs with `matrix --cases`.

use std::fmt::Write as _;
use std::path::Path;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};
use serde_saphyr::FlowMap;

use super::Exploration;
use super::tally::{Group, Tally};
use crate::catalogue::load::load_text;
use crate::catalogue::{CaseTools, ProviderSpec};
use crate::error::{Error, Result};

/// How many shapes the printed summary lists (the Markdown lists them all).
const PRINTED_SHAPES: usize = 20;

/// How many side errors the summaries list one by one.
const LISTED_ERRORS: usize = 20;

/// A case as a written catalogue holds it.
#[derive(Serialize)]
pub(crate) struct OutCase {
    pub(crate) id: String,
    pub(crate) about: String,
    pub(crate) code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) providers: Option<Vec<OutProvider>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) options: Option<Value>,
    pub(crate) expect: Value,
}

/// A provider as a case repeats it, each tool behaviour on one line.
#[derive(Serialize)]
pub(crate) struct OutProvider {
    name: String,
    tools: IndexMap<String, FlowMap<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prelude: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    positional_args: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proxy_source: Option<String>,
}

/// Every program of a run with its outcome on each column (`{"error of the side": why}` where
/// the side could not run it), for reading a run again without running it.
pub fn raw(run: &Exploration) -> Value {
    Value::Array(
        run.programs
            .iter()
            .zip(&run.outcomes)
            .map(|(program, outcomes)| {
                let mut entry = Map::new();
                entry.insert("number".into(), Value::from(program.number));
                entry.insert(
                    "template".into(),
                    Value::String(run.generator.templates[program.template].id.clone()),
                );
                entry.insert("code".into(), Value::String(program.code.clone()));
                let columns = run
                    .columns
                    .iter()
                    .zip(outcomes)
                    .map(|(column, outcome)| {
                        let value = match outcome {
                            Ok(outcome) => outcome.clone(),
                            Err(why) => serde_json::json!({ "error of the side": why }),
                        };
                        (column.clone(), value)
                    })
                    .collect();
                entry.insert("outcomes".into(), Value::Object(columns));
                Value::Object(entry)
            })
            .collect(),
    )
}

/// The id of a disagreement's case: `explore/<shape>-<program number>`.
pub fn case_id(group: &Group, number: usize) -> String {
    format!("explore/{}-{number}", group.shape.slug())
}

/// Appends a shape's heading: its rank (from 0), how many `noun`s it groups and what differs.
pub(crate) fn push_shape(text: &mut String, rank: usize, count: usize, noun: &str, shape: &str) {
    let plural = if count == 1 { "" } else { "s" };
    let _ = writeln!(
        text,
        "\n# Shape {} ({count} {noun}{plural}): {}",
        rank + 1,
        one_line(shape)
    );
}

/// Appends a shape's cases as YAML, ending the text with a newline.
pub(crate) fn push_cases(text: &mut String, cases: &[OutCase]) -> Result<()> {
    let yaml = serde_saphyr::to_string(&cases).map_err(|e| {
        Error::Usage(format!(
            "the disagreements could not be written as YAML: {e}"
        ))
    })?;
    text.push_str(&yaml);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(())
}

/// The catalogue text, checked by loading it back (`file` is where it will be written).
pub fn catalogue(run: &Exploration, tally: &Tally, file: &Path) -> Result<String> {
    let deciding = &run.columns[0];
    let mut text = format!(
        "# Disagreements found by: {}\n# Every expect is {deciding}'s outcome, measured live; review a case before moving it\n# into cases/. Grouped by the shape of the difference, largest first.\n",
        run.command_line
    );
    let mut expected = Vec::new();
    for (rank, group) in tally.groups.iter().enumerate() {
        push_shape(
            &mut text,
            rank,
            group.programs.len(),
            "program",
            &group.shape.describe(deciding, &group.column),
        );
        let mut cases = Vec::new();
        for &index in &group.programs {
            let program = &run.programs[index];
            let case = &run.cases[index];
            let template = &run.generator.templates[program.template];
            let reference = run.outcomes[index][0]
                .as_ref()
                .expect("a disagreement ran on every column");
            let other_column = run
                .columns
                .iter()
                .position(|c| *c == group.column)
                .unwrap_or(1);
            let other = run.outcomes[index][other_column]
                .as_ref()
                .expect("a disagreement ran on every column");
            let differs: Vec<String> = group
                .shape
                .keys
                .iter()
                .map(|key| match other.get(key) {
                    None => format!("{key} absent"),
                    Some(Value::String(s)) => format!("{key} {s:?}"),
                    Some(v) => format!("{key} {v}"),
                })
                .collect();
            let about = format!(
                "template {} of generator {} ({}:{}){}; {} has {}",
                template.id,
                run.generator.name,
                run.generator.file.display(),
                template.line,
                template
                    .about
                    .as_deref()
                    .map(|a| format!(": {a}"))
                    .unwrap_or_default(),
                group.column,
                differs.join(", ")
            );
            expected.push(reference.clone());
            cases.push(OutCase {
                id: case_id(group, program.number),
                about: one_line(&about),
                code: program.code.clone(),
                providers: match &case.tools {
                    CaseTools::Providers(p) if p.is_empty() => None,
                    CaseTools::Providers(p) => Some(providers_out(p)),
                    CaseTools::Fns(_) => None,
                },
                options: options_json(case),
                expect: expect_json(reference),
            });
        }
        push_cases(&mut text, &cases)?;
    }
    if tally.groups.is_empty() {
        text.push_str("[]\n");
    }
    check(file, &text, &expected)?;
    Ok(text)
}

/// Loads the text back and compares every `expect` with the outcome it was written from.
pub(crate) fn check(file: &Path, text: &str, expected: &[Value]) -> Result<()> {
    let mut problems = Vec::new();
    let cases = load_text(file, text, &mut problems);
    if !problems.is_empty() {
        return Err(Error::Catalogue(problems));
    }
    if cases.len() != expected.len() {
        return Err(Error::Usage(format!(
            "the written catalogue loads {} cases where {} were written",
            cases.len(),
            expected.len()
        )));
    }
    for (case, outcome) in cases.iter().zip(expected) {
        if case.expect.to_outcome_json() != *outcome {
            return Err(Error::Usage(format!(
                "case {} loads back with expect {} where the outcome was {outcome}",
                case.id,
                case.expect.to_outcome_json()
            )));
        }
    }
    Ok(())
}

/// A case's `expect` for an outcome: the outcome, without empty `logs` and `calls`.
pub(crate) fn expect_json(outcome: &Value) -> Value {
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

fn providers_out(providers: &[ProviderSpec]) -> Vec<OutProvider> {
    providers
        .iter()
        .map(|p| OutProvider {
            name: p.name.clone(),
            tools: p
                .tools
                .iter()
                .map(|(name, b)| (name.clone(), FlowMap(b.raw.clone())))
                .collect(),
            prelude: p.prelude.clone(),
            positional_args: p.positional_args,
            proxy_source: p.proxy_source.clone(),
        })
        .collect()
}

fn options_json(case: &crate::catalogue::Case) -> Option<Value> {
    let mut map = Map::new();
    if let Some(ms) = case.options.timeout_ms {
        map.insert("timeout_ms".into(), Value::from(ms));
    }
    if let Some(modules) = &case.options.modules {
        map.insert(
            "modules".into(),
            Value::Object(
                modules
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect(),
            ),
        );
    }
    if let Some(outbound) = &case.options.outbound {
        map.insert("outbound".into(), outbound.raw());
    }
    (!map.is_empty()).then_some(Value::Object(map))
}

/// A text on one line, its line breaks and other controls escaped.
pub(crate) fn one_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

/// An inline code span for Markdown tables: one line, `|` escaped, fenced with more
/// backticks than it holds.
pub(crate) fn code(text: &str) -> String {
    let text = one_line(text).replace('|', "\\|");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    if text.starts_with('`') || text.ends_with('`') {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

fn text_of(outcome: &Value, key: &str) -> String {
    match outcome.get(key) {
        None => "(absent)".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// The figures every summary opens with.
fn headline(run: &Exploration, tally: &Tally) -> Vec<String> {
    let judged = tally.agreements + tally.disagreements();
    vec![
        format!(
            "programs run: {} (from {} templates of generator {}, seed {})",
            run.programs.len(),
            run.generator.templates.len(),
            run.generator.name,
            run.seed
        ),
        format!(
            "agreements: {} of {judged} ({:.1}%) against {}",
            tally.agreements,
            tally.agreement_percent(),
            run.columns[0]
        ),
        format!(
            "disagreements: {} in {} shapes",
            tally.disagreements(),
            tally.groups.len()
        ),
        format!(
            "programs a side could not run: {}{}",
            tally
                .errors
                .iter()
                .map(|e| e.program)
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            run.restarts
                .iter()
                .map(|(column, n)| format!(
                    "; {column} stopped answering and was started again {n} time{}",
                    if *n == 1 { "" } else { "s" }
                ))
                .collect::<String>()
        ),
    ]
}

/// The lines printed at the end of a run.
pub fn printed(run: &Exploration, tally: &Tally) -> Vec<String> {
    let mut lines = headline(run, tally);
    for (rank, group) in tally.groups.iter().take(PRINTED_SHAPES).enumerate() {
        lines.push(format!(
            "  {:>3}. {:>4} × {}",
            rank + 1,
            group.programs.len(),
            one_line(&group.shape.describe(&run.columns[0], &group.column))
        ));
    }
    if tally.groups.len() > PRINTED_SHAPES {
        lines.push(format!(
            "  … {} more shapes in the summary",
            tally.groups.len() - PRINTED_SHAPES
        ));
    }
    for error in tally.errors.iter().take(LISTED_ERRORS) {
        lines.push(format!(
            "  error on {} for program {}: {}",
            error.column,
            run.programs[error.program].number,
            one_line(&error.message)
        ));
    }
    lines
}

/// The Markdown summary.
pub fn markdown(run: &Exploration, tally: &Tally) -> String {
    let deciding = &run.columns[0];
    let mut md = format!(
        "# explore: {}\n\n`{}`\n\nGenerator `{}`; columns {} ({deciding} decides what is expected).\n\n",
        run.generator.name,
        run.command_line,
        run.generator.file.display(),
        run.columns.join(", ")
    );
    for line in headline(run, tally) {
        let _ = writeln!(md, "- {line}");
    }
    if !tally.groups.is_empty() {
        md.push_str("\n## Differences by shape\n\n| # | programs | column | differs in | ");
        let _ = writeln!(md, "{deciding} | other column | first case |");
        md.push_str("|---|---|---|---|---|---|---|\n");
        for (rank, group) in tally.groups.iter().enumerate() {
            let first = run.programs[group.programs[0]].number;
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} |",
                rank + 1,
                group.programs.len(),
                group.column,
                group.shape.keys.join(", "),
                code(&group.shape.expected.join(" · ")),
                code(&group.shape.actual.join(" · ")),
                case_id(group, first)
            );
        }
        md.push_str("\n## One example of each shape\n");
        for (rank, group) in tally.groups.iter().enumerate() {
            let index = group.programs[0];
            let program = &run.programs[index];
            let column = run
                .columns
                .iter()
                .position(|c| *c == group.column)
                .unwrap_or(1);
            let (Ok(reference), Ok(other)) =
                (&run.outcomes[index][0], &run.outcomes[index][column])
            else {
                continue;
            };
            let _ = writeln!(
                md,
                "\n### {}. {} ({} program{})\n\n- template `{}`, case {}\n- program: {}",
                rank + 1,
                group.shape.slug(),
                group.programs.len(),
                if group.programs.len() == 1 { "" } else { "s" },
                run.generator.templates[program.template].id,
                case_id(group, program.number),
                code(&program.code)
            );
            for key in &group.shape.keys {
                let _ = writeln!(
                    md,
                    "- {key}: {deciding} {} · {} {}",
                    code(&text_of(reference, key)),
                    group.column,
                    code(&text_of(other, key))
                );
            }
        }
    }
    md.push_str(
        "\n## By template\n\n| template | programs | agree | disagree | side errors |\n|---|---|---|---|---|\n",
    );
    for (index, (agree, disagree, errors)) in &tally.templates {
        let _ = writeln!(
            md,
            "| {} | {} | {agree} | {disagree} | {errors} |",
            run.generator.templates[*index].id,
            agree + disagree + errors
        );
    }
    if !tally.errors.is_empty() {
        md.push_str(
            "\n## Programs a side could not run\n\n| program | column | why |\n|---|---|---|\n",
        );
        for error in tally.errors.iter().take(LISTED_ERRORS) {
            let _ = writeln!(
                md,
                "| {} | {} | {} |",
                code(&run.programs[error.program].code),
                error.column,
                code(&error.message)
            );
        }
        if tally.errors.len() > LISTED_ERRORS {
            let _ = writeln!(md, "\n… and {} more.", tally.errors.len() - LISTED_ERRORS);
        }
    }
    md
}
