//! The native contract on the wire: the request carries only what the caller set, the
//! answer and every sandbox value come back whole, and errors are rebuilt from their code.
#![cfg(feature = "remote")]

use std::collections::BTreeMap;

use codemode_executor::Error;
use codemode_executor::codes;
use codemode_executor::protocol::{
    Binary, BinaryKind, ExecuteRequest, JsValue, LogLevel, LogLine, Outbound, Outcome,
    ProviderDescriptor, RunError, Timeout,
};
use codemode_executor::remote::contract::{
    VALUE_TAG, error_from_wire, error_to_wire, js_from_wire, js_to_wire, outcome_from_wire,
    outcome_to_wire, request_from_wire, request_to_wire,
};
use codemode_executor::remote::wire::WireValue;

fn keys(value: &WireValue) -> Vec<String> {
    match value {
        WireValue::Object(entries) => entries.iter().map(|(k, _)| k.clone()).collect(),
        other => panic!("not an object: {other:?}"),
    }
}

#[test]
fn only_the_fields_the_caller_set_cross_and_they_read_back() {
    let minimal = ExecuteRequest {
        code: "async () => 1".into(),
        ..ExecuteRequest::default()
    };
    let wire = request_to_wire(&minimal);
    assert_eq!(keys(&wire), ["code", "providers"]);
    let back = request_from_wire(&wire).unwrap();
    assert_eq!(format!("{back:?}"), format!("{minimal:?}"));

    let full = ExecuteRequest {
        code: "async () => gh.x()".into(),
        providers: vec![ProviderDescriptor {
            name: "gh".into(),
            tools: vec!["x".into(), "y".into()],
            positional_args: Some(false),
            proxy_source: Some("p".into()),
            prelude: Some("globalThis.a = 1".into()),
        }],
        dispatch: None,
        count_host_waits: true,
        modules: Some(BTreeMap::from([(
            "m".to_string(),
            "export default 1".to_string(),
        )])),
        timeout: Some(Timeout::Maximum),
        outbound: Some(Outbound::Blocked),
    };
    let wire = request_to_wire(&full);
    assert_eq!(
        keys(&wire),
        [
            "code",
            "providers",
            "countHostWaits",
            "modules",
            "timeout",
            "outbound"
        ]
    );
    assert_eq!(wire.get("timeout"), Some(&WireValue::Null));
    assert_eq!(wire.get("outbound"), Some(&WireValue::string("blocked")));
    let back = request_from_wire(&wire).unwrap();
    assert_eq!(format!("{back:?}"), format!("{full:?}"));

    let millis = ExecuteRequest {
        timeout: Some(Timeout::Millis(250)),
        ..minimal
    };
    assert_eq!(
        request_from_wire(&request_to_wire(&millis))
            .unwrap()
            .timeout,
        Some(Timeout::Millis(250))
    );
}

#[test]
fn a_field_set_to_undefined_reads_as_absent_and_bad_fields_are_named() {
    let with_undefined = WireValue::Object(vec![
        ("code".into(), WireValue::string("async () => 1")),
        ("timeout".into(), WireValue::Undefined),
        ("modules".into(), WireValue::Undefined),
    ]);
    assert_eq!(request_from_wire(&with_undefined).unwrap().timeout, None);

    let cases = [
        (
            vec![("code", WireValue::Number(1.0))],
            "code must be a string",
        ),
        (vec![], "the request has no code"),
        (
            vec![
                ("code", WireValue::string("x")),
                ("retainHandles", WireValue::Bool(true)),
            ],
            "\"retainHandles\"",
        ),
        (
            vec![
                ("code", WireValue::string("x")),
                ("timeout", WireValue::Number(1.5)),
            ],
            "timeout must be a whole number",
        ),
        (
            vec![
                ("code", WireValue::string("x")),
                ("outbound", WireValue::string("open")),
            ],
            "outbound mode \"open\"",
        ),
        (
            vec![
                ("code", WireValue::string("x")),
                (
                    "providers",
                    WireValue::Array(vec![WireValue::Object(vec![(
                        "tools".into(),
                        WireValue::string("x"),
                    )])]),
                ),
            ],
            "providers[0].tools",
        ),
    ];
    for (fields, needle) in cases {
        let value = WireValue::Object(
            fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        );
        let error = request_from_wire(&value).unwrap_err();
        assert_eq!(error.code(), Some(codes::INVALID_REQUEST));
        assert!(error.to_string().contains(needle), "{error}");
    }
}

fn every_value() -> JsValue {
    let binary = |kind, bytes: &[u8]| {
        JsValue::Binary(Binary {
            kind,
            bytes: bytes.to_vec(),
        })
    };
    JsValue::Object(vec![
        ("u".into(), JsValue::Undefined),
        ("n".into(), JsValue::Null),
        ("b".into(), JsValue::Bool(false)),
        ("inf".into(), JsValue::Number(f64::NEG_INFINITY)),
        (
            "big".into(),
            JsValue::BigInt("-1000000000000000000000".into()),
        ),
        ("s".into(), JsValue::String("s".into())),
        (
            "a".into(),
            JsValue::Array(vec![JsValue::Undefined, JsValue::Array(vec![])]),
        ),
        (
            "m".into(),
            JsValue::Map(vec![(
                JsValue::Number(1.0),
                JsValue::Set(vec![JsValue::Null]),
            )]),
        ),
        ("d".into(), JsValue::Date(0.0)),
        ("ab".into(), binary(BinaryKind::ArrayBuffer, &[1])),
        ("dv".into(), binary(BinaryKind::DataView, &[2, 3])),
        ("i16".into(), binary(BinaryKind::Int16Array, &[1, 2])),
        ("f16".into(), binary(BinaryKind::Float16Array, &[0, 60])),
        (
            "r".into(),
            JsValue::RegExp {
                source: "a+".into(),
                flags: "g".into(),
            },
        ),
        (
            "e".into(),
            JsValue::Error {
                name: "RangeError".into(),
                message: "r".into(),
            },
        ),
        ("f".into(), JsValue::Function),
        (
            "collides".into(),
            JsValue::Object(vec![(VALUE_TAG.into(), JsValue::String("Map".into()))]),
        ),
    ])
}

