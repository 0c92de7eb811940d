//! `codemode-compat wpt` on the command line: the request checked before any column is set
//! up, our side in process, the reference columns started by [`super::command`], progress on
//! stderr, the summary printed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode_executor::isolate::IsolateExecutor;

use super::suite::{FILES, WptFile};
use super::{Request, command};
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::sides::ours::OursSide;
use crate::sides::reference::{ReferenceColumn, Toolchain};

/// The request: the checkout must be a directory, and each `--file` must name (part of the
/// path of) a file the command knows.
pub fn request(
    dir: PathBuf,
    file_filters: &[String],
    concurrency: usize,
    columns: &[String],
) -> Result<Request> {
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{} is not a directory; wpt needs the root of a web-platform-tests checkout",
            dir.display()
        )));
    }
    let mut files: Vec<WptFile> = Vec::new();
    for filter in file_filters {
        let matched: Vec<&WptFile> = FILES
            .iter()
            .filter(|f| f.path.contains(filter.as_str()))
            .collect();
        if matched.is_empty() {
            let known: Vec<&str> = FILES.iter().map(|f| f.path).collect();
            return Err(Error::Usage(format!(
                "--file {filter:?} names none of the files wpt runs ({})",
                known.join(", ")
            )));
        }
        for file in matched {
            if !files.iter().any(|f| f.path == file.path) {
                files.push(*file);
            }
        }
    }
    if files.is_empty() {
        files = FILES.to_vec();
    }
    // Report order is the command's own, whatever order the filters came in.
    files.sort_by_key(|f| FILES.iter().position(|k| k.path == f.path));
    let mut command_line = format!("codemode-compat wpt --dir {}", dir.display());
    for filter in file_filters {
        command_line.push_str(&format!(" --file {filter}"));
    }
    command_line.push_str(&format!(" --columns {}", columns.join(",")));
    Ok(Request {
        dir,
        files,
        concurrency,
        command_line,
    })
}

/// Runs `wpt` as the command line asks and prints the summary and where the outputs went.
pub async fn run(
    root: &Path,
    request: Request,
    ours_column: bool,
    references: Vec<ReferenceColumn>,
    toolchain: Option<Toolchain>,
    out: &Path,
) -> Result<()> {
    let ours = ours_column.then(|| Arc::new(OursSide::new(IsolateExecutor::default())));
    let progress = Progress::on_stderr("entries");
    let outcome = command(
        root,
        request,
        ours.clone(),
        references,
        toolchain.as_ref(),
        out,
        &|done, total| progress.report(done, total),
    )
    .await;
    progress.finish();
    if let Some(ours) = ours {
        ours.dispose().await;
    }
    let report = outcome?;
    print!("{}", report.text());
    println!("\nJSON: {}", out.join("wpt.json").display());
    println!("text: {}", out.join("wpt.txt").display());
    println!(
        "candidate cases: {}",
        out.join("wpt-candidates.yaml").display()
    );
    Ok(())
}
