//! How many reference columns may run at once: each `wrangler dev` (node, its esbuild service
//! and two workerd) takes about 450 MB once it has served a few cases (measured with
//! four at once: `MemAvailable` fell by 380 to 450 MB per process), so the number that fit is
//! what the machine has available, less a reserve for ours and the rest, divided by that.

/// What one running column is budgeted at.
pub const COLUMN_BYTES: u64 = 450 * 1024 * 1024;

/// Kept free for our own executor, the harness and everything else on the machine.
pub const RESERVE_BYTES: u64 = 1024 * 1024 * 1024;

/// How many columns fit in `available` bytes: at least one, so a run always makes progress.
pub fn columns_that_fit(available: u64) -> usize {
    (available.saturating_sub(RESERVE_BYTES) / COLUMN_BYTES).max(1) as usize
}

/// `MemAvailable` from `/proc/meminfo`, in bytes; `None` where there is no such file.
pub fn mem_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// How many of `columns` to run at once: `requested` when given (never more than there are
/// columns), otherwise as many as the memory budget allows. Where the available memory cannot
/// be read, every column runs at once.
pub fn column_concurrency(requested: Option<usize>, columns: usize) -> usize {
    let limit = match requested {
        Some(n) => n,
        None => mem_available().map_or(columns, columns_that_fit),
    };
    limit.clamp(1, columns.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_divides_what_is_left_after_the_reserve() {
        let gib = 1024 * 1024 * 1024;
        assert_eq!(columns_that_fit(0), 1);
        assert_eq!(columns_that_fit(gib), 1);
        assert_eq!(columns_that_fit(gib + 2 * COLUMN_BYTES), 2);
        assert_eq!(columns_that_fit(20 * gib), 43);
    }

    #[test]
    fn meminfo_is_read_in_kib() {
        let text = "MemTotal:       24000000 kB\nMemFree:  1 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(parse_mem_available(text), Some(2048 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn requested_concurrency_is_clamped_to_the_columns() {
        assert_eq!(column_concurrency(Some(1), 6), 1);
        assert_eq!(column_concurrency(Some(10), 6), 6);
        assert_eq!(column_concurrency(Some(0), 6), 1);
        assert!(column_concurrency(None, 6) >= 1);
    }
}
