//! Loading and checking catalogue files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::Value;
use serde_saphyr::Spanned;

use super::raw::{RawCase, RawExpect, RawOptions, RawProvider};
use super::{
    Behaviour, Case, CaseOptions, CaseTools, Catalogue, ConnectorSpec, Expect, OutboundSpec,
    ProviderSpec, SkipOn, VersionRange,
};
use crate::error::{Error, Problem, Result};

/// Loads every `*.yaml` file under each directory (recursively, in path order). Every problem
/// of every file is reported together in one [`Error::Catalogue`].
pub fn load_dirs(dirs: &[PathBuf]) -> Result<Catalogue> {
    let mut files = Vec::new();
    for dir in dirs {
        if !dir.is_dir() {
            return Err(Error::Usage(format!(
                "{} is not a directory of catalogue files",
                dir.display()
            )));
        }
        collect_yaml(dir, &mut files)?;
    }
    let mut problems = Vec::new();
    let mut cases = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
        cases.extend(load_text(file, &text, &mut problems));
    }
    let mut seen: HashMap<String, (PathBuf, u64)> = HashMap::new();
    for case in &cases {
        if let Some((file, line)) = seen.get(&case.id) {
            problems.push(Problem {
                file: case.file.clone(),
                line: case.line,
                column: 1,
                message: format!(
                    "the id \"{}\" is already used at {}:{}; ids are unique across every loaded catalogue",
                    case.id,
                    file.display(),
                    line
                ),
            });
        } else {
            seen.insert(case.id.clone(), (case.file.clone(), case.line));
        }
    }
    if problems.is_empty() {
        Ok(Catalogue { cases })
    } else {
        Err(Error::Catalogue(problems))
    }
}

fn collect_yaml(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_yaml(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|ext| ext == "yaml" || ext == "yml")
        {
            files.push(path);
        }
    }
    Ok(())
}

/// Parses one file's text; problems go to `problems`, good cases are returned.
pub(crate) fn load_text(file: &Path, text: &str, problems: &mut Vec<Problem>) -> Vec<Case> {
    let Some(raw) = parse_yaml::<Vec<RawCase>>(file, text, problems) else {
        return Vec::new();
    };
    let mut cases = Vec::new();
    for case in raw {
        let before = problems.len();
        let built = check_case(file, case, problems);
        if problems.len() == before {
            cases.extend(built);
        }
    }
    cases
}

/// Parses YAML text the way catalogue files are parsed (strict booleans, leading-zero numbers
/// kept as text); a parse error becomes one located problem.
pub(crate) fn parse_yaml<T: serde::de::DeserializeOwned>(
    file: &Path,
    text: &str,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    let options = serde_saphyr::options! {
        strict_booleans: true,
        leading_zero_numbers_as_strings: true,
        with_snippet: false,
    };
    match serde_saphyr::from_str_with_options(text, options) {
        Ok(raw) => Some(raw),
        Err(error) => {
            let (line, column) = error
                .location()
                .map(|l| (l.line(), l.column()))
                .unwrap_or((1, 1));
            problems.push(Problem {
                file: file.to_path_buf(),
                line,
                column,
                message: strip_location(&error.to_string()),
            });
            None
        }
    }
}

/// serde-saphyr opens its messages with `error: line L column C: ` (and some end with
/// ` at line L, column C`); the location is printed by [`Problem`] already.
fn strip_location(message: &str) -> String {
    static TRAILING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r" at line \d+, column \d+$").expect("the pattern is valid")
    });
    let message = message.trim().trim_start_matches("error: ");
    let message = match message.split_once(": ") {
        Some((head, rest)) if head.starts_with("line ") => rest.trim(),
        _ => message,
    };
    TRAILING.replace(message, "").into_owned()
}

pub(crate) fn problem_at<T>(file: &Path, spanned: &Spanned<T>, message: String) -> Problem {
    Problem {
        file: file.to_path_buf(),
        line: spanned.referenced.line(),
        column: spanned.referenced.column(),
        message,
    }
}

