//! The request's module map, importable statically and with `import()`.
//!
//! Names resolve exactly (a leading `./` is also accepted). Sources stay in the map for the
//! whole run, so a module can be imported from any number of places (rquickjs's
//! `BuiltinLoader` removes a source on first load, which is why this loader exists).

use std::collections::BTreeMap;
use std::sync::Arc;

use rquickjs::loader::{ImportAttributes, Loader, Resolver};
use rquickjs::module::Declared;
use rquickjs::{Ctx, Exception, Module};

/// The name the program's own module is declared under (the reference's `mainModule`).
pub(super) const MAIN_MODULE: &str = "executor.js";

/// The text for an import of a module the request does not provide. Workers names the
/// importing module for a static import only; a failed `import()` names the module alone.
pub(super) fn missing_module_text(name: &str, base: &str) -> String {
    format!("No such module \"{name}\".\n  imported from \"{base}\"")
}

/// The text for an `import()` of a module the request does not provide.
pub(super) fn missing_dynamic_module_text(name: &str) -> String {
    format!("No such module \"{name}\".")
}

/// Whether `source` imports `name` with a static declaration (`import … from "name"`,
/// `import "name"`, `export … from "name"`), as opposed to `import("name")` alone.
pub(super) fn imports_statically(source: &str, name: &str) -> bool {
    ['"', '\''].iter().any(|quote| {
        let quoted = format!("{quote}{name}{quote}");
        source.match_indices(&quoted).any(|(at, _)| {
            let before = source[..at].trim_end();
            let word_end = |word: &str| {
                before.ends_with(word)
                    && !before[..before.len() - word.len()]
                        .ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
            };
            word_end("from") || word_end("import")
        })
    })
}

/// Resolves and loads names from one request's module map.
#[derive(Clone)]
pub(super) struct ModuleMap(pub Arc<BTreeMap<String, String>>);

impl ModuleMap {
    /// Whether `base` imports `name` statically. The program's own module imports
    /// statically only before it starts (its import block); afterwards it uses `import()`.
    fn static_import<'js>(&self, ctx: &Ctx<'js>, base: &str, name: &str) -> bool {
        if base == MAIN_MODULE {
            let started = super::hook::internal_object(ctx)
                .and_then(|internal| internal.get::<_, bool>("started"))
                .unwrap_or(false);
            return !started;
        }
        self.0
            .get(base)
            .is_some_and(|source| imports_statically(source, name))
    }

    fn lookup(&self, name: &str) -> Option<&str> {
        if self.0.contains_key(name) {
            return Some(self.0.get_key_value(name)?.0);
        }
        let bare = name.strip_prefix("./")?;
        Some(self.0.get_key_value(bare)?.0)
    }
}

impl Resolver for ModuleMap {
    fn resolve<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        base: &str,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<String> {
        match self.lookup(name) {
            Some(found) => Ok(found.to_string()),
            None => {
                let text = if self.static_import(ctx, base, name) {
                    missing_module_text(name, base)
                } else {
                    missing_dynamic_module_text(name)
                };
                Err(Exception::throw_message(ctx, &text))
            }
        }
    }
}

impl Loader for ModuleMap {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<Module<'js, Declared>> {
        match self.0.get(name) {
            Some(source) => Module::declare(ctx.clone(), name, source.as_str()),
            None => Err(Exception::throw_message(
                ctx,
                &missing_module_text(name, MAIN_MODULE),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::imports_statically;

    #[test]
    fn static_imports_are_told_from_dynamic_ones() {
        assert!(imports_statically("import { x } from 'b.js'", "b.js"));
        assert!(imports_statically("import \"b.js\"\nexport {}", "b.js"));
        assert!(imports_statically("export * from \"b.js\"", "b.js"));
        assert!(!imports_statically(
            "export const go = () => import('b.js')",
            "b.js"
        ));
        assert!(!imports_statically("const name = 'b.js'", "b.js"));
        assert!(!imports_statically("const reform = 'b.js'", "b.js"));
        assert!(!imports_statically("import { x } from 'a.js'", "b.js"));
    }
}
