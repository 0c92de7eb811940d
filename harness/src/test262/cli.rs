//! `codemode-compat test262` on the command line: the request checked before any column is
//! set up, our side in process, the reference columns started by [`super::command`],
//! progress on stderr, the summary printed (the message mode's, with `--messages`).

use std::path::{Path, PathBuf};

use super::select::{self, Filter, Sample};
use super::{Request, command, messages_command};
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
        messages: false,
        recorded: None,
    })
}

impl Request {
    /// The same request in the message mode, with the reference columns read from an
    /// earlier message-mode run's `messages.json` when `recorded` names one.
    pub fn for_messages(mut self, recorded: Option<&Path>) -> Result<Request> {
        self.messages = true;
        self.command_line.push_str(" --messages");
        if let Some(file) = recorded {
            self.command_line
                .push_str(&format!(" --recorded {}", file.display()));
            self.recorded = Some(super::messages::read_recording(file)?);
        }
        Ok(self)
    }
}

/// Runs `test262` as the command line asks and prints the summary and where the outputs
/// went. Progress goes to stderr: a counter on a terminal, a line every 100 tests otherwise.
pub async fn run(root: &Path, request: Request, columns: SampledColumns, out: &Path) -> Result<()> {
    if request.messages {
        let report =
            sampling::in_process(columns, "tests", async |ours, refs, toolchain, progress| {
                messages_command(root, request, ours, refs, toolchain, out, progress).await
            })
            .await?;
        print!("{}", report.text());
        for file in ["messages.json", "messages.yaml", "messages.txt"] {
            println!("{}", out.join(file).display());
        }
        return Ok(());
    }
    let report = sampling::in_process(columns, "tests", async |ours, refs, toolchain, progress| {
        command(root, request, ours, refs, toolchain, out, progress).await
    })
    .await?;
    print!("{}", report.text());
    println!("\nJSON: {}", out.join("test262.json").display());
    println!("text: {}", out.join("test262.txt").display());
    Ok(())
}
