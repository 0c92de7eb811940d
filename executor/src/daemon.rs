//! The executor daemon: an `IsolateExecutor` served over Cap'n Web on a WebSocket, as
//! `codemode-executor serve` runs it (see `docs/remote-protocol.md`). [`ServeArgs`] are its
//! flags and [`run`] serves until SIGTERM or SIGINT; the binary and any other executable that
//! serves the daemon (the harness's remote column) share this one code path.
//!
//! When it is ready it prints one line to stdout,
//! `codemode-executor listening on ws://HOST:PORT` (`wss://` with `--tls-cert` and
//! `--tls-key`), then with `--admin-listen` a second,
//! `codemode-executor admin on http://HOST:PORT` (the [`admin`] endpoint: health, readiness,
//! metrics). It logs through `tracing` on stderr (`--log-format text|json`, the level from
//! `RUST_LOG`, `info` by default): one event per connection and per refusal, one per execution
//! at `debug`. Beyond loopback it refuses to start without a token (unless told
//! `--insecure-no-token`). SIGTERM (or SIGINT): stop accepting (`/readyz` answers 503), let
//! in-flight runs finish within the grace period, exit 0.
//!
//! This module sits above both `isolate` and `remote`, so `remote` keeps knowing the executor
//! it serves only as an `Executor`.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::isolate::{IsolateExecutor, IsolateOptions};
use crate::remote::{ExecutorServer, ServerOptions, exposure_refusal};

pub mod admin;

/// How log events are written on stderr.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per line.
    Json,
}

/// The daemon's flags.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on; port 0 picks a free port. Loopback by default.
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// A file holding the bearer token every upgrade must carry (surrounding whitespace is
    /// ignored). Required to listen beyond loopback; a file others can read draws a warning.
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// Listen beyond loopback without a token: anyone who reaches the port runs code. Only
    /// for a network that is itself the access control.
    #[arg(long)]
    insecure_no_token: bool,
    /// Worker threads of the isolate pool (default: the available parallelism).
    #[arg(long)]
    pool: Option<usize>,
    /// The memory limit of each run, in bytes (default: 64 MiB).
    #[arg(long)]
    memory_limit: Option<usize>,
    /// The largest incoming message, in bytes.
    #[arg(long)]
    max_message_bytes: Option<usize>,
    /// Connections served at once.
    #[arg(long)]
    max_connections: Option<usize>,
    /// Executions one connection may have in flight (running or waiting for a worker).
    #[arg(long)]
    max_concurrent: Option<usize>,
    /// Executions waiting for a worker across all connections.
    #[arg(long)]
    max_queued: Option<usize>,
    /// How long in-flight runs may finish after SIGTERM, in milliseconds.
    #[arg(long)]
    grace_ms: Option<u64>,
    /// A PEM file holding the daemon's TLS certificate chain (its own certificate first):
    /// with `--tls-key`, the daemon speaks `wss://` only. Read at start: a new certificate
    /// takes a restart.
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// A PEM file holding the private key of `--tls-cert` (PKCS #8, PKCS #1 or SEC1).
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// An address for the admin endpoint (`/healthz`, `/readyz`, `/metrics`, plain HTTP);
    /// none by default. Keep it off the public network: it needs no token.
    #[arg(long)]
    admin_listen: Option<SocketAddr>,
    /// How log events are written on stderr; the level comes from `RUST_LOG` (default `info`;
    /// `debug` adds one event per execution).
    #[arg(long, value_enum, default_value = "text")]
    log_format: LogFormat,
}

/// Serves until SIGTERM or SIGINT on a runtime of its own; a failure is printed to stderr after
/// `program` (the name the user ran) and exits non-zero.
pub fn run(args: ServeArgs, program: &str) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{program}: the async runtime could not start: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(args, program)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(text) => {
            eprintln!("{program}: {text}");
            ExitCode::FAILURE
        }
    }
}

