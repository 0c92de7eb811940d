//! The server's metrics, for a Prometheus scrape: what [`ServerStats`] counts and how long
//! runs took, registered into a `prometheus-client` [`Registry`] that encodes them in the
//! Prometheus (OpenMetrics) text format.
//!
//! Every name has the registry's prefix (the daemon's is `codemode_executor`); counters end in
//! `_total`. The counts are read from [`ServerStats`] when the registry is built (one scrape),
//! so the metrics and the stats never disagree; the duration histogram lives with the server.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::stats::ServerStats;

/// How long runs took, from being handed to the executor to its answer.
pub(super) fn run_durations() -> Histogram {
    // 100 µs to about 52 s, doubling.
    Histogram::new(exponential_buckets(0.0001, 2.0, 20))
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabel {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabel {
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PhaseLabel {
    phase: &'static str,
}

/// A counter family holding `counts`, one series per label value.
fn family<
    L: EncodeLabelSet + Clone + std::hash::Hash + Eq + std::fmt::Debug + Send + Sync + 'static,
>(
    counts: impl IntoIterator<Item = (L, u64)>,
) -> Family<L, Counter> {
    let family = Family::<L, Counter>::default();
    for (label, count) in counts {
        family.get_or_create(&label).inc_by(count);
    }
    family
}

fn counter(count: u64) -> Counter {
    let counter = Counter::default();
    counter.inc_by(count);
    counter
}

fn gauge(value: usize) -> Gauge {
    let gauge = Gauge::default();
    gauge.set(i64::try_from(value).unwrap_or(i64::MAX));
    gauge
}

/// Registers the server's metrics, as `stats` counts them and `durations` measured them.
pub(super) fn register(registry: &mut Registry, stats: &ServerStats, durations: &Histogram) {
    let s = stats;
    registry.register(
        "connections_open",
        "Connections being served now",
        gauge(s.connections_open),
    );
    registry.register(
        "connections_accepted",
        "Connections whose WebSocket upgrade succeeded",
        counter(s.connections_accepted),
    );
    registry.register(
        "refusals",
        "Connections and executions refused, by reason",
        family([
            (
                ReasonLabel {
                    reason: "unauthorized",
                },
                s.connections_refused_unauthorized,
            ),
            (
                ReasonLabel {
                    reason: "max_connections",
                },
                s.connections_refused_over_capacity,
            ),
            (
                ReasonLabel {
                    reason: "failed_handshake",
                },
                s.connections_failed_handshake,
            ),
            (
                ReasonLabel {
                    reason: "max_concurrent",
                },
                s.executions_refused_connection_bound,
            ),
            (
                ReasonLabel {
                    reason: "max_queued",
                },
                s.executions_refused_queue_bound,
            ),
            (
                ReasonLabel {
                    reason: "shutting_down",
                },
                s.executions_refused_shutting_down,
            ),
        ]),
    );
    registry.register(
        "executions_running",
        "Executions the executor's workers run now",
        gauge(s.executions_running),
    );
    registry.register(
        "executions_queued",
        "Executions waiting for a worker now",
        gauge(s.executions_queued),
    );
    registry.register(
        "executions",
        "Executions answered, by outcome (returned, threw, timed_out, out_of_memory, or error: refused by the executor, such as a syntax error)",
        family([
            (OutcomeLabel { outcome: "returned" }, s.executions_returned),
            (OutcomeLabel { outcome: "threw" }, s.executions_threw),
            (OutcomeLabel { outcome: "timed_out" }, s.executions_timed_out),
            (OutcomeLabel { outcome: "out_of_memory" }, s.executions_out_of_memory),
            (OutcomeLabel { outcome: "error" }, s.executions_failed),
        ]),
    );
    registry.register(
        "executions_cancelled",
        "Executions cancelled because their connection ended, by where they were",
        family([
            (
                PhaseLabel { phase: "queued" },
                s.executions_cancelled_queued,
            ),
            (
                PhaseLabel { phase: "running" },
                s.executions_cancelled_running,
            ),
        ]),
    );
    registry.register(
        "tool_calls",
        "Tool calls the daemon's runs made to their hosts",
        counter(s.tool_calls),
    );
    registry.register(
        "execution_duration_seconds",
        "How long answered executions ran, from being handed to the executor to their answer",
        durations.clone(),
    );
}
