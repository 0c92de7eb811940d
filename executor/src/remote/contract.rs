//! The native contract on the wire: the request, the answer, values and errors as Cap'n Web
//! values. `docs/remote-protocol.md` states the same for a third party.

use crate::Error;
use crate::error::codes;
use crate::protocol::{
    Binary, BinaryKind, ExecuteRequest, JsValue, LogLevel, LogLine, Outbound, Outcome,
    ProviderDescriptor, RunError, Timeout,
};

use super::outbound::STUB_MODE;
use super::wire::WireValue;

/// The protocol version the daemon's `protocolVersion()` answers, compared by exact
/// equality.
pub const PROTOCOL_VERSION: u64 = 1;

/// The key of a plain object standing for a value Cap'n Web has no form of (`Map`, `Set`,
/// `RegExp`, a function, a `Float16Array`), and of an escaped object that has this key
/// itself.
pub const VALUE_TAG: &str = "__codemode_value_v1__";

/// The mode string of an [`Outbound`].
pub fn outbound_mode(outbound: &Outbound) -> &'static str {
    match outbound {
        // Host-routed outbound crosses as the mode "stub", with its function as `execute`'s
        // third argument (see [`super::outbound`]).
        Outbound::Host(_) => STUB_MODE,
        _ => "blocked",
    }
}

/// The mode "stub" before the server attaches the function `execute` received: it fails
/// every request, saying so (the server refuses a "stub" request without a function, so a
/// run never meets it).
struct AwaitingFunction;

impl crate::protocol::OutboundHandler for AwaitingFunction {
    fn fetch(
        &self,
        _: crate::protocol::OutboundRequest,
    ) -> crate::protocol::BoxFuture<'static, Result<crate::protocol::OutboundResponse, String>>
    {
        Box::pin(async {
            Err("the outbound mode \"stub\" came without the host's outbound function".into())
        })
    }
}

fn outbound_from_mode(mode: &str) -> Result<Outbound, Error> {
    match mode {
        "blocked" => Ok(Outbound::Blocked),
        STUB_MODE => Ok(Outbound::Host(std::sync::Arc::new(AwaitingFunction))),
        other => Err(Error::InvalidRequest(format!(
            "the outbound mode \"{other}\" is not one this executor supports (\"blocked\" or \"stub\")"
        ))),
    }
}

fn object(entries: Vec<(&str, WireValue)>) -> WireValue {
    WireValue::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// The request field by which a client says its dispatch gives prompt replies: every call
/// is answered as soon as the host has entered it, with the envelope, the envelope and its
/// host delay, or a function that answers it later (`docs/remote-protocol.md`, "Prompt
/// replies"). The daemon then marks each dispatch call with [`PROMPT_MARK`] as a fourth
/// argument, so that a client answers promptly only to a daemon that asked.
pub const PROMPT_REPLIES: &str = "promptReplies";

/// The fourth argument of a dispatch call whose reply may be prompt.
pub const PROMPT_MARK: &str = "prompt";

/// `request` with [`PROMPT_REPLIES`] set.
pub fn with_prompt_replies(request: WireValue) -> WireValue {
    match request {
        WireValue::Object(mut entries) => {
            entries.push((PROMPT_REPLIES.to_string(), WireValue::Bool(true)));
            WireValue::Object(entries)
        }
        other => other,
    }
}

/// Whether the request object asks for prompt replies (the field checked by
/// [`request_from_wire`]).
pub fn asks_prompt_replies(request: &WireValue) -> bool {
    match request {
        WireValue::Object(entries) => entries
            .iter()
            .any(|(key, value)| key == PROMPT_REPLIES && *value == WireValue::Bool(true)),
        _ => false,
    }
}

/// The request object: only the fields the caller set cross; `timeout: null` is the
/// daemon's maximum bound.
pub fn request_to_wire(request: &ExecuteRequest) -> WireValue {
    let mut entries = vec![("code", WireValue::string(&request.code))];
    let providers = request
        .providers
        .iter()
        .map(|p| {
            let mut fields = vec![
                ("name", WireValue::string(&p.name)),
                (
                    "tools",
                    WireValue::Array(p.tools.iter().map(WireValue::string).collect()),
                ),
            ];
            if let Some(positional) = p.positional_args {
                fields.push(("positionalArgs", WireValue::Bool(positional)));
            }
            if let Some(source) = &p.proxy_source {
                fields.push(("proxySource", WireValue::string(source)));
            }
            if let Some(prelude) = &p.prelude {
                fields.push(("prelude", WireValue::string(prelude)));
            }
            object(fields)
        })
        .collect();
    entries.push(("providers", WireValue::Array(providers)));
    if request.count_host_waits {
        entries.push(("countHostWaits", WireValue::Bool(true)));
    }
    if let Some(modules) = &request.modules {
        entries.push((
            "modules",
            WireValue::Object(
                modules
                    .iter()
                    .map(|(k, v)| (k.clone(), WireValue::string(v)))
                    .collect(),
            ),
        ));
    }
    match request.timeout {
        None => {}
        Some(Timeout::Maximum) => entries.push(("timeout", WireValue::Null)),
        Some(Timeout::Millis(ms)) => entries.push(("timeout", WireValue::Number(ms as f64))),
    }
    if let Some(outbound) = &request.outbound {
        entries.push(("outbound", WireValue::string(outbound_mode(outbound))));
    }
    object(entries)
}

fn invalid(text: String) -> Error {
    Error::InvalidRequest(text)
}

fn string_field(value: &WireValue, what: &str) -> Result<String, Error> {
    value
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| invalid(format!("{what} must be a string, not {}", value.describe())))
}

