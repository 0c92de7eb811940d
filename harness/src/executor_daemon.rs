//! The executor daemon served by the harness's own executable: `codemode-compat serve` (a
//! hidden command) answers exactly as `codemode-executor serve` does, through the same server
//! of the executor's public API, so the remote column needs nothing built beyond the harness
//! (see `sides::remote::daemon`). The flags are the daemon's.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use codemode_executor::isolate::{IsolateExecutor, IsolateOptions};
use codemode_executor::remote::{ExecutorServer, ServerOptions};

/// `serve`'s flags, as `codemode-executor serve` takes them.
#[derive(clap::Args)]
pub struct Serve {
    /// The address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// A file holding the bearer token every upgrade must carry.
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// Worker threads of the isolate pool.
    #[arg(long)]
    pool: Option<usize>,
    /// The memory limit of each run, in bytes.
    #[arg(long)]
    memory_limit: Option<usize>,
    /// The largest incoming message, in bytes.
    #[arg(long)]
    max_message_bytes: Option<usize>,
    /// Connections served at once.
    #[arg(long)]
    max_connections: Option<usize>,
    /// Executions one connection may run at once.
    #[arg(long)]
    max_concurrent: Option<usize>,
    /// How long in-flight runs may finish after SIGTERM, in milliseconds.
    #[arg(long)]
    grace_ms: Option<u64>,
}

/// Serves until SIGTERM or SIGINT, on a runtime of its own.
pub fn run(args: Serve) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("codemode-compat serve: the async runtime could not start: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(text) => {
            eprintln!("codemode-compat serve: {text}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(args: Serve) -> Result<(), String> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())
        .map_err(|e| format!("the SIGTERM handler could not be installed: {e}"))?;
    let mut int = signal(SignalKind::interrupt())
        .map_err(|e| format!("the SIGINT handler could not be installed: {e}"))?;
    let shutdown = async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    };
    let mut options = ServerOptions::default();
    if let Some(path) = &args.token_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("the token file {} could not be read: {e}", path.display()))?;
        let token = text.trim();
        if token.is_empty() {
            return Err(format!("the token file {} is empty", path.display()));
        }
        options.token = Some(token.to_string());
    }
    if let Some(n) = args.max_message_bytes {
        options.max_message_bytes = n;
    }
    if let Some(n) = args.max_connections {
        options.max_connections = n;
    }
    if let Some(n) = args.max_concurrent {
        options.max_concurrent_executions = n;
    }
    if let Some(ms) = args.grace_ms {
        options.grace_period = Duration::from_millis(ms);
    }
    let mut isolate = IsolateOptions::default();
    if let Some(n) = args.pool {
        if n == 0 {
            return Err("--pool must be at least 1".into());
        }
        isolate.workers = n;
    }
    if let Some(bytes) = args.memory_limit {
        isolate.memory_limit_bytes = bytes;
    }
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("could not listen on {}: {e}", args.listen))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("the listening address is unknown: {e}"))?;
    let server = ExecutorServer::new(IsolateExecutor::new(isolate), options);
    {
        // The ready line the daemon's launcher waits for, as `codemode-executor` prints it.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "codemode-executor listening on ws://{address}");
        let _ = stdout.flush();
    }
    server.serve(listener, shutdown).await;
    Ok(())
}
