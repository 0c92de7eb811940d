//! The harness's one error type. Every message reads as a sentence a user can act on.

use std::fmt;
use std::path::PathBuf;

/// One problem found in a catalogue file, located by file, line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file the problem is in.
    pub file: PathBuf,
    /// Its line, from 1.
    pub line: u64,
    /// Its column, from 1.
    pub column: u64,
    /// What is wrong, as a sentence.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

/// What can go wrong in the harness.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The catalogue has problems; every one found is listed.
    Catalogue(Vec<Problem>),
    /// A generator file (`explore`) has problems; every one found is listed.
    Generator(Vec<Problem>),
    /// A file or directory could not be read or written.
    Io {
        /// The path that could not be read or written.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The reference toolchain (Node, npm packages, wrangler) could not be set up.
    Toolchain(String),
    /// A reference column could not be started or stopped answering.
    Reference {
        /// The column's name.
        column: String,
        /// What went wrong.
        message: String,
    },
    /// The command line asks for something that does not exist.
    Usage(String),
}

impl Error {
    /// An I/O error at a path.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Catalogue(problems) => {
                let count = problems.len();
                writeln!(
                    f,
                    "the catalogue has {count} problem{}:",
                    if count == 1 { "" } else { "s" }
                )?;
                for problem in problems {
                    writeln!(f, "  {problem}")?;
                }
                Ok(())
            }
            Error::Generator(problems) => {
                let count = problems.len();
                writeln!(
                    f,
                    "the generator has {count} problem{}:",
                    if count == 1 { "" } else { "s" }
                )?;
                for problem in problems {
                    writeln!(f, "  {problem}")?;
                }
                Ok(())
            }
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Toolchain(message) => {
                write!(f, "the reference toolchain is not usable: {message}")
            }
            Error::Reference { column, message } => write!(f, "{column}: {message}"),
            Error::Usage(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for Error {}

/// The harness's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
