//! The `test262` command on a tiny suite in test262's layout (`tests/fixtures/test262/`,
//! written for these tests): the frontmatter read, includes inlined, `async` tests judged
//! through `$DONE`, negative tests judged by constructor name at runtime and at parse time,
//! the left-out rules counted under their reasons, filters and samples, and the report and
//! its files on our column; the message mode's recorded texts compared with a recording of the
//! reference, its report and its catalogue.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use codemode_compat::catalogue::load_dirs;
use codemode_compat::sides::ours::OursSide;
use codemode_compat::test262::messages::MessageReport;
use codemode_compat::test262::report::Report;
use codemode_compat::test262::select::{self, Filter, Sample};
use codemode_compat::test262::{self, cli};
use codemode_executor::isolate::IsolateExecutor;

fn suite() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/test262")
}

async fn run_on_ours(filters: &[&str]) -> Report {
    let filters: Vec<String> = filters.iter().map(|f| f.to_string()).collect();
    let request = cli::request(suite(), &filters, None, 1, 4, &["ours".into()])
        .expect("the fixture suite is a test262 checkout");
    let ours = Arc::new(OursSide::new(IsolateExecutor::default()));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "test262-{}-{}",
        std::process::id(),
        filters.join("+").replace(['/', '*'], "_")
    ));
    let report = test262::command(
        &suite(),
        request,
        Some(ours.clone()),
        Vec::new(),
        None,
        &out,
        &|_, _| {},
    )
    .await
    .expect("the run on ours completes");
    ours.dispose().await;
    // The JSON written is the report, and the text is its summary.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("test262.json")).unwrap()).unwrap();
    assert_eq!(json["run"], report.run);
    assert_eq!(
        std::fs::read_to_string(out.join("test262.txt")).unwrap(),
        report.text()
    );
    std::fs::remove_dir_all(&out).ok();
    report
}

