//! Progress of a long command on stderr, as `explore` and `test262` show it: a counter
//! rewritten in place on a terminal, a line every 100 items otherwise (and at the end).

use std::io::IsTerminal;

/// Counts `done/total <noun>` on stderr.
pub struct Progress {
    noun: &'static str,
    terminal: bool,
}

impl Progress {
    /// Progress of `noun` (`"programs"`, `"tests"`) on this process's stderr.
    pub fn on_stderr(noun: &'static str) -> Self {
        Progress {
            noun,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Shows that `done` of `total` are done.
    pub fn report(&self, done: usize, total: usize) {
        let noun = self.noun;
        if self.terminal {
            eprint!("\r{done}/{total} {noun}");
        } else if done.is_multiple_of(100) || done == total {
            eprintln!("{done}/{total} {noun}");
        }
    }

    /// Ends the counter's line on a terminal, so what follows starts on its own.
    pub fn finish(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}
