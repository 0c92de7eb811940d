//! The platform surface inventory: what a program finds on `globalThis`, measured on a live
//! reference worker and on a live sandbox of ours, and diffed against a table in the repo.
//!
//! [`PROBE`] is an ordinary program (it runs through each side's normal execute path) that
//! returns one flat object: `global <name>` → `typeof` for every name on the global's
//! prototype chain (up to `Object.prototype`), `member <object>.<name>` → the member's kind
//! (`method`, `accessor`, or the `typeof` of a data value) for the capability objects and
//! prototypes, `builtin <object>.<key>` → the kind of an own property of a language
//! built-in (constructors, their prototypes, namespaces such as `Math` and `Intl`, and the
//! hidden iterator prototypes), `brand <label>` → `Object.prototype.toString` of a sample value, and
//! `sample <label>` → the text of a behaviour where a side is known to be partial (Intl
//! locales and time zones, SubtleCrypto's algorithms, BYOB readers), or `throws <name>`.
//!
//! The table (`surface/inventory.yaml`) records every entry for both sides. Guarantees: a
//! capability arriving or leaving on either side makes [`diff`] report it until the table is
//! re-recorded; [`unexplained`] lists every entry where the sides differ and the table gives
//! no reason; [`render_markdown`] is the counted summary committed next to the table.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::{Error, Result};

pub mod trials;

/// The program both sides run to measure their surface.
pub const PROBE: &str = include_str!("probe.js");

/// Where the table lives, relative to the project root.
pub const TABLE: &str = "surface/inventory.yaml";
/// The generated summary next to it.
pub const SUMMARY: &str = "surface/inventory.md";
/// Set to re-record the table from the live sides instead of failing on a difference.
pub const RECORD_ENV: &str = "CODEMODE_SURFACE_RECORD";
/// What a new difference's reason says until someone writes one; the table check fails on it.
pub const TODO_REASON: &str = "TODO: say why";

/// One measured entry on both sides; `None` where the side does not have it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// What the reference side measured.
    #[serde(default)]
    pub reference: Option<String>,
    /// What our side measured.
    #[serde(default)]
    pub ours: Option<String>,
    /// Why the sides differ (required when they do).
    #[serde(default)]
    pub reason: Option<String>,
}

impl Entry {
    /// Whether both sides measured the same.
    pub fn same(&self) -> bool {
        self.reference == self.ours
    }
}

/// The recorded table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inventory {
    /// The reference column the reference side was measured on.
    pub column: String,
    /// Entry name → both sides' measurements.
    pub entries: BTreeMap<String, Entry>,
}

/// Which side a measurement comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The reference column.
    Reference,
    /// Our executor.
    Ours,
}

impl Side {
    fn pick(self, entry: &Entry) -> &Option<String> {
        match self {
            Side::Reference => &entry.reference,
            Side::Ours => &entry.ours,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::Reference => "reference",
            Side::Ours => "ours",
        }
    }
}

/// A side's measurement: entry name → value.
pub type Measurement = BTreeMap<String, String>;

/// The measurement in a normalized outcome (the probe's `result`).
pub fn measurement(outcome: &Value) -> std::result::Result<Measurement, String> {
    let Some(result) = outcome.get("result").and_then(Value::as_object) else {
        return Err(format!(
            "the surface probe did not return an object; the outcome was {outcome}"
        ));
    };
    let mut out = Measurement::new();
    for (key, value) in result {
        let Some(text) = value.as_str() else {
            return Err(format!(
                "the surface probe's entry {key:?} is not a string: {value}"
            ));
        };
        // The brand probe says "absent" where constructing the sample failed.
        if text != "absent" {
            out.insert(key.clone(), text.to_string());
        }
    }
    Ok(out)
}

/// Reads the table under `root`.
pub fn load(root: &Path) -> Result<Inventory> {
    let path = root.join(TABLE);
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    serde_saphyr::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{} cannot be read ({e}); fix it or re-record it with {RECORD_ENV}=1 cargo test --test catalogue surface",
            path.display()
        ))
    })
}

