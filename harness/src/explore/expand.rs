//! Expanding a generator into programs by seeded sampling.
//!
//! Guarantees: the same generator, count and seed give the same programs in the same order
//! (the sampler is `fastrand`'s seeded generator, nothing else is random); templates take turns
//! in file order, so every template gets a program as soon as the count reaches the number
//! of templates; programs are distinct (a draw that repeats an earlier program is drawn again,
//! and a template whose every program has been drawn gives its turn to the next). The count is
//! met unless the generator holds fewer distinct programs, and then every one is produced.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use super::generator::{Generator, Piece, Template, pieces};

/// How many draws a template gets to find a program not drawn before, before it counts as
/// exhausted.
const DRAWS: usize = 64;

/// How deep slot values may nest holes (the loader refuses circles; this bounds the rest).
const DEPTH: usize = 16;

/// One generated program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Its place in the run, from 1.
    pub number: usize,
    /// The index of its template in the generator.
    pub template: usize,
    /// The program, its holes filled in.
    pub code: String,
    /// Its template's module map, filled with the same values as its code.
    pub modules: IndexMap<String, String>,
    /// Every value its holes took, as filled in (for abstracting names and values out of the
    /// texts a difference is grouped by).
    pub values: Vec<String>,
}

/// The programs of a run: `count` distinct programs (fewer when the generator holds fewer).
pub fn expand(generator: &Generator, count: usize, seed: u64) -> Vec<Program> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut seen: HashSet<String> = HashSet::new();
    let mut exhausted = vec![false; generator.templates.len()];
    let mut programs = Vec::new();
    let mut turn = 0;
    while programs.len() < count && exhausted.iter().any(|e| !e) {
        let index = turn % generator.templates.len();
        turn += 1;
        if exhausted[index] {
            continue;
        }
        let template = &generator.templates[index];
        let drawn = (0..DRAWS)
            .map(|_| fill(template, &mut rng))
            .find(|drawn| !seen.contains(&drawn.key()));
        match drawn {
            Some(drawn) => {
                seen.insert(drawn.key());
                programs.push(Program {
                    number: programs.len() + 1,
                    template: index,
                    code: drawn.code,
                    modules: drawn.modules,
                    values: drawn.values,
                });
            }
            None => exhausted[index] = true,
        }
    }
    programs
}

/// One draw of a template: the program's text, its modules and the values its holes took.
struct Drawn {
    code: String,
    modules: IndexMap<String, String>,
    values: Vec<String>,
}

impl Drawn {
    /// What tells two draws apart: the code and every module.
    fn key(&self) -> String {
        let mut key = self.code.clone();
        for (name, source) in &self.modules {
            key.push('\u{0}');
            key.push_str(name);
            key.push('\u{0}');
            key.push_str(source);
        }
        key
    }
}

fn fill(template: &Template, rng: &mut fastrand::Rng) -> Drawn {
    let mut bound: HashMap<String, String> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let code = render(&template.code, template, rng, &mut bound, &mut order, 0);
    let modules = template
        .modules
        .iter()
        .map(|(name, source)| {
            (
                render(name, template, rng, &mut bound, &mut order, 0),
                render(source, template, rng, &mut bound, &mut order, 0),
            )
        })
        .collect();
    let values = order
        .into_iter()
        .map(|token| bound[&token].clone())
        .collect();
    Drawn {
        code,
        modules,
        values,
    }
}

fn render(
    text: &str,
    template: &Template,
    rng: &mut fastrand::Rng,
    bound: &mut HashMap<String, String>,
    order: &mut Vec<String>,
    depth: usize,
) -> String {
    let Ok(pieces) = pieces(text) else {
        // The loader checked every text; nothing unchecked reaches here.
        return text.to_string();
    };
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.push_str(&text),
            Piece::Hole(hole) => {
                if let Some(value) = bound.get(&hole.token) {
                    out.push_str(value);
                    continue;
                }
                let list = &template.slots[&hole.list];
                // Holes of one list with different tags take different values where they can.
                let taken: HashSet<&String> = bound
                    .iter()
                    .filter(|(token, _)| {
                        token.split_once('.').map_or(token.as_str(), |(l, _)| l) == hole.list
                    })
                    .map(|(_, v)| v)
                    .collect();
                let mut raw = &list[rng.usize(..list.len())];
                for _ in 0..8 {
                    if !taken.contains(raw) {
                        break;
                    }
                    raw = &list[rng.usize(..list.len())];
                }
                let raw = raw.clone();
                let value = if depth < DEPTH {
                    render(&raw, template, rng, bound, order, depth + 1)
                } else {
                    raw
                };
                bound.insert(hole.token.clone(), value.clone());
                order.push(hole.token.clone());
                out.push_str(&value);
            }
        }
    }
    out
}