fn check_case(file: &Path, raw: RawCase, problems: &mut Vec<Problem>) -> Option<Case> {
    let id = raw.id.value.clone();
    let at_id = |message: String| problem_at(file, &raw.id, message);
    if !valid_id(&id) {
        problems.push(at_id(format!(
            "the id \"{id}\" must be area/slug: lower-case letters, digits, '-' and '/'"
        )));
    }
    let tools = match (&raw.providers, &raw.fns) {
        (Some(_), Some(fns)) => {
            problems.push(problem_at(
                file,
                fns,
                "a case takes providers or fns, not both".into(),
            ));
            CaseTools::Providers(Vec::new())
        }
        (_, Some(fns)) => CaseTools::Fns(behaviours(file, &fns.value, problems)),
        (providers, None) => CaseTools::Providers(checked_providers(
            file,
            providers.as_deref().unwrap_or_default(),
            problems,
        )),
    };
    let connectors = raw
        .connectors
        .iter()
        .map(|c| ConnectorSpec {
            name: c.name.clone(),
            tools: behaviours(file, &c.tools, problems),
        })
        .collect();
    let options = checked_options(file, raw.options, problems);
    let reference = raw.reference.as_ref().is_none_or(|r| r.value);
    if !reference && raw.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
        let spanned = raw
            .reference
            .as_ref()
            .expect("reference: false was written");
        problems.push(problem_at(
            file,
            spanned,
            "reference: false needs a reason saying why the reference cannot run the case".into(),
        ));
    }
    let mut skip_on = Vec::new();
    for skip in &raw.skip_on {
        match VersionRange::parse(&skip.versions.value) {
            Ok(versions) => skip_on.push(SkipOn {
                versions,
                reason: skip.reason.clone(),
            }),
            Err(message) => problems.push(problem_at(file, &skip.versions, message)),
        }
    }
    let expect = check_expect(raw.expect, |message| problems.push(at_id(message)));
    Some(Case {
        id,
        about: raw.about,
        code: raw.code,
        tools,
        connectors,
        options,
        expect,
        reference,
        reason: raw.reason,
        skip_on,
        timing_sensitive: raw.timing_sensitive,
        file: file.to_path_buf(),
        line: raw.id.referenced.line(),
    })
}

/// A case's options as written, the outbound mode checked where it stands.
pub(crate) fn checked_options(
    file: &Path,
    raw: RawOptions,
    problems: &mut Vec<Problem>,
) -> CaseOptions {
    let outbound = raw.outbound.as_ref().and_then(|spanned| {
        OutboundSpec::parse(&spanned.value)
            .map_err(|message| problems.push(problem_at(file, spanned, message)))
            .ok()
    });
    CaseOptions {
        timeout_ms: raw.timeout_ms,
        modules: raw.modules,
        outbound,
    }
}

/// A list of providers as written, each tool behaviour checked where it stands.
pub(crate) fn checked_providers(
    file: &Path,
    providers: &[RawProvider],
    problems: &mut Vec<Problem>,
) -> Vec<ProviderSpec> {
    providers
        .iter()
        .map(|p| ProviderSpec {
            name: p.name.clone(),
            tools: behaviours(file, &p.tools, problems),
            prelude: p.prelude.clone(),
            positional_args: p.positional_args,
            proxy_source: p.proxy_source.clone(),
        })
        .collect()
}

fn behaviours(
    file: &Path,
    tools: &IndexMap<String, Spanned<Value>>,
    problems: &mut Vec<Problem>,
) -> IndexMap<String, Behaviour> {
    let mut out = IndexMap::new();
    for (name, spanned) in tools {
        match Behaviour::parse(&spanned.value) {
            Ok(behaviour) => {
                out.insert(name.clone(), behaviour);
            }
            Err(message) => problems.push(problem_at(
                file,
                spanned,
                format!("tool \"{name}\": {message}"),
            )),
        }
    }
    out
}

