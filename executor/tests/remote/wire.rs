//! The Cap'n Web subset: expressions round trip in every form, messages parse or name what
//! is wrong, and a session aborts on what it does not know and releases exactly. The session
//! tests speak raw Cap'n Web to our `Session` over an in-memory WebSocket.
#![cfg(feature = "remote")]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::DuplexStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message as WsMessage;
use tokio_tungstenite::tungstenite::protocol::Role;

use codemode_executor::protocol::BoxFuture;
use codemode_executor::remote::wire::{
    Message, RemoteStub, Session, SessionOptions, Stub, TableCounts, Tables, Target, WireValue,
    decode, encode, websocket_config,
};

/// Tables that record what was exported and imported, for the codec alone.
#[derive(Default)]
struct RecordingTables {
    exported: Vec<i64>,
    imported: Vec<i64>,
    promises: Vec<i64>,
    locals: HashMap<i64, Arc<dyn Target>>,
    next: i64,
}

impl Tables for RecordingTables {
    fn export(&mut self, target: Arc<dyn Target>) -> i64 {
        self.next -= 1;
        self.exported.push(self.next);
        self.locals.insert(self.next, target);
        self.next
    }
    fn import_stub(&mut self, id: i64) -> RemoteStub {
        self.imported.push(id);
        RemoteStub::detached(id)
    }
    fn import_promise(&mut self, id: i64) -> Result<(), String> {
        self.promises.push(id);
        Ok(())
    }
    fn local(&self, id: i64) -> Option<Arc<dyn Target>> {
        self.locals.get(&id).cloned()
    }
}

struct Echo;

