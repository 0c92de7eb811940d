//! A test262 test as a codemode program, and the verdict on a side's outcome of it.
//!
//! The program is an async arrow function (the shape a model writes, run by each side's
//! normal execute path). Its body defines `print` (which settles the run's verdict, as a
//! test262 host's `print` reports an async test's end), inlines the harness includes
//! (`assert.js`, `sta.js`, `doneprintHandle.js` for `async` tests, then the test's own
//! `includes`, in that order), and runs the test's source, verbatim, as the body of a
//! function called with `this` = `globalThis` (a strict script's top-level `this`). The
//! program returns `"pass"`, or `"fail: …"` naming what went wrong.
//!
//! How each kind of test is judged:
//! - an ordinary test passes when its source completes without throwing;
//! - an `async` test passes when it calls `$DONE()` with no error (through
//!   `doneprintHandle.js`, whose `print("Test262:AsyncTestComplete")` settles the verdict);
//!   one that never calls it runs into the program's bound ([`BOUND_MS`]) and fails;
//! - a `negative` test of the `runtime` phase passes when it throws an error whose
//!   constructor has the expected name;
//! - a `negative` test of the `parse` phase passes when the program fails to start with that
//!   error's name (`Uncaught SyntaxError: …`), and fails if it runs at all.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::metadata::Metadata;

/// The bound each test runs under on every side, in milliseconds.
pub const BOUND_MS: u64 = 10_000;

/// The includes every test gets, ahead of its own (test262's `INTERPRETING.md`).
pub const DEFAULT_INCLUDES: &[&str] = &["assert.js", "sta.js"];
/// The include an `async` test gets as well, which defines `$DONE` over `print`.
pub const ASYNC_INCLUDE: &str = "doneprintHandle.js";

/// What a test expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expectation {
    /// Completes (or, for an async test, calls `$DONE()` without an error).
    Completes {
        /// The test is async and reports through `$DONE`.
        asynchronous: bool,
    },
    /// Throws an error of this constructor while running.
    ThrowsAtRuntime(String),
    /// Fails to parse with an error of this constructor.
    FailsToParse(String),
}

impl Expectation {
    /// What a test with this frontmatter expects.
    pub fn of(meta: &Metadata) -> Self {
        match &meta.negative {
            Some(negative) if negative.phase == "parse" => {
                Expectation::FailsToParse(negative.kind.clone())
            }
            Some(negative) => Expectation::ThrowsAtRuntime(negative.kind.clone()),
            None => Expectation::Completes {
                asynchronous: meta.flag("async"),
            },
        }
    }
}

/// The includes a test runs with, in order, as file names under the suite's `harness/`.
pub fn includes(meta: &Metadata) -> Vec<String> {
    let mut all: Vec<String> = DEFAULT_INCLUDES.iter().map(|s| s.to_string()).collect();
    if meta.flag("async") {
        all.push(ASYNC_INCLUDE.into());
    }
    for include in &meta.includes {
        if !all.contains(include) {
            all.push(include.clone());
        }
    }
    all
}

/// What a program records in the message mode, placed after the includes: every error
/// `assert.throws` (and `assert.throwsAsync`, where `asyncHelpers.js` defines it) catches, as
/// `Constructor: message`, in the order caught; the test's own failure (a `compareArray` or
/// `verifyProperty` failure, a runtime-negative test's error, an async test's `$DONE` error)
/// is recorded last. The program then returns `{verdict, texts}`.
pub const RECORDER: &str = "const __test262Texts = [];\n\
function __test262Record(error) { __test262Texts.push(__test262Describe(error)); }\n\
function __test262Return(verdict) { return { verdict, texts: __test262Texts }; }\n\
if (typeof assert === 'function' && typeof assert.throws === 'function') {\n\
\x20 const __throws = assert.throws;\n\
\x20 assert.throws = function (expected, func, message) {\n\
\x20   const recorded = typeof func !== 'function' ? func : function () {\n\
\x20     try { return func.apply(this, arguments); } catch (error) { __test262Record(error); throw error; }\n\
\x20   };\n\
\x20   return __throws.call(this, expected, recorded, message);\n\
\x20 };\n\
}\n\
if (typeof assert === 'function' && typeof assert.throwsAsync === 'function') {\n\
\x20 const __throwsAsync = assert.throwsAsync;\n\
\x20 assert.throwsAsync = function (expected, func, message) {\n\
\x20   const recorded = typeof func !== 'function' ? func : function () {\n\
\x20     let result;\n\
\x20     try { result = func.apply(this, arguments); } catch (error) { __test262Record(error); throw error; }\n\
\x20     if (result instanceof Promise) {\n\
\x20       return Promise.prototype.then.call(result, undefined, (error) => { __test262Record(error); throw error; });\n\
\x20     }\n\
\x20     return result;\n\
\x20   };\n\
\x20   return __throwsAsync.call(this, expected, recorded, message);\n\
\x20 };\n\
}\n";

