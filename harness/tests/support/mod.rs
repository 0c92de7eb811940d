//! What the harness's integration tests share: where the project is, scratch space, the
//! remote executor's peers and the report tests' small matrix.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub mod remote;
pub mod report_fixture;

/// The project root (the workspace, which holds cases/, reference-worker/ and wrangler/).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the harness lives in the workspace")
        .to_path_buf()
}

/// A fresh, empty scratch directory, unique to this call (tests run in parallel threads).
pub fn scratch(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "codemode-compat-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Children of `pid`, from /proc.
pub fn children(pid: u32) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let rest = stat.rsplit_once(')')?.1;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            (fields.get(1)?.parse::<u32>().ok()? == pid)
                .then(|| entry.file_name().to_str()?.parse().ok())?
        })
        .collect()
}