/// Log events go to stderr in `format`, at the level `RUST_LOG` names (`info` by default).
fn start_logging(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // A second daemon in one process (a test) keeps the first's subscriber.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

async fn serve(args: ServeArgs, program: &str) -> Result<(), String> {
    // Registered before anything slow, so a SIGTERM during startup is a graceful stop too.
    let shutdown = shutdown_signal()?;
    start_logging(args.log_format);
    let mut options = ServerOptions::default();
    if let Some(path) = &args.token_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("the token file {} could not be read: {e}", path.display()))?;
        let token = text.trim();
        if token.is_empty() {
            return Err(format!("the token file {} is empty", path.display()));
        }
        options.token = Some(token.to_string());
        if let Some(warning) = readable_by_others(path) {
            eprintln!("{program}: warning: {warning}");
        }
    }
    if let Some(refusal) =
        exposure_refusal(args.listen, options.token.is_some(), args.insecure_no_token)
    {
        return Err(refusal);
    }
    if options.token.is_none() && !args.listen.ip().is_loopback() {
        eprintln!(
            "{program}: WARNING: serving on {} with NO TOKEN (--insecure-no-token): anyone who can reach this port runs code",
            args.listen
        );
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
    if let Some(n) = args.max_queued {
        options.max_queued_executions = n;
    }
    if let Some(ms) = args.grace_ms {
        options.grace_period = Duration::from_millis(ms);
    }
    if let (Some(cert), Some(key)) = (&args.tls_cert, &args.tls_key) {
        options.tls = Some(crate::remote::tls::server_config(cert, key)?);
    }
    let scheme = if options.tls.is_some() { "wss" } else { "ws" };
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
    // Every run the server accepts is queued in the pool at once, in its connection's share,
    // and the pool serves the shares in turn: its queue holds what the daemon's bounds let in
    // (and the runs being cancelled, for the few milliseconds that takes).
    options.max_running_executions = isolate.workers;
    isolate.max_queued_runs = Some(
        options
            .max_queued_executions
            .saturating_add(isolate.workers.saturating_mul(2)),
    );
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("could not listen on {}: {e}", args.listen))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("the listening address is unknown: {e}"))?;
    let admin_listener = match args.admin_listen {
        Some(admin) => Some(
            tokio::net::TcpListener::bind(admin)
                .await
                .map_err(|e| format!("could not listen on {admin} for the admin endpoint: {e}"))?,
        ),
        None => None,
    };
    let executor = Arc::new(IsolateExecutor::new(isolate));
    let server = Arc::new(ExecutorServer::new(executor.clone(), options));
    let (stop_admin, admin_stopped) = tokio::sync::watch::channel(false);
    let mut admin_address = None;
    if let Some(admin_listener) = admin_listener {
        admin_address = admin_listener.local_addr().ok();
        let admin = Arc::new(admin::Admin {
            server: server.clone(),
            executor,
        });
        tokio::spawn(admin.serve(admin_listener, admin_stopped));
    }
    {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(
            stdout,
            "codemode-executor listening on {scheme}://{address}"
        );
        if let Some(admin) = admin_address {
            let _ = writeln!(stdout, "codemode-executor admin on http://{admin}");
        }
        let _ = stdout.flush();
    }
    server.serve(listener, shutdown).await;
    let _ = stop_admin.send(true);
    Ok(())
}

/// A future completing on SIGTERM or SIGINT; the handlers are installed when this returns.
fn shutdown_signal() -> Result<impl std::future::Future<Output = ()>, String> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate())
            .map_err(|e| format!("the SIGTERM handler could not be installed: {e}"))?;
        let mut int = signal(SignalKind::interrupt())
            .map_err(|e| format!("the SIGINT handler could not be installed: {e}"))?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

/// A warning when the token file can be read by users other than its owner.
#[cfg(unix)]
fn readable_by_others(path: &std::path::Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    (mode & 0o077 != 0).then(|| {
        format!(
            "the token file {} can be read by other users (mode {:o}); make it private with `chmod 600 {}`",
            path.display(),
            mode & 0o777,
            path.display()
        )
    })
}

#[cfg(not(unix))]
fn readable_by_others(_path: &std::path::Path) -> Option<String> {
    None
}
