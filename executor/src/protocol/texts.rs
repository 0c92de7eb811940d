//! The texts the native side and the dialect share. Each is contract: hosts parse them.

/// The text for a call to a tool (or a provider) the host does not have.
pub fn tool_not_found(tool: &str) -> String {
    format!("Tool \"{tool}\" not found")
}

/// The phrase every timeout text opens with, and the whole text the dialect reports.
pub const TIMEOUT_MESSAGE: &str = "Execution timed out";

/// The native timeout text: it opens with [`TIMEOUT_MESSAGE`], names the bound, and says
/// what remains possible. The dialect renders it back down to [`TIMEOUT_MESSAGE`].
pub fn timeout_text(bound_ms: u64) -> String {
    format!(
        "{TIMEOUT_MESSAGE} at its {bound_ms} ms bound. Do less work per run and return the part that is already finished."
    )
}

/// The text a tool call receives when it settles, or arrives, after its run has completed.
/// It is the reference's own wording (`LATE_CALL_MESSAGE` from 0.5.5 on).
pub const LATE_CALL_MESSAGE: &str = "The code execution finished before this tool call settled. Await every tool call before returning.";

/// The text a run reports when it exhausts its memory limit.
pub fn out_of_memory_text(limit_bytes: usize) -> String {
    format!(
        "Execution ran out of memory at its {} MiB limit. Hold less data at once.",
        limit_bytes / (1024 * 1024)
    )
}
