//! The command line's commands, one module each; `main.rs` only parses and dispatches.
//! `columns` resolves and starts the columns the commands share.

pub mod columns;
pub mod eval;
pub mod explore;
pub mod matrix;
pub mod releases;
pub mod serve;
pub mod test262;
pub mod wpt;

use std::path::{Path, PathBuf};

use codemode_compat::{Error, Result};

/// `path`, relative to here when it is not absolute.
pub fn absolute(path: PathBuf) -> Result<PathBuf> {
    if path.is_absolute() {
        return Ok(path);
    }
    Ok(std::env::current_dir()
        .map_err(|e| Error::io(".", e))?
        .join(path))
}

/// The project root: the nearest directory upwards from here that holds `reference-worker/`.
pub fn find_root() -> Result<PathBuf> {
    let here = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    here.ancestors()
        .find(|dir| dir.join("reference-worker").is_dir())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            Error::Usage(
                "no reference-worker/ here or above; run from the project, or pass --root".into(),
            )
        })
}
