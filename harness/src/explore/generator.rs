//! Generators: programs as data. A generator file is YAML holding templates (program text
//! with `{{slot}}` holes), slot lists (the names and values that fill the holes), and
//! optionally the providers and options every generated program runs with, in the
//! catalogue's own formats. Loading checks everything a run would trip over, and names each
//! problem by file, line and column, as the catalogue loader does.
//!
//! The format (documented for users in `docs/harness.md`, section `explore`):
//!
//! ```yaml
//! about: What the generator explores.          # optional
//! providers:                                   # optional, as in a case
//!   - name: codemode
//!     tools:
//!       get: { returns: null }
//! options: { timeout_ms: 5000 }                # optional, as in a case
//! slots:                                       # lists every template may use
//!   name: [data, result, user]
//!   nothing: [undefined, null, "await codemode.get()"]
//! templates:
//!   - id: destructure-nothing                  # lower-case slug, unique in the file
//!     about: destructuring a value that is not there   # optional
//!     code: 'async () => { const { {{name}} } = {{nothing}}; return {{name}} }'
//!     slots:                                   # optional, lists of this template only
//!       name: [a, b]
//!     modules:                                 # optional, the program's module map
//!       lib.js: 'export const {{name}} = 1'    # sources take holes, bound with the code's
//! ```
//!
//! A hole is `{{list}}` or `{{list.tag}}`. Every hole with the same text takes the same value
//! within one program; holes of one list with different tags take different values where the
//! list allows. A slot value may itself hold holes, filled the same way (so one binding can
//! be shared between a template and the values it draws). A template's own lists hide the
//! generator's lists of the same name.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;
use serde_saphyr::Spanned;

use crate::catalogue::load::{checked_options, checked_providers, parse_yaml, problem_at};
use crate::catalogue::raw::{RawOptions, RawProvider};
use crate::catalogue::{CaseOptions, ProviderSpec};
use crate::error::{Error, Problem, Result};

/// The generators shipped with the harness, by name: `(name, path in the repository, text)`.
pub const SHIPPED: &[(&str, &str, &str)] = &[
    (
        "mistakes",
        "harness/generators/mistakes.yaml",
        include_str!("../../generators/mistakes.yaml"),
    ),
    (
        "intl",
        "harness/generators/intl.yaml",
        include_str!("../../generators/intl.yaml"),
    ),
    (
        "strings",
        "harness/generators/strings.yaml",
        include_str!("../../generators/strings.yaml"),
    ),
    (
        "duration",
        "harness/generators/duration.yaml",
        include_str!("../../generators/duration.yaml"),
    ),
    (
        "dates",
        "harness/generators/dates.yaml",
        include_str!("../../generators/dates.yaml"),
    ),
    (
        "units",
        "harness/generators/units.yaml",
        include_str!("../../generators/units.yaml"),
    ),
    (
        "event-loop",
        "harness/generators/event-loop.yaml",
        include_str!("../../generators/event-loop.yaml"),
    ),
    (
        "modules",
        "harness/generators/modules.yaml",
        include_str!("../../generators/modules.yaml"),
    ),
];

/// A loaded, checked generator.
#[derive(Debug, Clone)]
pub struct Generator {
    /// The generator's name: the shipped name, or the file's stem.
    pub name: String,
    /// Where it was read from (for shipped generators, their path in the repository).
    pub file: PathBuf,
    /// One line saying what the generator explores.
    pub about: Option<String>,
    /// The providers every generated program may call.
    pub providers: Vec<ProviderSpec>,
    /// The executor options every generated program runs with.
    pub options: CaseOptions,
    /// The templates, in file order.
    pub templates: Vec<Template>,
}

/// One template, its lists resolved (the generator's, then its own over them).
#[derive(Debug, Clone)]
pub struct Template {
    /// The template's id, unique in its generator.
    pub id: String,
    /// One line saying what the template's programs do.
    pub about: Option<String>,
    /// The template's code, with `{{…}}` holes.
    pub code: String,
    /// The template's module map (name to source, both holding holes), added to the
    /// generator's `options.modules` for each of its programs.
    pub modules: IndexMap<String, String>,
    /// The line of the template's `id`.
    pub line: u64,
    /// List name → its values, for the holes.
    pub slots: HashMap<String, Vec<String>>,
}

