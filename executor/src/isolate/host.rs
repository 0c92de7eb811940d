//! The host side of one run's sandbox scope: the Rust functions `bootstrap.js` calls for
//! console lines, tool calls, outbound requests, timers, the codec's base64 and the program's
//! settlement, and the state they share with the run loop.
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

use super::memory::Meter;
use super::modules::MAIN_MODULE;
use super::text::{Text, js_string};
use super::timers::TimerQueue;
use super::v8_messages::{SourcePosition, needs_position, translate_message, translate_rendered};
use crate::protocol::{LogLevel, LogLine, OutboundHandler, OutboundRequest, ToolCall};

/// What one captured console line costs the run beside its text.
const LINE_COST: usize = std::mem::size_of::<LogLine>();
/// What one tool call costs the run beside its names and argument text.
const CALL_COST: usize = std::mem::size_of::<(u32, ToolCall)>() + 64;
/// What the host builds from one value of a call's arguments: the decoded value and its
/// record (a host's call log), each about this size.
const ARGUMENT_VALUE_COST: usize = 2 * 48;

/// What a call's argument text costs the run: the text, and an estimate of the values the
/// host decodes from it (one per `,`, `:`, `[` or `{`, an over-count where these appear
/// inside strings), since a short text such as `[0,0,0,…]` decodes into values many times
/// its size.
fn arguments_cost(args_json: &str) -> usize {
    let values = 1 + args_json
        .bytes()
        .filter(|b| matches!(b, b',' | b':' | b'[' | b'{'))
        .count();
    args_json.len() + values * ARGUMENT_VALUE_COST
}

/// What one pending timer costs the run (its queue entries).
pub(super) const TIMER_COST: usize = 96;

/// What the sandbox's host functions record during a run. Everything recorded is charged
/// to the run's memory budget (see [`super::memory`]); a record that does not fit is
/// refused, the host function throws `out of memory`, and the run ends out of memory.
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
    /// The run's memory budget, charged for every record.
    pub meter: Arc<Meter>,
    /// Whether the program's result has been taken: the run runs no job after that one.
    pub settled: bool,
}

impl HostState {
    pub(super) fn new(meter: Arc<Meter>) -> Self {
        HostState {
            logs: Vec::new(),
            new_calls: Vec::new(),
            next_call: 0,
            outbound: None,
            new_fetches: Vec::new(),
            cancelled_fetches: Vec::new(),
            next_fetch: 0,
            timers: TimerQueue::default(),
            sources: None,
            meter,
            settled: false,
        }
    }
}

/// The host state shared between the sandbox's functions and the run loop (one thread).
pub(super) type SharedHost = Rc<RefCell<HostState>>;

/// Builds the `host` object `bootstrap.js` is called with.
pub(super) fn host_object<'js>(ctx: &Ctx<'js>, host: &SharedHost) -> rquickjs::Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;

    let state = host.clone();
    object.set(
        "log",
        Function::new(ctx.clone(), move |level: i32, Text(text): Text| {
            let level = match level {
                1 => LogLevel::Warn,
                2 => LogLevel::Error,
                _ => LogLevel::Log,
            };
            let mut state = state.borrow_mut();
            if !state.meter.charge_host(LINE_COST + text.len()) {
                return Err(rquickjs::Error::Allocation);
            }
            state.logs.push(LogLine { level, text });
            Ok(())
        })?,
    )?;

    let state = host.clone();
    object.set(
        "call",
        Function::new(
            ctx.clone(),
            move |Text(provider): Text, Text(tool): Text, Text(args_json): Text| {
                let mut state = state.borrow_mut();
                let cost = CALL_COST + provider.len() + tool.len() + arguments_cost(&args_json);
                if !state.meter.charge_host(cost) {
                    return Err(rquickjs::Error::Allocation);
                }
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
                Ok(id)
            },
        )?,
    )?;

    let state = host.clone();
    object.set(
        "settled",
        Function::new(ctx.clone(), move || state.borrow_mut().settled = true)?,
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
            let mut state = state.borrow_mut();
            if !state.meter.charge_host(TIMER_COST) {
                return Err(rquickjs::Error::Allocation);
            }
            Ok(state.timers.add(delay_ms, repeat))
        })?,
    )?;

    let state = host.clone();
    object.set(
        "clearTimer",
        Function::new(ctx.clone(), move |id: u32| {
            let mut state = state.borrow_mut();
            if state.timers.clear(id) {
                state.meter.release_host(TIMER_COST);
            }
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
        // A text holding a lone surrogate is the program's own and passes through whole.
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, value: Value<'js>| -> rquickjs::Result<Value<'js>> {
                match js_string(&ctx, &value)?.as_str() {
                    Some(text) => Ok(
                        rquickjs::String::from_str(ctx, &translate_rendered(text))?.into_value()
                    ),
                    None => Ok(value),
                }
            },
        )?,
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
            move |Text(message): Text, Text(file): Text, line: f64, column: f64| {
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