/// The program for a test: `includes` are the texts of [`includes`], in that order. With
/// `messages`, the program records error texts as it runs ([`RECORDER`]) and returns
/// `{verdict, texts}` in place of the bare verdict.
pub fn program(
    source: &str,
    includes: &[(String, &str)],
    expectation: &Expectation,
    messages: bool,
) -> String {
    let mut out = String::with_capacity(source.len() + 4096);
    out.push_str(
        "async () => {\n\
         let __test262Settle;\n\
         const __test262Printed = new Promise((resolve) => { __test262Settle = resolve; });\n\
         function print(message) { __test262Settle(String(message)); }\n\
         function __test262Describe(error) {\n\
         \x20 try {\n\
         \x20   if (error !== null && typeof error === 'object' && 'message' in error) {\n\
         \x20     const name = error.constructor && error.constructor.name;\n\
         \x20     return (name || 'Object') + ': ' + String(error.message);\n\
         \x20   }\n\
         \x20   return 'thrown ' + String(error);\n\
         \x20 } catch (_) { return 'thrown an unprintable value'; }\n\
         }\n",
    );
    for (name, text) in includes {
        out.push_str("// ---- harness/");
        out.push_str(name);
        out.push('\n');
        out.push_str(text);
        out.push('\n');
    }
    if messages {
        out.push_str(RECORDER);
    } else {
        out.push_str(
            "const __test262Texts = [];\nfunction __test262Return(verdict) { return verdict; }\n",
        );
    }
    // A host's $DONE is a global (asyncHelpers.js checks globalThis has it as its own).
    out.push_str(
        "if (typeof $DONE === 'function') globalThis.$DONE = $DONE;\n// ---- the test\ntry {\n(function () {\n",
    );
    out.push_str(source);
    out.push_str("\n}).call(globalThis);\n} catch (error) {\n");
    if messages {
        out.push_str("  __test262Record(error);\n");
    }
    match expectation {
        Expectation::ThrowsAtRuntime(kind) => {
            let kind = js_string(kind);
            out.push_str(&format!(
                "  if (error !== null && typeof error === 'object' && error.constructor && error.constructor.name === {kind}) return __test262Return('pass');\n\
                 \x20 return __test262Return('fail: expected a ' + {kind} + ', ' + __test262Describe(error));\n"
            ));
        }
        _ => out.push_str("  return __test262Return('fail: ' + __test262Describe(error));\n"),
    }
    out.push_str("}\n");
    match expectation {
        Expectation::Completes { asynchronous: true } => out.push_str(
            "const __test262Message = await __test262Printed;\n\
             if (__test262Message !== 'Test262:AsyncTestComplete') __test262Texts.push(__test262Message);\n\
             return __test262Return(__test262Message === 'Test262:AsyncTestComplete' ? 'pass' : 'fail: ' + __test262Message);\n",
        ),
        Expectation::Completes {
            asynchronous: false,
        } => out.push_str("return __test262Return('pass');\n"),
        Expectation::ThrowsAtRuntime(kind) => out.push_str(&format!(
            "return __test262Return('fail: expected a ' + {} + ', the test completed');\n",
            js_string(kind)
        )),
        Expectation::FailsToParse(kind) => out.push_str(&format!(
            "return __test262Return('fail: expected a ' + {} + ' at parse time, the test ran');\n",
            js_string(kind)
        )),
    }
    out.push_str("}\n");
    out
}

fn js_string(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialize")
}

/// A side's verdict on one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The test passed on that side.
    Pass,
    /// Why the test failed on that side (shortened to [`DETAIL_CHARS`]).
    Fail(String),
}

impl Verdict {
    /// Whether the test passed.
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Pass)
    }
}

/// How much of a failure's text a report keeps.
pub const DETAIL_CHARS: usize = 300;

static UNCAUGHT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"Uncaught (\w+)").expect("the pattern is valid"));

