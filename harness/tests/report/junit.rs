//! `junit.xml` parses back as well-formed XML with a suite per column, a case per cell, and
//! failures, errors and skips where the matrix has them, hostile text included.

use crate::support::report_fixture;

use codemode_compat::report::to_junit;
use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};
use report_fixture::{HOSTILE, NEW, OLD};

/// One parsed element: its name, attributes (unescaped) and text content.
#[derive(Debug, Default, Clone)]
struct Element {
    name: String,
    attributes: Vec<(String, String)>,
    text: String,
    children: Vec<Element>,
}

impl Element {
    fn attr(&self, name: &str) -> &str {
        self.attributes
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("<{}> has no {name}", self.name))
    }

    fn children(&self, name: &str) -> Vec<&Element> {
        self.children.iter().filter(|c| c.name == name).collect()
    }
}

fn element(e: &quick_xml::events::BytesStart) -> Element {
    Element {
        name: e.name().as_ref().to_owned(),
        attributes: e
            .attributes()
            .map(|a| {
                let a = a.expect("a well-formed attribute");
                (
                    a.key.as_ref().to_owned(),
                    a.normalized_value(XmlVersion::Explicit1_0)
                        .expect("an attribute that unescapes")
                        .into_owned(),
                )
            })
            .collect(),
        ..Element::default()
    }
}

/// Parses a whole document strictly: every end tag must match, and one root element.
fn parse(xml: &str) -> Element {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) => stack.push(element(&e)),
            Event::Empty(e) => {
                let done = element(&e);
                stack.last_mut().unwrap().children.push(done);
            }
            Event::End(_) => {
                let done = stack.pop().unwrap();
                stack.last_mut().expect("balanced tags").children.push(done);
            }
            Event::Text(t) => {
                stack.last_mut().unwrap().text.push_str(&t.xml10_content());
            }
            Event::GeneralRef(r) => {
                if let Some(c) = r.resolve_char_ref().expect("a valid character reference") {
                    stack.last_mut().unwrap().text.push(c);
                    continue;
                }
                let c = match r.as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    other => panic!("unexpected entity &{other};"),
                };
                stack.last_mut().unwrap().text.push_str(c);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(stack.len(), 1, "unclosed elements");
    let mut document = stack.pop().unwrap();
    assert_eq!(document.children.len(), 1, "one root element");
    document.children.pop().unwrap()
}

#[test]
fn junit_is_well_formed_with_a_suite_per_column_and_a_case_per_cell() {
    let matrix = report_fixture::matrix();
    let transitions = report_fixture::transitions(&matrix);
    let xml = to_junit(&matrix, Some(&transitions));
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    let root = parse(&xml);
    assert_eq!(root.name, "testsuites");
    let suites = root.children("testsuite");
    let names: Vec<&str> = suites.iter().map(|s| s.attr("name")).collect();
    assert_eq!(names, ["ours", NEW, "reference@0.5.2", OLD]);
    for suite in &suites {
        let cases = suite.children("testcase");
        assert_eq!(cases.len(), 4, "a case per cell on {}", suite.attr("name"));
        assert_eq!(suite.attr("tests"), "4");
        let count = |what: &str| {
            cases
                .iter()
                .filter(|c| !c.children(what).is_empty())
                .count()
                .to_string()
        };
        assert_eq!(suite.attr("failures"), count("failure"));
        assert_eq!(suite.attr("errors"), count("error"));
        assert_eq!(suite.attr("skipped"), count("skipped"));
    }
    assert_eq!(root.attr("tests"), "16");

    let old = suites[3];
    let case = |id: &str| {
        *old.children("testcase")
            .iter()
            .find(|c| c.attr("name") == id)
            .unwrap()
    };
    // The diff cell carries the diff, and its transition (upstream moved, ours did not).
    let diff = case("dispatch/positional-arguments");
    assert_eq!(diff.attr("classname"), OLD);
    let failure = diff.children("failure")[0];
    assert_eq!(failure.attr("type"), "diff");
    assert!(
        failure
            .attr("message")
            .contains("upstream since the baseline"),
        "{failure:?}"
    );
    assert!(
        failure.text.contains("-    1\n") || failure.text.contains("-  \"calls\""),
        "{}",
        failure.text
    );
    assert!(failure.text.contains("+    \"b\""), "{}", failure.text);
    // The skip carries its reason; the error its message and transition.
    let skipped = case("dispatch/skipped-on-old").children("skipped")[0];
    assert!(
        skipped
            .attr("message")
            .starts_with("skip_on <0.3.7: before 0.3.7"),
        "{skipped:?}"
    );
    let error = case("results/number").children("error")[0];
    assert!(error.text.contains("wrangler dev exited"), "{error:?}");
    assert!(
        error.attr("message").contains("broken since the baseline"),
        "{error:?}"
    );
    // Hostile text survives the round trip as text, minus the one character XML cannot carry.
    let hostile = case("results/hostile").children("failure")[0];
    assert_eq!(hostile.attr("type"), "expect");
    let expected = HOSTILE.replace('\u{7}', "\\u{7}");
    let escaped = serde_json::to_string(&expected).unwrap();
    assert!(
        hostile.text.contains(&escaped[1..escaped.len() - 1]) || hostile.text.contains("</script>"),
        "{}",
        hostile.text
    );
    assert!(
        !xml.contains("<b id="),
        "markup from an outcome must not reach the XML as markup"
    );
}
