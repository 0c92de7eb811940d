//! The conversion error, which remembers where in the value it arose.

use std::fmt;

/// One step from a value into a part of it.
#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Key(String),
    Index(usize),
}

/// Why a conversion failed, and where: the path is collected on the way out of the nested
/// value (innermost step first) and rendered from a root name, as JavaScript would spell it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ConvertError {
    message: String,
    /// Innermost first.
    path: Vec<Segment>,
    root: String,
}

impl ConvertError {
    pub(super) fn new(message: impl Into<String>) -> Self {
        ConvertError {
            message: message.into(),
            path: Vec::new(),
            root: String::new(),
        }
    }

    /// The error, one step further out: it arose under `key`.
    pub(super) fn under_key(mut self, key: &str) -> Self {
        self.path.push(Segment::Key(key.to_string()));
        self
    }

    /// The error, one step further out: it arose at `index`.
    pub(super) fn under_index(mut self, index: usize) -> Self {
        self.path.push(Segment::Index(index));
        self
    }

    /// Names the outermost value (`value`, `arguments[0]`, `result`).
    pub(super) fn rooted(mut self, root: &str) -> Self {
        self.root = root.to_string();
        self
    }

    /// The error with its message's opening `from` replaced by `to`, where it arose at the
    /// value itself (not inside it).
    pub(super) fn reword(mut self, from: &str, to: &str) -> Self {
        if self.path.is_empty()
            && let Some(rest) = self.message.strip_prefix(from)
        {
            self.message = format!("{to}{rest}");
        }
        self
    }

    /// Where the error arose, as a JavaScript access path from the root.
    pub(crate) fn location(&self) -> String {
        let mut text = self.root.clone();
        for segment in self.path.iter().rev() {
            match segment {
                Segment::Index(index) => text.push_str(&format!("[{index}]")),
                Segment::Key(key) if is_identifier(key) => {
                    text.push('.');
                    text.push_str(key);
                }
                Segment::Key(key) => text.push_str(&format!("[{key:?}]")),
            }
        }
        text
    }

    /// `at <location>, <message>`: the error as the middle of a sentence.
    pub(crate) fn sentence(&self) -> String {
        format!("at {}, {}", self.location(), self.message)
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sentence())
    }
}

impl std::error::Error for ConvertError {}

impl serde::ser::Error for ConvertError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        ConvertError::new(message.to_string())
    }
}

impl serde::de::Error for ConvertError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        ConvertError::new(message.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_as_javascript_accesses() {
        let error = ConvertError::new("boom")
            .under_key("a b")
            .under_index(2)
            .under_key("items")
            .rooted("arguments[0]");
        assert_eq!(error.location(), "arguments[0].items[2][\"a b\"]");
        assert_eq!(error.sentence(), "at arguments[0].items[2][\"a b\"], boom");
    }
}
