//! The WPT files the `wpt` command knows, and each file's entries as programs.
//!
//! Every entry of a data-driven file becomes one codemode program that asks the platform what
//! WPT's own test script asks it (the URL constructor and its getters, a setter, a
//! URLPattern's components, `test()` and `exec()`, `TextDecoder`'s `encoding`) and returns
//! the answers as JSON. Judging the answers against the file's expectation is
//! [`super::judge`]'s work; the program never judges, so its outcome on the reference is a
//! case's `expect` as it stands.

use std::path::Path;

use serde_json::Value;

use super::data::{self, js};
use crate::error::{Error, Result};

/// What a file's entries test, which decides their program and their judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `url/resources/urltestdata.json`: `new URL(input, base)`, its getters, `URL.canParse`.
    UrlParsing,
    /// `url/resources/setters_tests.json`: one setter on a parsed URL, then the getters.
    UrlSetters,
    /// `urlpattern/resources/urlpatterntestdata.json`: a pattern's components, `test()`, `exec()`.
    UrlPattern,
    /// `url/resources/toascii.json`: a host through the URL parser and the host setters.
    ToAscii,
    /// `url/resources/urlencoded-parser-data.json`: a form body through `URLSearchParams`.
    UrlEncodedParser,
    /// `url/resources/percent-encoding.json`: a query and fragment encoded as UTF-8.
    PercentEncoding,
    /// `encoding/resources/encodings.js`: every label through `TextDecoder`.
    EncodingLabels,
}

/// A WPT file the command runs.
#[derive(Debug, Clone, Copy)]
pub struct WptFile {
    /// Its path in a WPT checkout.
    pub path: &'static str,
    /// What kind of entries it holds.
    pub kind: Kind,
}

/// Every file, in report order.
pub const FILES: &[WptFile] = &[
    WptFile {
        path: "url/resources/urltestdata.json",
        kind: Kind::UrlParsing,
    },
    WptFile {
        path: "url/resources/setters_tests.json",
        kind: Kind::UrlSetters,
    },
    WptFile {
        path: "urlpattern/resources/urlpatterntestdata.json",
        kind: Kind::UrlPattern,
    },
    WptFile {
        path: "url/resources/toascii.json",
        kind: Kind::ToAscii,
    },
    WptFile {
        path: "url/resources/urlencoded-parser-data.json",
        kind: Kind::UrlEncodedParser,
    },
    WptFile {
        path: "url/resources/percent-encoding.json",
        kind: Kind::PercentEncoding,
    },
    WptFile {
        path: "encoding/resources/encodings.js",
        kind: Kind::EncodingLabels,
    },
];

/// One entry of a file, ready to run.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The file's path in the checkout.
    pub file: &'static str,
    /// What kind of file it comes from.
    pub kind: Kind,
    /// The entry's place in the file (among its entries, from 0; comments are not counted).
    pub index: usize,
    /// What the entry is about, on one line (its input, as WPT names its tests).
    pub label: String,
    /// The entry as the file gives it (with the setter's name added for a setter entry).
    pub data: Value,
    /// The program that asks the platform the entry's questions.
    pub program: String,
}

/// A file's entries, and the entries it holds that no program here can run, by reason.
#[derive(Debug, Clone, Default)]
pub struct FileEntries {
    /// The entries, in file order.
    pub entries: Vec<Entry>,
    /// Entries no program here can run, by reason, with how many.
    pub left_out: Vec<(String, usize)>,
}

/// The URL getters, in the order the programs read them.
const GETTERS: &str = r#"["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]"#;

/// Reads a file of the checkout at `dir` into its entries.
pub fn read(dir: &Path, file: &WptFile) -> Result<FileEntries> {
    let path = dir.join(file.path);
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let bad = |why: String| {
        Error::Usage(format!(
            "{} is not the WPT file the wpt command expects: {why}",
            path.display()
        ))
    };
    let value = match file.kind {
        Kind::EncodingLabels => data::parse(table_of_script(&text).map_err(bad)?),
        _ => data::parse(&text),
    }
    .map_err(|e| bad(format!("its JSON does not parse ({e})")))?;
    entries(file, value).map_err(bad)
}

/// The JSON of `var encodings_table = [...];` in `encodings.js`.
fn table_of_script(text: &str) -> std::result::Result<&str, String> {
    let start = text
        .find("encodings_table")
        .and_then(|at| text[at..].find('[').map(|b| at + b))
        .ok_or("it defines no `encodings_table` array")?;
    let end = text
        .rfind(']')
        .filter(|&end| end > start)
        .ok_or("the table's array is not closed")?;
    Ok(&text[start..=end])
}

