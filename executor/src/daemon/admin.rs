//! The daemon's admin endpoint (`--admin-listen`), plain HTTP/1.1 on an address of its own:
//! - `GET /healthz`: `200 ok` while the process serves;
//! - `GET /readyz`: `200 ready`, or `503` with the reason while the daemon drains (after
//!   SIGTERM) or is saturated (a new connection or run would be refused:
//!   [`ExecutorServer::readiness`]);
//! - `GET /metrics`: the server's metrics ([`ExecutorServer::register_metrics`]), the worker
//!   pool's occupancy and the process's resident memory, in the Prometheus (OpenMetrics) text
//!   format.
//!
//! Anything else is `404` (an unknown path) or `405` (another method), with a sentence.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::CONTENT_TYPE;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::isolate::IsolateExecutor;
use crate::remote::ExecutorServer;

/// What the endpoint reports on.
pub struct Admin {
    pub(super) server: Arc<ExecutorServer>,
    pub(super) executor: Arc<IsolateExecutor>,
}

/// The content type of the OpenMetrics text format `prometheus-client` encodes.
const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

impl Admin {
    /// Serves on `listener` until `stop` turns true.
    pub async fn serve(self: Arc<Self>, listener: TcpListener, mut stop: watch::Receiver<bool>) {
        loop {
            tokio::select! {
                _ = stop.wait_for(|stop| *stop) => return,
                accepted = listener.accept() => {
                    let Ok((stream, _)) = accepted else { continue };
                    let admin = self.clone();
                    tokio::spawn(async move {
                        let service = service_fn(move |request: Request<Incoming>| {
                            let answer = admin.answer(&request);
                            async move { Ok::<_, Infallible>(answer) }
                        });
                        let _ = http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
            }
        }
    }

    fn answer(&self, request: &Request<Incoming>) -> Response<Full<Bytes>> {
        let path = request.uri().path();
        if !matches!(path, "/healthz" | "/readyz" | "/metrics") {
            return text(
                StatusCode::NOT_FOUND,
                format!(
                    "The admin endpoint has no path {path}; it serves /healthz, /readyz and /metrics.\n"
                ),
            );
        }
        if request.method() != Method::GET {
            return text(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{path} answers GET only, not {}.\n", request.method()),
            );
        }
        match path {
            "/healthz" => text(StatusCode::OK, "ok\n".into()),
            "/readyz" => match self.server.readiness() {
                Ok(()) => text(StatusCode::OK, "ready\n".into()),
                Err(reason) => text(StatusCode::SERVICE_UNAVAILABLE, format!("{reason}\n")),
            },
            _ => match self.metrics() {
                Ok(body) => {
                    let mut response = Response::new(Full::new(Bytes::from(body)));
                    response
                        .headers_mut()
                        .insert(CONTENT_TYPE, OPENMETRICS.parse().expect("a header value"));
                    response
                }
                Err(error) => text(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("The metrics could not be encoded: {error}.\n"),
                ),
            },
        }
    }

    /// One scrape, encoded.
    fn metrics(&self) -> Result<String, std::fmt::Error> {
        let mut registry = Registry::with_prefix("codemode_executor");
        self.server.register_metrics(&mut registry);
        let occupancy = self.executor.occupancy();
        registry.register(
            "pool_workers",
            "Worker threads of the isolate pool",
            gauge(occupancy.workers as i64),
        );
        registry.register(
            "pool_busy_workers",
            "Workers running an execution now",
            gauge(occupancy.running as i64),
        );
        registry.register(
            "pool_queued",
            "Executions in the pool's queue now",
            gauge(occupancy.queued as i64),
        );
        if let Some(bytes) = resident_bytes() {
            registry.register(
                "resident_memory_bytes",
                "The process's resident memory",
                gauge(bytes),
            );
        }
        let mut body = String::new();
        prometheus_client::encoding::text::encode(&mut body, &registry)?;
        Ok(body)
    }
}

fn gauge(value: i64) -> Gauge {
    let gauge = Gauge::default();
    gauge.set(value);
    gauge
}

fn text(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        "text/plain; charset=utf-8".parse().expect("a header value"),
    );
    response
}

/// The process's resident memory, from `/proc/self/statm` (Linux); `None` elsewhere.
fn resident_bytes() -> Option<i64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: i64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    #[cfg(unix)]
    // SAFETY: sysconf reads a constant of the system and has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    #[cfg(not(unix))]
    let page = 4096;
    Some(pages * page as i64)
}
