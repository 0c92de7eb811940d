//! The host side of one run's sandbox scope: the Rust functions `bootstrap.js` calls for
//! console lines, tool calls, outbound requests, timers and the codec's base64, and the
//! state they share with the run loop.
//!
//! The functions only record; the run loop acts (spawns calls, arms timers) between
//! stretches of JavaScript, so no host state is borrowed while JavaScript runs.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rquickjs::{ArrayBuffer, Ctx, Function, Object, TypedArray, Value};

use super::modules::MAIN_MODULE;
use super::timers::TimerQueue;
use super::v8_messages::{SourcePosition, needs_position, translate_message, translate_rendered};
use crate::protocol::{LogLevel, LogLine, OutboundHandler, OutboundRequest, ToolCall};

/// What the sandbox's host functions record during a run.
#[derive(Default)]
pub(super) struct HostState {
    /// Captured console lines, in order.
    pub logs: Vec<LogLine>,
    /// Tool calls made since the run loop last looked, with the id their promise waits on.
    pub new_calls: Vec<(u32, ToolCall)>,
    next_call: u32,
    /// Where `fetch` goes this run: `None` blocks it.
    pub outbound: Option<Arc<dyn OutboundHandler>>,
    /// Outbound requests made since the run loop last looked, with the id their promise
    /// waits on.
    pub new_fetches: Vec<(u32, OutboundRequest)>,
    /// Outbound requests the program abandoned (its signal aborted) since the last look.
    pub cancelled_fetches: Vec<u32>,
    next_fetch: u32,
    /// The run's pending timers.
    pub timers: TimerQueue,
    /// The program's module source and the request's modules, so that a message can name
    /// the callee at a reported position (`o.f is not a function`).
    pub sources: Option<(String, Arc<BTreeMap<String, String>>)>,
}

/// The host state shared between the sandbox's functions and the run loop (one thread).
pub(super) type SharedHost = Rc<RefCell<HostState>>;

/// Builds the `host` object `bootstrap.js` is called with.
pub(super) fn host_object<'js>(ctx: &Ctx<'js>, host: &SharedHost) -> rquickjs::Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;

    let state = host.clone();
    object.set(
        "log",
        Function::new(ctx.clone(), move |level: i32, text: String| {
            let level = match level {
                1 => LogLevel::Warn,
                2 => LogLevel::Error,
                _ => LogLevel::Log,
            };
            state.borrow_mut().logs.push(LogLine { level, text });
        })?,
    )?;

    let state = host.clone();
    object.set(
        "call",
        Function::new(
            ctx.clone(),
            move |provider: String, tool: String, args_json: String| {
                let mut state = state.borrow_mut();
                state.next_call = state.next_call.wrapping_add(1);
                let id = state.next_call;
                state.new_calls.push((
                    id,
                    ToolCall {
                        provider,
                        tool,
                        args_json,
                    },
                ));
                id
            },
        )?,
    )?;

    let state = host.clone();
    object.set(
        "outboundEnabled",
        Function::new(ctx.clone(), move || state.borrow().outbound.is_some())?,
    )?;

    let state = host.clone();
    object.set(
        "fetch",
        Function::new(
            ctx.clone(),
            move |method: String, url: String, headers_json: String, body: Option<String>| {
                let mut state = state.borrow_mut();
                state.next_fetch = state.next_fetch.wrapping_add(1);
                let id = state.next_fetch;
                let headers = serde_json::from_str(&headers_json).unwrap_or_default();
                let body = body.map(|b| STANDARD.decode(b.as_bytes()).unwrap_or_default());
                state.new_fetches.push((
                    id,
                    OutboundRequest {
                        method,
                        url,
                        headers,
                        body,
                    },
                ));
                id
            },
        )?,
    )?;

    let state = host.clone();
    object.set(
        "cancelFetch",
        Function::new(ctx.clone(), move |id: u32| {
            state.borrow_mut().cancelled_fetches.push(id)
        })?,
    )?;

    let state = host.clone();
    object.set(
        "timer",
        Function::new(ctx.clone(), move |delay_ms: f64, repeat: bool| {
            state.borrow_mut().timers.add(delay_ms, repeat)
        })?,
    )?;

    let state = host.clone();
    object.set(
        "clearTimer",
        Function::new(ctx.clone(), move |id: u32| {
            state.borrow_mut().timers.clear(id)
        })?,
    )?;

    object.set(
        "b64encode",
        Function::new(ctx.clone(), |bytes: TypedArray<'js, u8>| {
            // SAFETY: the bytes are copied out before any JavaScript runs again.
            unsafe { bytes.as_bytes() }
                .map(|b| STANDARD.encode(b))
                .unwrap_or_default()
        })?,
    )?;

    object.set(
        "b64decode",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, data: String| -> rquickjs::Result<Value<'js>> {
                match STANDARD.decode(data.as_bytes()) {
                    Ok(bytes) => Ok(ArrayBuffer::new(ctx, bytes)?.into_value()),
                    Err(_) => Ok(Value::new_undefined(ctx)),
                }
            },
        )?,
    )?;

    object.set(
        "translate",
        Function::new(ctx.clone(), |text: String| translate_rendered(&text))?,
    )?;
    object.set(
        "needsPosition",
        Function::new(ctx.clone(), |message: String| needs_position(&message))?,
    )?;

    let state = host.clone();
    object.set(
        "translateAt",
        Function::new(
            ctx.clone(),
            move |message: String, file: String, line: f64, column: f64| {
                let state = state.borrow();
                let source = state.sources.as_ref().and_then(|(main, modules)| {
                    if file == MAIN_MODULE {
                        Some(main.as_str())
                    } else {
                        modules.get(&file).map(String::as_str)
                    }
                });
                let position = source.map(|source| SourcePosition {
                    source,
                    line: line as usize,
                    column: column as usize,
                });
                translate_message(&message, position)
            },
        )?,
    )?;

    Ok(object)
}