fn verdicts(report: &Report) -> BTreeMap<String, (bool, String)> {
    report
        .tests
        .iter()
        .map(|t| {
            let v = &t.verdicts[0];
            (
                t.path.clone(),
                (v.pass, v.detail.clone().unwrap_or_default()),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_test_is_judged_on_ours() {
    let report = run_on_ours(&[]).await;
    assert_eq!(report.columns, ["ours"]);
    let verdicts = verdicts(&report);
    for passing in [
        "built-ins/Fixture/passes.js",
        "built-ins/Fixture/uses-include.js",
        "built-ins/Fixture/this-is-global.js",
        "built-ins/Fixture/async-done.js",
        "built-ins/Fixture/negative-runtime.js",
        "language/fixture/negative-parse.js",
        "built-ins/Messages/agree.js",
        "built-ins/Messages/differ.js",
    ] {
        assert!(
            verdicts[passing].0,
            "{passing} passes: {:?}",
            verdicts[passing]
        );
    }
    for (failing, why) in [
        ("built-ins/Fixture/fails.js", "arithmetic expected 3, got 2"),
        (
            "built-ins/Fixture/async-fails.js",
            "Test262:AsyncTestFailure:rejected on purpose",
        ),
        (
            "built-ins/Fixture/negative-runtime-wrong.js",
            "expected a TypeError, ReferenceError",
        ),
    ] {
        let (pass, detail) = &verdicts[failing];
        assert!(!pass, "{failing} fails");
        assert!(detail.contains(why), "{failing}: {detail:?} names {why:?}");
    }
    assert_eq!(
        verdicts.len(),
        11,
        "the fixture file is no test: {verdicts:?}"
    );
    let left_out: Vec<(&str, usize)> = report
        .left_out
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        left_out,
        [
            (
                "code generation from strings (eval, Function constructors), refused on the reference",
                1
            ),
            ("host hook $262.createRealm", 1),
            (
                "module code (flags: [module] or a resolution-phase negative)",
                1
            ),
            (
                "sloppy mode (flags: [noStrict] or [raw]); the sandbox is a module, strict code",
                1
            ),
        ]
    );
    let fixture = report
        .directories
        .iter()
        .find(|d| d.directory == "built-ins/Fixture")
        .expect("a line per directory");
    assert_eq!((fixture.run, fixture.passes["ours"]), (8, 5));
    let total = report.directories.last().unwrap();
    assert_eq!(
        (total.directory.as_str(), total.run, total.passes["ours"]),
        ("total", 11, 8)
    );
    assert!(report.text().contains("built-ins/Fixture"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filter_runs_only_what_it_matches() {
    let report = run_on_ours(&["built-ins/Fixture/negative-*"]).await;
    let paths: Vec<&str> = report.tests.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "built-ins/Fixture/negative-runtime-wrong.js",
            "built-ins/Fixture/negative-runtime.js"
        ]
    );
    assert!(report.left_out.is_empty());
}

#[test]
fn a_sample_is_the_same_for_the_same_seed_and_per_filter() {
    let filters = [
        Filter::new("built-ins").unwrap(),
        Filter::new("language").unwrap(),
    ];
    let pick = |seed| {
        select::select(
            &suite(),
            &filters,
            Some(Sample {
                per_filter: 1,
                seed,
            }),
        )
        .unwrap()
        .tests
        .into_iter()
        .map(|t| t.path)
        .collect::<Vec<_>>()
    };
    let first = pick(7);
    assert_eq!(first, pick(7));
    assert_eq!(first.len(), 2, "one of each filter: {first:?}");
    assert!(first[0].starts_with("built-ins/") && first[1].starts_with("language/"));
}

/// The message mode on ours against a recording of the reference (`recorded/messages.json`,
/// measured live on `reference@0.5.6` with `test262 --messages` over the same filters).
async fn messages_against_the_recording(filters: &[&str]) -> (MessageReport, PathBuf) {
    let filters: Vec<String> = filters.iter().map(|f| f.to_string()).collect();
    let recording = suite().join("recorded/messages.json");
    let request = cli::request(suite(), &filters, None, 1, 4, &["ours".into()])
        .expect("the fixture suite is a test262 checkout")
        .for_messages(Some(&recording))
        .expect("the recording reads");
    let ours = Arc::new(OursSide::new(IsolateExecutor::default()));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("test262-messages-{}", std::process::id()));
    let report = test262::messages_command(
        &suite(),
        request,
        Some(ours.clone()),
        Vec::new(),
        None,
        &out,
        &|_, _| {},
    )
    .await
    .expect("the run on ours completes");
    ours.dispose().await;
    assert_eq!(
        std::fs::read_to_string(out.join("messages.txt")).unwrap(),
        report.text()
    );
    (report, out)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_message_mode_compares_every_recorded_text_and_writes_the_differences_as_cases() {
    let (report, out) = messages_against_the_recording(&[
        "built-ins/Messages",
        "built-ins/Fixture/negative-runtime.js",
        "language/fixture/negative-parse.js",
    ])
    .await;
    assert_eq!(report.columns, ["reference@0.5.6", "ours"]);
    let counts: Vec<(&str, usize, usize, usize)> = report
        .directories
        .iter()
        .map(|d| (d.directory.as_str(), d.run, d.throw_on_both, d.identical))
        .collect();
    assert_eq!(
        counts,
        [
            ("built-ins/Fixture", 1, 1, 1),
            ("built-ins/Messages", 2, 2, 1),
            ("language/fixture", 1, 1, 1),
            ("built-ins", 3, 3, 2),
            ("language", 1, 1, 1),
            ("total", 4, 4, 3),
        ]
    );
    // The one test whose texts differ on purpose makes the one shape.
    let shapes: Vec<(&str, &str, Vec<&str>)> = report
        .groups
        .iter()
        .map(|g| {
            (
                g.reference.as_str(),
                g.ours.as_str(),
                g.tests.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        shapes,
        [(
            "TypeError: '<v>' returned for property '<v>' of object '<v>' is not a function",
            "TypeError: number <v> is not a function",
            vec!["built-ins/Messages/differ.js"]
        )]
    );
    // Every text each side recorded, in order, is in messages.json: the two assert.throws
    // of agree.js, the runtime-negative's error, the parse-negative's start failure.
    let raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("messages.json")).unwrap()).unwrap();
    let texts = |path: &str| {
        let entry = raw
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["path"] == path)
            .unwrap_or_else(|| panic!("{path} is recorded"));
        codemode_compat::test262::program::recorded_texts(&Ok(entry["outcomes"]["ours"].clone()))
            .unwrap_or_default()
    };
    assert_eq!(
        texts("built-ins/Messages/agree.js"),
        [
            "TypeError: Cannot read properties of null (reading 'x')",
            "RangeError: Invalid array length"
        ]
    );
    assert_eq!(
        texts("built-ins/Fixture/negative-runtime.js"),
        ["TypeError: Cannot read properties of null (reading 'property')"]
    );
    assert!(
        texts("language/fixture/negative-parse.js")[0]
            .contains("SyntaxError: Unexpected token ';'"),
        "{:?}",
        texts("language/fixture/negative-parse.js")
    );
    // The catalogue loads, its one case expecting the reference's outcome.
    let catalogue = load_dirs(std::slice::from_ref(&out)).expect("the written catalogue loads");
    assert_eq!(catalogue.cases.len(), 1);
    assert!(
        catalogue.cases[0]
            .about
            .as_deref()
            .unwrap_or_default()
            .contains("differ.js")
    );
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn a_recording_of_other_programs_is_refused_with_the_test_it_lacks() {
    let recording = test262::messages::read_recording(&suite().join("recorded/messages.json"))
        .expect("the recording reads");
    let error = recording
        .outcomes_for([("built-ins/Messages/agree.js", "other code")].into_iter())
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("another program for built-ins/Messages/agree.js")
    );
    let error = recording
        .outcomes_for([("built-ins/Nowhere.js", "")].into_iter())
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("does not record built-ins/Nowhere.js")
    );
}