fn bool_field(value: &WireValue, what: &str) -> Result<bool, Error> {
    match value {
        WireValue::Bool(b) => Ok(*b),
        other => Err(invalid(format!(
            "{what} must be a boolean, not {}",
            other.describe()
        ))),
    }
}

/// Reads the request object (the dispatch is set apart by the caller). Every refusal names
/// the field.
pub fn request_from_wire(value: &WireValue) -> Result<ExecuteRequest, Error> {
    let WireValue::Object(entries) = value else {
        return Err(invalid(format!(
            "the request must be an object, not {}",
            value.describe()
        )));
    };
    let mut request = ExecuteRequest::default();
    let mut has_code = false;
    for (key, field) in entries {
        // A property set to `undefined` crosses as a present key; it reads as absent.
        if *field == WireValue::Undefined {
            continue;
        }
        match key.as_str() {
            "code" => {
                request.code = string_field(field, "code")?;
                has_code = true;
            }
            "providers" => {
                let WireValue::Array(items) = field else {
                    return Err(invalid(format!(
                        "providers must be an array, not {}",
                        field.describe()
                    )));
                };
                for (index, item) in items.iter().enumerate() {
                    request.providers.push(provider_from_wire(item, index)?);
                }
            }
            "countHostWaits" => request.count_host_waits = bool_field(field, "countHostWaits")?,
            PROMPT_REPLIES => {
                bool_field(field, PROMPT_REPLIES)?;
            }
            "modules" => match field {
                WireValue::Undefined | WireValue::Null => {}
                WireValue::Object(modules) => {
                    let mut map = std::collections::BTreeMap::new();
                    for (name, source) in modules {
                        map.insert(
                            name.clone(),
                            string_field(source, &format!("module \"{name}\""))?,
                        );
                    }
                    request.modules = Some(map);
                }
                other => {
                    return Err(invalid(format!(
                        "modules must be an object of sources, not {}",
                        other.describe()
                    )));
                }
            },
            "timeout" => {
                request.timeout = match field {
                    WireValue::Undefined => None,
                    WireValue::Null => Some(Timeout::Maximum),
                    WireValue::Number(ms) if *ms >= 0.0 && ms.fract() == 0.0 && ms.is_finite() => {
                        Some(Timeout::Millis(*ms as u64))
                    }
                    other => {
                        return Err(invalid(format!(
                            "timeout must be a whole number of milliseconds or null, not {}",
                            other.describe()
                        )));
                    }
                }
            }
            "outbound" => {
                request.outbound = match field {
                    WireValue::Undefined => None,
                    other => Some(outbound_from_mode(&string_field(other, "outbound")?)?),
                }
            }
            other => {
                return Err(invalid(format!(
                    "the request has a field \"{other}\" this executor does not know"
                )));
            }
        }
    }
    if !has_code {
        return Err(invalid("the request has no code".into()));
    }
    Ok(request)
}

