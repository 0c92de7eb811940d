//! Property tests of the catalogue loader: whatever a file holds, loading it never panics,
//! and every problem names its file, line and column.

use crate::support;

use codemode_compat::Error;
use codemode_compat::catalogue::load_dirs;
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Lines that look like a catalogue (real keys, plausible and implausible values, broken
/// indentation), so the loader's checks are reached and not only the YAML parser's.
fn catalogue_text() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("- id"),
        Just("  id"),
        Just("  code"),
        Just("  expect"),
        Just("  about"),
        Just("  providers"),
        Just("    - name"),
        Just("      tools"),
        Just("        t"),
        Just("  fns"),
        Just("  connectors"),
        Just("  options"),
        Just("    timeout_ms"),
        Just("    modules"),
        Just("  reference"),
        Just("  reason"),
        Just("  skip_on"),
        Just("    - versions"),
        Just("      reason"),
        Just("    result"),
        Just("    logs"),
        Just("    calls"),
        Just("    error"),
        Just("    threw"),
        Just("  unknown_field"),
    ];
    let value = prop_oneof![
        Just("".to_string()),
        Just("area/slug".to_string()),
        Just("Bad Id!".to_string()),
        Just("\"async () => 1\"".to_string()),
        Just("42".to_string()),
        Just("-1".to_string()),
        Just("false".to_string()),
        Just("yes".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("{returns: 1}".to_string()),
        Just("{echo: args}".to_string()),
        Just("{echo: sideways}".to_string()),
        Just("{throws: 1}".to_string()),
        Just("{$Uint8Array: [1, 300]}".to_string()),
        Just("{$matches: \"(\"}".to_string()),
        Just("\">=0.5.0\"".to_string()),
        Just("\"not a range\"".to_string()),
        Just("[\"a\", {b: c}]".to_string()),
        Just("&anchor x".to_string()),
        Just("*missing".to_string()),
        Just("\"\\ud83d\"".to_string()),
        "[ -~]{0,12}",
    ];
    let line = prop_oneof![
        6 => (key, value).prop_map(|(k, v)| format!("{k}: {v}")),
        1 => "\\PC{0,20}",
        1 => Just("---".to_string()),
        1 => Just("\t- broken".to_string()),
    ];
    prop::collection::vec(line, 0..14).prop_map(|lines| lines.join("\n"))
}

fn check(text: &str) -> Result<(), TestCaseError> {
    let dir = support::scratch("loader-property");
    let file = dir.join("area.yaml");
    std::fs::write(&file, text).unwrap();
    let loaded = load_dirs(std::slice::from_ref(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    match loaded {
        Ok(_) => Ok(()),
        Err(Error::Catalogue(problems)) => {
            prop_assert!(!problems.is_empty(), "a refusal lists its problems");
            for problem in problems {
                let shown = problem.to_string();
                let prefix = format!("{}:", file.display());
                prop_assert!(
                    shown.starts_with(&prefix),
                    "{shown:?} does not name the file"
                );
                let mut location = shown[prefix.len()..].splitn(3, ':');
                let line = location.next().and_then(|l| l.parse::<u64>().ok());
                let column = location.next().and_then(|c| c.parse::<u64>().ok());
                prop_assert!(
                    line.is_some_and(|l| l >= 1) && column.is_some_and(|c| c >= 1),
                    "{shown:?} does not name line:column"
                );
                prop_assert!(
                    location.next().is_some_and(|m| !m.trim().is_empty()),
                    "{shown:?} says nothing"
                );
            }
            Ok(())
        }
        Err(other) => Err(TestCaseError::fail(format!(
            "a file's content gave a non-catalogue error: {other}"
        ))),
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn loader_names_every_problem_in_catalogue_shaped_text(text in catalogue_text()) {
        check(&text)?;
    }

    #[test]
    fn loader_names_every_problem_in_any_text(text in "\\PC{0,80}") {
        check(&text)?;
    }
}
