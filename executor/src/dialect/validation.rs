//! The name rules a request must pass before anything runs, and their texts.
//!
//! A text ends the call with `{result: undefined, error}` before the native executor is
//! touched. Texts and order are the reference's (0.5.6), plus one deliberate superset: a
//! JavaScript reserved word as a name is refused here, where the reference's generated
//! worker fails to start with a syntax error instead.

use super::tool_name::{detect_sanitize_collision, js_property_order};
use crate::js_words;

/// The names the reference's generated worker already binds in the entry scope (its 16
/// reserved names, 0.4.0 on). A provider or connector by one of these names is refused.
pub const RESERVED_NAMES: [&str; 16] = [
    "__dispatchers",
    "__connectors",
    "__logs",
    "__CODEMODE_BINARY_TAG",
    "__bytesToBase64",
    "__base64ToBytes",
    "__encodeCodemodeValue",
    "__decodeCodemodeValue",
    "__stringifyForCodemode",
    "__parseForCodemode",
    "WorkerEntrypoint",
    "CodeExecutor",
    "Promise",
    "setTimeout",
    "Error",
    "console",
];

/// The words a namespace binding cannot be named in the sandbox's module (strict) code: the
/// language's reserved words, the strict-mode ones and `await` among them, plus `async`.
/// With `eval` and `arguments` ([`js_words::RESTRICTED`], refused with the same text) this
/// check is the deliberate superset (see the module docs).
pub const JAVASCRIPT_RESERVED_WORDS: [&str; 47] = js_words::concat(&[
    &js_words::KEYWORDS,
    &js_words::MODULE_RESERVED,
    &js_words::STRICT_RESERVED,
    &["async"],
]);

/// `true` where `name` matches the reference's `^[a-zA-Z_$][a-zA-Z0-9_$]*$` (ASCII only).
pub fn is_valid_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// `true` for a word in [`JAVASCRIPT_RESERVED_WORDS`], `eval` or `arguments`.
pub fn is_javascript_reserved_word(name: &str) -> bool {
    JAVASCRIPT_RESERVED_WORDS.contains(&name) || js_words::RESTRICTED.contains(&name)
}

/// A provider, as validation sees it: its name and its raw tool names in declaration order.
pub struct ProviderNames<'a> {
    /// The provider's name.
    pub name: &'a str,
    /// Its raw tool names, in declaration order.
    pub tools: Vec<&'a str>,
}

/// The refusal text for a request, or `None` when it may run.
///
/// Each provider is checked, in order, for: a reserved name, a name outside the identifier
/// pattern, a JavaScript reserved word, a name already taken. Connectors follow with the same
/// rules (the duplicate text names the clash with a provider, and is also the text for two
/// connectors of one name, since the names seen are shared). Last, each provider's raw tool
/// names, in the order `Object.entries` would list them, are checked for a sanitize collision.
pub fn validate_execution(providers: &[ProviderNames<'_>], connectors: &[&str]) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    for provider in providers {
        let name = provider.name;
        if let Some(text) = name_rule_text("Provider", name) {
            return Some(text);
        }
        if seen.contains(&name) {
            return Some(format!("Duplicate provider name \"{name}\""));
        }
        seen.push(name);
    }
    for &name in connectors {
        if let Some(text) = name_rule_text("Connector", name) {
            return Some(text);
        }
        if seen.contains(&name) {
            return Some(format!(
                "Duplicate name \"{name}\" (connector clashes with provider)"
            ));
        }
        seen.push(name);
    }
    providers.iter().find_map(|provider| {
        detect_sanitize_collision(
            provider.name,
            js_property_order(provider.tools.iter().copied()),
        )
    })
}

fn name_rule_text(kind: &str, name: &str) -> Option<String> {
    if RESERVED_NAMES.contains(&name) {
        Some(format!("{kind} name \"{name}\" is reserved"))
    } else if !is_valid_identifier(name) {
        Some(format!(
            "{kind} name \"{name}\" is not a valid JavaScript identifier"
        ))
    } else if is_javascript_reserved_word(name) {
        Some(format!(
            "{kind} name \"{name}\" is a JavaScript reserved word"
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn providers<'a>(names: &[&'a str]) -> Vec<ProviderNames<'a>> {
        names
            .iter()
            .map(|name| ProviderNames {
                name,
                tools: vec![],
            })
            .collect()
    }

    #[test]
    fn each_rule_has_its_text() {
        let cases: [(&[&str], &[&str], &str); 10] = [
            (&["__logs"], &[], "Provider name \"__logs\" is reserved"),
            (&["Promise"], &[], "Provider name \"Promise\" is reserved"),
            (
                &["my-api"],
                &[],
                "Provider name \"my-api\" is not a valid JavaScript identifier",
            ),
            (
                &["class"],
                &[],
                "Provider name \"class\" is a JavaScript reserved word",
            ),
            (&["dup", "dup"], &[], "Duplicate provider name \"dup\""),
            (&[], &["console"], "Connector name \"console\" is reserved"),
            (
                &[],
                &["my-api"],
                "Connector name \"my-api\" is not a valid JavaScript identifier",
            ),
            (
                &[],
                &["eval"],
                "Connector name \"eval\" is a JavaScript reserved word",
            ),
            (
                &["api"],
                &["api"],
                "Duplicate name \"api\" (connector clashes with provider)",
            ),
            (
                &[],
                &["x", "x"],
                "Duplicate name \"x\" (connector clashes with provider)",
            ),
        ];
        for (p, c, text) in cases {
            assert_eq!(
                validate_execution(&providers(p), c).as_deref(),
                Some(text),
                "{p:?} {c:?}"
            );
        }
    }

    #[test]
    fn rules_apply_in_order() {
        // Providers before connectors; within one name, reserved before pattern.
        assert_eq!(
            validate_execution(&providers(&["ok", "ok", "bad-name"]), &["__logs"]).as_deref(),
            Some("Duplicate provider name \"ok\"")
        );
        assert_eq!(
            validate_execution(&providers(&["a"]), &["class", "a"]).as_deref(),
            Some("Connector name \"class\" is a JavaScript reserved word")
        );
        // Pattern before reserved word: non-ASCII never reaches the word check.
        assert_eq!(
            validate_execution(&providers(&["é"]), &[]).as_deref(),
            Some("Provider name \"é\" is not a valid JavaScript identifier")
        );
        assert_eq!(
            validate_execution(&providers(&[""]), &[]).as_deref(),
            Some("Provider name \"\" is not a valid JavaScript identifier")
        );
    }

    #[test]
    fn the_collision_check_runs_last() {
        let gh = ProviderNames {
            name: "gh",
            tools: vec!["list-issues", "list.issues"],
        };
        assert_eq!(
            validate_execution(&[gh], &[]).as_deref(),
            Some(
                "Tool names \"list-issues\" and \"list.issues\" both sanitize to \"list_issues\" in provider \"gh\""
            )
        );
        let gh = ProviderNames {
            name: "gh",
            tools: vec!["list-issues", "list.issues"],
        };
        assert_eq!(
            validate_execution(&[gh], &["gh"]).as_deref(),
            Some("Duplicate name \"gh\" (connector clashes with provider)")
        );
    }

    #[test]
    fn plain_names_pass() {
        assert_eq!(
            validate_execution(&providers(&["codemode", "$x", "_y"]), &["conn"]),
            None
        );
    }
}
