//! The remote wire against a peer it was not written with: the real npm `capnweb` (0.12, in
//! `interop/`, installed from its lockfile) under the reference toolchain's Node 22. A JS
//! client calls our daemon; our `RemoteExecutor`, under `CodemodeExecutor`, calls a JS server.

use std::sync::Arc;

use crate::support::remote::{JsServer, js_client, js_client_with, start_daemon};
use codemode_compat::outcome::project;
use codemode_compat::sides::process::install_exit_guards;
use codemode_executor::dialect::{CodemodeExecutor, ExecuteOptions, Provider, ToolFn, Tools};
use codemode_executor::protocol::JsValue;
use codemode_executor::remote::{ConnectOptions, RemoteExecutor};
use serde_json::json;

fn runtime() -> tokio::runtime::Runtime {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async { install_exit_guards(false) });
    runtime
}

/// Our daemon, a JS client: every scenario of `interop/client.mjs` in one daemon.
#[test]
fn a_capnweb_client_drives_the_daemon() {
    runtime().block_on(async {
        let mut daemon = start_daemon(&[]).await;
        let token = daemon.token_file();
        let url = daemon.url.clone();
        let run = |scenario: &'static str| {
            let (url, token) = (url.clone(), token.clone());
            async move { js_client(&url, Some(&token), scenario).await }
        };

        assert_eq!(run("version").await, json!({"version": 1}));

        let observed = run("tool-call").await;
        assert_eq!(
            observed["answer"]["result"],
            json!({"sum": 5, "list": [1, "two", null]}),
            "{observed}"
        );
        assert_eq!(
            observed["calls"],
            json!([{"provider": "codemode", "tool": "add", "args": [{"a": 2, "b": 3}]}]),
            "the sandbox's tool call reached the JS dispatch function: {observed}"
        );
        assert_eq!(
            observed["answer"]["logs"],
            json!([{"level": "log", "text": "sum 5"}, {"level": "warn", "text": "careful"}]),
            "{observed}"
        );
        assert!(observed["answer"].get("error").is_none(), "{observed}");

        let observed = run("tool-error").await;
        assert_eq!(
            observed["answer"]["result"],
            json!("no tool codemode.missing here"),
            "a dispatch envelope's error rejects the call in the sandbox: {observed}"
        );

        let observed = run("program-error").await;
        assert_eq!(observed["answer"]["error"], json!("boom"), "{observed}");
        assert_eq!(observed["answer"]["result"], json!({"$undefined": true}));

        let observed = run("timeout").await;
        let error = observed["answer"]["error"].as_str().unwrap_or_default();
        assert!(
            error.starts_with("Execution timed out at its 200 ms bound."),
            "{observed}"
        );

        let observed = run("values").await;
        assert_eq!(
            observed["answer"]["result"],
            json!([{"$undefined": true}, {"$date": 0}]),
            "undefined and a Date reach a JS client as themselves: {observed}"
        );

        let observed = run("concurrent").await;
        assert_eq!(
            observed["results"],
            json!([0, 1, 2, 3, 4, 5, 6, 7]),
            "{observed}"
        );
        assert_eq!(
            observed["errors"],
            json!([null, null, null, null, null, null, null, null]),
            "{observed}"
        );
        assert_eq!(observed["calls"], json!(8));

        // Host-routed outbound: the sandbox's fetch reaches the JS function, and its refusal
        // fails that fetch with its message.
        let observed = run("outbound").await;
        assert_eq!(
            observed["answer"]["result"],
            json!([201, "Created", "application/json", {"got": "POST"}, "not on the allow-list"]),
            "{observed}"
        );
        assert_eq!(
            observed["requests"][0]["method"],
            json!("POST"),
            "{observed}"
        );
        assert_eq!(
            observed["requests"][0]["url"],
            json!("https://api.example/items"),
            "{observed}"
        );
        assert_eq!(observed["requests"][0]["body"], json!("x=1"), "{observed}");
        assert!(
            observed["requests"][0]["headers"]
                .as_array()
                .is_some_and(|h| h.contains(&json!(["content-length", "3"]))),
            "{observed}"
        );
        assert_eq!(observed["requests"][1]["body"], json!(null), "{observed}");

        // Without the token the upgrade is refused and nothing runs.
        let observed = js_client(&url, None, "version").await;
        assert!(
            observed["thrown"].is_string(),
            "a client without the token is refused: {observed}"
        );

        // A peer that sends something that is not Cap'n Web loses its session, with a reason;
        // the daemon keeps serving everyone else.
        let observed = run("garbage").await;
        assert_eq!(observed["close"]["code"], json!(3000), "{observed}");
        let aborted = observed["received"].as_array().is_some_and(|m| {
            m.iter()
                .any(|m| m.as_str().is_some_and(|m| m.starts_with("[\"abort\"")))
        });
        assert!(
            aborted,
            "the daemon aborts the session with a reason: {observed}"
        );
        assert_eq!(run("version").await, json!({"version": 1}));

        daemon.stop().await;
    });
}

