//! The differential explorer's own parts, without the reference: generators expand the same
//! way for the same seed and reach every template, a malformed generator is refused with
//! file:line:column, disagreements are written as a catalogue the loader loads (each expect
//! the deciding column's outcome), and a whole run on ours writes outputs that load.

use crate::support;

use std::path::Path;
use std::sync::Arc;

use codemode_compat::Error;
use codemode_compat::catalogue::load_dirs;
use codemode_compat::explore::expand::expand;
use codemode_compat::explore::generator::{self, SHIPPED};
use codemode_compat::explore::{self, Exploration, Request, case_for};
use codemode_compat::sides::ours::OursSide;
use codemode_executor::isolate::IsolateExecutor;
use serde_json::json;

const TINY: &str = r#"about: A tiny generator for the explorer's tests.
providers:
  - name: codemode
    tools:
      get: { returns: { id: 1 } }
options: { timeout_ms: 5000 }
slots:
  name: [a1, b2, c3]
  key: [x, y]
templates:
  - id: read
    code: 'async () => { const {{name}} = await codemode.get(); return {{name}}.{{key}} }'
  - id: throw
    about: throws a message naming a slot value
    code: 'async () => { throw new Error("{{name}} failed") }'
  - id: fixed
    code: 'async () => 1'
"#;

fn tiny() -> generator::Generator {
    generator::load("tiny", Path::new("tiny.yaml"), TINY).expect("the tiny generator loads")
}

#[test]
fn expansion_is_the_same_for_a_seed_and_reaches_every_template() {
    for (name, file, text) in SHIPPED {
        let generator = generator::load(name, Path::new(file), text).expect("a shipped generator");
        let first = expand(&generator, 2000, 7);
        assert_eq!(first, expand(&generator, 2000, 7), "{name}: same seed");
        assert_ne!(first, expand(&generator, 2000, 8), "{name}: another seed");
        assert_eq!(first.len(), 2000, "{name} holds 2000 distinct programs");
        let reached: std::collections::BTreeSet<usize> = first.iter().map(|p| p.template).collect();
        assert_eq!(
            reached.len(),
            generator.templates.len(),
            "{name}: every template"
        );
        // A program is its code and its module map.
        let distinct: std::collections::HashSet<(&str, Vec<(&String, &String)>)> = first
            .iter()
            .map(|p| (p.code.as_str(), p.modules.iter().collect()))
            .collect();
        assert_eq!(distinct.len(), first.len(), "{name}: programs are distinct");
        assert!(
            first.iter().all(|p| !p.code.contains("{{")
                && p.modules
                    .iter()
                    .all(|(n, s)| !n.contains("{{") && !s.contains("{{"))),
            "{name}: every hole is filled"
        );
    }
}

#[test]
fn a_small_generator_gives_every_distinct_program_and_stops() {
    let programs = expand(&tiny(), 100, 1);
    // read: 3 names × 2 keys; throw: 3 names; fixed: 1.
    assert_eq!(programs.len(), 10);
    assert_eq!(programs[0].template, 0);
    assert_eq!(programs[1].template, 1);
    assert_eq!(programs[2].template, 2);
    let numbers: Vec<usize> = programs.iter().map(|p| p.number).collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<_>>());
}

#[test]
fn a_malformed_generator_names_file_line_and_column() {
    let dir = support::scratch("explore-malformed");
    let file = dir.join("broken.yaml");
    std::fs::write(
        &file,
        "slots:\n  name: [a]\ntemplates:\n  - id: ok\n    code: 'async () => {{name}}'\n  - id: Bad Id\n    code: 'async () => {{nme}}'\n    colour: red\n",
    )
    .unwrap();
    let error = generator::resolve(file.to_str().unwrap()).expect_err("refused");
    let text = error.to_string();
    assert!(matches!(error, Error::Generator(_)), "{text}");
    assert!(
        text.contains(&format!("{}:8:5:", file.display())),
        "the unknown field is located: {text}"
    );

    std::fs::write(
        &file,
        "slots:\n  name: [a]\ntemplates:\n  - id: Bad Id\n    code: 'async () => {{nme}}'\n",
    )
    .unwrap();
    let text = generator::resolve(file.to_str().unwrap())
        .expect_err("refused")
        .to_string();
    assert!(
        text.contains(&format!("{}:4:9:", file.display())) && text.contains("Bad Id"),
        "the bad id is located: {text}"
    );
    assert!(
        text.contains(&format!("{}:5:11:", file.display())) && text.contains("{{nme}}"),
        "the unknown list is located: {text}"
    );
}