#[test]
fn every_sandbox_value_crosses_whole() {
    let value = every_value();
    assert_eq!(js_from_wire(&js_to_wire(&value)), value);
    // Cap'n Web's own forms where it has one.
    let wire = js_to_wire(&value);
    assert_eq!(
        wire.get("i16"),
        Some(&WireValue::Bytes {
            bytes: vec![1, 2],
            kind: Some("Int16Array".into())
        })
    );
    assert_eq!(wire.get("d"), Some(&WireValue::Date(0.0)));
    assert_eq!(wire.get("e"), Some(&WireValue::error("RangeError", "r")));
}

#[test]
fn every_outcome_crosses_whole() {
    let logs = vec![
        LogLine {
            level: LogLevel::Log,
            text: "a 1".into(),
        },
        LogLine {
            level: LogLevel::Warn,
            text: "w".into(),
        },
        LogLine {
            level: LogLevel::Error,
            text: "e".into(),
        },
    ];
    let outcomes = [
        Outcome {
            result: every_value(),
            error: None,
            logs: logs.clone(),
        },
        Outcome {
            result: JsValue::Undefined,
            error: Some(RunError::TimedOut { bound_ms: 100 }),
            logs: vec![],
        },
        Outcome {
            result: JsValue::Undefined,
            error: Some(RunError::OutOfMemory {
                limit_bytes: 64 << 20,
            }),
            logs: vec![],
        },
        Outcome {
            result: JsValue::Undefined,
            error: Some(RunError::Threw {
                message: None,
                thrown: JsValue::Null,
            }),
            logs: logs.clone(),
        },
        Outcome {
            result: JsValue::Undefined,
            error: Some(RunError::Threw {
                message: Some(JsValue::Undefined),
                thrown: JsValue::Object(vec![]),
            }),
            logs: vec![],
        },
    ];
    for outcome in outcomes {
        let wire = outcome_to_wire(outcome.clone());
        if let Some(error) = &outcome.error {
            assert_eq!(wire.get("error"), Some(&WireValue::String(error.text())));
        }
        assert_eq!(outcome_from_wire(wire).unwrap(), outcome);
    }
    // A third party's plain answer reads too.
    let plain = WireValue::Object(vec![
        ("result".into(), WireValue::Undefined),
        ("error".into(), WireValue::string("boom")),
        ("logs".into(), WireValue::Array(vec![])),
    ]);
    assert_eq!(
        outcome_from_wire(plain).unwrap().error.unwrap().text(),
        "boom"
    );
}

#[test]
fn errors_are_rebuilt_from_their_code_and_unknown_codes_pass_through() {
    let errors = [
        Error::StartFailed("SyntaxError: Unexpected end of input".into()),
        Error::Disposed,
        Error::InvalidRequest("the request has no code".into()),
        Error::Internal("a worker died".into()),
        Error::Rejected("Cannot read properties of null (reading 'message')".into()),
        Error::Coded {
            code: codes::TOO_MANY_EXECUTIONS.into(),
            text: "busy".into(),
            retryable: true,
            cause: None,
        },
        Error::Coded {
            code: "SOMETHING_NEW".into(),
            text: "a future failure".into(),
            retryable: false,
            cause: Some("underneath".into()),
        },
    ];
    for error in errors {
        let wire = error_to_wire(&error);
        assert_eq!(
            wire.get("code").and_then(WireValue::as_str),
            error.code(),
            "{error}"
        );
        assert_eq!(error_from_wire(&wire), error);
    }
    // A rejection with no code passes through with its message.
    assert_eq!(
        error_from_wire(&WireValue::error("TypeError", "no such method")),
        Error::Rejected("no such method".into())
    );
}

#[test]
fn the_designs_connection_texts_and_codes() {
    let cases = [
        (
            Error::protocol_mismatch("1", "2"),
            "Executor protocol mismatch: client speaks v1, server speaks v2",
            codes::PROTOCOL_MISMATCH,
            false,
        ),
        (
            Error::connection_rejected("ws://127.0.0.1:1", "refused"),
            "Failed to open WebSocket to ws://127.0.0.1:1",
            codes::CONNECTION_REJECTED,
            false,
        ),
        (
            Error::connection_broken("reset"),
            "Executor connection broke during execution",
            codes::CONNECTION_BROKEN,
            true,
        ),
        (
            Error::remote_closed(),
            "RemoteExecutor is closed",
            codes::CONNECTION_BROKEN,
            false,
        ),
    ];
    for (error, text, code, retryable) in cases {
        assert_eq!(error.to_string(), text);
        assert_eq!(error.code(), Some(code));
        assert_eq!(error.retryable(), retryable);
    }
}