fn provider_from_wire(value: &WireValue, index: usize) -> Result<ProviderDescriptor, Error> {
    let WireValue::Object(entries) = value else {
        return Err(invalid(format!(
            "providers[{index}] must be an object, not {}",
            value.describe()
        )));
    };
    let mut provider = ProviderDescriptor::default();
    for (key, field) in entries {
        if *field == WireValue::Undefined {
            continue;
        }
        let what = format!("providers[{index}].{key}");
        match key.as_str() {
            "name" => provider.name = string_field(field, &what)?,
            "tools" => {
                let WireValue::Array(tools) = field else {
                    return Err(invalid(format!(
                        "{what} must be an array of strings, not {}",
                        field.describe()
                    )));
                };
                provider.tools = tools
                    .iter()
                    .map(|tool| string_field(tool, &what))
                    .collect::<Result<_, _>>()?;
            }
            "positionalArgs" => match field {
                WireValue::Undefined => {}
                other => provider.positional_args = Some(bool_field(other, &what)?),
            },
            "proxySource" => match field {
                WireValue::Undefined => {}
                other => provider.proxy_source = Some(string_field(other, &what)?),
            },
            "prelude" => match field {
                WireValue::Undefined => {}
                other => provider.prelude = Some(string_field(other, &what)?),
            },
            other => {
                return Err(invalid(format!(
                    "providers[{index}] has a field \"{other}\" this executor does not know"
                )));
            }
        }
    }
    Ok(provider)
}

fn level_name(level: LogLevel) -> &'static str {
    match level {
        LogLevel::Log => "log",
        LogLevel::Warn => "warn",
        LogLevel::Error => "error",
    }
}

/// The answer object: `{result, error?, errorDetail?, logs: [{level, text}]}`. Each log
/// line's text moves into the answer: a flood of lines is not held twice.
pub fn outcome_to_wire(outcome: Outcome) -> WireValue {
    let mut entries = vec![("result", js_to_wire(&outcome.result))];
    if let Some(error) = &outcome.error {
        entries.push(("error", WireValue::String(error.text())));
        let detail = match error {
            RunError::Threw { message, thrown } => {
                let mut fields = vec![("kind", WireValue::string("threw"))];
                if let Some(message) = message {
                    fields.push(("message", js_to_wire(message)));
                }
                fields.push(("thrown", js_to_wire(thrown)));
                object(fields)
            }
            RunError::TimedOut { bound_ms } => object(vec![
                ("kind", WireValue::string("timedOut")),
                ("boundMs", WireValue::Number(*bound_ms as f64)),
            ]),
            RunError::OutOfMemory { limit_bytes } => object(vec![
                ("kind", WireValue::string("outOfMemory")),
                ("limitBytes", WireValue::Number(*limit_bytes as f64)),
            ]),
        };
        entries.push(("errorDetail", detail));
    }
    let logs = outcome
        .logs
        .into_iter()
        .map(|line| {
            object(vec![
                ("level", WireValue::string(level_name(line.level))),
                ("text", WireValue::String(line.text)),
            ])
        })
        .collect();
    entries.push(("logs", WireValue::Array(logs)));
    object(entries)
}

fn bad_answer(what: String) -> Error {
    Error::Internal(format!("the executor daemon's answer is malformed: {what}"))
}