fn check_expect(raw: RawExpect, mut problem: impl FnMut(String)) -> Expect {
    for (name, value) in [("logs", &raw.logs), ("calls", &raw.calls)] {
        if let Some(value) = value
            && !value.is_array()
            && !is_matcher(value)
        {
            problem(format!(
                "expect.{name} is a list (or a matcher), not {value}"
            ));
        }
    }
    Expect {
        result: raw.result,
        error: raw.error,
        logs: raw.logs.unwrap_or(Value::Array(Vec::new())),
        calls: raw.calls.unwrap_or(Value::Array(Vec::new())),
        threw: raw.threw,
    }
}

fn is_matcher(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| m.len() == 1 && m.keys().all(|k| k.starts_with('$')))
}

/// A piece of a case id made from any text: ASCII letters and digits, lower-cased, and `-`
/// for anything else, so that a prefix and `/` before it make an id [`valid_id`] accepts.
pub(crate) fn id_part(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.contains('/')
        && !id.starts_with('/')
        && !id.ends_with('/')
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '/')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> (Vec<Case>, Vec<Problem>) {
        let mut problems = Vec::new();
        let cases = load_text(Path::new("cases/x.yaml"), text, &mut problems);
        (cases, problems)
    }

    #[test]
    fn a_full_case_loads() {
        let (cases, problems) = load(
            "- id: dispatch/positional\n  code: async () => await codemode.add(1, \"b\")\n  providers:\n    - name: codemode\n      tools:\n        add: { echo: args }\n  expect:\n    result: [1, \"b\"]\n    calls:\n      - { tool: codemode.add, args: [1, \"b\"] }\n  skip_on:\n    - versions: \"<0.3.7\"\n      reason: first argument only\n",
        );
        assert_eq!(problems, vec![]);
        let case = &cases[0];
        assert_eq!(case.id, "dispatch/positional");
        assert_eq!(case.line, 1);
        assert_eq!(case.expect.result, Some(serde_json::json!([1, "b"])));
        assert!(case.skip_for(&semver::Version::new(0, 3, 4)).is_some());
        assert!(case.skip_for(&semver::Version::new(0, 5, 6)).is_none());
    }

    #[test]
    fn timing_sensitive_is_read_and_false_unless_written() {
        let (cases, problems) = load(
            "- id: a/timed\n  timing_sensitive: true\n  code: x\n  expect: {}\n- id: a/plain\n  code: x\n  expect: {}\n",
        );
        assert_eq!(problems, vec![]);
        assert!(cases[0].timing_sensitive);
        assert!(!cases[1].timing_sensitive);
    }

    #[test]
    fn null_result_differs_from_no_result() {
        let (cases, _) = load(
            "- id: a/null\n  code: x\n  expect:\n    result: null\n- id: a/none\n  code: x\n  expect: {}\n",
        );
        assert_eq!(cases[0].expect.result, Some(Value::Null));
        assert_eq!(cases[1].expect.result, None);
    }

    #[test]
    fn unknown_fields_are_located() {
        let (_, problems) = load("- id: a/b\n  code: x\n  expect: {}\n  bogus: 1\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(
            (problems[0].line, problems[0].column),
            (4, 3),
            "{problems:?}"
        );
        assert!(problems[0].message.contains("bogus"), "{problems:?}");
    }

    #[test]
    fn every_semantic_problem_is_reported() {
        let (_, problems) = load(
            "- id: a/b\n  code: x\n  providers:\n    - name: p\n      tools:\n        t: { retruns: 1 }\n  expect: {}\n  reference: false\n  skip_on:\n    - versions: soon\n      reason: r\n",
        );
        let lines: Vec<u64> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, vec![6, 8, 10], "{problems:?}");
    }

    #[test]
    fn malformed_yaml_names_line_and_column() {
        let (_, problems) = load("- id: a/b\n  code: [unclosed\n  expect: {}\n");
        assert_eq!(problems.len(), 1);
        assert!(problems[0].line >= 2, "{problems:?}");
    }
}