#[test]
fn an_unknown_name_lists_the_shipped_generators() {
    let text = generator::resolve("nosuch")
        .expect_err("refused")
        .to_string();
    assert!(text.contains("mistakes"), "{text}");
}

/// A run as if a reference column had answered: one program agrees, two share a shape, one
/// has a shape of its own, one could not run on the reference.
fn judged_run() -> Exploration {
    let generator = tiny();
    let programs = expand(&generator, 5, 3);
    let cases = programs
        .iter()
        .map(|p| Arc::new(case_for(&generator, p)))
        .collect();
    let error = |text: &str| Ok(json!({"error": text, "logs": [], "calls": []}));
    let outcomes = vec![
        vec![
            Ok(
                json!({"result": 1, "logs": ["line"], "calls": [{"tool": "codemode.get", "args": []}]}),
            ),
            Ok(
                json!({"result": 1, "logs": ["line"], "calls": [{"tool": "codemode.get", "args": []}]}),
            ),
        ],
        vec![error("x is not iterable"), error("value is not iterable")],
        vec![error("x is not iterable"), error("value is not iterable")],
        vec![
            Ok(
                json!({"logs": [], "calls": [], "threw": "Failed to start Worker:\nUncaught SyntaxError: Missing initializer in const declaration"}),
            ),
            Ok(
                json!({"logs": [], "calls": [], "threw": "Failed to start Worker:\nUncaught SyntaxError: Unexpected token ':'"}),
            ),
        ],
        vec![Err("the request failed".to_string()), error("same")],
    ];
    Exploration {
        generator,
        seed: 3,
        command_line: "codemode-compat explore --generator tiny".into(),
        columns: vec!["reference@0.5.6".into(), "ours".into()],
        programs,
        cases,
        outcomes,
        restarts: Vec::new(),
    }
}

#[test]
fn disagreements_are_written_as_a_catalogue_that_loads() {
    let run = judged_run();
    let out = support::scratch("explore-written");
    let written = explore::write(&run, &out).expect("written");
    assert_eq!(written.tally.agreements, 1);
    assert_eq!(written.tally.errors.len(), 1);
    assert_eq!(written.tally.groups.len(), 2);
    assert_eq!(written.tally.groups[0].programs, vec![1, 2]);

    let catalogue = load_dirs(std::slice::from_ref(&out)).expect("the written catalogue loads");
    let ids: Vec<&str> = catalogue.cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        vec![
            "explore/error-x-is-not-iterable-2",
            "explore/error-x-is-not-iterable-3",
            "explore/threw-missing-initializer-in-const-declaration-4",
        ]
    );
    let first = &catalogue.cases[0];
    assert_eq!(first.code, run.programs[1].code);
    assert_eq!(
        first.expect.to_outcome_json(),
        json!({"error": "x is not iterable", "logs": [], "calls": []}),
        "expect is the deciding column's outcome"
    );
    assert!(
        first.about.as_deref().unwrap().contains("template throw"),
        "about names the template: {:?}",
        first.about
    );
    assert_eq!(first.options.timeout_ms, Some(5000));

    let summary = std::fs::read_to_string(&written.summary).unwrap();
    assert!(summary.contains("agreements: 1 of 4 (25.0%)"), "{summary}");
    assert!(summary.contains("| 1 | 2 | ours | error |"), "{summary}");
    assert!(summary.contains("the request failed"), "{summary}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_on_ours_alone_writes_outputs_that_load() {
    let out = support::scratch("explore-ours");
    let ours = Arc::new(OursSide::new(IsolateExecutor::default()));
    let request = Request {
        generator: tiny(),
        count: 8,
        seed: 11,
        concurrency: 4,
        command_line: "codemode-compat explore --generator tiny --columns ours".into(),
        recorded: None,
    };
    let (run, written) = explore::command(
        &support::root(),
        request,
        Some(ours.clone()),
        Vec::new(),
        None,
        &out,
        &|_, _| {},
    )
    .await
    .expect("the run finishes");
    ours.dispose().await;
    assert_eq!(run.programs.len(), 8);
    assert_eq!(run.columns, vec!["ours"]);
    assert!(run.outcomes.iter().all(|o| o.len() == 1 && o[0].is_ok()));
    // One column has nothing to disagree with.
    assert_eq!(written.tally.agreements, 8);
    let thrown = run
        .programs
        .iter()
        .zip(&run.outcomes)
        .find(|(p, _)| p.template == 1)
        .expect("a throw program");
    assert_eq!(
        thrown.1[0].as_ref().unwrap()["error"],
        json!(format!("{} failed", thrown.0.values[0]))
    );
    let catalogue = load_dirs(&[out]).expect("the written catalogue loads");
    assert!(catalogue.cases.is_empty());
    assert!(written.summary.is_file());
}