/// Judges a side's normalized outcome (or the reason the side could not run the program).
pub fn verdict(outcome: &Result<Value, String>, expectation: &Expectation) -> Verdict {
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(why) => return Verdict::Fail(shorten(&format!("the side could not run it: {why}"))),
    };
    let result = outcome.get("result").and_then(|r| {
        r.as_str()
            .or_else(|| r.get("verdict").and_then(Value::as_str))
    });
    let error = outcome.get("error").and_then(Value::as_str);
    let threw = outcome.get("threw").and_then(Value::as_str);
    if let Expectation::FailsToParse(kind) = expectation {
        // The program never starts: execute() rejects (or reports) the sandbox's parse error.
        let text = threw.or(error).unwrap_or("");
        let thrown = UNCAUGHT.captures(text).map(|c| c[1].to_string());
        return match thrown {
            Some(name) if &name == kind => Verdict::Pass,
            _ if result.is_some() => Verdict::Fail(shorten(result.unwrap_or_default())),
            _ => Verdict::Fail(shorten(&format!(
                "expected a {kind} at parse time, got {}",
                brief(outcome)
            ))),
        };
    }
    match result {
        Some("pass") => Verdict::Pass,
        Some(text) => Verdict::Fail(shorten(text)),
        None => Verdict::Fail(shorten(&brief(outcome))),
    }
}

/// The error texts a side's outcome of a message-mode program recorded, in order: the
/// start failure's text (`Uncaught SyntaxError: … at …`, location and all) where the program
/// never ran, otherwise the texts the program returned; `None` when the side could not run
/// it or the program ended without returning them (an error outside the test, a timeout).
pub fn recorded_texts(outcome: &Result<Value, String>) -> Option<Vec<String>> {
    let outcome = outcome.as_ref().ok()?;
    if let Some(texts) = outcome
        .get("result")
        .and_then(|r| r.get("texts"))
        .and_then(Value::as_array)
    {
        return Some(
            texts
                .iter()
                .map(|t| t.as_str().map_or_else(|| t.to_string(), str::to_string))
                .collect(),
        );
    }
    let text = outcome
        .get("threw")
        .or(outcome.get("error"))
        .and_then(Value::as_str)?;
    UNCAUGHT.is_match(text).then(|| vec![text.to_string()])
}

/// The outcome's error texts, for a failure's detail.
fn brief(outcome: &Value) -> String {
    let mut parts = Vec::new();
    for key in ["error", "threw"] {
        if let Some(text) = outcome.get(key).and_then(Value::as_str) {
            parts.push(format!("{key}: {text}"));
        }
    }
    if parts.is_empty() {
        parts.push(format!("the outcome {outcome}"));
    }
    parts.join("; ")
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= DETAIL_CHARS {
        return text.to_string();
    }
    let mut short: String = text.chars().take(DETAIL_CHARS).collect();
    short.push('…');
    short
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn async_tests_get_done_print_handle_once() {
        let meta = Metadata {
            flags: vec!["async".into()],
            includes: vec!["compareArray.js".into(), "doneprintHandle.js".into()],
            ..Metadata::default()
        };
        assert_eq!(
            includes(&meta),
            [
                "assert.js",
                "sta.js",
                "doneprintHandle.js",
                "compareArray.js"
            ]
        );
    }

    #[test]
    fn parse_negative_passes_only_on_the_named_error() {
        let expect = Expectation::FailsToParse("SyntaxError".into());
        let failed = json!({"logs": [], "calls": [], "threw": "Failed to start Worker:\nUncaught SyntaxError: Unexpected token"});
        assert_eq!(verdict(&Ok(failed), &expect), Verdict::Pass);
        let ran = json!({"result": "fail: thrown Test262: This statement should not be evaluated.", "logs": [], "calls": []});
        assert!(!verdict(&Ok(ran), &expect).passed());
        let other = json!({"logs": [], "calls": [], "threw": "Uncaught ReferenceError: x"});
        assert!(!verdict(&Ok(other), &expect).passed());
    }

    #[test]
    fn message_mode_outcomes_give_their_verdict_and_texts() {
        let ran = Ok(
            json!({"result": {"verdict": "pass", "texts": ["TypeError: x is not a function"]}, "logs": [], "calls": []}),
        );
        let completes = Expectation::Completes {
            asynchronous: false,
        };
        assert_eq!(verdict(&ran, &completes), Verdict::Pass);
        assert_eq!(
            recorded_texts(&ran),
            Some(vec!["TypeError: x is not a function".to_string()])
        );
        let failed =
            Ok(json!({"logs": [], "calls": [], "threw": "Uncaught SyntaxError: Unexpected token"}));
        assert_eq!(
            recorded_texts(&failed),
            Some(vec!["Uncaught SyntaxError: Unexpected token".to_string()])
        );
        assert_eq!(recorded_texts(&Err("gone".into())), None);
    }

    #[test]
    fn a_side_that_could_not_run_fails_with_its_reason() {
        let v = verdict(
            &Err("gone".into()),
            &Expectation::Completes {
                asynchronous: false,
            },
        );
        assert_eq!(v, Verdict::Fail("the side could not run it: gone".into()));
    }
}
