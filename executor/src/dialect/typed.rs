//! Typed tools: a host function written as an async closure over serde types.
//!
//! [`tool`] takes a closure over the call's first argument (the dialect's usual shape,
//! `weather.get_weather({ city })`), [`tool_positional`] one over every argument as a tuple
//! (`math.add(1, 2)`). Both read the arguments out of the sandbox's values with
//! [`from_js_value`](crate::protocol::from_js_value), write the closure's answer back with
//! [`to_js_value`](crate::protocol::to_js_value), and turn a [`ToolError`] into the
//! rejection the program sees. The raw [`ToolFn`] stays for hosts that want the values
//! themselves.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::guard::boxed;
use super::types::{Thrown, ToolFn};
use crate::protocol::convert::{from_js_value_at, to_js_value_at};
use crate::protocol::{BoxFuture, JsValue};

type NamedCall =
    dyn Fn(&Arc<str>, Vec<JsValue>) -> BoxFuture<'static, Result<JsValue, Thrown>> + Send + Sync;

/// A host tool, ready to be added to a [`Provider`](super::Provider) with
/// [`Provider::tool`](super::Provider::tool).
///
/// Made by [`tool`] or [`tool_positional`], or from a raw [`ToolFn`] (`Tool::from(f)`).
/// A typed tool learns the name the program calls it by when it is added, so that its
/// refusals can name it.
#[derive(Clone)]
pub struct Tool {
    call: Arc<NamedCall>,
}

impl Tool {
    /// The raw function, naming itself `label` (for example `weather.get_weather`) in its
    /// refusals.
    pub fn into_fn(self, label: impl Into<String>) -> ToolFn {
        let label: Arc<str> = Arc::from(label.into());
        let call = self.call;
        Arc::new(move |args| call(&label, args))
    }
}

impl From<ToolFn> for Tool {
    fn from(function: ToolFn) -> Self {
        Tool {
            call: Arc::new(move |_, args| function(args)),
        }
    }
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tool")
    }
}

/// A tool over its first argument: the closure gets that argument read as `A`, and what it
/// resolves with is written back as the call's result.
///
/// - A call without arguments reads `undefined`, so `A` may be `()` or an `Option`.
/// - Arguments that do not fit `A` reject the call, without running the closure, with
///   `Tool "<provider>.<tool>" could not read its arguments: at arguments[0].<path>, <what
///   was wrong>.`
/// - An `Err` rejects the call with the [`ToolError`]'s message (`err.message` in the
///   sandbox); `Ok(())` resolves with `undefined`.
/// - A result with no JavaScript form (an integer beyond ±(2<sup>53</sup> − 1)) rejects the
///   call with `Tool "<provider>.<tool>" could not return its result: at result.<path>, <what
///   was wrong>.`
///
/// See [`protocol::convert`](crate::protocol::convert) for how each serde type maps.
///
/// ```
/// use codemode_executor::{Provider, ToolError, tool};
///
/// #[derive(serde::Deserialize)]
/// struct Args { city: String }
///
/// let provider = Provider::new("weather").tool("get-weather", tool(|args: Args| async move {
///     Ok::<_, ToolError>(format!("Sunny in {}", args.city))
/// }));
/// ```
pub fn tool<A, R, E, F, Fut>(function: F) -> Tool
where
    A: DeserializeOwned + Send + 'static,
    R: Serialize + 'static,
    E: Into<ToolError> + 'static,
    F: Fn(A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, E>> + Send + 'static,
{
    let function = Arc::new(function);
    Tool {
        call: Arc::new(move |label, args| {
            let first = args.into_iter().next().unwrap_or(JsValue::Undefined);
            match from_js_value_at::<A>(first, "arguments[0]") {
                Ok(args) => settle(Arc::clone(label), function(args)),
                Err(error) => refuse(label, &error.sentence()),
            }
        }),
    }
}

/// A tool over every argument: the closure gets the arguments read as `A`, a tuple (one
/// element per parameter) or a `Vec`. Arguments read as a JavaScript function reads its
/// parameters: a missing one is `undefined` (so an `Option` may be left out), extra ones are
/// ignored.
///
/// Otherwise as [`tool`], with paths from `arguments` (`at arguments[1], invalid type: …`).
/// Its provider must let every argument cross, which is the default
/// ([`Provider::positional_args`](super::Provider::positional_args) `false` sends the first
/// only).
///
/// ```
/// use codemode_executor::{Provider, ToolError, tool_positional};
///
/// let provider = Provider::new("math").tool("add", tool_positional(|(a, b): (f64, f64)| async move {
///     Ok::<_, ToolError>(a + b)
/// }));
/// ```
pub fn tool_positional<A, R, E, F, Fut>(function: F) -> Tool
where
    A: DeserializeOwned + Send + 'static,
    R: Serialize + 'static,
    E: Into<ToolError> + 'static,
    F: Fn(A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, E>> + Send + 'static,
{
    let function = Arc::new(function);
    Tool {
        call: Arc::new(move |label, args| {
            match from_js_value_at::<A>(JsValue::Array(args), "arguments") {
                Ok(args) => settle(Arc::clone(label), function(args)),
                Err(error) => refuse(label, &error.sentence()),
            }
        }),
    }
}

fn refuse(label: &str, what: &str) -> BoxFuture<'static, Result<JsValue, Thrown>> {
    let text = format!("Tool \"{label}\" could not read its arguments: {what}.");
    boxed(async move { Err(Thrown::Error(text)) })
}

fn settle<R, E>(
    label: Arc<str>,
    work: impl Future<Output = Result<R, E>> + Send + 'static,
) -> BoxFuture<'static, Result<JsValue, Thrown>>
where
    R: Serialize + 'static,
    E: Into<ToolError> + 'static,
{
    boxed(async move {
        match work.await {
            Ok(reply) => to_js_value_at(&reply, "result").map_err(|error| {
                Thrown::Error(format!(
                    "Tool \"{label}\" could not return its result: {}.",
                    error.sentence()
                ))
            }),
            Err(error) => Err(error.into().thrown),
        }
    })
}

/// What a typed tool rejects with: an `Error` with a message, as the program sees it
/// (`err.message`).
///
/// It converts from any [`std::error::Error`] (by its `Display` text), so `?` works on
/// `std::io::Error`, `serde_json::Error` and the like; [`ToolError::new`] makes one from a
/// message, and [`ToolError::value`] rejects with a value that is not an `Error`. Like
/// `anyhow::Error`, it does not itself implement [`std::error::Error`], which is what lets it
/// convert from every type that does.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    thrown: Thrown,
}

impl ToolError {
    /// Rejects with `new Error(message)`.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            thrown: Thrown::Error(message.into()),
        }
    }

    /// Rejects with a value that is not an `Error`. The call still rejects with an `Error`
    /// in the sandbox, whose message is `String(value)`, as the reference renders it.
    pub fn value(value: JsValue) -> Self {
        ToolError {
            thrown: Thrown::Value(value),
        }
    }

    /// The rejection as the dialect carries it.
    pub fn into_thrown(self) -> Thrown {
        self.thrown
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.thrown {
            Thrown::Error(message) => f.write_str(message),
            Thrown::Value(value) => f.write_str(&value.to_js_string()),
        }
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for ToolError {
    fn from(error: E) -> Self {
        ToolError::new(error.to_string())
    }
}

impl From<Thrown> for ToolError {
    fn from(thrown: Thrown) -> Self {
        ToolError { thrown }
    }
}

impl From<ToolError> for Thrown {
    fn from(error: ToolError) -> Self {
        error.thrown
    }
}