/// Reads the answer object back into an [`Outcome`], taking it apart as it goes: each log
/// line's text moves into the outcome and the line's object is dropped at once, so a flood of
/// lines is held about once, not as the answer and the outcome side by side.
pub fn outcome_from_wire(value: WireValue) -> Result<Outcome, Error> {
    let WireValue::Object(entries) = value else {
        return Err(bad_answer(format!("it is {}", value.describe())));
    };
    // Each field's first occurrence counts, as `WireValue::get` reads it.
    let (mut result, mut lines, mut error_field, mut detail) = (None, None, None, None);
    for (key, field) in entries {
        let slot = match key.as_str() {
            "result" => &mut result,
            "logs" => &mut lines,
            "error" => &mut error_field,
            "errorDetail" => &mut detail,
            _ => continue,
        };
        if slot.is_none() {
            *slot = Some(field);
        }
    }
    let result = result
        .as_ref()
        .map(js_from_wire)
        .unwrap_or(JsValue::Undefined);
    let mut logs = Vec::new();
    match lines {
        None | Some(WireValue::Undefined) => {}
        Some(WireValue::Array(lines)) => {
            logs.reserve_exact(lines.len());
            for line in lines {
                logs.push(log_line_from_wire(line)?);
            }
        }
        Some(other) => return Err(bad_answer(format!("logs is {}", other.describe()))),
    }
    let (error_field, detail) = (error_field.as_ref(), detail.as_ref());
    let number = |v: Option<&WireValue>| match v {
        Some(WireValue::Number(n)) if *n >= 0.0 => Some(*n),
        _ => None,
    };
    let error = match (error_field, detail) {
        (_, Some(detail @ WireValue::Object(_))) => {
            Some(match detail.get("kind").and_then(WireValue::as_str) {
                Some("timedOut") => RunError::TimedOut {
                    bound_ms: number(detail.get("boundMs"))
                        .ok_or_else(|| bad_answer("errorDetail.boundMs is missing".into()))?
                        as u64,
                },
                Some("outOfMemory") => RunError::OutOfMemory {
                    limit_bytes: number(detail.get("limitBytes"))
                        .ok_or_else(|| bad_answer("errorDetail.limitBytes is missing".into()))?
                        as usize,
                },
                Some("threw") => RunError::Threw {
                    message: detail.get("message").map(js_from_wire),
                    thrown: detail
                        .get("thrown")
                        .map(js_from_wire)
                        .unwrap_or(JsValue::Undefined),
                },
                _ => return Err(bad_answer("errorDetail.kind is unknown".into())),
            })
        }
        (None | Some(WireValue::Undefined), _) => None,
        (Some(WireValue::String(text)), _) => Some(RunError::Threw {
            message: Some(JsValue::String(text.into())),
            thrown: JsValue::Error {
                name: "Error".into(),
                message: text.clone(),
            },
        }),
        (Some(other), _) => return Err(bad_answer(format!("error is {}", other.describe()))),
    };
    Ok(Outcome {
        result,
        error,
        logs,
    })
}

/// One `{level, text}` of the answer's logs, its text moved out.
fn log_line_from_wire(line: WireValue) -> Result<LogLine, Error> {
    let WireValue::Object(entries) = line else {
        return Err(bad_answer("a log line has no text".into()));
    };
    let (mut level, mut text) = (None, None);
    for (key, field) in entries {
        match key.as_str() {
            "level" if level.is_none() => level = Some(field),
            "text" if text.is_none() => text = Some(field),
            _ => {}
        }
    }
    let level = match level.as_ref().and_then(WireValue::as_str) {
        Some("warn") => LogLevel::Warn,
        Some("error") => LogLevel::Error,
        _ => LogLevel::Log,
    };
    match text {
        Some(WireValue::String(text)) => Ok(LogLine { level, text }),
        _ => Err(bad_answer("a log line has no text".into())),
    }
}

/// An executor error as it crosses: `["error", "ExecutorError", text, null, {code,
/// retryable, detail?, cause?}]`.
pub fn error_to_wire(error: &Error) -> WireValue {
    let mut props = vec![
        (
            "code".to_string(),
            WireValue::string(error.code().unwrap_or(codes::INTERNAL)),
        ),
        ("retryable".to_string(), WireValue::Bool(error.retryable())),
    ];
    match error {
        Error::InvalidRequest(detail) | Error::Internal(detail) => {
            props.push(("detail".into(), WireValue::string(detail)));
        }
        Error::Coded {
            cause: Some(cause), ..
        } => props.push(("cause".into(), WireValue::string(cause))),
        // A located syntax error keeps its place, so the dialect can point into its module.
        Error::SyntaxError { line, column, .. } => {
            props.push(("line".into(), WireValue::Number(*line as f64)));
            props.push(("column".into(), WireValue::Number(*column as f64)));
        }
        _ => {}
    }
    WireValue::Error {
        name: "ExecutorError".into(),
        message: error.to_string(),
        stack: None,
        props,
    }
}