/// The entries of a parsed file.
pub fn entries(file: &WptFile, value: Value) -> std::result::Result<FileEntries, String> {
    let mut out = FileEntries::default();
    match file.kind {
        Kind::UrlSetters => {
            let Value::Object(setters) = value else {
                return Err("its top level is not an object of setters".into());
            };
            for (setter, list) in setters {
                if setter == "comment" {
                    continue;
                }
                let Value::Array(list) = list else {
                    return Err(format!("the setter {setter:?} has no list of entries"));
                };
                for mut entry in list {
                    let Value::Object(map) = &mut entry else {
                        return Err(format!(
                            "an entry of the setter {setter:?} is not an object"
                        ));
                    };
                    map.insert("setter".into(), Value::String(setter.clone()));
                    push(file, &mut out, entry)?;
                }
            }
        }
        Kind::EncodingLabels => {
            let Value::Array(sections) = value else {
                return Err("the encodings table is not an array".into());
            };
            for section in sections {
                for encoding in section["encodings"].as_array().into_iter().flatten() {
                    let name = encoding["name"].as_str().ok_or("an encoding has no name")?;
                    for label in encoding["labels"].as_array().into_iter().flatten() {
                        let entry = serde_json::json!({ "label": label, "name": name });
                        push(file, &mut out, entry)?;
                    }
                }
            }
        }
        _ => {
            let Value::Array(list) = value else {
                return Err("its top level is not an array".into());
            };
            // Strings between the entries are WPT's comments.
            for entry in list.into_iter().filter(Value::is_object) {
                if file.kind == Kind::PercentEncoding {
                    let others = entry["output"]
                        .as_object()
                        .map_or(0, |o| o.keys().filter(|k| *k != "utf-8").count());
                    if others > 0 {
                        let reason = "a document encoding other than UTF-8 (only a page can have one; a Worker's URLs are UTF-8)";
                        match out.left_out.iter_mut().find(|(r, _)| r == reason) {
                            Some((_, n)) => *n += others,
                            None => out.left_out.push((reason.into(), others)),
                        }
                    }
                    if entry["output"].get("utf-8").is_none() {
                        continue;
                    }
                }
                push(file, &mut out, entry)?;
            }
        }
    }
    Ok(out)
}

fn push(file: &WptFile, out: &mut FileEntries, data: Value) -> std::result::Result<(), String> {
    let index = out.entries.len();
    let (label, program) = program(file.kind, &data)
        .ok_or_else(|| format!("entry {index} lacks a field its tests need: {data}"))?;
    out.entries.push(Entry {
        file: file.path,
        kind: file.kind,
        index,
        label,
        data,
        program,
    });
    Ok(())
}

