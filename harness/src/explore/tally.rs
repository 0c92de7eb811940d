//! Judging a run's outcomes: agreements, disagreements grouped by shape, and programs a side
//! could not run.

use std::collections::BTreeMap;

use super::expand::Program;
use super::run::Outcomes;
use super::shape::{Shape, group};

/// What a run found.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Programs whose outcome is the same on every column.
    pub agreements: usize,
    /// Disagreements by shape, largest first.
    pub groups: Vec<Group>,
    /// Programs some side could not run (they count neither way).
    pub errors: Vec<SideError>,
    /// Per template (by index): `(agreements, disagreements, errors)`.
    pub templates: BTreeMap<usize, (usize, usize, usize)>,
}

/// Programs whose difference from the deciding column has one shape.
#[derive(Debug, Clone)]
pub struct Group {
    /// The column that differs from the deciding one.
    pub column: String,
    /// The shape of the difference, names and values abstracted out.
    pub shape: Shape,
    /// Indexes into the run's programs, in program order.
    pub programs: Vec<usize>,
}

/// A program a side could not run, and why.
#[derive(Debug, Clone)]
pub struct SideError {
    /// The index of the program in the run's programs.
    pub program: usize,
    /// The column that could not run it.
    pub column: String,
    /// Why.
    pub message: String,
}

impl Tally {
    /// Disagreements in all.
    pub fn disagreements(&self) -> usize {
        self.groups.iter().map(|g| g.programs.len()).sum()
    }

    /// Agreements as a share of the programs every column ran, in percent.
    pub fn agreement_percent(&self) -> f64 {
        let judged = self.agreements + self.disagreements();
        if judged == 0 {
            100.0
        } else {
            100.0 * self.agreements as f64 / judged as f64
        }
    }
}

/// Judges every program: the first column decides; a program disagrees where another column's
/// outcome differs from it (the first such column gives the shape), and is a side error where
/// any column could not run it.
pub fn tally(columns: &[String], programs: &[Program], outcomes: &[Outcomes]) -> Tally {
    let mut tally = Tally::default();
    let mut differences: BTreeMap<String, Vec<(Shape, usize)>> = BTreeMap::new();
    for (index, (program, outcomes)) in programs.iter().zip(outcomes).enumerate() {
        let counts = tally.templates.entry(program.template).or_default();
        let failed: Vec<SideError> = outcomes
            .iter()
            .zip(columns)
            .filter_map(|(outcome, column)| {
                outcome.as_ref().err().map(|message| SideError {
                    program: index,
                    column: column.clone(),
                    message: message.clone(),
                })
            })
            .collect();
        if !failed.is_empty() {
            counts.2 += 1;
            tally.errors.extend(failed);
            continue;
        }
        let ran: Vec<&serde_json::Value> = outcomes.iter().flatten().collect();
        let differing = ran.iter().zip(columns).skip(1).find_map(|(other, column)| {
            Shape::of(ran[0], other, &program.values).map(|shape| (column, shape))
        });
        match differing {
            None => {
                counts.0 += 1;
                tally.agreements += 1;
            }
            Some((column, shape)) => {
                counts.1 += 1;
                differences
                    .entry(column.clone())
                    .or_default()
                    .push((shape, index));
            }
        }
    }
    for (column, shapes) in differences {
        tally
            .groups
            .extend(group(shapes).into_iter().map(|(shape, programs)| Group {
                column: column.clone(),
                shape,
                programs,
            }));
    }
    tally
        .groups
        .sort_by_key(|g| std::cmp::Reverse(g.programs.len()));
    tally
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn program(template: usize, values: &[&str]) -> Program {
        Program {
            number: 1,
            template,
            code: String::new(),
            modules: Default::default(),
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    #[test]
    fn same_shapes_group_together_and_different_ones_apart() {
        let columns = vec!["reference@0.5.6".to_string(), "ours".to_string()];
        let error = |text: &str| Ok(json!({"error": text, "logs": [], "calls": []}));
        let programs = vec![
            program(0, &["x"]),
            program(0, &["items"]),
            program(1, &[]),
            program(2, &[]),
            program(3, &[]),
        ];
        let outcomes = vec![
            vec![error("x is not iterable"), error("value is not iterable")],
            vec![
                error("items is not iterable"),
                error("value is not iterable"),
            ],
            vec![
                error("Invalid count value: -1"),
                error("invalid repeat count"),
            ],
            vec![error("same"), error("same")],
            vec![Err("the request failed".to_string()), error("same")],
        ];
        let tally = tally(&columns, &programs, &outcomes);
        assert_eq!(tally.agreements, 1);
        assert_eq!(tally.errors.len(), 1);
        assert_eq!(tally.groups.len(), 2, "{:?}", tally.groups);
        assert_eq!(tally.groups[0].programs, vec![0, 1]);
        assert_eq!(tally.groups[1].programs, vec![2]);
        assert_eq!(tally.templates[&0], (0, 2, 0));
        assert_eq!(tally.agreement_percent(), 25.0);
    }
}