impl Target for Echo {
    fn call(
        &self,
        path: Vec<String>,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>> {
        Box::pin(async move {
            match path.first().map(String::as_str) {
                Some("fail") => Err(WireValue::error("RangeError", "asked to fail")),
                _ => Ok(WireValue::Array(args)),
            }
        })
    }
}

fn round_trip(value: &WireValue, expected: Value) {
    let mut tables = RecordingTables::default();
    let json = encode(value, &mut tables);
    assert_eq!(json, expected, "encoding {value:?}");
    let back = decode(&json, &mut tables).unwrap();
    assert_eq!(&back, value, "decoding {json}");
}

#[test]
fn every_scalar_form_round_trips() {
    round_trip(&WireValue::Undefined, json!(["undefined"]));
    round_trip(&WireValue::Null, json!(null));
    round_trip(&WireValue::Bool(true), json!(true));
    round_trip(&WireValue::Number(42.0), json!(42));
    round_trip(&WireValue::Number(1.5), json!(1.5));
    round_trip(&WireValue::Number(f64::INFINITY), json!(["inf"]));
    round_trip(&WireValue::Number(f64::NEG_INFINITY), json!(["-inf"]));
    round_trip(
        &WireValue::BigInt("-12345678901234567890".into()),
        json!(["bigint", "-12345678901234567890"]),
    );
    round_trip(&WireValue::string("hi"), json!("hi"));
    round_trip(
        &WireValue::Date(1749342170815.0),
        json!(["date", 1749342170815_i64]),
    );
    round_trip(
        &WireValue::Bytes {
            bytes: vec![1, 2, 3],
            kind: Some("Int8Array".into()),
        },
        json!(["bytes", "AQID", "Int8Array"]),
    );
    round_trip(
        &WireValue::Bytes {
            bytes: vec![255],
            kind: None,
        },
        json!(["bytes", "/w"]),
    );
    // Padded base64 (as `Buffer#toString("base64")` writes it) reads the same.
    assert_eq!(
        decode(&json!(["bytes", "/w=="]), &mut RecordingTables::default()).unwrap(),
        WireValue::Bytes {
            bytes: vec![255],
            kind: None,
        }
    );
    round_trip(
        &WireValue::error("TypeError", "bad"),
        json!(["error", "TypeError", "bad"]),
    );
    round_trip(
        &WireValue::Error {
            name: "Error".into(),
            message: "coded".into(),
            stack: None,
            props: vec![
                ("code".into(), WireValue::string("E_X")),
                ("n".into(), WireValue::Undefined),
            ],
        },
        json!(["error", "Error", "coded", null, {"code": "E_X", "n": ["undefined"]}]),
    );
}

#[test]
fn nan_minus_zero_and_invalid_dates_keep_their_identity() {
    let mut tables = RecordingTables::default();
    let nan = decode(
        &encode(&WireValue::Number(f64::NAN), &mut tables),
        &mut tables,
    )
    .unwrap();
    assert!(matches!(nan, WireValue::Number(n) if n.is_nan()));
    let json = encode(&WireValue::Number(-0.0), &mut tables);
    let text = json.to_string();
    let back = decode(&serde_json::from_str(&text).unwrap(), &mut tables).unwrap();
    assert!(
        matches!(back, WireValue::Number(n) if n == 0.0 && n.is_sign_negative()),
        "{text}"
    );
    assert_eq!(
        encode(&WireValue::Date(f64::NAN), &mut tables),
        json!(["date", null])
    );
    let invalid = decode(&json!(["date", null]), &mut tables).unwrap();
    assert!(matches!(invalid, WireValue::Date(t) if t.is_nan()));
}

#[test]
fn arrays_are_escaped_and_an_array_that_looks_like_a_tag_stays_an_array() {
    let value = WireValue::Object(vec![(
        "key".into(),
        WireValue::Array(vec![
            WireValue::string("undefined"),
            WireValue::Date(1.0),
            WireValue::Array(vec![WireValue::Number(0.0)]),
            WireValue::Array(vec![]),
        ]),
    )]);
    round_trip(
        &value,
        json!({"key": [["undefined", ["date", 1], [[0]], [[]]]]}),
    );
}

#[test]
fn stubs_nest_inside_values_export_ours_and_import_theirs() {
    let mut tables = RecordingTables::default();
    let local: Arc<dyn Target> = Arc::new(Echo);
    let value = WireValue::Object(vec![
        ("mine".into(), WireValue::Stub(Stub::Local(local.clone()))),
        (
            "nested".into(),
            WireValue::Array(vec![WireValue::Stub(Stub::Remote(RemoteStub::detached(
                -7,
            )))]),
        ),
    ]);
    let json = encode(&value, &mut tables);
    assert_eq!(
        json,
        json!({"mine": ["export", -1], "nested": [[["import", -7]]]})
    );
    assert_eq!(tables.exported, vec![-1]);

    // Coming from the peer, an export is a stub of theirs and an import is ours coming back.
    let back = decode(
        &json!({"theirs": ["export", -3], "ours": [[["import", -1]]], "later": ["promise", -4]}),
        &mut tables,
    )
    .unwrap();
    assert_eq!(tables.imported, vec![-3]);
    assert_eq!(tables.promises, vec![-4]);
    assert_eq!(
        back,
        WireValue::Object(vec![
            (
                "theirs".into(),
                WireValue::Stub(Stub::Remote(RemoteStub::detached(-3)))
            ),
            (
                "ours".into(),
                WireValue::Array(vec![WireValue::Stub(Stub::Local(local))])
            ),
            ("later".into(), WireValue::Promise(-4)),
        ])
    );
}

#[test]
fn unknown_or_malformed_expressions_are_named() {
    let mut tables = RecordingTables::default();
    for (json, needle) in [
        (json!(["frobnicate", 1]), "[\"frobnicate\",1]"),
        (json!(["bigint", "12x"]), "bigint"),
        (json!(["bytes", "***"]), "base64"),
        (json!(["import", -99]), "export -99"),
        (json!(["remap", 0, [], [], []]), "remap"),
        (json!([1, 2]), "[1,2]"),
    ] {
        let error = decode(&json, &mut tables).unwrap_err();
        assert!(error.0.contains(needle), "{json}: {error}");
    }
}

#[test]
fn messages_parse_and_print_and_unknown_ones_are_named() {
    for text in [
        r#"["push",["pipeline",0,["protocolVersion"],[]]]"#,
        r#"["pull",1]"#,
        r#"["resolve",1,1]"#,
        r#"["reject",2,["error","Error","no"]]"#,
        r#"["release",-1,2]"#,
        r#"["abort",["error","Error","bye"]]"#,
    ] {
        assert_eq!(Message::parse(text).unwrap().to_text(), text);
    }
    assert!(Message::parse("not json").unwrap_err().contains("not JSON"));
    assert!(
        Message::parse(r#"["shout",1]"#)
            .unwrap_err()
            .contains("shout")
    );
    assert!(
        Message::parse(r#"["stream",1]"#)
            .unwrap_err()
            .contains("not supported")
    );
    assert!(
        Message::parse(r#"["release",1]"#)
            .unwrap_err()
            .contains("malformed")
    );
}

/// Our session on one end of an in-memory WebSocket; the raw other end for the test.
async fn pair(main: Option<Arc<dyn Target>>) -> (Session, WebSocketStream<DuplexStream>) {
    let (a, b) = tokio::io::duplex(1 << 20);
    let ours = WebSocketStream::from_raw_socket(a, Role::Server, None).await;
    let raw = WebSocketStream::from_raw_socket(b, Role::Client, None).await;
    (Session::start(ours, main, SessionOptions::default()), raw)
}

async fn send(raw: &mut WebSocketStream<DuplexStream>, message: Value) {
    raw.send(WsMessage::text(message.to_string()))
        .await
        .unwrap();
}

async fn receive(raw: &mut WebSocketStream<DuplexStream>) -> Value {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), raw.next())
            .await
            .expect("a message within 5 s")
            .expect("the socket is open")
            .unwrap();
        match frame {
            WsMessage::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
            WsMessage::Close(frame) => {
                return json!(["<close>", frame.map(|f| f.reason.to_string())]);
            }
            _ => continue,
        }
    }
}

async fn assert_aborts(message: &str, needle: &str) {
    let (session, mut raw) = pair(Some(Arc::new(Echo))).await;
    raw.send(WsMessage::text(message.to_string()))
        .await
        .unwrap();
    let abort = receive(&mut raw).await;
    assert_eq!(abort[0], "abort", "{abort}");
    let reason = abort[1][2].as_str().unwrap().to_string();
    assert!(reason.contains(needle), "{message}: {reason}");
    assert_eq!(receive(&mut raw).await[0], "<close>");
    tokio::time::timeout(Duration::from_secs(5), session.closed())
        .await
        .unwrap();
    assert_eq!(session.broken(), Some(reason));
}

#[tokio::test]
async fn a_malformed_or_unknown_message_aborts_the_session_with_a_reason() {
    assert_aborts("{not json", "not JSON").await;
    assert_aborts(r#"["shout",1]"#, "[\"shout\",1]").await;
    assert_aborts(r#"["push",["frobnicate"]]"#, "frobnicate").await;
    assert_aborts(r#"["pull",42]"#, "export 42").await;
    assert_aborts(r#"["release",-5,1]"#, "export -5").await;
    assert_aborts(r#"["pipe"]"#, "not supported").await;
}

#[tokio::test]
async fn a_binary_frame_and_an_oversized_message_abort_with_a_reason() {
    let (_session, mut raw) = pair(None).await;
    raw.send(WsMessage::binary(vec![1u8, 2])).await.unwrap();
    let abort = receive(&mut raw).await;
    assert!(
        abort[1][2].as_str().unwrap().contains("binary frame"),
        "{abort}"
    );

    let (a, b) = tokio::io::duplex(1 << 20);
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(100));
    let ours = WebSocketStream::from_raw_socket(a, Role::Server, Some(config)).await;
    let mut raw = WebSocketStream::from_raw_socket(b, Role::Client, None).await;
    let session = Session::start(
        ours,
        None,
        SessionOptions {
            max_message_bytes: 100,
        },
    );
    send(&mut raw, json!(["push", "x".repeat(500)])).await;
    let abort = receive(&mut raw).await;
    let reason = abort[1][2].as_str().unwrap();
    assert!(
        reason.contains("exceeds the session's 100-byte bound"),
        "{reason}"
    );
    assert!(session.broken().is_some());
}

#[tokio::test]
async fn a_call_is_answered_after_its_pull_and_released_by_the_peer() {
    let (session, mut raw) = pair(Some(Arc::new(Echo))).await;
    send(
        &mut raw,
        json!(["push", ["pipeline", 0, ["echo"], [[[1, 2]], ["undefined"]]]]),
    )
    .await;
    send(&mut raw, json!(["pull", 1])).await;
    assert_eq!(
        receive(&mut raw).await,
        json!(["resolve", 1, [[[[1, 2]], ["undefined"]]]])
    );
    assert_eq!(
        session.table_counts(),
        TableCounts {
            imports: 0,
            exports: 1
        }
    );
    send(&mut raw, json!(["release", 1, 1])).await;
    send(&mut raw, json!(["push", ["pipeline", 0, ["fail"], []]])).await;
    send(&mut raw, json!(["pull", 2])).await;
    assert_eq!(
        receive(&mut raw).await,
        json!(["reject", 2, ["error", "RangeError", "asked to fail"]])
    );
    send(&mut raw, json!(["release", 2, 1])).await;
    // Releasing an answer twice pushes its count below zero: the session aborts.
    send(&mut raw, json!(["release", 2, 1])).await;
    let abort = receive(&mut raw).await;
    assert!(
        abort[1][2].as_str().unwrap().contains("export 2"),
        "{abort}"
    );
}

#[tokio::test]
async fn a_message_many_reads_long_crosses_whole_both_ways() {
    // A pipe of 64 KiB and the sessions' own configuration: the message arrives in pieces,
    // each read a chunk of the configured size.
    let (a, b) = tokio::io::duplex(64 << 10);
    let ours =
        WebSocketStream::from_raw_socket(a, Role::Server, Some(websocket_config(1 << 20))).await;
    let mut raw = WebSocketStream::from_raw_socket(b, Role::Client, None).await;
    let _session = Session::start(
        ours,
        Some(Arc::new(Echo)),
        SessionOptions {
            max_message_bytes: 1 << 20,
        },
    );
    let big = "x".repeat(300 << 10);
    send(&mut raw, json!(["push", ["pipeline", 0, ["echo"], [big]]])).await;
    send(&mut raw, json!(["pull", 1])).await;
    assert_eq!(receive(&mut raw).await, json!(["resolve", 1, [[big]]]));
}

/// A target that disposes the stub it receives, then answers.
struct DisposesFirst;

impl Target for DisposesFirst {
    fn call(
        &self,
        _path: Vec<String>,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>> {
        Box::pin(async move {
            if let Some(WireValue::Stub(Stub::Remote(stub))) = args.first() {
                stub.dispose();
            }
            Ok(WireValue::string("done"))
        })
    }
}

#[tokio::test]
async fn a_stub_disposed_before_the_answer_is_released_before_it() {
    // As the daemon's `execute` disposes the host's dispatch before it answers: the release
    // is sent at once (the session's lock is free), so it leaves with the answer.
    let (session, mut raw) = pair(Some(Arc::new(DisposesFirst))).await;
    send(
        &mut raw,
        json!(["push", ["pipeline", 0, ["run"], [["export", -1]]]]),
    )
    .await;
    send(&mut raw, json!(["pull", 1])).await;
    assert_eq!(receive(&mut raw).await, json!(["release", -1, 1]));
    assert_eq!(receive(&mut raw).await, json!(["resolve", 1, "done"]));
    assert_eq!(
        session.table_counts(),
        TableCounts {
            imports: 0,
            exports: 1
        }
    );
}

/// A target that calls back the stub it receives, then holds it until told to drop it.
struct CallsBack {
    held: Arc<Mutex<Vec<WireValue>>>,
}

impl Target for CallsBack {
    fn call(
        &self,
        _path: Vec<String>,
        args: Vec<WireValue>,
    ) -> BoxFuture<'static, Result<WireValue, WireValue>> {
        let held = self.held.clone();
        Box::pin(async move {
            let WireValue::Stub(Stub::Remote(stub)) = &args[0] else {
                return Err(WireValue::error("TypeError", "no stub"));
            };
            let answer = stub.call(vec![WireValue::string("ping")]).await;
            held.lock().unwrap().extend(args);
            answer.map_err(|_| WireValue::error("Error", "callback failed"))
        })
    }
}

#[tokio::test]
async fn a_stub_introduced_twice_is_released_once_with_both_introductions() {
    let held = Arc::new(Mutex::new(Vec::new()));
    let (session, mut raw) = pair(Some(Arc::new(CallsBack { held: held.clone() }))).await;
    // The same function, introduced twice in one call.
    send(
        &mut raw,
        json!([
            "push",
            ["pipeline", 0, ["run"], [["export", -1], ["export", -1]]]
        ]),
    )
    .await;
    send(&mut raw, json!(["pull", 1])).await;
    // The callback: a push on import -1 with its pull.
    assert_eq!(
        receive(&mut raw).await,
        json!(["push", ["pipeline", -1, [], ["ping"]]])
    );
    assert_eq!(receive(&mut raw).await, json!(["pull", 1]));
    send(&mut raw, json!(["resolve", 1, "pong"])).await;
    assert_eq!(receive(&mut raw).await, json!(["release", 1, 1]));
    assert_eq!(receive(&mut raw).await, json!(["resolve", 1, "pong"]));
    assert_eq!(
        session.table_counts(),
        TableCounts {
            imports: 1,
            exports: 1
        }
    );
    // Dropping the last handle releases the stub with its two introductions.
    held.lock().unwrap().clear();
    assert_eq!(receive(&mut raw).await, json!(["release", -1, 2]));
    assert_eq!(
        session.table_counts(),
        TableCounts {
            imports: 0,
            exports: 1
        }
    );
}

#[tokio::test]
async fn calls_pending_when_the_peer_goes_away_fail_as_broken() {
    let (session, raw) = pair(None).await;
    let call = tokio::spawn(async move {
        let answer = session.call_main("anything", vec![]).await;
        (answer, session)
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(raw);
    let (answer, session) = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(
        answer,
        Err(codemode_executor::remote::wire::CallError::Broken(_))
    ));
    assert!(session.broken().is_some());
}

#[tokio::test]
async fn a_peers_abort_breaks_the_session_with_its_reason() {
    let (session, mut raw) = pair(None).await;
    send(&mut raw, json!(["abort", ["error", "Error", "going away"]])).await;
    let reason = tokio::time::timeout(Duration::from_secs(5), session.closed())
        .await
        .unwrap();
    assert_eq!(reason, "The peer aborted the session: going away");
}
