//! `eval`: one program on every column, the outcomes side by side (agreeing columns grouped,
//! large outcomes elided as the reports elide them), borrowing a case's providers with
//! `--case`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codemode_compat::catalogue::{Case, Catalogue, load_dirs};
use codemode_compat::compare::pretty;
use codemode_compat::matrix::{ExtraColumn, OURS};
use codemode_compat::sides::ours::OursSide;
use codemode_compat::sides::reference::ReferenceSide;
use codemode_compat::sides::remote::RemoteSide;
use codemode_compat::stored::Stored;
use codemode_compat::{Error, Result};
use codemode_executor::isolate::IsolateExecutor;
use serde_json::Value;

use super::columns::{Plan, plan_columns, start_columns};

/// One program on a remote column or a deployed reference worker: started, run, stopped.
async fn eval_extra(column: ExtraColumn, case: &Case, code: &str) -> Value {
    let side_error = |message: String| serde_json::json!({"error of the side": message});
    match column {
        ExtraColumn::Remote(column) => match RemoteSide::start(column).await {
            Ok(side) => {
                let outcome = side.run(case, code).await.unwrap_or_else(side_error);
                side.stop().await;
                outcome
            }
            Err(error) => side_error(error.to_string()),
        },
        ExtraColumn::Deployed(column, origin) => {
            match ReferenceSide::deployed(column, &origin, 1).await {
                Ok(side) => side.run(case, code).await.unwrap_or_else(side_error),
                Err(error) => side_error(error.to_string()),
            }
        }
    }
}

pub fn borrowed_case(root: &Path, spec: Option<&str>) -> Result<Case> {
    let Some(spec) = spec else {
        return Ok(Case::program(
            "eval/program",
            String::new(),
            PathBuf::from("<eval>"),
            1,
        ));
    };
    let (dirs, id) = match spec.rsplit_once(':') {
        Some((file, id)) => {
            let file = PathBuf::from(file);
            let catalogue = load_one_file(&file)?;
            return catalogue
                .get(id)
                .cloned()
                .ok_or_else(|| Error::Usage(format!("{} has no case {id}", file.display())));
        }
        None => (vec![root.join("cases")], spec),
    };
    let catalogue = load_dirs(&dirs)?;
    catalogue
        .get(id)
        .cloned()
        .ok_or_else(|| Error::Usage(format!("no case {id} in cases/")))
}

fn load_one_file(file: &Path) -> Result<Catalogue> {
    let dir = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let catalogue = load_dirs(&[dir.to_path_buf()])?;
    Ok(Catalogue {
        cases: catalogue
            .cases
            .into_iter()
            .filter(|c| c.file == file || c.file.ends_with(file))
            .collect(),
    })
}

/// `eval`'s program: its code (default: the case's own), the case it borrows from, and
/// whether outcomes print whole.
pub struct Program {
    pub code: Option<String>,
    pub case: Option<String>,
    pub full: bool,
}

/// `eval`: one program on every column, the outcomes side by side, agreeing columns
/// grouped.
pub async fn run(
    root: &Path,
    program: Program,
    columns: Vec<String>,
    token_file: Option<&Path>,
) -> Result<ExitCode> {
    let case = borrowed_case(root, program.case.as_deref())?;
    let code = match (program.code, &program.case) {
        (Some(code), _) => code,
        (None, Some(_)) => case.code.clone(),
        (None, None) => {
            return Err(Error::Usage(
                "eval needs a program, or --case to run that case's own program".into(),
            ));
        }
    };
    let Plan {
        ours: ours_column,
        extra,
        columns,
        toolchain,
    } = plan_columns(root, &columns, token_file).await?;
    let (sides, failed) = start_columns(root, toolchain.as_ref(), columns).await;
    let mut outcomes: Vec<(String, Value)> = Vec::new();
    let ours = OursSide::new(IsolateExecutor::default());
    if ours_column {
        outcomes.push((OURS.into(), ours.run(&case, &code).await));
    }
    for column in extra {
        let name = column.name().to_string();
        outcomes.push((name, eval_extra(column, &case, &code).await));
    }
    for side in &sides {
        let outcome = match side.run(&case, &code).await {
            Ok(outcome) => outcome,
            Err(message) => serde_json::json!({"error of the side": message}),
        };
        outcomes.push((side.column.name.clone(), outcome));
    }
    for (column, message) in failed {
        outcomes.push((
            column.name,
            serde_json::json!({"error of the side": message}),
        ));
    }
    for side in &sides {
        side.stop().await;
    }
    ours.dispose().await;
    // Group columns whose outcomes agree.
    let mut groups: Vec<(Vec<String>, Value)> = Vec::new();
    for (column, outcome) in outcomes {
        match groups.iter_mut().find(|(_, o)| *o == outcome) {
            Some((names, _)) => names.push(column),
            None => groups.push((vec![column], outcome)),
        }
    }
    for (names, outcome) in &groups {
        let stored = Stored::of(outcome);
        if program.full || !stored.elided() {
            println!("[{}]\n{}", names.join(" "), pretty(outcome));
        } else {
            println!(
                "[{}] elided as reports elide it ({} bytes whole, {}; --full prints it whole)\n{}",
                names.join(" "),
                stored.bytes,
                stored.digest,
                pretty(&stored.shown)
            );
        }
    }
    Ok(if groups.len() > 1 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
