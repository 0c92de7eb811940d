//! A host whose programs run in an executor daemon while its tools stay here: an
//! `ExecutorServer` on loopback (what `codemode-executor serve` runs), and a
//! `CodemodeExecutor` over `RemoteExecutor::connect`, with a bearer token. The tool is called
//! back over the same socket.
//!
//! `cargo run -p codemode-executor --example remote_client`

use codemode_executor::remote::{ConnectOptions, ExecutorServer, RemoteExecutor, ServerOptions};
use codemode_executor::{
    CodemodeExecutor, Error, ExecuteOptions, IsolateExecutor, Provider, ToolError, tool,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Order {
    id: u32,
}

async fn run() -> Result<Vec<String>, Error> {
    // The daemon side: any native executor, served on a free loopback port.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| Error::Internal(format!("could not listen on loopback: {e}")))?;
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let server_options = ServerOptions {
        token: Some("s3cret".into()),
        log: false,
        ..ServerOptions::default()
    };
    let server = ExecutorServer::new(IsolateExecutor::default(), server_options);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let daemon = tokio::spawn(async move {
        server
            .serve(listener, async {
                let _ = stopped.await;
            })
            .await
    });

    // The host side: the session is open (and the version agreed) when `connect` returns.
    let options = ConnectOptions {
        headers: vec![("Authorization".into(), "Bearer s3cret".into())],
        ..ConnectOptions::default()
    };
    let remote = RemoteExecutor::connect(&url, options).await?;
    let executor = CodemodeExecutor::new(remote);
    let shop = Provider::new("shop").tool(
        "get-order",
        tool(|order: Order| async move {
            Ok::<_, ToolError>(serde_json::json!({ "id": order.id, "total": 42.5 }))
        }),
    );
    let outcome = executor
        .execute(
            r#"async () => {
                const order = await shop.get_order({ id: 7 });
                console.warn("total", order.total);
                return order.total * 2;
            }"#,
            shop,
            ExecuteOptions::new(),
        )
        .await?;
    let mut lines: Vec<String> = outcome.logs.iter().map(|l| format!("log: {l}")).collect();
    lines.push(format!("result: {:?}", outcome.result));

    // A wrong token is refused before anything runs.
    let wrong = ConnectOptions {
        headers: vec![("Authorization".into(), "Bearer nope".into())],
        reconnect: false,
        ..ConnectOptions::default()
    };
    match RemoteExecutor::connect(&url, wrong).await {
        Ok(_) => lines.push("wrong token: connected".into()),
        Err(error) => lines.push(format!(
            "wrong token: {} {error}",
            error.code().unwrap_or("-")
        )),
    }

    executor.dispose().await;
    drop(stop);
    let _ = daemon.await;
    Ok(lines)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    for line in run().await? {
        println!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn the_tool_runs_in_the_host_and_the_program_in_the_daemon() {
        let lines = super::run().await.unwrap();
        assert_eq!(lines[0], "log: [warn] total 42.5");
        assert_eq!(lines[1], "result: Number(85.0)");
        assert!(
            lines[2].starts_with(
                "wrong token: CONNECTION_REJECTED Failed to open WebSocket to ws://127.0.0.1:"
            ),
            "{}",
            lines[2]
        );
    }
}