/// One `{{…}}` hole: the whole text inside the braces and the list it draws from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hole {
    pub token: String,
    pub list: String,
}

/// The pieces of a template or slot value: literal text and holes, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    Text(String),
    Hole(Hole),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGenerator {
    about: Option<String>,
    providers: Option<Spanned<Vec<RawProvider>>>,
    #[serde(default)]
    options: RawOptions,
    #[serde(default)]
    slots: IndexMap<String, Spanned<Vec<Spanned<Value>>>>,
    templates: Spanned<Vec<RawTemplate>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTemplate {
    id: Spanned<String>,
    about: Option<String>,
    code: Spanned<String>,
    #[serde(default)]
    slots: IndexMap<String, Spanned<Vec<Spanned<Value>>>>,
    #[serde(default)]
    modules: IndexMap<String, Spanned<String>>,
}

/// Finds a generator: a path to a file (anything naming an existing file, or with a `/` or
/// a `.yaml`/`.yml` ending), else the name of a shipped one.
pub fn resolve(spec: &str) -> Result<Generator> {
    let path = Path::new(spec);
    let looks_like_path = spec.contains('/') || spec.ends_with(".yaml") || spec.ends_with(".yml");
    if looks_like_path || path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| spec.to_string());
        return load(&name, path, &text);
    }
    match SHIPPED.iter().find(|(name, _, _)| *name == spec) {
        Some((name, file, text)) => load(name, Path::new(file), text),
        None => Err(Error::Usage(format!(
            "no generator named \"{spec}\" and no such file; the shipped generators are: {}",
            SHIPPED
                .iter()
                .map(|(name, _, _)| *name)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// Loads and checks one generator's text; every problem found is reported together.
pub fn load(name: &str, file: &Path, text: &str) -> Result<Generator> {
    let mut problems = Vec::new();
    let generator = check(name, file, text, &mut problems);
    match generator {
        Some(generator) if problems.is_empty() => Ok(generator),
        _ => Err(Error::Generator(problems)),
    }
}

fn check(name: &str, file: &Path, text: &str, problems: &mut Vec<Problem>) -> Option<Generator> {
    let raw: RawGenerator = parse_yaml(file, text, problems)?;
    let providers = checked_providers(
        file,
        raw.providers.as_ref().map_or(&[][..], |p| &p.value[..]),
        problems,
    );
    let options = checked_options(file, raw.options, problems);
    let shared = slot_lists(file, &raw.slots, problems);
    if raw.templates.value.is_empty() {
        problems.push(problem_at(
            file,
            &raw.templates,
            "a generator needs at least one template".into(),
        ));
    }
    let mut ids: HashMap<String, u64> = HashMap::new();
    let mut templates = Vec::new();
    for template in &raw.templates.value {
        let id = template.id.value.clone();
        if !valid_slug(&id) {
            problems.push(problem_at(
                file,
                &template.id,
                format!(
                    "the template id \"{id}\" must be a slug: lower-case letters, digits and '-'"
                ),
            ));
        }
        if let Some(line) = ids.insert(id.clone(), template.id.referenced.line()) {
            problems.push(problem_at(
                file,
                &template.id,
                format!("the template id \"{id}\" is already used at line {line}"),
            ));
        }
        let own = slot_lists(file, &template.slots, problems);
        let mut slots: HashMap<String, Vec<String>> = shared
            .iter()
            .map(|(k, (v, _))| (k.clone(), v.clone()))
            .collect();
        let mut places: HashMap<String, &Spanned<Value>> = HashMap::new();
        for (list, (values, spans)) in shared.iter().chain(own.iter()) {
            for (value, span) in values.iter().zip(spans) {
                places.entry(format!("{list}\u{0}{value}")).or_insert(span);
            }
        }
        for (list, (values, _)) in &own {
            slots.insert(list.clone(), values.clone());
        }
        // Every hole, in the code and in every value the code can reach, names a list.
        match pieces(&template.code.value) {
            Err(message) => problems.push(problem_at(
                file,
                &template.code,
                format!("template {id}: {message}"),
            )),
            Ok(code) => {
                for hole in holes(&code) {
                    if !slots.contains_key(&hole.list) {
                        problems.push(problem_at(
                            file,
                            &template.code,
                            unknown_list(&id, &hole.list, &slots),
                        ));
                    }
                }
            }
        }
        // Every hole of a module's name and source names a list too.
        for (name, source) in &template.modules {
            for text in [name.as_str(), source.value.as_str()] {
                match pieces(text) {
                    Err(message) => problems.push(problem_at(
                        file,
                        source,
                        format!("template {id}, module {name}: {message}"),
                    )),
                    Ok(text_pieces) => {
                        for hole in holes(&text_pieces) {
                            if !slots.contains_key(&hole.list) {
                                problems.push(problem_at(
                                    file,
                                    source,
                                    unknown_list(&id, &hole.list, &slots),
                                ));
                            }
                        }
                    }
                }
            }
        }
        for (list, (values, spans)) in &own {
            for (value, span) in values.iter().zip(spans) {
                match pieces(value) {
                    Err(message) => {
                        problems.push(problem_at(file, span, format!("slot {list}: {message}")))
                    }
                    Ok(value_pieces) => {
                        for hole in holes(&value_pieces) {
                            if !slots.contains_key(&hole.list) {
                                problems.push(problem_at(
                                    file,
                                    span,
                                    unknown_list(&id, &hole.list, &slots),
                                ));
                            }
                        }
                    }
                }
            }
        }
        if let Some((list, value)) = cycle(&slots) {
            let message = format!(
                "template {id}: the value \"{value}\" of slot {list} leads back to {list}; slot values may hold holes, but not in a circle"
            );
            problems.push(match places.get(&format!("{list}\u{0}{value}")) {
                Some(span) => problem_at(file, *span, message),
                None => problem_at(file, &template.code, message),
            });
        }
        templates.push(Template {
            id,
            about: template.about.clone(),
            code: template.code.value.clone(),
            modules: template
                .modules
                .iter()
                .map(|(name, source)| (name.clone(), source.value.clone()))
                .collect(),
            line: template.id.referenced.line(),
            slots,
        });
    }
    // A hole in a shared value must name a shared list, since any template may draw it.
    for (list, (values, spans)) in &shared {
        for (value, span) in values.iter().zip(spans) {
            let value_pieces = match pieces(value) {
                Ok(value_pieces) => value_pieces,
                Err(message) => {
                    problems.push(problem_at(file, span, format!("slot {list}: {message}")));
                    continue;
                }
            };
            {
                for hole in holes(&value_pieces) {
                    if !shared.contains_key(&hole.list) {
                        problems.push(problem_at(
                            file,
                            span,
                            format!(
                                "slot {list}: the hole {{{{{}}}}} names no list of the generator's slots",
                                hole.token
                            ),
                        ));
                    }
                }
            }
        }
    }
    Some(Generator {
        name: name.to_string(),
        file: file.to_path_buf(),
        about: raw.about,
        providers,
        options,
        templates,
    })
}

type Lists = IndexMap<String, (Vec<String>, Vec<Spanned<Value>>)>;

/// Slot lists as text, each checked: a valid name, not empty, scalar values.
fn slot_lists(
    file: &Path,
    raw: &IndexMap<String, Spanned<Vec<Spanned<Value>>>>,
    problems: &mut Vec<Problem>,
) -> Lists {
    let mut lists = IndexMap::new();
    for (name, values) in raw {
        if !valid_list_name(name) {
            problems.push(problem_at(
                file,
                values,
                format!(
                    "the slot list \"{name}\" must be named with lower-case letters, digits and '_', starting with a letter or '_'"
                ),
            ));
        }
        if values.value.is_empty() {
            problems.push(problem_at(
                file,
                values,
                format!("the slot list {name} is empty; give it at least one value"),
            ));
        }
        let mut texts = Vec::new();
        for value in &values.value {
            match &value.value {
                Value::String(s) => texts.push(s.clone()),
                Value::Number(n) => texts.push(n.to_string()),
                Value::Bool(b) => texts.push(b.to_string()),
                Value::Null => texts.push("null".into()),
                other => problems.push(problem_at(
                    file,
                    value,
                    format!(
                        "slot {name}: a value is text (quote it), not {}",
                        if other.is_array() {
                            "a list"
                        } else {
                            "a mapping"
                        }
                    ),
                )),
            }
        }
        lists.insert(name.clone(), (texts, values.value.clone()));
    }
    lists
}

fn unknown_list(template: &str, list: &str, slots: &HashMap<String, Vec<String>>) -> String {
    let known: BTreeSet<&str> = slots.keys().map(String::as_str).collect();
    format!(
        "template {template}: the hole {{{{{list}}}}} names no slot list (the lists are: {})",
        known.into_iter().collect::<Vec<_>>().join(", ")
    )
}

/// A list whose values, through their holes, lead back to itself: `(list, value)`.
fn cycle(slots: &HashMap<String, Vec<String>>) -> Option<(String, String)> {
    fn visit(
        list: &str,
        slots: &HashMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut HashSet<String>,
    ) -> Option<(String, String)> {
        if done.contains(list) {
            return None;
        }
        path.push(list.to_string());
        for value in slots.get(list).into_iter().flatten() {
            for hole in pieces(value).ok().iter().flat_map(|p| holes(p)) {
                if path.contains(&hole.list) {
                    return Some((list.to_string(), value.clone()));
                }
                if let Some(found) = visit(&hole.list, slots, path, done) {
                    return Some(found);
                }
            }
        }
        path.pop();
        done.insert(list.to_string());
        None
    }
    let mut names: Vec<&String> = slots.keys().collect();
    names.sort();
    let mut done = HashSet::new();
    names
        .into_iter()
        .find_map(|name| visit(name, slots, &mut Vec::new(), &mut done))
}

/// Splits text into literal pieces and `{{list}}` / `{{list.tag}}` holes.
pub(crate) fn pieces(text: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        if start > 0 {
            out.push(Piece::Text(rest[..start].to_string()));
        }
        let after = &rest[start + 2..];
        let end = after
            .find("}}")
            .ok_or_else(|| format!("the hole opened by \"{{{{\" at byte {start} is not closed"))?;
        let token = after[..end].trim();
        let list = token.split_once('.').map_or(token, |(list, _)| list);
        if !valid_list_name(list)
            || token
                .split_once('.')
                .is_some_and(|(_, tag)| tag.is_empty() || !tag.chars().all(slug_char))
        {
            return Err(format!(
                "\"{{{{{token}}}}}\" is not a hole; write {{{{list}}}} or {{{{list.tag}}}} with a slot list's name"
            ));
        }
        out.push(Piece::Hole(Hole {
            token: token.to_string(),
            list: list.to_string(),
        }));
        rest = &after[end + 2..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest.to_string()));
    }
    Ok(out)
}

fn holes(pieces: &[Piece]) -> impl Iterator<Item = &Hole> {
    pieces.iter().filter_map(|p| match p {
        Piece::Hole(h) => Some(h),
        Piece::Text(_) => None,
    })
}

fn slug_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'
}

fn valid_list_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name.chars().all(slug_char)
}

