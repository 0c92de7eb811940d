//! Which columns a command runs, resolved from `--columns` (ours, remote columns, deployed
//! reference workers, the reference columns started under `wrangler dev`), and the reference
//! columns started: what `matrix`, `eval`, `explore`, `test262` and `wpt` share.

use std::path::Path;

use codemode_compat::matrix::{ExtraColumn, OURS};
use codemode_compat::sampling::SampledColumns;
use codemode_compat::sides::reference::{
    ReferenceColumn, ReferenceSide, deployed_column, discover, ensure_installed, select,
};
use codemode_compat::sides::remote::RemoteColumn;
use codemode_compat::{Error, Result};

/// Which columns a run wants, resolved.
pub struct Plan {
    /// Whether ours shows.
    pub ours: bool,
    /// Remote columns and deployed reference workers.
    pub extra: Vec<ExtraColumn>,
    /// The reference columns the harness starts under `wrangler dev`.
    pub columns: Vec<ReferenceColumn>,
    pub toolchain: Option<codemode_compat::sides::reference::Toolchain>,
}

/// Resolves `--columns` (empty: ours, remote and every configured reference column); the
/// reference toolchain is only installed when a local reference column is wanted.
pub async fn plan_columns(
    root: &Path,
    wanted: &[String],
    token_file: Option<&Path>,
) -> Result<Plan> {
    let mut extra = Vec::new();
    let mut local: Vec<&String> = Vec::new();
    for w in wanted.iter().filter(|w| *w != OURS) {
        if let Some(column) = RemoteColumn::parse(w, token_file) {
            extra.push(ExtraColumn::Remote(column?));
        } else if let Some(deployed) = deployed_column(root, w) {
            let (column, origin) = deployed?;
            extra.push(ExtraColumn::Deployed(column, origin));
        } else {
            local.push(w);
        }
    }
    if wanted.is_empty() {
        extra.push(ExtraColumn::Remote(RemoteColumn::local()));
    }
    let ours = wanted.is_empty() || wanted.iter().any(|w| w == OURS);
    if !wanted.is_empty() && local.is_empty() {
        return Ok(Plan {
            ours,
            extra,
            columns: Vec::new(),
            toolchain: None,
        });
    }
    let root = root.to_path_buf();
    let toolchain = tokio::task::spawn_blocking(move || ensure_installed(&root))
        .await
        .map_err(|e| Error::Toolchain(e.to_string()))??;
    let available = discover(&toolchain)?;
    let columns = if wanted.is_empty() {
        available
    } else {
        let mut chosen = Vec::new();
        for w in local {
            chosen.push(select(&available, w)?.clone());
        }
        chosen
    };
    Ok(Plan {
        ours,
        extra,
        columns,
        toolchain: Some(toolchain),
    })
}

/// Ours and the local reference columns `wanted` names, for the commands that run only those
/// (`explore`, `test262`): empty is ours and every configured reference column; a remote or
/// deployed column is refused with a sentence naming the command.
pub async fn local_columns(
    root: &Path,
    wanted: &[String],
    command: &str,
) -> Result<(
    bool,
    Vec<ReferenceColumn>,
    Option<codemode_compat::sides::reference::Toolchain>,
)> {
    let Plan {
        ours,
        extra,
        columns,
        toolchain,
    } = plan_columns(root, wanted, None).await?;
    // An empty `--columns` adds the remote column for matrix; these commands leave it out.
    if !wanted.is_empty()
        && let Some(column) = extra.first()
    {
        return Err(Error::Usage(format!(
            "{command} runs on ours and the local reference columns; the column {} is not one of them",
            column.name()
        )));
    }
    Ok((ours, columns, toolchain))
}

/// [`local_columns`], as the sampling commands (`explore`, `test262`) take them.
pub async fn sampled_columns(
    root: &Path,
    wanted: &[String],
    command: &str,
) -> Result<SampledColumns> {
    let (ours, references, toolchain) = local_columns(root, wanted, command).await?;
    Ok(SampledColumns {
        ours,
        references,
        toolchain,
    })
}

/// `--column-concurrency`, or what the memory budget allows.
pub fn column_concurrency_for(requested: Option<usize>, columns: usize) -> usize {
    codemode_compat::sides::reference::column_concurrency(requested, columns)
}

/// Starts every column at once; a column that cannot start is returned with its reason.
pub async fn start_columns(
    root: &Path,
    toolchain: Option<&codemode_compat::sides::reference::Toolchain>,
    columns: Vec<ReferenceColumn>,
) -> (Vec<ReferenceSide>, Vec<(ReferenceColumn, String)>) {
    let Some(toolchain) = toolchain else {
        return (Vec::new(), Vec::new());
    };
    let state = root.join("reference-worker/.wrangler-state");
    let started = futures::future::join_all(columns.into_iter().map(|column| {
        let state = state.clone();
        async move {
            let result = ReferenceSide::start(toolchain, column.clone(), &state, 4).await;
            (column, result)
        }
    }))
    .await;
    let mut sides = Vec::new();
    let mut failed = Vec::new();
    for (column, result) in started {
        match result {
            Ok(side) => sides.push(side),
            Err(error) => failed.push((column, error.to_string())),
        }
    }
    (sides, failed)
}
