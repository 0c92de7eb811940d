//! `explore`: the differential explorer. Expands a generator (programs as data) with a seed,
//! runs every program on the columns through the matrix's own sides and normalizer, and
//! writes every disagreement as a ready-to-review case (`expect` = the deciding column's
//! outcome) into an output catalogue, grouped by the shape of the difference, with a summary.
//!
//! The pieces, one concept each: [`generator`] (the data format, loaded and checked),
//! [`expand`] (seeded sampling into programs), [`run`] (running on the columns), [`shape`] and
//! [`tally`] (judging and grouping differences), [`output`] (the catalogue and the summary),
//! [`cli`] (the command line's set-up and printing).
//!
//! Guarantees: the same generator, count and seed run the same programs in the same order
//! and group their differences the same way; a side that cannot run a program costs that
//! program only; every reference column started is stopped before the command returns (and
//! by the harness's exit guards on a signal or panic); the written catalogue loads with the
//! catalogue loader, each `expect` exactly the outcome it was written from.

pub mod cli;
pub mod expand;
pub mod generator;
pub mod output;
pub mod recorded;
pub mod run;
pub mod shape;
pub mod tally;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode_executor::protocol::Executor;

use crate::catalogue::{Case, CaseTools};
use crate::error::{Error, Result};
use crate::sides::ours::OursSide;
use crate::sides::reference::{ReferenceColumn, Toolchain};
use expand::Program;
use generator::Generator;
use run::{Columns, Outcomes};
use tally::Tally;

/// How many requests each reference column serves at once (as in the matrix).
const REFERENCE_PERMITS: usize = 4;

/// A finished run: what ran where, and what came out.
pub struct Exploration {
    /// The generator the programs came from.
    pub generator: Generator,
    /// The seed the programs were drawn with.
    pub seed: u64,
    /// The command line that reproduces the run, for the outputs' headers.
    pub command_line: String,
    /// Column names; the first decides what is expected.
    pub columns: Vec<String>,
    /// The generated programs, in order.
    pub programs: Vec<Program>,
    /// Per program, the case it ran as.
    pub cases: Vec<Arc<Case>>,
    /// Per program, per column.
    pub outcomes: Vec<Outcomes>,
    /// Reference columns that died during the run and were started again, with how often.
    pub restarts: Vec<(String, usize)>,
}

/// The case a program runs as: the generator's providers and options (its module map with
/// the program's modules added), the program's code.
pub fn case_for(generator: &Generator, program: &Program) -> Case {
    let template = &generator.templates[program.template];
    let mut options = generator.options.clone();
    if !program.modules.is_empty() {
        let modules = options.modules.get_or_insert_with(Default::default);
        modules.extend(program.modules.clone());
    }
    Case {
        about: template.about.clone(),
        tools: CaseTools::Providers(generator.providers.clone()),
        options,
        ..Case::program(
            format!("explore/{}-{}", template.id, program.number),
            program.code.clone(),
            generator.file.clone(),
            template.line,
        )
    }
}

/// What `explore` is asked to do.
pub struct Request {
    /// The generator to draw programs from.
    pub generator: Generator,
    /// How many programs to generate.
    pub count: usize,
    /// The seed the programs are drawn with.
    pub seed: u64,
    /// Programs in flight at once.
    pub concurrency: usize,
    /// The command line that reproduces the run, for the outputs' headers.
    pub command_line: String,
    /// Reference columns recorded by an earlier run, used in place of running them.
    pub recorded: Option<recorded::Recording>,
}

/// Expands the generator and runs every program on the columns (the recorded columns, when
/// the request has a recording, come first, read instead of run).
pub async fn explore<N: Executor + 'static>(
    request: Request,
    columns: &Columns<'_, N>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Exploration> {
    let programs = expand::expand(&request.generator, request.count, request.seed);
    let recorded = match &request.recorded {
        Some(recording) => Some((
            recording.columns.clone(),
            recording.outcomes_for(&programs)?,
        )),
        None => None,
    };
    let cases: Vec<Arc<Case>> = programs
        .iter()
        .map(|p| Arc::new(case_for(&request.generator, p)))
        .collect();
    let mut outcomes = run::observe(&cases, columns, request.concurrency, progress).await;
    let mut names = columns.names();
    if let Some((recorded_names, recorded)) = recorded {
        names.splice(0..0, recorded_names);
        for (observed, mut before) in outcomes.iter_mut().zip(recorded) {
            before.append(observed);
            *observed = before;
        }
    }
    Ok(Exploration {
        restarts: columns
            .references
            .iter()
            .map(|c| (c.name.clone(), c.restarts()))
            .filter(|(_, n)| *n > 0)
            .collect(),
        generator: request.generator,
        seed: request.seed,
        command_line: request.command_line,
        columns: names,
        programs,
        cases,
        outcomes,
    })
}

/// Where a run's outputs went.
pub struct Written {
    /// The catalogue of disagreements (`<generator>.yaml`).
    pub catalogue: PathBuf,
    /// The summary (`<generator>.md`).
    pub summary: PathBuf,
    /// The disagreements, grouped by shape.
    pub tally: Tally,
}

/// Judges a run and writes `<out>/<generator>.json` (every program and its outcome on each
/// column, written first so a run is never lost), `<out>/<generator>.yaml` (the catalogue)
/// and `<out>/<generator>.md` (the summary).
pub fn write(run: &Exploration, out: &Path) -> Result<Written> {
    let tally = tally::tally(&run.columns, &run.programs, &run.outcomes);
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let catalogue = out.join(format!("{}.yaml", run.generator.name));
    let summary = out.join(format!("{}.md", run.generator.name));
    let raw = out.join(format!("{}.json", run.generator.name));
    let json = serde_json::to_string_pretty(&output::raw(run)).expect("JSON values serialize");
    std::fs::write(&raw, json).map_err(|e| Error::io(&raw, e))?;
    let text = output::catalogue(run, &tally, &catalogue)?;
    std::fs::write(&catalogue, text).map_err(|e| Error::io(&catalogue, e))?;
    std::fs::write(&summary, output::markdown(run, &tally)).map_err(|e| Error::io(&summary, e))?;
    Ok(Written {
        catalogue,
        summary,
        tally,
    })
}

/// Starts the reference columns (all at once), runs, stops them, and writes the outputs. A
/// column that cannot start stops the command, with the reason, after the others are stopped.
#[allow(clippy::too_many_arguments)]
pub async fn command<N: Executor + 'static>(
    root: &Path,
    request: Request,
    ours: Option<Arc<OursSide<N>>>,
    references: Vec<ReferenceColumn>,
    toolchain: Option<&Toolchain>,
    out: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(Exploration, Written)> {
    let columns = Columns::start(
        root,
        "explore",
        references,
        ours,
        toolchain,
        REFERENCE_PERMITS,
    )
    .await?;
    let run = explore(request, &columns, progress).await;
    columns.stop().await;
    let run = run?;
    let written = write(&run, out)?;
    Ok((run, written))
}
