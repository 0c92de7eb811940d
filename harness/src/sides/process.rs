//! Child processes the harness starts (`wrangler dev`, the executor daemon), each in a process
//! group of its own, and the guarantee that none outlives the harness: every group is
//! registered while it runs and stopped on a normal end, on an error, on a panic and on
//! SIGINT/SIGTERM (see [`install_exit_guards`]), and the kernel kills its leader if the harness
//! dies without any cleanup (`PR_SET_PDEATHSIG`).

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Process groups started by this process and not yet stopped.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Counts a supervised process's output lines that contain `needle`.
#[derive(Clone)]
pub struct LineCounter {
    /// The text a counted line contains.
    pub needle: &'static str,
    /// How many lines contained it so far.
    pub count: Arc<AtomicU64>,
}

/// How many of a process's last output lines are kept.
const TAIL_LINES: usize = 60;

/// A running child process leading a process group of its own, its output (stdout and
/// stderr, interleaved as read) kept as a tail of lines.
pub struct Supervised {
    child: Child,
    pgid: i32,
    output: Arc<Mutex<VecDeque<String>>>,
}

impl Supervised {
    /// Spawns `command` (stdin closed, stdout and stderr captured) as the leader of a new
    /// process group, registered for [`stop_all`], with the kernel told to SIGKILL it if the
    /// harness dies without cleaning up.
    pub fn spawn(command: Command) -> std::io::Result<Supervised> {
        Supervised::spawn_counting(command, None)
    }

    /// [`Supervised::spawn`], counting in `counter` the output lines that contain its needle
    /// (wrangler's line saying workerd crashed under it).
    pub fn spawn_counting(
        mut command: Command,
        counter: Option<LineCounter>,
    ) -> std::io::Result<Supervised> {
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        // SAFETY: prctl is async-signal-safe; it asks the kernel to kill the child if the
        // harness dies without running any cleanup (SIGKILL).
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = command.spawn()?;
        let pgid = child.id().map(|id| id as i32).unwrap_or(0);
        register(pgid);
        let output = Arc::new(Mutex::new(VecDeque::new()));
        for stream in [
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn tokio::io::AsyncRead + Send + Unpin>),
            child.stderr.take().map(|s| Box::new(s) as _),
        ]
        .into_iter()
        .flatten()
        {
            let output = output.clone();
            let counter = counter.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(stream).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(counter) = &counter
                        && line.contains(counter.needle)
                    {
                        counter.count.fetch_add(1, Ordering::SeqCst);
                    }
                    let mut buffer = output.lock().unwrap_or_else(|e| e.into_inner());
                    if buffer.len() == TAIL_LINES {
                        buffer.pop_front();
                    }
                    buffer.push_back(line);
                }
            });
        }
        Ok(Supervised {
            child,
            pgid,
            output,
        })
    }

    /// The last lines the process printed.
    pub fn output_tail(&self) -> String {
        let buffer = self.output.lock().unwrap_or_else(|e| e.into_inner());
        buffer.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// The first kept output line for which `pick` answers something.
    pub fn find_line<T>(&self, pick: impl Fn(&str) -> Option<T>) -> Option<T> {
        let buffer = self.output.lock().unwrap_or_else(|e| e.into_inner());
        buffer.iter().find_map(|line| pick(line))
    }

    /// `Some(status)` once the process has exited.
    pub fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            Ok(None) => None,
            Err(e) => Some(e.to_string()),
        }
    }

    /// The process group id.
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    /// Stops the whole process group: SIGTERM, then SIGKILL after five seconds.
    pub async fn stop(&mut self) {
        stop_group(self.pgid, Duration::from_secs(5));
        let _ = self.child.wait().await;
        unregister(self.pgid);
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        if group_alive(self.pgid) {
            stop_group(self.pgid, Duration::from_secs(5));
        }
        unregister(self.pgid);
    }
}

/// Ports the harness hands to the processes it starts: below the kernel's usual ephemeral range (32768 and
/// up), so the loopback ports other processes (and every wrangler's own five unpinned ones)
/// get from the kernel cannot take them between this check and wrangler's bind.
const PORTS: std::ops::Range<u16> = 20000..32000;

/// A port in [`PORTS`] that is free now, picked at random so that harness processes started
/// side by side do not try the same ones.
pub fn free_port() -> std::io::Result<u16> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let span = u64::from(PORTS.end - PORTS.start);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ (u64::from(std::process::id()) << 32);
    for attempt in 0..200u64 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed) + attempt;
        // A multiplicative hash of seed and counter spreads consecutive picks over the range.
        let mixed =
            (seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let port = PORTS.start + ((mixed >> 33) % span) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return Ok(port);
        }
    }
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

fn register(pgid: i32) {
    if pgid > 0 {
        GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(pgid);
    }
}

fn unregister(pgid: i32) {
    GROUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|g| *g != pgid);
}

/// Whether any live (non-zombie) process is still in the group.
pub fn group_alive(pgid: i32) -> bool {
    if pgid <= 0 {
        return false;
    }
    let Ok(entries) = std::fs::read_dir("/proc") else {
        // SAFETY: signal 0 only checks for existence.
        return unsafe { libc::kill(-pgid, 0) } == 0;
    };
    entries.flatten().any(|entry| {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            return false;
        };
        // Fields after the parenthesized command: state, ppid, pgrp, ...
        let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
            return false;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        fields.len() > 2 && fields[0] != "Z" && fields[2].parse() == Ok(pgid)
    })
}

/// SIGTERM to the group, then SIGKILL if anything in it is still alive after `grace`; what
/// the group used is added to the run's account first ([`crate::usage`]).
pub fn stop_group(pgid: i32, grace: Duration) {
    if pgid <= 0 {
        return;
    }
    crate::usage::record_group(pgid);
    // SAFETY: signalling our own process group, created by `process_group(0)`.
    unsafe { libc::kill(-pgid, libc::SIGTERM) };
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if !group_alive(pgid) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: as above.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
}

/// Stops every registered group. Used on panics and signals.
pub fn stop_all() {
    let groups: Vec<i32> = GROUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .drain(..)
        .collect();
    for pgid in &groups {
        // SAFETY: as in `stop_group`.
        unsafe { libc::kill(-*pgid, libc::SIGTERM) };
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline && groups.iter().any(|g| group_alive(*g)) {
        std::thread::sleep(Duration::from_millis(50));
    }
    for pgid in &groups {
        // SAFETY: as in `stop_group`.
        unsafe { libc::kill(-*pgid, libc::SIGKILL) };
    }
}

/// Makes a SIGINT/SIGTERM (and, with `on_panic`, a panic) stop every registered group before
/// the process ends. Call once, inside a tokio runtime. Test runners that catch panics per
/// test pass `on_panic: false`, so one failing test does not stop the reference for the rest.
pub fn install_exit_guards(on_panic: bool) {
    if on_panic {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            stop_all();
            previous(info);
        }));
    }
    tokio::spawn(async {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut int), Ok(mut term)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) else {
            return;
        };
        let code = tokio::select! {
            _ = int.recv() => 130,
            _ = term.recv() => 143,
        };
        eprintln!("\ninterrupted: stopping the processes the harness started");
        stop_all();
        std::process::exit(code);
    });
}