/// Every difference between one side's measurement and the table's record of that side.
pub fn diff(table: &Inventory, side: Side, measured: &Measurement) -> Vec<String> {
    let mut out = Vec::new();
    for (key, entry) in &table.entries {
        let recorded = side.pick(entry);
        let now = measured.get(key);
        if recorded.as_ref() != now {
            out.push(format!(
                "{key}: the table records {} for {}, measured {}",
                shown(recorded.as_deref()),
                side.name(),
                shown(now.map(String::as_str))
            ));
        }
    }
    for (key, value) in measured {
        if !table.entries.contains_key(key) {
            out.push(format!(
                "{key}: new on {} ({value}), not in the table",
                side.name()
            ));
        }
    }
    out
}

fn shown(value: Option<&str>) -> String {
    value.map_or_else(|| "absent".to_string(), |v| format!("{v:?}"))
}

/// Entries where the sides differ and the table says nothing (or the placeholder) about why.
pub fn unexplained(table: &Inventory) -> Vec<String> {
    table
        .entries
        .iter()
        .filter(|(_, e)| !e.same())
        .filter(|(_, e)| {
            e.reason
                .as_deref()
                .is_none_or(|r| r.trim().is_empty() || r == TODO_REASON)
        })
        .map(|(key, e)| {
            format!(
                "{key}: reference {}, ours {}, and no reason",
                shown(e.reference.as_deref()),
                shown(e.ours.as_deref())
            )
        })
        .collect()
}

/// A new table from both measurements, keeping the old table's reasons where the sides
/// still differ.
pub fn record(
    old: Option<&Inventory>,
    column: &str,
    reference: &Measurement,
    ours: &Measurement,
) -> Inventory {
    let mut entries = BTreeMap::new();
    for key in reference.keys().chain(ours.keys()) {
        let mut entry = Entry {
            reference: reference.get(key).cloned(),
            ours: ours.get(key).cloned(),
            reason: None,
        };
        if !entry.same() {
            let kept = old
                .and_then(|o| o.entries.get(key))
                .and_then(|e| e.reason.clone());
            entry.reason = Some(kept.unwrap_or_else(|| TODO_REASON.to_string()));
        }
        entries.insert(key.clone(), entry);
    }
    Inventory {
        column: column.to_string(),
        entries,
    }
}

/// The table as YAML, one entry a line.
pub fn render_yaml(table: &Inventory) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut out = String::new();
    out.push_str(
        "# The platform surface of both sides, measured by harness/src/surface/probe.js through each\n\
         # side's execute path. Written by `CODEMODE_SURFACE_RECORD=1 cargo test --test catalogue surface`;\n\
         # only the reasons are written by hand (they are kept when re-recording). A missing side means\n\
         # the entry is absent there. Summary: surface/inventory.md.\n",
    );
    let _ = writeln!(out, "column: {}", q(&table.column));
    out.push_str("entries:\n");
    for (key, entry) in &table.entries {
        let mut fields = Vec::new();
        if let Some(v) = &entry.reference {
            fields.push(format!("reference: {}", q(v)));
        }
        if let Some(v) = &entry.ours {
            fields.push(format!("ours: {}", q(v)));
        }
        if let Some(v) = &entry.reason {
            fields.push(format!("reason: {}", q(v)));
        }
        let _ = writeln!(out, "  {}: {{{}}}", q(key), fields.join(", "));
    }
    out
}

/// Counts of one kind of entry (`global`, `member`, `brand`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Entries the reference has.
    pub reference: usize,
    /// Of those, entries ours has with the same value.
    pub same: usize,
    /// Of those, entries ours lacks.
    pub absent: usize,
    /// Of those, entries ours has with another value.
    pub different: usize,
    /// Entries only ours has.
    pub ours_only: usize,
}

/// The counts of the entries whose name starts with `kind `.
pub fn counts(table: &Inventory, kind: &str) -> Counts {
    let prefix = format!("{kind} ");
    let mut c = Counts::default();
    for (key, e) in &table.entries {
        if !key.starts_with(&prefix) {
            continue;
        }
        match (&e.reference, &e.ours) {
            (Some(r), Some(o)) if r == o => {
                c.reference += 1;
                c.same += 1;
            }
            (Some(_), Some(_)) => {
                c.reference += 1;
                c.different += 1;
            }
            (Some(_), None) => {
                c.reference += 1;
                c.absent += 1;
            }
            (None, Some(_)) => c.ours_only += 1,
            (None, None) => {}
        }
    }
    c
}