/// Rebuilds the typed error from the code on the wire; an unknown code passes through as
/// [`Error::Coded`], and a rejection with no code as [`Error::Rejected`] with its message.
pub fn error_from_wire(value: &WireValue) -> Error {
    let WireValue::Error { message, .. } = value else {
        return Error::Rejected(match value {
            WireValue::String(text) => text.clone(),
            other => other.describe(),
        });
    };
    let text = |key: &str| {
        value
            .get(key)
            .and_then(WireValue::as_str)
            .map(str::to_string)
    };
    let detail = text("detail").unwrap_or_else(|| message.clone());
    match text("code").as_deref() {
        Some(codes::START_FAILED) => {
            let number = |key: &str| match value.get(key) {
                Some(WireValue::Number(n)) if *n >= 1.0 && n.fract() == 0.0 => Some(*n as usize),
                _ => None,
            };
            match (number("line"), number("column")) {
                (Some(line), Some(column)) => Error::SyntaxError {
                    text: message.clone(),
                    line,
                    column,
                },
                _ => Error::StartFailed(message.clone()),
            }
        }
        Some(codes::DISPOSED) => Error::Disposed,
        Some(codes::INVALID_REQUEST) => Error::InvalidRequest(detail),
        Some(codes::INTERNAL) => Error::Internal(detail),
        Some(codes::REJECTED) => Error::Rejected(message.clone()),
        Some(codes::CONVERSION) => Error::Conversion(message.clone()),
        Some(code) => Error::Coded {
            code: code.to_string(),
            text: message.clone(),
            retryable: matches!(value.get("retryable"), Some(WireValue::Bool(true))),
            cause: text("cause"),
        },
        None => Error::Rejected(message.clone()),
    }
}

fn tagged(kind: &str, mut fields: Vec<(&str, WireValue)>) -> WireValue {
    fields.insert(0, (VALUE_TAG, WireValue::string(kind)));
    object(fields)
}

/// A sandbox value as it crosses: Cap'n Web's own forms where it has one, a [`VALUE_TAG`]
/// object otherwise.
pub fn js_to_wire(value: &JsValue) -> WireValue {
    match value {
        JsValue::Undefined => WireValue::Undefined,
        JsValue::Null => WireValue::Null,
        JsValue::Bool(b) => WireValue::Bool(*b),
        JsValue::Number(n) => WireValue::Number(*n),
        JsValue::BigInt(digits) => WireValue::BigInt(digits.clone()),
        // The wire's JSON carries text: a lone surrogate crosses as its escape (see
        // `docs/remote-protocol.md`).
        JsValue::String(s) => WireValue::String(s.to_text().into_owned()),
        JsValue::Array(items) => WireValue::Array(items.iter().map(js_to_wire).collect()),
        JsValue::Object(entries) if entries.iter().any(|(k, _)| k == VALUE_TAG) => tagged(
            "Object",
            vec![(
                "entries",
                WireValue::Array(
                    entries
                        .iter()
                        .map(|(k, v)| {
                            WireValue::Array(vec![WireValue::string(k.to_text()), js_to_wire(v)])
                        })
                        .collect(),
                ),
            )],
        ),
        JsValue::Object(entries) => WireValue::Object(
            entries
                .iter()
                .map(|(k, v)| (k.to_text().into_owned(), js_to_wire(v)))
                .collect(),
        ),
        JsValue::Map(entries) => tagged(
            "Map",
            vec![(
                "entries",
                WireValue::Array(
                    entries
                        .iter()
                        .map(|(k, v)| WireValue::Array(vec![js_to_wire(k), js_to_wire(v)]))
                        .collect(),
                ),
            )],
        ),
        JsValue::Set(items) => tagged(
            "Set",
            vec![(
                "values",
                WireValue::Array(items.iter().map(js_to_wire).collect()),
            )],
        ),
        JsValue::Date(time) => WireValue::Date(*time),
        JsValue::Binary(Binary {
            kind: BinaryKind::Float16Array,
            bytes,
        }) => tagged(
            "Float16Array",
            vec![(
                "bytes",
                WireValue::Bytes {
                    bytes: bytes.clone(),
                    kind: Some("Uint8Array".into()),
                },
            )],
        ),
        JsValue::Binary(binary) => WireValue::Bytes {
            bytes: binary.bytes.clone(),
            kind: Some(binary.kind.name().into()),
        },
        JsValue::RegExp { source, flags } => tagged(
            "RegExp",
            vec![
                ("source", WireValue::string(source)),
                ("flags", WireValue::string(flags)),
            ],
        ),
        JsValue::Error { name, message } => WireValue::error(name, message.clone()),
        JsValue::Function => tagged("Function", Vec::new()),
    }
}