fn valid_slug(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('-')
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<Problem> {
        match load("t", Path::new("gen/t.yaml"), text) {
            Ok(_) => Vec::new(),
            Err(Error::Generator(problems)) => problems,
            Err(other) => panic!("{other}"),
        }
    }

    #[test]
    fn holes_split_and_tags_read() {
        assert_eq!(
            pieces("a {{x}} b {{x.2}}").unwrap(),
            vec![
                Piece::Text("a ".into()),
                Piece::Hole(Hole {
                    token: "x".into(),
                    list: "x".into()
                }),
                Piece::Text(" b ".into()),
                Piece::Hole(Hole {
                    token: "x.2".into(),
                    list: "x".into()
                }),
            ]
        );
        assert!(pieces("{{x").is_err());
        assert!(pieces("{{Not A List}}").is_err());
    }

    #[test]
    fn an_unknown_list_is_located_at_the_code() {
        let found =
            problems("slots:\n  a: [x]\ntemplates:\n  - id: t\n    code: 'async () => {{b}}'\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].line, found[0].column), (5, 11), "{found:?}");
        assert!(found[0].message.contains("{{b}}"), "{found:?}");
    }

    #[test]
    fn a_circle_of_values_is_refused() {
        let found = problems(
            "slots:\n  a: ['{{b}}']\n  b: ['{{a}}']\ntemplates:\n  - id: t\n    code: '{{a}}'\n",
        );
        assert!(
            found.iter().any(|p| p.message.contains("circle")),
            "{found:?}"
        );
    }

    #[test]
    fn every_shipped_generator_loads() {
        for (name, file, text) in SHIPPED {
            if let Err(error) = load(name, Path::new(file), text) {
                panic!("{error}");
            }
        }
    }
}
