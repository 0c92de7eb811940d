//! `codemode-compat explore` on the command line: our side in process, the reference
//! columns started by [`super::command`], progress on stderr, the summary printed.

use std::path::Path;

use super::{Request, command, output};
use crate::error::Result;
use crate::sampling::{self, SampledColumns};

/// Runs `explore` as the command line asks and prints its summary and where the outputs
/// went. Progress goes to stderr: a counter on a terminal, a line every 100 programs
/// otherwise.
pub async fn run(root: &Path, request: Request, columns: SampledColumns, out: &Path) -> Result<()> {
    let (run, written) = sampling::in_process(
        columns,
        "programs",
        async |ours, refs, toolchain, progress| {
            command(root, request, ours, refs, toolchain, out, progress).await
        },
    )
    .await?;
    for line in output::printed(&run, &written.tally) {
        println!("{line}");
    }
    println!("catalogue: {}", written.catalogue.display());
    println!("summary: {}", written.summary.display());
    Ok(())
}
