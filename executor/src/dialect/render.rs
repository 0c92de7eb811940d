//! Logs and errors on the way back: the native outcome rendered into what a host on the
//! dialect reads.

use super::types::ExecuteResult;
use crate::protocol::{JsValue, LogLevel, LogLine, Outcome, RunError, texts};

/// One log line as the dialect returns it: `text`, `[warn] text` or `[error] text`.
pub fn format_log(line: &LogLine) -> String {
    match line.level {
        LogLevel::Log => line.text.clone(),
        LogLevel::Warn => format!("[warn] {}", line.text),
        LogLevel::Error => format!("[error] {}", line.text),
    }
}

/// Every log line, in order, rendered by [`format_log`].
pub fn format_logs(lines: &[LogLine]) -> Vec<String> {
    lines.iter().map(format_log).collect()
}

/// `true` where `text` opens with the native timeout text's whole first sentence
/// (`Execution timed out at its <n> ms bound.`), the test `ExecutionTimeoutError.matches`
/// applies. A program's own `Execution timed out waiting for the vendor API` does not match.
pub fn is_native_timeout_text(text: &str) -> bool {
    let Some(rest) = text.strip_prefix(texts::TIMEOUT_MESSAGE) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(" at its ") else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with(" ms bound.")
}

/// Renders an error text: the native timeout text becomes
/// [`TIMEOUT_MESSAGE`](texts::TIMEOUT_MESSAGE); every other text passes through.
pub fn render_error(text: String) -> String {
    if is_native_timeout_text(&text) {
        texts::TIMEOUT_MESSAGE.into()
    } else {
        text
    }
}

/// The dialect's answer for a native outcome.
///
/// - success: `{result, logs}`;
/// - a timeout: `{result: undefined, error: "Execution timed out", logs}`;
/// - a throw whose message is truthy: `{result: undefined, error: String(message), logs}`
///   (rendered by [`render_error`]);
/// - a throw whose message is falsy (empty, `undefined`, `0`): `{result: undefined, logs}`
///   with no error, since the reference checks `if (response.error)`;
/// - a thrown `null` or `undefined`, whose `message` the reference cannot read: `Err`, the
///   rejection of `execute()` itself, with V8's text;
/// - running out of memory: its text as the error.
pub fn render_outcome(mut outcome: Outcome) -> Result<ExecuteResult, crate::Error> {
    // Each line's text moves into its rendering: a flood of lines is not held twice.
    let logs = std::mem::take(&mut outcome.logs)
        .into_iter()
        .map(|line| match line.level {
            LogLevel::Log => line.text,
            _ => format_log(&line),
        })
        .collect();
    let error = match outcome.error {
        None => {
            return Ok(ExecuteResult {
                result: outcome.result,
                error: None,
                logs,
            });
        }
        Some(RunError::Threw {
            message: None,
            thrown,
        }) => {
            let holder = if thrown == JsValue::Undefined {
                "undefined"
            } else {
                "null"
            };
            return Err(crate::Error::Rejected(format!(
                "Cannot read properties of {holder} (reading 'message')"
            )));
        }
        Some(RunError::Threw {
            message: Some(message),
            ..
        }) => message
            .is_truthy()
            .then(|| render_error(message.to_js_string())),
        Some(RunError::TimedOut { .. }) => Some(texts::TIMEOUT_MESSAGE.into()),
        Some(error @ RunError::OutOfMemory { .. }) => Some(error.text()),
    };
    Ok(ExecuteResult {
        result: JsValue::Undefined,
        error,
        logs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(level: LogLevel, text: &str) -> LogLine {
        LogLine {
            level,
            text: text.into(),
        }
    }

    fn failed(error: RunError) -> Outcome {
        Outcome {
            result: JsValue::Undefined,
            error: Some(error),
            logs: vec![line(LogLevel::Log, "before")],
        }
    }

    fn threw(message: Option<JsValue>, thrown: JsValue) -> RunError {
        RunError::Threw { message, thrown }
    }

    #[test]
    fn log_levels_take_their_prefixes() {
        assert_eq!(
            format_logs(&[
                line(LogLevel::Log, "hello 1 [object Object]"),
                line(LogLevel::Warn, "careful 42"),
                line(LogLevel::Error, "bad"),
            ]),
            vec![
                "hello 1 [object Object]",
                "[warn] careful 42",
                "[error] bad"
            ]
        );
    }

    #[test]
    fn success_keeps_the_result() {
        let outcome = Outcome {
            result: JsValue::Number(42.0),
            error: None,
            logs: vec![],
        };
        assert_eq!(
            render_outcome(outcome).unwrap(),
            ExecuteResult {
                result: JsValue::Number(42.0),
                error: None,
                logs: vec![]
            }
        );
    }

    #[test]
    fn a_timeout_renders_down_to_the_dialect_text() {
        let result = render_outcome(failed(RunError::TimedOut { bound_ms: 300 })).unwrap();
        assert_eq!(result.error.as_deref(), Some("Execution timed out"));
        assert_eq!(result.logs, vec!["before"]);
        let native = texts::timeout_text(300);
        assert!(is_native_timeout_text(&native));
        let rendered = render_outcome(failed(threw(
            Some(JsValue::String(native.into())),
            JsValue::Undefined,
        )))
        .unwrap();
        assert_eq!(rendered.error.as_deref(), Some("Execution timed out"));
    }

    #[test]
    fn a_programs_own_timeout_wording_is_kept() {
        for text in [
            "Execution timed out waiting for the vendor API",
            "Execution timed out",
            "Execution timed out at its  ms bound.",
            "Execution timed out at its 5 ms",
        ] {
            let rendered = render_outcome(failed(threw(
                Some(JsValue::String(text.into())),
                JsValue::Undefined,
            )))
            .unwrap();
            assert_eq!(rendered.error.as_deref(), Some(text));
        }
    }

    #[test]
    fn throws_follow_the_reference_shapes() {
        let rendered = render_outcome(failed(threw(
            Some(JsValue::String("boom".into())),
            JsValue::Undefined,
        )))
        .unwrap();
        assert_eq!(rendered.error.as_deref(), Some("boom"));
        assert_eq!(rendered.result, JsValue::Undefined);
        for falsy in [
            JsValue::String("".into()),
            JsValue::Undefined,
            JsValue::Number(0.0),
        ] {
            let rendered = render_outcome(failed(threw(Some(falsy), JsValue::Undefined))).unwrap();
            assert_eq!(rendered.error, None);
            assert_eq!(rendered.logs, vec!["before"]);
        }
        assert_eq!(
            render_outcome(failed(threw(Some(JsValue::Number(7.0)), JsValue::Null)))
                .unwrap()
                .error
                .as_deref(),
            Some("7")
        );
    }

    #[test]
    fn a_thrown_null_or_undefined_rejects_execute() {
        assert_eq!(
            render_outcome(failed(threw(None, JsValue::Null))),
            Err(crate::Error::Rejected(
                "Cannot read properties of null (reading 'message')".into()
            ))
        );
        assert_eq!(
            render_outcome(failed(threw(None, JsValue::Undefined))),
            Err(crate::Error::Rejected(
                "Cannot read properties of undefined (reading 'message')".into()
            ))
        );
    }

    #[test]
    fn out_of_memory_keeps_its_text() {
        let error = RunError::OutOfMemory {
            limit_bytes: 64 * 1024 * 1024,
        };
        let text = error.text();
        assert_eq!(render_outcome(failed(error)).unwrap().error, Some(text));
    }
}