fn add_tool() -> Tools {
    let add: ToolFn = Arc::new(|args| {
        Box::pin(async move {
            let sum: f64 = args
                .iter()
                .map(|v| match v {
                    JsValue::Number(n) => *n,
                    _ => f64::NAN,
                })
                .sum();
            Ok(JsValue::Number(sum))
        })
    });
    Tools::Providers(vec![Provider::new("codemode").tool("add", add)])
}

/// A JS server, our client: `CodemodeExecutor` over `RemoteExecutor` against
/// `interop/server.mjs`, whose provider objects call our tool functions back over the socket.
#[test]
fn our_remote_executor_drives_a_capnweb_server() {
    runtime().block_on(async {
        let mut server = JsServer::start(&["--token", "secret"]).await;
        let options = || ConnectOptions {
            headers: vec![("Authorization".into(), "Bearer secret".into())],
            ..ConnectOptions::default()
        };
        let remote = RemoteExecutor::connect(&server.url, options())
            .await
            .expect("our client connects to the JS server");
        let executor = CodemodeExecutor::new(remote);
        let result = executor
            .execute(
                "async () => { const sum = await codemode.add(2, 3); console.log('sum', sum); return { sum }; }",
                add_tool(),
                ExecuteOptions::default(),
            )
            .await
            .expect("the JS server runs the program");
        assert_eq!(result.error, None);
        assert_eq!(project(&result.result), Some(json!({"sum": 5})));
        assert_eq!(result.logs, vec!["sum 5".to_string()]);

        let failed = executor
            .execute("async () => { throw new Error('boom') }", add_tool(), ExecuteOptions::default())
            .await
            .expect("a failing program is an outcome");
        assert_eq!(failed.error.as_deref(), Some("boom"));
        executor.dispose().await;

        // The JS server refuses a client without its token.
        let refused = RemoteExecutor::connect(&server.url, ConnectOptions::default())
            .await
            .err()
            .expect("no token, no session");
        assert_eq!(refused.code(), Some("CONNECTION_REJECTED"), "{refused}");
        server.process.stop().await;
    });
}

/// Our daemon over TLS, a JS client: the npm `capnweb` client under Node 22 reaches
/// `wss://` with a certificate this test makes, trusting its CA through Node's
/// `NODE_EXTRA_CA_CERTS`, and runs a program that calls a tool.
#[test]
fn a_capnweb_client_drives_the_daemon_over_tls() {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
    runtime().block_on(async {
        let dir = std::env::temp_dir().join(format!("tls-interop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        // Names of their own: a certificate whose issuer's name is its own reads as self-signed.
        ca_params
            .distinguished_name
            .push(DnType::CommonName, "codemode test CA");
        let ca_key = KeyPair::generate().unwrap();
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let key = KeyPair::generate().unwrap();
        let cert = CertificateParams::new(vec!["127.0.0.1".to_string()])
            .unwrap()
            .signed_by(&key, &ca, &ca_key)
            .unwrap();
        let (ca_file, cert_file, key_file) = (
            dir.join("ca.pem"),
            dir.join("cert.pem"),
            dir.join("key.pem"),
        );
        std::fs::write(&ca_file, ca.pem()).unwrap();
        std::fs::write(&cert_file, cert.pem()).unwrap();
        std::fs::write(&key_file, key.serialize_pem()).unwrap();
        let mut daemon = start_daemon(&[
            "--tls-cert",
            cert_file.to_str().unwrap(),
            "--tls-key",
            key_file.to_str().unwrap(),
        ])
        .await;
        assert!(daemon.url.starts_with("wss://127.0.0.1:"), "{}", daemon.url);
        let token = daemon.token_file();
        let trusting = [("NODE_EXTRA_CA_CERTS", ca_file.as_path())];
        let observed = js_client_with(&daemon.url, Some(&token), "version", &trusting).await;
        assert_eq!(observed, json!({"version": 1}));
        let observed = js_client_with(&daemon.url, Some(&token), "tool-call", &trusting).await;
        assert_eq!(
            observed["answer"]["result"],
            json!({"sum": 5, "list": [1, "two", null]}),
            "{observed}"
        );
        daemon.stop().await;
        let _ = std::fs::remove_dir_all(&dir);
    });
}
