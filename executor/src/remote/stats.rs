//! What a daemon counts: [`ServerStats`], the figures the server keeps and the metrics
//! endpoint reads (the server fills it; the metrics only read it, so neither imports the other).

/// What an [`ExecutorServer`](super::ExecutorServer) holds now and has done since it was made
/// ([`ExecutorServer::stats`](super::ExecutorServer::stats)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerStats {
    /// Connections being served (upgrades in progress included).
    pub connections_open: usize,
    /// Connections whose upgrade succeeded.
    pub connections_accepted: u64,
    /// Upgrades answered HTTP 401 (no token, or the wrong one).
    pub connections_refused_unauthorized: u64,
    /// Upgrades answered HTTP 503 (past `max_connections`).
    pub connections_refused_over_capacity: u64,
    /// Connections that never completed a WebSocket upgrade (not HTTP, not an upgrade, too
    /// slow).
    pub connections_failed_handshake: u64,
    /// Executions running now: those in flight, up to
    /// [`ServerOptions::max_running_executions`](super::ServerOptions::max_running_executions).
    pub executions_running: usize,
    /// Executions waiting for a worker now: those in flight past
    /// [`ServerOptions::max_running_executions`](super::ServerOptions::max_running_executions).
    pub executions_queued: usize,
    /// Executions that answered (an outcome, or an executor error such as a syntax error).
    pub executions_answered: u64,
    /// Of those answered: the program returned.
    pub executions_returned: u64,
    /// Of those answered: the program threw (or its promise rejected).
    pub executions_threw: u64,
    /// Of those answered: the run exceeded its time bound.
    pub executions_timed_out: u64,
    /// Of those answered: the run exceeded its memory limit.
    pub executions_out_of_memory: u64,
    /// Of those answered: the executor refused the request (a syntax error, a bad argument).
    pub executions_failed: u64,
    /// Tool calls the runs made to their hosts.
    pub tool_calls: u64,
    /// Executions whose connection ended before they ran: dropped from the queue.
    pub executions_cancelled_queued: u64,
    /// Executions whose connection ended while they ran: interrupted.
    pub executions_cancelled_running: u64,
    /// Executions refused: the connection already had `max_concurrent_executions` in flight.
    pub executions_refused_connection_bound: u64,
    /// Executions refused: the daemon already queued `max_queued_executions`.
    pub executions_refused_queue_bound: u64,
    /// Executions refused: the daemon was shutting down.
    pub executions_refused_shutting_down: u64,
}

impl ServerStats {
    /// Executions cancelled, queued and running.
    pub fn executions_cancelled(&self) -> u64 {
        self.executions_cancelled_queued + self.executions_cancelled_running
    }

    /// Executions refused, for any reason.
    pub fn executions_refused(&self) -> u64 {
        self.executions_refused_connection_bound
            + self.executions_refused_queue_bound
            + self.executions_refused_shutting_down
    }
}
