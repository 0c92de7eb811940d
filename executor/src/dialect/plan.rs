//! The execution plan: the descriptors that cross to the native executor, and the handlers
//! that stay in the host. Provider and connector functions never leave the host; only names
//! cross, with whatever source a provider chose to bring.

use std::collections::HashMap;
use std::sync::Arc;

use super::guard::{CompletionGuard, PANIC_MESSAGE, boxed};
use super::tool_name::{js_property_order, sanitize_tool_name};
use super::types::{Connector, ConnectorBinding, Provider, Thrown, ToolFn};
use crate::protocol::{
    BoxFuture, Envelope, JsValue, ProviderDescriptor, ToolCall, decode_codec_json,
    encode_codec_json, texts,
};

/// The key of a connector's control marker.
pub const CONNECTOR_CONTROL_KEY: &str = "__codemode_control__";

/// The message a connector's `pause` marker rejects the call with.
pub const PAUSE_SENTINEL: &str = "__CODEMODE_PAUSE__";

/// What stays in the host: one handler per namespace the sandbox can call through.
#[derive(Default)]
pub struct Handlers {
    by_name: HashMap<String, Handler>,
}

enum Handler {
    /// A provider's functions under their sanitized identifiers.
    Provider(HashMap<String, ToolFn>),
    /// A connector: every tool name reaches its binding.
    Connector(Arc<dyn ConnectorBinding>),
}

/// The plan of one execution.
pub struct ExecutionPlan {
    /// Providers first (each tool under its sanitized identifier), then connectors (with an
    /// empty tool list, since their tool names live behind `call_tool`).
    pub descriptors: Vec<ProviderDescriptor>,
    pub handlers: Handlers,
}

/// Builds the plan for a validated request.
///
/// A provider whose name is also a connector's is left out of the sandbox (the connector's
/// proxy is the one bound), as the reference does; validation refuses that clash anyway.
/// Each provider's tools are listed in the order `Object.entries` would give them; a repeated
/// raw name keeps the last function, as a repeated object key does.
pub fn plan_execution(providers: &[Provider], connectors: &[Connector]) -> ExecutionPlan {
    let mut descriptors = Vec::new();
    let mut by_name = HashMap::new();
    for provider in providers {
        let mut fns: HashMap<String, ToolFn> = HashMap::new();
        for (raw, function) in &provider.fns {
            fns.insert(sanitize_tool_name(raw), Arc::clone(function));
        }
        let mut tools: Vec<String> = Vec::new();
        for raw in js_property_order(provider.fns.iter().map(|(raw, _)| raw.as_str())) {
            let sanitized = sanitize_tool_name(raw);
            if !tools.contains(&sanitized) {
                tools.push(sanitized);
            }
        }
        if !connectors.iter().any(|c| c.name == provider.name) {
            descriptors.push(ProviderDescriptor {
                name: provider.name.clone(),
                tools,
                positional_args: provider.positional_args,
                proxy_source: provider.proxy_source.clone(),
                prelude: provider.prelude.clone(),
            });
        }
        by_name.insert(provider.name.clone(), Handler::Provider(fns));
    }
    for connector in connectors {
        descriptors.push(ProviderDescriptor {
            name: connector.name.clone(),
            ..ProviderDescriptor::default()
        });
        by_name.insert(
            connector.name.clone(),
            Handler::Connector(Arc::clone(&connector.binding)),
        );
    }
    ExecutionPlan {
        descriptors,
        handlers: Handlers { by_name },
    }
}

impl Handlers {
    /// Answers one call.
    ///
    /// - An unknown namespace, or a tool the provider does not declare under that identifier
    ///   (a raw spelling such as `list-issues` included), gets `Tool "<tool>" not found`.
    /// - The arguments (one codec-JSON array; a non-array counts as one argument, an empty
    ///   text as none) are spread into the tool function; a connector gets the first only
    ///   (`undefined` when there is none).
    /// - A rejection becomes the error envelope: an `Error` by its message, any other value as
    ///   `String()` renders it. A connector's control marker becomes one too: `pause` gives
    ///   [`PAUSE_SENTINEL`], `error` gives `String(marker.message)`.
    /// - Under `guard`, a call that settles or arrives after the execution completed gets
    ///   [`LATE_CALL_MESSAGE`](texts::LATE_CALL_MESSAGE).
    ///
    /// The tool function (or the connector's `call_tool`) is invoked before this returns, so
    /// host functions see calls in the order the sandbox made them, however the returned
    /// futures are later scheduled.
    pub fn handle(
        &self,
        call: ToolCall,
        guard: Arc<CompletionGuard>,
    ) -> BoxFuture<'static, Envelope> {
        let Some(handler) = self.by_name.get(&call.provider) else {
            return settled(Envelope::Error(texts::tool_not_found(&call.tool)));
        };
        let args = match handler {
            Handler::Provider(fns) if !fns.contains_key(&call.tool) => {
                return settled(Envelope::Error(texts::tool_not_found(&call.tool)));
            }
            _ => match parse_arguments(&call.args_json) {
                Ok(args) => args,
                Err(text) => return settled(Envelope::Error(text)),
            },
        };
        match handler {
            Handler::Provider(fns) => {
                let work = fns[&call.tool](args);
                boxed(async move {
                    let settled = guard
                        .run(
                            work,
                            || Err(Thrown::Error(texts::LATE_CALL_MESSAGE.into())),
                            || Err(Thrown::Error(PANIC_MESSAGE.into())),
                        )
                        .await;
                    result_envelope(settled)
                })
            }
            Handler::Connector(binding) => {
                let first = args.into_iter().next().unwrap_or(JsValue::Undefined);
                let work = binding.call_tool(call.tool, first);
                boxed(async move {
                    let settled = guard
                        .run(
                            work,
                            || Ok(control_marker("error", Some(texts::LATE_CALL_MESSAGE))),
                            || Err(Thrown::Error(PANIC_MESSAGE.into())),
                        )
                        .await;
                    match settled {
                        Ok(value) => match read_control_marker(&value) {
                            Some(text) => Envelope::Error(text),
                            None => result_envelope(Ok(value)),
                        },
                        Err(thrown) => result_envelope(Err(thrown)),
                    }
                })
            }
        }
    }
}