async fn run_on_ours(
    out: &Path,
    seed: u64,
    recorded: Option<explore::recorded::Recording>,
) -> codemode_compat::Result<(Exploration, explore::Written)> {
    let ours = Arc::new(OursSide::new(IsolateExecutor::default()));
    let request = Request {
        generator: tiny(),
        count: 6,
        seed,
        concurrency: 4,
        command_line: "codemode-compat explore --generator tiny".into(),
        recorded,
    };
    let outcome = explore::command(
        &support::root(),
        request,
        Some(ours.clone()),
        Vec::new(),
        None,
        out,
        &|_, _| {},
    )
    .await;
    ours.dispose().await;
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_column_is_compared_with_a_fresh_run_of_ours() {
    // A run on ours alone, its outcomes then recorded as if a reference column had measured
    // them, one of them changed.
    let first = support::scratch("explore-record");
    run_on_ours(&first, 5, None).await.expect("the first run");
    let mut entries: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(first.join("tiny.json")).unwrap()).unwrap();
    for entry in &mut entries {
        let ours = entry["outcomes"]["ours"].clone();
        entry["outcomes"] = json!({"reference@9.9.9": ours});
    }
    let changed = entries
        .iter()
        .position(|e| e["template"] == "throw")
        .expect("a throw program");
    entries[changed]["outcomes"]["reference@9.9.9"]["error"] = json!("went wrong");
    let recording_file = first.join("recording.json");
    std::fs::write(&recording_file, serde_json::to_string(&entries).unwrap()).unwrap();
    let recording = explore::recorded::read(&recording_file).expect("a recording");
    assert_eq!(recording.columns, vec!["reference@9.9.9"]);

    let second = support::scratch("explore-replay");
    let (run, written) = run_on_ours(&second, 5, Some(recording.clone()))
        .await
        .expect("the replay");
    assert_eq!(run.columns, vec!["reference@9.9.9", "ours"]);
    assert_eq!(written.tally.agreements, 5);
    assert_eq!(written.tally.disagreements(), 1);
    let catalogue = load_dirs(&[second]).expect("the written catalogue loads");
    assert_eq!(catalogue.cases.len(), 1);
    assert_eq!(catalogue.cases[0].code, run.programs[changed].code);
    assert_eq!(catalogue.cases[0].expect.error, Some(json!("went wrong")));

    // Another seed draws other programs, which the recording does not hold.
    let refused = run_on_ours(&support::scratch("explore-refused"), 6, Some(recording))
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(refused.contains("records another program"), "{refused}");
}

#[test]
fn a_template_module_map_is_filled_with_the_program_values_and_joins_the_options() {
    let text = r#"options: { timeout_ms: 5000, modules: { shared.js: 'export const s = 1' } }
slots:
  mod: [a.js, b.js]
  ex: [x, y]
templates:
  - id: graph
    code: 'async () => (await import("{{mod}}")).{{ex}}'
    modules:
      '{{mod}}': 'export const {{ex}} = 1'
  - id: broken
    code: 'async () => 1'
    modules:
      m.js: 'export const {{nolist}} = 1'
"#;
    let refused = generator::load("graphs", Path::new("graphs.yaml"), text)
        .expect_err("a module's hole naming no list is refused");
    assert!(refused.to_string().contains("{{nolist}}"), "{refused}");
    let text = text.split("  - id: broken").next().unwrap();
    let generator = generator::load("graphs", Path::new("graphs.yaml"), text).unwrap();
    let programs = expand(&generator, 10, 1);
    assert_eq!(programs.len(), 4, "two names times two exports");
    for program in &programs {
        let (name, source) = program.modules.first().expect("the template's module");
        assert!(program.code.contains(&format!("import(\"{name}\")")));
        let export = source
            .trim_start_matches("export const ")
            .trim_end_matches(" = 1");
        assert!(program.code.ends_with(&format!(".{export}")), "{program:?}");
        let case = case_for(&generator, program);
        let modules = case.options.modules.expect("the case has modules");
        assert_eq!(
            modules.get("shared.js").map(String::as_str),
            Some("export const s = 1")
        );
        assert_eq!(modules.get(name), Some(source));
    }
}
