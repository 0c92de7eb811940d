//! `codemode-compat test262` on the command line: the request checked before any column is
//! set up, our side in process, the reference columns started by [`super::command`],
//! progress on stderr, the summary printed.

use std::path::{Path, PathBuf};

use super::select::{self, Filter, Sample};
use super::{Request, command};
use crate::error::Result;
use crate::sampling::{self, SampledColumns};

/// The request, with the suite's directory and every filter checked.
pub fn request(
    dir: PathBuf,
    filters: &[String],
    sample: Option<usize>,
    seed: u64,
    concurrency: usize,
    columns: &[String],
) -> Result<Request> {
    select::suite(&dir)?;
    let filters = filters
        .iter()
        .map(|f| Filter::new(f))
        .collect::<Result<Vec<_>>>()?;
    let mut command_line = format!("codemode-compat test262 --dir {}", dir.display());
    for filter in &filters {
        command_line.push_str(&format!(" --filter '{}'", filter.glob));
    }
    if let Some(n) = sample {
        command_line.push_str(&format!(" --sample {n} --seed {seed}"));
    }
    command_line.push_str(&format!(" --columns {}", columns.join(",")));
    Ok(Request {
        dir,
        filters,
        sample: sample.map(|per_filter| Sample { per_filter, seed }),
        concurrency,
        command_line,
    })
}

/// Runs `test262` as the command line asks and prints the summary and where the outputs
/// went. Progress goes to stderr: a counter on a terminal, a line every 100 tests otherwise.
pub async fn run(root: &Path, request: Request, columns: SampledColumns, out: &Path) -> Result<()> {
    let report = sampling::in_process(columns, "tests", async |ours, refs, toolchain, progress| {
        command(root, request, ours, refs, toolchain, out, progress).await
    })
    .await?;
    print!("{}", report.text());
    println!("\nJSON: {}", out.join("test262.json").display());
    println!("text: {}", out.join("test262.txt").display());
    Ok(())
}