/// An envelope that is already known.
fn settled(envelope: Envelope) -> BoxFuture<'static, Envelope> {
    boxed(async move { envelope })
}

/// The call's arguments: an empty text is no arguments, an array is spread, any other value
/// is one argument. A text that does not decode gives the decoder's message.
fn parse_arguments(args_json: &str) -> Result<Vec<JsValue>, String> {
    if args_json.is_empty() {
        return Ok(Vec::new());
    }
    match decode_codec_json(args_json) {
        Ok(JsValue::Array(items)) => Ok(items),
        Ok(other) => Ok(vec![other]),
        Err(error) => Err(error.0),
    }
}

/// The envelope for a settled host call. A result the codec cannot encode (a BigInt) fails
/// the call with the encoder's message, as the reference's `stringifyForCodemode` throws
/// inside its `try`.
fn result_envelope(settled: Result<JsValue, Thrown>) -> Envelope {
    match settled {
        Ok(value) => match encode_codec_json(&value) {
            Ok(_) => Envelope::Result(value),
            Err(error) => Envelope::Error(error.0),
        },
        Err(Thrown::Error(message)) => Envelope::Error(message),
        Err(Thrown::Value(value)) => Envelope::Error(value.to_js_string()),
    }
}

fn control_marker(kind: &str, message: Option<&str>) -> JsValue {
    let mut entries = vec![(CONNECTOR_CONTROL_KEY.into(), JsValue::String(kind.into()))];
    if let Some(message) = message {
        entries.push(("message".into(), JsValue::String(message.into())));
    }
    JsValue::Object(entries)
}

/// The rejection text a connector's control marker stands for, or `None` for an ordinary
/// result.
pub fn read_control_marker(value: &JsValue) -> Option<String> {
    let JsValue::Object(entries) = value else {
        return None;
    };
    let get = |key: &str| entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v);
    match get(CONNECTOR_CONTROL_KEY) {
        Some(JsValue::String(kind)) if kind == "pause" => Some(PAUSE_SENTINEL.into()),
        Some(JsValue::String(kind)) if kind == "error" => Some(
            get("message")
                .cloned()
                .unwrap_or(JsValue::Undefined)
                .to_js_string(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_read_as_the_reference_reads_them() {
        assert_eq!(
            read_control_marker(&control_marker("pause", None)).as_deref(),
            Some(PAUSE_SENTINEL)
        );
        assert_eq!(
            read_control_marker(&control_marker("error", Some("nope"))).as_deref(),
            Some("nope")
        );
        assert_eq!(
            read_control_marker(&control_marker("error", None)).as_deref(),
            Some("undefined")
        );
        assert_eq!(read_control_marker(&control_marker("other", None)), None);
        assert_eq!(read_control_marker(&JsValue::Null), None);
    }

    #[test]
    fn arguments_spread_an_array_and_wrap_anything_else() {
        assert_eq!(parse_arguments("").unwrap(), vec![]);
        assert_eq!(
            parse_arguments("[1,\"a\"]").unwrap(),
            vec![JsValue::Number(1.0), JsValue::String("a".into())]
        );
        assert_eq!(
            parse_arguments("{\"a\":1}").unwrap(),
            vec![JsValue::Object(vec![("a".into(), JsValue::Number(1.0))])]
        );
        assert!(parse_arguments("[").is_err());
    }

    #[test]
    fn rejections_render_as_the_reference_renders_them() {
        assert_eq!(
            result_envelope(Err(Thrown::Error("boom".into()))),
            Envelope::Error("boom".into())
        );
        assert_eq!(
            result_envelope(Err(Thrown::Value(JsValue::Number(42.0)))),
            Envelope::Error("42".into())
        );
        assert_eq!(
            result_envelope(Ok(JsValue::BigInt("1".into()))),
            Envelope::Error("Do not know how to serialize a BigInt".into())
        );
    }
}
