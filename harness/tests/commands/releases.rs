//! The configured columns against the manifest, and merging per-column reports: what
//! `codemode-compat columns --add` writes must be what the repository holds, every npm alias
//! must have its column and every column its alias, and a merge of CI jobs' reports must give
//! one matrix with every column, whether the reports share outcomes by digest or were written
//! before they did.

use std::path::PathBuf;

use crate::support::root;
use codemode_compat::baseline::Baseline;
use codemode_compat::matrix::{self, OURS};
use codemode_compat::report;
use codemode_compat::sides::reference::UPSTREAM;
use codemode_compat::sides::reference::releases::{alias_name, aliased_config, line_of};
use semver::Version;
use serde_json::{Value, json};

/// `wrangler/wrangler.<version>.toml` files, by version.
fn aliased_configs() -> Vec<(Version, PathBuf)> {
    let mut configs: Vec<(Version, PathBuf)> = std::fs::read_dir(root().join("wrangler"))
        .expect("wrangler/ is readable")
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let version = name.strip_prefix("wrangler.")?.strip_suffix(".toml")?;
            Some((Version::parse(version).ok()?, entry.path()))
        })
        .collect();
    configs.sort();
    configs
}

fn manifest() -> Value {
    let text = std::fs::read_to_string(root().join("reference-worker/package.json"))
        .expect("reference-worker/package.json is readable");
    serde_json::from_str(&text).expect("the manifest is JSON")
}

#[test]
fn every_aliased_column_is_what_columns_add_writes() {
    let configs = aliased_configs();
    assert!(configs.len() >= 5, "older columns: {configs:?}");
    for (version, path) in &configs {
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            text,
            aliased_config(version),
            "{} differs from what `columns --add {version}` writes",
            path.display()
        );
    }
}

#[test]
fn every_alias_has_a_column_and_every_column_an_alias() {
    let manifest = manifest();
    let dependencies = manifest["dependencies"].as_object().unwrap();
    let configs = aliased_configs();
    for (version, _) in &configs {
        assert_eq!(
            dependencies.get(&alias_name(version)),
            Some(&json!(format!("npm:{UPSTREAM}@{version}"))),
            "wrangler.{version}.toml has no exact npm alias in reference-worker/package.json"
        );
    }
    for (name, spec) in dependencies {
        if let Some(version) = spec
            .as_str()
            .and_then(|s| s.strip_prefix(&format!("npm:{UPSTREAM}@")))
        {
            let version = Version::parse(version).unwrap();
            assert_eq!(*name, alias_name(&version));
            assert!(
                configs.iter().any(|(v, _)| *v == version),
                "the alias {name} has no wrangler/wrangler.{version}.toml"
            );
        }
    }
    let newest = Version::parse(dependencies[UPSTREAM].as_str().unwrap()).unwrap();
    assert!(
        configs.iter().all(|(v, _)| *v < newest),
        "the unaliased release must be the newest column"
    );
}

#[test]
fn the_columns_cover_every_measured_line_of_the_peer_range() {
    let mut versions: Vec<Version> = aliased_configs().into_iter().map(|(v, _)| v).collect();
    let manifest = manifest();
    versions.push(Version::parse(manifest["dependencies"][UPSTREAM].as_str().unwrap()).unwrap());
    for first in ["0.2.2", "0.3.7", "0.4.0", "0.4.2", "0.5.5"] {
        let line = line_of(&Version::parse(first).unwrap()).unwrap();
        assert!(
            versions.iter().any(|v| line.contains(v)),
            "no column runs the line {line}"
        );
    }
}

fn report(column: &str, cells: &[(&str, &str)]) -> Value {
    json!({
        "columns": [{"name": column, "upstream": column.strip_prefix("reference@")}],
        "cases": cells.iter().map(|(id, status)| json!({
            "id": id, "file": "cases/x.yaml", "line": 3,
            "cells": {column: {"status": status, "outcome": {"result": 1, "logs": [], "calls": []}}}
        })).collect::<Vec<_>>(),
        "totals": {},
        "elapsed_ms": if column == OURS { 10 } else { 40 },
    })
}

#[test]
fn per_column_reports_merge_into_one_matrix() {
    let parts = [
        report("reference@0.3.4", &[("a/one", "skip"), ("a/two", "pass")]),
        report(OURS, &[("a/one", "pass"), ("a/two", "pass")]),
        report("reference@0.5.6", &[("a/one", "pass"), ("a/two", "diff")]),
    ];
    let parts: Vec<_> = parts
        .iter()
        .map(|p| matrix::from_report(p).unwrap())
        .collect();
    let merged = matrix::merge(parts).unwrap();
    let names: Vec<&str> = merged.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, [OURS, "reference@0.5.6", "reference@0.3.4"]);
    assert_eq!(merged.cases.len(), 2);
    let cells: Vec<&String> = merged.cases[1].cells.keys().collect();
    assert_eq!(cells, [OURS, "reference@0.5.6", "reference@0.3.4"]);
    assert_eq!(merged.elapsed_ms, 40);
    assert!(merged.failed(), "the diff cell survives the merge");
    let totals = merged.totals();
    assert_eq!((totals["pass"], totals["diff"], totals["skip"]), (4, 1, 1));
}

