//! `codemode-compat explore` on the command line: our side in process, the reference
//! columns started by [`super::command`], progress on stderr, the summary printed.

use std::path::Path;
use std::sync::Arc;

use codemode_executor::isolate::IsolateExecutor;

use super::{Request, command, output};
use crate::error::Result;
use crate::progress::Progress;
use crate::sides::ours::OursSide;
use crate::sides::reference::{ReferenceColumn, Toolchain};

/// Runs `explore` as the command line asks and prints its summary and where the outputs
/// went. Progress goes to stderr: a counter on a terminal, a line every 100 programs
/// otherwise.
pub async fn run(
    root: &Path,
    request: Request,
    ours_column: bool,
    references: Vec<ReferenceColumn>,
    toolchain: Option<Toolchain>,
    out: &Path,
) -> Result<()> {
    let ours = ours_column.then(|| Arc::new(OursSide::new(IsolateExecutor::default())));
    let progress = Progress::on_stderr("programs");
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
    let (run, written) = outcome?;
    for line in output::printed(&run, &written.tally) {
        println!("{line}");
    }
    println!("catalogue: {}", written.catalogue.display());
    println!("summary: {}", written.summary.display());
    Ok(())
}
