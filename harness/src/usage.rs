//! What a run cost the machine, by process: CPU seconds and peak resident memory of the
//! harness itself and of every process it started (`wrangler dev`'s node, its workerd, the
//! executor daemon), for the closing `cpu:` line of `matrix`.
//!
//! A process group the harness started is read from `/proc` just before it is stopped (see
//! [`record_group`]): each of its processes' CPU time (its own, and that of the children it
//! already waited for, such as a workerd that crashed and was replaced) and its resident
//! high-water mark (`VmHWM`), added up by process name. The harness's own figures are its
//! `getrusage(RUSAGE_SELF)`, read when the line is made.

use std::sync::Mutex;

use indexmap::IndexMap;

/// Processes of one name: how many, their CPU seconds in all, the largest peak of one.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Usage {
    /// How many processes of this name were stopped.
    pub processes: usize,
    /// Their user and system CPU time, added up, in seconds.
    pub cpu_seconds: f64,
    /// The largest resident high-water mark of one of them, in KiB.
    pub peak_kib: u64,
}

/// Name → usage of the process groups stopped so far.
static STOPPED: Mutex<Option<IndexMap<String, Usage>>> = Mutex::new(None);

/// Adds what the processes of group `pgid` used so far to the run's account. Called just
/// before the group is stopped, while every process in it can still be read.
pub fn record_group(pgid: i32) {
    let found = group_usage(pgid);
    let mut stopped = STOPPED.lock().unwrap_or_else(|e| e.into_inner());
    let table = stopped.get_or_insert_with(IndexMap::new);
    for (name, usage) in found {
        let entry = table.entry(name).or_default();
        entry.processes += usage.processes;
        entry.cpu_seconds += usage.cpu_seconds;
        entry.peak_kib = entry.peak_kib.max(usage.peak_kib);
    }
}

/// Every process group stopped so far, by process name, in the order first met.
pub fn stopped() -> IndexMap<String, Usage> {
    STOPPED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_default()
}

/// How many malloc arenas the harness's allocator keeps ([`bound_malloc_arenas`]).
pub const MALLOC_ARENAS: i32 = 2;

/// Bounds glibc's malloc to [`MALLOC_ARENAS`] arenas. By default it gives each thread that
/// allocates while another holds an arena one of its own, up to eight per core, and each
/// keeps what was freed in it: the harness's threads (the runtime's, our executor's pool,
/// the blocking pool) then hold free memory many times over. `matrix --columns ours,remote`
/// peaks at 240 MiB with the default and 197 MiB with two arenas, in about the same CPU
/// time (4.4 and 4.7 s; `docs/performance.md`). Call first thing in `main`, before any thread starts.
pub fn bound_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; it is called before any other thread
    // exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
    }
}

/// This process's own usage: CPU seconds (user and system) and peak resident memory.
pub fn own() -> Usage {
    // SAFETY: getrusage writes into the zeroed struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Usage {
        processes: 1,
        cpu_seconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        peak_kib: usage.ru_maxrss as u64,
    }
}

/// The closing line: `cpu: harness 31.2 s (peak 180 MiB) · workerd 58.1 s in 6 (peak 240 MiB)
/// · node 14.0 s in 6 (peak 150 MiB) · all 103.3 s`.
pub fn line(own: Usage, stopped: &IndexMap<String, Usage>) -> String {
    let mut parts = vec![format!(
        "harness {:.1} s (peak {} MiB)",
        own.cpu_seconds,
        own.peak_kib / 1024
    )];
    let mut total = own.cpu_seconds;
    for (name, usage) in stopped {
        total += usage.cpu_seconds;
        parts.push(format!(
            "{name} {:.1} s in {} (peak {} MiB)",
            usage.cpu_seconds,
            usage.processes,
            usage.peak_kib / 1024
        ));
    }
    parts.push(format!("all {total:.1} s"));
    format!("cpu: {}", parts.join(" · "))
}

/// The usage of every live process in group `pgid`, by name. The executor daemon the harness
/// serves itself is named `codemode-compat serve`, apart from the harness.
fn group_usage(pgid: i32) -> IndexMap<String, Usage> {
    let mut found: IndexMap<String, Usage> = IndexMap::new();
    if pgid <= 0 {
        return found;
    }
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    for entry in entries.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some(process) = parse_stat(&stat, ticks) else {
            continue;
        };
        if process.pgrp != pgid {
            continue;
        }
        let peak_kib = std::fs::read_to_string(entry.path().join("status"))
            .ok()
            .and_then(|status| high_water_mark(&status))
            .unwrap_or(0);
        let serves = std::fs::read(entry.path().join("cmdline"))
            .map(|line| line.split(|b| *b == 0).any(|arg| arg == b"serve"))
            .unwrap_or(false);
        let name = if serves && process.name.starts_with("codemode") {
            format!("{} serve", process.name)
        } else {
            process.name
        };
        let usage = found.entry(name).or_default();
        usage.processes += 1;
        usage.cpu_seconds += process.cpu_seconds;
        usage.peak_kib = usage.peak_kib.max(peak_kib);
    }
    found
}

/// What `/proc/<pid>/stat` says of a process.
#[derive(Debug, PartialEq)]
struct Stat {
    name: String,
    pgrp: i32,
    /// utime + stime + cutime + cstime, in seconds.
    cpu_seconds: f64,
}

fn parse_stat(stat: &str, ticks: f64) -> Option<Stat> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?.to_string();
    // After the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
    // cmajflt utime stime cutime cstime ...
    let fields: Vec<&str> = stat.get(close + 1..)?.split_whitespace().collect();
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    if fields.first() == Some(&"Z") {
        return None;
    }
    let cpu = number(11)? + number(12)? + number(13)? + number(14)?;
    Some(Stat {
        name,
        pgrp: fields.get(2)?.parse().ok()?,
        cpu_seconds: cpu / ticks,
    })
}

fn high_water_mark(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_name_group_and_cpu_including_waited_children() {
        let stat = "4242 (workerd (x)) S 4200 4200 4200 0 -1 4194560 100 0 0 0 250 50 30 20 20 0 12 0 1 2 3";
        assert_eq!(
            parse_stat(stat, 100.0),
            Some(Stat {
                name: "workerd (x)".into(),
                pgrp: 4200,
                cpu_seconds: 3.5,
            })
        );
        assert_eq!(
            parse_stat("1 (z) Z 0 1 1 0 -1 0 0 0 0 0 1 1 0 0", 100.0),
            None
        );
        assert_eq!(parse_stat("garbage", 100.0), None);
    }

    #[test]
    fn the_high_water_mark_is_read_in_kib() {
        let status = "Name:\tnode\nVmPeak:\t  900 kB\nVmHWM:\t  123456 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(high_water_mark(status), Some(123_456));
        assert_eq!(high_water_mark("Name:\tx\n"), None);
    }

    #[test]
    fn the_line_adds_every_process_name_up() {
        let mut stopped = IndexMap::new();
        stopped.insert(
            "workerd".to_string(),
            Usage {
                processes: 2,
                cpu_seconds: 10.0,
                peak_kib: 300 * 1024,
            },
        );
        let own = Usage {
            processes: 1,
            cpu_seconds: 5.25,
            peak_kib: 100 * 1024,
        };
        assert_eq!(
            line(own, &stopped),
            "cpu: harness 5.2 s (peak 100 MiB) · workerd 10.0 s in 2 (peak 300 MiB) · all 15.2 s"
        );
    }

    #[test]
    fn our_own_process_is_read() {
        let own = own();
        assert!(own.peak_kib > 0);
        assert!(own.cpu_seconds >= 0.0);
    }
}