#[test]
fn a_cell_in_two_reports_is_refused() {
    let one = matrix::from_report(&report(OURS, &[("a/one", "pass")])).unwrap();
    let error = matrix::merge(vec![one.clone(), one]).unwrap_err();
    assert!(
        error.contains("both have the case a/one on ours"),
        "{error}"
    );
    let mut other = matrix::from_report(&report(OURS, &[("a/two", "pass")])).unwrap();
    other.columns[0].executor = Some("codemode-executor 9.9.9".into());
    let one = matrix::from_report(&report(OURS, &[("a/one", "pass")])).unwrap();
    let error = matrix::merge(vec![one, other]).unwrap_err();
    assert!(
        error.contains("the column ours with different versions"),
        "{error}"
    );
    let bad = json!({"columns": [], "cases": [{"id": "a", "cells": {"x": {"status": "odd"}}}]});
    assert!(
        matrix::from_report(&bad)
            .unwrap_err()
            .contains("unknown status")
    );
}

#[test]
fn skipped_cells_that_pass_are_listed_as_stale_annotations() {
    let report = json!({
        "columns": [{"name": "reference@0.3.8", "upstream": "0.3.8"}],
        "cases": [
            {"id": "a/stale", "file": "cases/a.yaml", "line": 7, "cells": {"reference@0.3.8":
                {"status": "skip", "stale_skip": true, "reason": "skip_on <0.4.0: gone"}}},
            {"id": "a/holds", "file": "cases/a.yaml", "line": 9, "cells": {"reference@0.3.8":
                {"status": "skip", "stale_skip": false, "reason": "skip_on <0.4.0: real"}}},
        ],
    });
    let stale = matrix::stale_skips(&matrix::from_report(&report).unwrap());
    assert_eq!(
        stale,
        vec![(
            "a/stale (cases/a.yaml:7)".to_string(),
            "reference@0.3.8".to_string(),
            "skip_on <0.4.0: gone".to_string()
        )]
    );
}

/// A report as written before outcomes were shared: each cell holds its outcome itself, and
/// the case's file by an absolute path; `a/big` has an outcome of about 200 KB.
fn written_before(column: &str) -> Value {
    let big = json!({"result": "z".repeat(200_000), "logs": ["one"], "calls": []});
    let mut report = report(column, &[("a/one", "pass"), ("a/big", "pass")]);
    report["cases"][1]["cells"][column]["outcome"] = big;
    report["cases"][1]["file"] = json!(root().join("cases/x.yaml"));
    report
}

#[test]
fn reports_written_before_outcomes_were_shared_still_merge_and_make_the_same_baseline() {
    let old = written_before("reference@0.5.6");
    let new = report::to_json(&matrix::from_report(&old).unwrap());
    // As written now: each cell names its outcome by digest, the large one elided.
    let digest = new["cases"][1]["cells"]["reference@0.5.6"]["outcome"]
        .as_str()
        .unwrap();
    assert!(digest.starts_with("fnv1a64:"), "{digest}");
    assert_eq!(new["outcomes"].as_object().unwrap().len(), 2);
    assert_eq!(new["outcomes"][digest]["elided"], json!(true));
    assert!(new.to_string().len() < 20_000);
    // Both make the same baseline, the large outcome kept as the digest of the whole.
    let (before, now) = (
        Baseline::from_report(&old).unwrap(),
        Baseline::from_report(&new).unwrap(),
    );
    assert_eq!(before, now);
    let kept = before.cell("a/big", "reference@0.5.6").unwrap();
    assert_eq!(kept.outcome.as_ref().unwrap()["$digest"], json!(digest));
    // An old report and a new one merge as two old ones do.
    let ours = written_before(OURS);
    let merged = |reference: &Value| {
        let parts = vec![
            matrix::from_report(&ours).unwrap(),
            matrix::from_report(reference).unwrap(),
        ];
        report::to_json(&matrix::merge(parts).unwrap())
    };
    let (from_old, from_mixed) = (merged(&old), merged(&new));
    assert_eq!(from_old["cases"], from_mixed["cases"]);
    assert_eq!(from_old["outcomes"], from_mixed["outcomes"]);
    // Columns that agree share one entry.
    assert_eq!(from_mixed["outcomes"].as_object().unwrap().len(), 2);
}