/// The counted summary committed as `surface/inventory.md`.
pub fn render_markdown(table: &Inventory) -> String {
    let mut out = String::new();
    out.push_str("# Platform surface: the reference worker and our sandbox\n\n");
    let _ = writeln!(
        out,
        "Generated from `{TABLE}` (reference column `{}`) by the `surface` tests of \
         `cargo test --test catalogue`; do not edit by hand. Every entry is measured on both \
         live sides by `harness/src/surface/probe.js`.\n",
        table.column
    );
    out.push_str("| kind | on the reference | same in ours | absent from ours | different in ours | only in ours |\n");
    out.push_str("| --- | ---: | ---: | ---: | ---: | ---: |\n");
    for kind in ["global", "member", "builtin", "brand", "sample"] {
        let c = counts(table, kind);
        let _ = writeln!(
            out,
            "| {kind} | {} | {} | {} | {} | {} |",
            c.reference, c.same, c.absent, c.different, c.ours_only
        );
    }
    let g = counts(table, "global");
    let _ = writeln!(
        out,
        "\n**{} of the reference's {} globals are present in ours with the same `typeof`.**\n",
        g.same, g.reference
    );
    let b = counts(table, "builtin");
    let _ = writeln!(
        out,
        "**{} of the reference's {} built-in members (own properties of the language's \
         constructors, prototypes and namespaces) are present in ours with the same kind; ours \
         has {} the reference lacks.**\n",
        b.same, b.reference, b.ours_only
    );
    let section = |out: &mut String, title: &str, filter: &dyn Fn(&Entry) -> bool| {
        let rows: Vec<_> = table.entries.iter().filter(|(_, e)| filter(e)).collect();
        let _ = writeln!(out, "## {title} ({})\n", rows.len());
        if rows.is_empty() {
            out.push_str("None.\n\n");
            return;
        }
        out.push_str("| entry | reference | ours | reason |\n| --- | --- | --- | --- |\n");
        for (key, e) in rows {
            let cell = |v: &Option<String>| {
                v.as_deref().map_or("—".to_string(), |v| {
                    format!("`{}`", v.replace('|', "\\|"))
                })
            };
            let _ = writeln!(
                out,
                "| `{key}` | {} | {} | {} |",
                cell(&e.reference),
                cell(&e.ours),
                e.reason.as_deref().unwrap_or("").replace('|', "\\|")
            );
        }
        out.push('\n');
    };
    section(&mut out, "On the reference, absent from ours", &|e| {
        e.reference.is_some() && e.ours.is_none()
    });
    section(&mut out, "Different in ours", &|e| {
        e.reference.is_some() && e.ours.is_some() && !e.same()
    });
    section(&mut out, "Only in ours", &|e| {
        e.reference.is_none() && e.ours.is_some()
    });
    out
}

/// Writes the table and its summary under `root`.
pub fn write(root: &Path, table: &Inventory) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (name, text) in [
        (TABLE, render_yaml(table)),
        (SUMMARY, render_markdown(table)),
    ] {
        let path = root.join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pairs: &[(&str, &str)]) -> Measurement {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_capability_arriving_or_leaving_is_a_difference() {
        let reference = m(&[("global URL", "function"), ("global caches", "object")]);
        let ours = m(&[("global URL", "function")]);
        let table = record(None, "reference@0.5.6", &reference, &ours);
        assert!(diff(&table, Side::Reference, &reference).is_empty());
        assert!(diff(&table, Side::Ours, &ours).is_empty());
        let arrived = m(&[("global URL", "function"), ("global caches", "object")]);
        assert_eq!(
            diff(&table, Side::Ours, &arrived),
            vec!["global caches: the table records absent for ours, measured \"object\""]
        );
        let left = m(&[("global caches", "object")]);
        assert_eq!(
            diff(&table, Side::Reference, &left),
            vec!["global URL: the table records \"function\" for reference, measured absent"]
        );
    }

    #[test]
    fn differences_need_reasons_and_keep_them_when_re_recorded() {
        let reference = m(&[("global caches", "object")]);
        let ours = Measurement::new();
        let mut table = record(None, "c", &reference, &ours);
        assert_eq!(unexplained(&table).len(), 1);
        table.entries.get_mut("global caches").unwrap().reason = Some("Workers only".into());
        assert!(unexplained(&table).is_empty());
        let again = record(Some(&table), "c", &reference, &ours);
        assert_eq!(again, table);
        let parsed: Inventory = serde_saphyr::from_str(&render_yaml(&table)).unwrap();
        assert_eq!(parsed, table);
        assert!(render_markdown(&table).contains("0 of the reference's 1 globals"));
    }
}
