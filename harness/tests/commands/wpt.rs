//! The `wpt` command on a tiny checkout in WPT's layout (`tests/fixtures/wpt/`, entries
//! written for these tests): every kind of file read and judged on our column, a wrong
//! expectation caught with what differs, a non-UTF-8 document encoding left out under its
//! reason, differences from a deciding column written as candidate cases that load back, and
//! the request's refusals.

use std::path::PathBuf;
use std::sync::Arc;

use codemode_compat::sides::ours::OursSide;
use codemode_compat::wpt::report::{self, Report};
use codemode_compat::wpt::{self, cli, suite};
use codemode_executor::isolate::IsolateExecutor;
use serde_json::json;

fn checkout() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/wpt")
}

fn counts<'a>(report: &'a Report, file: &str) -> &'a report::FileCounts {
    report
        .files
        .iter()
        .find(|f| f.file == file)
        .unwrap_or_else(|| panic!("the report has no row for {file}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_file_of_the_checkout_is_judged_on_ours() {
    let request =
        cli::request(checkout(), &[], 4, &["ours".into()]).expect("the fixture is a checkout");
    let ours = Arc::new(OursSide::new(IsolateExecutor::default()));
    let out =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("wpt-{}", std::process::id()));
    let report = wpt::command(
        &checkout(),
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
    assert_eq!(report.columns, ["ours"]);
    // (file, entries, right on ours)
    for (file, entries, right) in [
        ("url/resources/urltestdata.json", 5, 4),
        ("url/resources/setters_tests.json", 3, 3),
        ("urlpattern/resources/urlpatterntestdata.json", 4, 4),
        ("url/resources/toascii.json", 3, 3),
        ("url/resources/urlencoded-parser-data.json", 2, 2),
        ("url/resources/percent-encoding.json", 1, 1),
        ("encoding/resources/encodings.js", 3, 3),
    ] {
        let row = counts(&report, file);
        assert_eq!(
            (row.entries, row.right[0].1),
            (entries, right),
            "{file}: {:?}",
            report.entries
        );
    }
    // The entry whose expectation is wrong on purpose fails, saying what differs.
    let wrong = report
        .entries
        .iter()
        .find(|e| e.file == "url/resources/urltestdata.json" && e.index == 4)
        .unwrap();
    assert!(!wrong.verdicts[0].pass);
    assert_eq!(
        wrong.verdicts[0].detail.as_deref(),
        Some(r#"href is "https://example.org/" where WPT expects "https://example.com/""#)
    );
    // Only the UTF-8 column of a percent-encoding entry can run in a Worker.
    assert_eq!(
        counts(&report, "url/resources/percent-encoding.json").left_out,
        [(
            "a document encoding other than UTF-8 (only a page can have one; a Worker's URLs are UTF-8)".to_string(),
            1
        )]
    );
    // The files written: the JSON is the report, the text its summary, no candidates alone.
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("wpt.json")).unwrap()).unwrap();
    assert_eq!(written["files"].as_array().unwrap().len(), 7);
    assert_eq!(
        std::fs::read_to_string(out.join("wpt.txt")).unwrap(),
        report.text()
    );
    assert!(
        std::fs::read_to_string(out.join("wpt-candidates.yaml"))
            .unwrap()
            .ends_with("[]\n")
    );
    assert!(
        report
            .text()
            .contains("| `url/resources/setters_tests.json` | 3 | 3 |"),
        "{}",
        report.text()
    );
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn a_difference_from_the_deciding_column_is_a_candidate_case_that_loads_back() {
    let file = suite::FILES
        .iter()
        .find(|f| f.path.ends_with("toascii.json"))
        .unwrap();
    let read = suite::read(&checkout(), file).expect("the fixture's toascii.json reads");
    let entries = &read.entries[..2];
    let answer = |host: &str| json!({ "result": { "url": { "host": host, "hostname": host, "pathname": "/x", "href": format!("https://{host}/x") }, "host": host, "hostname": host }, "logs": [], "calls": [] });
    // Entry 0: both columns give WPT's answer; entry 1: ours answers otherwise.
    let outcomes = vec![
        vec![
            Ok(answer("xn--fa-hia.example")),
            Ok(answer("xn--fa-hia.example")),
        ],
        vec![Ok(answer("a..b")), Ok(answer("a.b"))],
    ];
    let report = report::build(
        "codemode-compat wpt (test)".into(),
        "fixture".into(),
        vec!["reference@test".into(), "ours".into()],
        &[(file.path, read.left_out.clone())],
        entries,
        &outcomes,
    );
    let row = counts(&report, file.path);
    assert_eq!(
        row.right,
        [("reference@test".to_string(), 2), ("ours".to_string(), 1)]
    );
    assert_eq!(
        (row.ours_of_deciding_right, row.ours_as_deciding),
        (Some(1), Some(1))
    );
    assert_eq!(report.differences.len(), 1);
    let difference = &report.differences[0];
    assert_eq!(difference.id, "wpt/toascii-1");
    assert!(report.text().contains(r#"wpt/toascii-1 (a..b (using URL, URL.host and URL.hostname)): outcome.result.url.host: "a..b" / ours "a.b""#), "{}", report.text());
    let text = report
        .candidates(&PathBuf::from("wpt-candidates.yaml"))
        .expect("the candidates load back");
    assert!(text.contains("id: wpt/toascii-1"), "{text}");
    assert!(text.contains("https://a..b/x"), "{text}");
    assert!(!text.contains("wpt/toascii-0"), "{text}");
}

#[test]
fn lone_surrogates_in_a_file_reach_the_program_as_written() {
    let file = suite::WptFile {
        path: "urlpattern/resources/urlpatterntestdata.json",
        kind: suite::Kind::UrlPattern,
    };
    let value = wpt::data::parse(
        r#"[{"pattern": [{"pathname": "\ud83d \udeb2"}], "expected_obj": "error"}]"#,
    )
    .unwrap();
    let read = suite::entries(&file, value).unwrap();
    assert!(
        read.entries[0]
            .program
            .contains(r#"[{"pathname":"\uD83D \uDEB2"}]"#),
        "{}",
        read.entries[0].program
    );
}

#[test]
fn the_request_is_refused_with_a_sentence_naming_what() {
    let missing = checkout().join("no-such-dir");
    let error = cli::request(missing.clone(), &[], 1, &[])
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.contains("is not a directory; wpt needs the root of a web-platform-tests checkout"),
        "{error}"
    );
    let error = cli::request(checkout(), &["nope.json".into()], 1, &[])
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.starts_with(
            r#"--file "nope.json" names none of the files wpt runs (url/resources/urltestdata.json"#
        ),
        "{error}"
    );
    // A checkout without a file the selection needs is refused naming the file.
    let request = cli::request(checkout().join("url"), &["toascii".into()], 1, &[]).unwrap();
    let error = wpt::read(&request).err().unwrap().to_string();
    assert!(error.contains("url/url/resources/toascii.json"), "{error}");
}
