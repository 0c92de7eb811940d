//! What the harness's benches share beyond `bench-support`: starting against the reference.
//! Each bench gets the runtime every bench runs on with the harness's exit guards (an
//! interrupted bench stops the processes it started), the bench catalogue in a scratch
//! directory, and the newest reference column under `wrangler dev`. A module of the harness's
//! benches, not of `bench-support`, because it needs the harness's own crate.

use std::path::{Path, PathBuf};

use codemode_compat::catalogue::{Catalogue, load_dirs};
use codemode_compat::sides::reference::{
    ReferenceSide, discover, ensure_installed, install_exit_guards,
};

/// The project root (the workspace, which holds `wrangler/` and `reference-worker/`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The runtime the bench runs on, with the exit guards installed on it.
pub fn runtime() -> tokio::runtime::Runtime {
    let runtime = bench_support::runtime();
    runtime.block_on(async { install_exit_guards(false) });
    runtime
}

/// The bench catalogue, written to a scratch directory named after `name` (returned, for the
/// caller to remove) and loaded by the harness's loader.
pub fn catalogue(name: &str) -> (PathBuf, Catalogue) {
    let scratch = bench_support::scratch_catalogue(name);
    let catalogue = load_dirs(std::slice::from_ref(&scratch)).expect("the bench catalogue loads");
    (scratch, catalogue)
}

/// The newest reference column, started under `wrangler dev` with its state in `state`
/// (the toolchain installed first if needed).
pub fn newest_reference(runtime: &tokio::runtime::Runtime, state: &Path) -> ReferenceSide {
    let toolchain = ensure_installed(&root()).expect("the reference toolchain");
    let column = discover(&toolchain)
        .expect("reference columns")
        .into_iter()
        .max_by_key(|column| column.version())
        .expect("at least one reference column");
    runtime
        .block_on(ReferenceSide::start(&toolchain, column, state, 1))
        .expect("the reference column starts")
}
