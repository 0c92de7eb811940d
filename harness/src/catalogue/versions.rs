//! Version ranges over upstream releases, written the npm way (`<0.3.7`, `>=0.2.2 <0.4.0`,
//! `0.4.x`, `<0.3.0 || >=0.5.0`).

use std::fmt;

use semver::{Version, VersionReq};

/// A semver range; any of its `||` alternatives may match.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionRange {
    text: String,
    alternatives: Vec<VersionReq>,
}

impl VersionRange {
    /// Parses an npm-style range: comparators separated by spaces or commas, alternatives by
    /// `||`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut alternatives = Vec::new();
        for alternative in text.split("||") {
            let comparators: Vec<&str> = alternative
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|part| !part.is_empty())
                .collect();
            if comparators.is_empty() {
                return Err(format!(
                    "the version range \"{text}\" has an empty alternative"
                ));
            }
            let joined = comparators.join(", ");
            let req = VersionReq::parse(&joined)
                .map_err(|e| format!("\"{text}\" is not a version range: {e}"))?;
            alternatives.push(req);
        }
        Ok(Self {
            text: text.to_string(),
            alternatives,
        })
    }

    /// Whether this version lies in the range.
    pub fn matches(&self, version: &Version) -> bool {
        self.alternatives.iter().any(|req| req.matches(version))
    }

    /// The range as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap()
    }

    #[test]
    fn npm_style_ranges() {
        let below = VersionRange::parse("<0.3.7").unwrap();
        assert!(below.matches(&v("0.3.4")));
        assert!(!below.matches(&v("0.3.7")));
        let span = VersionRange::parse(">=0.2.2 <0.4.0").unwrap();
        assert!(span.matches(&v("0.3.8")));
        assert!(!span.matches(&v("0.4.0")));
        let either = VersionRange::parse("<0.3.0 || >=0.5.0").unwrap();
        assert!(either.matches(&v("0.2.2")) && either.matches(&v("0.5.6")));
        assert!(!either.matches(&v("0.4.1")));
    }

    #[test]
    fn nonsense_is_refused() {
        assert!(VersionRange::parse("soon").is_err());
        assert!(VersionRange::parse("<0.3 ||").is_err());
    }
}
