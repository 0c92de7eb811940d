//! Why a run fails to start, and the texts that say so: a start failure (a text, a syntax
//! error at a place in the request's code, a refused request, or a bound), an error thrown
//! while the scope or the program loaded rendered as workerd words it (`Failed to start
//! Worker:` and the V8 text), and a QuickJS failure outside the program. The run, the sandbox
//! and the providers' proxies all report through these, which import nothing of theirs.

use std::collections::BTreeMap;

use rquickjs::{CaughtError, Ctx, Object, Value};

use super::modules::{MAIN_MODULE, unchecked_name};
use super::text::{CoercedText, Text};
use super::v8_messages::{
    SourcePosition, translate_message, translate_syntax_error, undefined_export,
};
use crate::Error;
use crate::protocol::RunError;

/// What the text of every start failure opens with, as workerd words it.
pub(super) const START_FAILED: &str = "Failed to start Worker:\nUncaught ";

/// Why the start failed: a text for [`Error::StartFailed`], a refused request, or a bound.
pub(super) enum StartFailure {
    Text(String),
    /// The program does not parse, at this 1-based line and column of the request's code.
    Syntax {
        text: String,
        line: usize,
        column: usize,
    },
    Invalid(String),
    Bound(RunError),
}

/// A QuickJS failure outside the program: the executor's own fault.
pub(super) fn quickjs_failure(error: rquickjs::Error) -> Error {
    Error::Internal(error.to_string())
}

/// Translates an error's message, using its stack to name a callee where needed.
pub(super) fn translate_at(
    message: &str,
    error: &Object<'_>,
    main_source: &str,
    modules: &BTreeMap<String, String>,
) -> String {
    let Text(stack) = error.get("stack").unwrap_or(Text(String::new()));
    let position = stack_positions(&stack)
        .into_iter()
        .find_map(|(file, line, column)| {
            let source = if file == MAIN_MODULE {
                main_source
            } else {
                modules.get(&file)?.as_str()
            };
            Some(SourcePosition {
                source,
                line,
                column,
            })
        });
    translate_message(message, position)
}

/// `(file, line, column)` of every frame in a QuickJS stack.
fn stack_positions(stack: &str) -> Vec<(String, usize, usize)> {
    stack
        .lines()
        .filter_map(|line| {
            let frame = line.trim().strip_prefix("at ")?;
            let location = match (frame.rfind('('), frame.ends_with(')')) {
                (Some(open), true) => &frame[open + 1..frame.len() - 1],
                _ => frame,
            };
            let mut parts = location.rsplitn(3, ':');
            let column = parts.next()?.parse().ok()?;
            let line = parts.next()?.parse().ok()?;
            Some((parts.next()?.to_string(), line, column))
        })
        .collect()
}

/// `Name: message` for an error thrown while the program loaded.
pub(super) fn rendered_error(
    thrown: &Value<'_>,
    main_source: &str,
    modules: &BTreeMap<String, String>,
) -> String {
    let Some(object) = thrown.as_object() else {
        return thrown.get::<CoercedText>().map(|c| c.0).unwrap_or_default();
    };
    let Text(name) = object.get("name").unwrap_or_else(|_| Text("Error".into()));
    let Text(message) = object.get("message").unwrap_or(Text(String::new()));
    let message = if name == "SyntaxError" {
        let Text(stack) = object.get("stack").unwrap_or(Text(String::new()));
        syntax_message(&message, &stack, main_source, modules)
    } else {
        translate_at(&message, object, main_source, modules)
    };
    if message.is_empty() {
        name
    } else {
        format!("{name}: {message}")
    }
}

fn syntax_message(
    message: &str,
    stack: &str,
    fallback_source: &str,
    modules: &BTreeMap<String, String>,
) -> String {
    match stack_positions(stack).into_iter().next() {
        Some((file, line, column)) => {
            let source = modules
                .get(unchecked_name(&file))
                .map(String::as_str)
                .unwrap_or(fallback_source);
            translate_syntax_error(message, source, line, column)
        }
        None => undefined_export(message).unwrap_or_else(|| message.to_string()),
    }
}

/// A module that does not parse, as the worker's start failure: V8's text, then the module
/// and line (and column, counted from 0 as V8 counts it, when the token does not start its
/// line).
pub(super) fn module_syntax_failure(
    error: CaughtError<'_>,
    modules: &BTreeMap<String, String>,
) -> StartFailure {
    let place = match &error {
        CaughtError::Exception(exception) => exception
            .as_object()
            .get::<_, String>("stack")
            .ok()
            .and_then(|stack| stack_positions(&stack).into_iter().next()),
        _ => None,
    };
    let mut text = start_failure_text(error, "", modules);
    if let Some((file, line, column)) = place {
        let name = unchecked_name(&file);
        text.push_str(&if column <= 1 {
            format!("\n  at {name}:{line}")
        } else {
            format!("\n  at {name}:{line}:{}", column - 1)
        });
    }
    StartFailure::Text(text)
}

/// Where a syntax error in the program's own module is: its (line, column) in the module
/// (the line is at least 2, the program's first line).
pub(super) fn syntax_location(error: &CaughtError<'_>) -> Option<(usize, usize)> {
    let CaughtError::Exception(exception) = error else {
        return None;
    };
    let object = exception.as_object();
    let name: String = object.get("name").ok()?;
    if name != "SyntaxError" {
        return None;
    }
    let stack: String = object.get("stack").ok()?;
    let (file, line, column) = stack_positions(&stack).into_iter().next()?;
    (file == MAIN_MODULE && line >= 2).then_some((line, column))
}

/// The start failure for an error caught while the scope or the program loaded.
pub(super) fn start_failure(
    _ctx: &Ctx<'_>,
    error: CaughtError<'_>,
    source: &str,
    modules: &BTreeMap<String, String>,
) -> StartFailure {
    StartFailure::Text(start_failure_text(error, source, modules))
}

/// The text of a start failure: `Failed to start Worker:` and the rendered error.
pub(super) fn start_failure_text(
    error: CaughtError<'_>,
    source: &str,
    modules: &BTreeMap<String, String>,
) -> String {
    let text = match &error {
        CaughtError::Exception(exception) => {
            let value = exception.clone().into_value();
            rendered_error(&value, source, modules)
        }
        CaughtError::Value(value) => rendered_error(value, source, modules),
        CaughtError::Error(e) => e.to_string(),
    };
    format!("{START_FAILED}{text}")
}