/// An entry's label and program; `None` where the entry lacks a field the program needs.
fn program(kind: Kind, entry: &Value) -> Option<(String, String)> {
    Some(match kind {
        Kind::UrlParsing => {
            let input = entry.get("input")?;
            let base = entry.get("base")?;
            let label = match base {
                Value::Null => format!("Parsing: <{}> without base", text(input)),
                _ => format!("Parsing: <{}> against <{}>", text(input), text(base)),
            };
            let program = format!(
                r#"async () => {{
  const input = {input}, base = {base};
  const args = base === null ? [input] : [input, base];
  const answer = {{ canParse: URL.canParse(...args) }};
  try {{
    const url = new URL(...args);
    for (const key of {GETTERS}) answer[key] = url[key];
    answer.searchParams = url.searchParams.toString();
  }} catch (e) {{
    answer.failure = e.name;
  }}
  return answer;
}}"#,
                input = js(input),
                base = js(base),
            );
            (label, program)
        }
        Kind::UrlSetters => {
            let setter = entry.get("setter")?;
            let href = entry.get("href")?;
            let value = entry.get("new_value")?;
            entry.get("expected")?.as_object()?;
            let label = format!("<{}>.{} = <{}>", text(href), text(setter), text(value));
            let program = format!(
                r#"async () => {{
  const url = new URL({href});
  const answer = {{}};
  try {{
    url[{setter}] = {value};
  }} catch (e) {{
    answer.threw = e.name;
  }}
  for (const key of {GETTERS}) answer[key] = url[key];
  return answer;
}}"#,
                href = js(href),
                setter = js(setter),
                value = js(value),
            );
            (label, program)
        }
        Kind::UrlPattern => {
            let pattern = entry.get("pattern")?.as_array()?;
            let inputs = entry
                .get("inputs")
                .cloned()
                .unwrap_or(Value::Array(Vec::new()));
            let label = format!(
                "Pattern: {} Inputs: {}",
                one_line(&js(&Value::Array(pattern.clone()))),
                one_line(&js(&inputs))
            );
            let program = format!(
                r#"async () => {{
  const args = {pattern}, inputs = {inputs};
  const components = ["protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"];
  const attempt = (f) => {{ try {{ return {{ value: f() }}; }} catch (e) {{ return {{ error: e.name }}; }} }};
  const answer = {{}};
  const built = attempt(() => new URLPattern(...args));
  if ("error" in built) return {{ pattern: built }};
  const pattern = built.value;
  answer.pattern = {{ hasRegExpGroups: pattern.hasRegExpGroups }};
  for (const c of components) answer.pattern[c] = pattern[c];
  const baseURL = typeof args[0] === "object" && args[0] !== null && args[0].baseURL ? args[0].baseURL : typeof args[1] === "string" ? args[1] : null;
  if (baseURL !== null) {{
    const base = attempt(() => new URL(baseURL));
    answer.base = "error" in base ? base : Object.fromEntries(components.map((c) => [c, base.value[c]]));
  }}
  const test = attempt(() => pattern.test(...inputs));
  answer.test = "error" in test ? test : test.value;
  const exec = attempt(() => pattern.exec(...inputs));
  if ("error" in exec || exec.value === null) {{
    answer.exec = "error" in exec ? exec : null;
    return answer;
  }}
  const result = exec.value;
  answer.exec = {{ inputs: result.inputs.map((i) => typeof i === "string" ? i : Object.fromEntries(components.filter((c) => i[c] !== undefined).map((c) => [c, i[c]]))) }};
  for (const c of components) {{
    const groups = {{}};
    for (const [k, v] of Object.entries(result[c].groups)) groups[k] = v === undefined ? null : v;
    answer.exec[c] = {{ input: result[c].input, groups }};
  }}
  return answer;
}}"#,
                pattern = js(&Value::Array(pattern.clone())),
                inputs = js(&inputs),
            );
            (label, program)
        }
        Kind::ToAscii => {
            let input = entry.get("input")?;
            entry.get("output")?;
            let label = format!("{} (using URL, URL.host and URL.hostname)", text(input));
            let program = format!(
                r#"async () => {{
  const input = {input};
  const answer = {{}};
  try {{
    const url = new URL(`https://${{input}}/x`);
    answer.url = {{ host: url.host, hostname: url.hostname, pathname: url.pathname, href: url.href }};
  }} catch (e) {{
    answer.url = {{ failure: e.name }};
  }}
  for (const setter of ["host", "hostname"]) {{
    const url = new URL("https://x/x");
    url[setter] = input;
    answer[setter] = url.host;
  }}
  return answer;
}}"#,
                input = js(input),
            );
            (label, program)
        }
        Kind::UrlEncodedParser => {
            let input = entry.get("input")?;
            entry.get("output")?.as_array()?;
            let label = format!("URLSearchParams constructed with: {}", text(input));
            let program = format!(
                "async () => [...new URLSearchParams({input})]",
                input = js(input),
            );
            (label, program)
        }
        Kind::PercentEncoding => {
            let input = entry.get("input")?;
            entry.get("output")?.get("utf-8")?;
            let label = format!("{} in a query and a fragment (UTF-8)", text(input));
            let program = format!(
                r#"async () => {{
  const input = {input};
  const url = new URL(`https://doesnotmatter.invalid/?${{input}}#${{input}}`);
  return {{ search: url.search, hash: url.hash }};
}}"#,
                input = js(input),
            );
            (label, program)
        }
        Kind::EncodingLabels => {
            let label = entry.get("label")?;
            let name = entry.get("name")?;
            let program = format!(
                r#"async () => {{
  const label = {label};
  const spellings = [label, label.toUpperCase(), ...[" ", "\t", "\n", "\f", "\r"].map((ws) => ws + label + ws)];
  return spellings.map((spelling) => {{
    try {{
      return new TextDecoder(spelling).encoding;
    }} catch (e) {{
      return e.name;
    }}
  }});
}}"#,
                label = js(label),
            );
            (format!("label {} of {}", text(label), text(name)), program)
        }
    })
}

/// A string value as it reads (its JSON for anything else), on one line.
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => one_line(js(&Value::String(s.clone())).trim_matches('"')),
        other => one_line(&js(other)),
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}