/// A crossed value back as a sandbox value; the inverse of [`js_to_wire`]. A stub reads as
/// a function, as a function crossing out of the sandbox does.
pub fn js_from_wire(value: &WireValue) -> JsValue {
    match value {
        WireValue::Undefined | WireValue::Promise(_) => JsValue::Undefined,
        WireValue::Null => JsValue::Null,
        WireValue::Bool(b) => JsValue::Bool(*b),
        WireValue::Number(n) => JsValue::Number(*n),
        WireValue::BigInt(digits) => JsValue::BigInt(digits.clone()),
        WireValue::String(s) => JsValue::String(s.into()),
        WireValue::Array(items) => JsValue::Array(items.iter().map(js_from_wire).collect()),
        WireValue::Object(_) => match value.get(VALUE_TAG).and_then(WireValue::as_str) {
            Some(kind) => from_tagged(kind, value).unwrap_or_else(|| plain_object(value)),
            None => plain_object(value),
        },
        WireValue::Date(time) => JsValue::Date(*time),
        WireValue::Bytes { bytes, kind } => JsValue::Binary(Binary {
            kind: kind
                .as_deref()
                .and_then(BinaryKind::from_name)
                .unwrap_or(BinaryKind::Uint8Array),
            bytes: bytes.clone(),
        }),
        WireValue::Error { name, message, .. } => JsValue::Error {
            name: name.clone(),
            message: message.clone(),
        },
        WireValue::Stub(_) => JsValue::Function,
    }
}

fn plain_object(value: &WireValue) -> JsValue {
    match value {
        WireValue::Object(entries) => JsValue::Object(
            entries
                .iter()
                .map(|(k, v)| (k.into(), js_from_wire(v)))
                .collect(),
        ),
        _ => JsValue::Undefined,
    }
}

fn pairs(value: Option<&WireValue>) -> Option<Vec<(&WireValue, &WireValue)>> {
    let WireValue::Array(items) = value? else {
        return None;
    };
    items
        .iter()
        .map(|item| match item {
            WireValue::Array(pair) if pair.len() == 2 => Some((&pair[0], &pair[1])),
            _ => None,
        })
        .collect()
}

fn from_tagged(kind: &str, value: &WireValue) -> Option<JsValue> {
    Some(match kind {
        "Object" => JsValue::Object(
            pairs(value.get("entries"))?
                .into_iter()
                .map(|(k, v)| Some((k.as_str()?.into(), js_from_wire(v))))
                .collect::<Option<_>>()?,
        ),
        "Map" => JsValue::Map(
            pairs(value.get("entries"))?
                .into_iter()
                .map(|(k, v)| (js_from_wire(k), js_from_wire(v)))
                .collect(),
        ),
        "Set" => match value.get("values")? {
            WireValue::Array(items) => JsValue::Set(items.iter().map(js_from_wire).collect()),
            _ => return None,
        },
        "RegExp" => JsValue::RegExp {
            source: value.get("source")?.as_str()?.into(),
            flags: value.get("flags")?.as_str()?.into(),
        },
        "Function" => JsValue::Function,
        "Float16Array" => match value.get("bytes")? {
            WireValue::Bytes { bytes, .. } => JsValue::Binary(Binary {
                kind: BinaryKind::Float16Array,
                bytes: bytes.clone(),
            }),
            _ => return None,
        },
        _ => return None,
    })
}
