//! What the two sampling commands, `explore` and `test262`, share on the command line: the
//! options that choose what runs and where ([`SamplingOptions`]), the columns the command line
//! resolved them to ([`SampledColumns`]), and our side in process with progress on stderr
//! around the command ([`in_process`]).

use std::sync::Arc;

use codemode_executor::isolate::IsolateExecutor;

use crate::error::Result;
use crate::progress::Progress;
use crate::sides::ours::OursSide;
use crate::sides::reference::{ReferenceColumn, Toolchain};

/// The options `explore` and `test262` take alike (flattened into each command's own).
#[derive(clap::Args, Clone, Debug)]
pub struct SamplingOptions {
    /// The sampling seed: the same seed runs the same programs (or tests).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Columns, as for matrix; the first reference column decides what is expected (what
    /// passes).
    #[arg(long, value_delimiter = ',', default_value = "ours,reference@latest")]
    pub columns: Vec<String>,
    /// How many programs (tests) run at once.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
}

/// The columns a sampling command runs on, as the command line resolved them.
pub struct SampledColumns {
    /// Whether our side runs (in process).
    pub ours: bool,
    /// The local reference columns to start.
    pub references: Vec<ReferenceColumn>,
    /// The reference toolchain, when any reference column runs.
    pub toolchain: Option<Toolchain>,
}

/// Our side in process when `columns` asks for it, progress on stderr counted in `noun` (a
/// counter on a terminal, a line every 100 otherwise), and `command` run with both and the
/// reference columns; our side is disposed of and the progress line finished whatever the
/// command answers.
pub async fn in_process<T>(
    columns: SampledColumns,
    noun: &'static str,
    command: impl AsyncFnOnce(
        Option<Arc<OursSide<IsolateExecutor>>>,
        Vec<ReferenceColumn>,
        Option<&Toolchain>,
        &(dyn Fn(usize, usize) + Sync),
    ) -> Result<T>,
) -> Result<T> {
    let SampledColumns {
        ours,
        references,
        toolchain,
    } = columns;
    let ours = ours.then(|| Arc::new(OursSide::new(IsolateExecutor::default())));
    let progress = Progress::on_stderr(noun);
    let outcome = command(
        ours.clone(),
        references,
        toolchain.as_ref(),
        &|done, total| progress.report(done, total),
    )
    .await;
    progress.finish();
    if let Some(ours) = ours {
        ours.dispose().await;
    }
    outcome
}
