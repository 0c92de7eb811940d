//! The request's module map, importable statically and with `import()`, as the reference's
//! Dynamic Worker loads it.
//!
//! - **Names**: every name must end in `.js`; a `.py` name is a Python module the worker
//!   refuses, any other is refused with Workers' text ([`check_names`]). A module named
//!   `executor.js` is dropped (upstream drops it: that name is the program's own module).
//! - **Syntax**: every module is compiled when the run starts, imported or not; the first
//!   that does not parse fails the start with V8's text and its place ([`check_syntax`]).
//! - **Resolution**: a specifier resolves against the importing module's directory, as a URL
//!   path does (`./b.js` and `b.js` inside `lib/a.js` are `lib/b.js`, `../b.js` is `b.js`, a
//!   leading `/` is the root).
//! - **Global scope**: a module's evaluation is Workers' global scope (timers, random values
//!   and I/O refused): the loader enters it for every module it loads, and the module's last
//!   statement leaves it once the reactions its body queued have run (the run loop leaves
//!   it when the job evaluating a module ends, for a module that threw).
//!
//! Sources stay in the map for the whole run, so a module can be imported from any number
//! of places (rquickjs's `BuiltinLoader` removes a source on first load, which is why this
//! loader exists).

use std::collections::BTreeMap;
use std::sync::Arc;

use rquickjs::loader::{ImportAttributes, Loader, Resolver};
use rquickjs::module::Declared;
use rquickjs::{CatchResultExt, CaughtError, Ctx, Exception, Function, Module};

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

/// The `import.meta` key of the function a module's last statement calls: the module's
/// evaluation is over (deleted when called, so the program never sees it).
const EVALUATED_KEY: &str = "codemode.evaluated";

/// What the loader appends to a module: on a line of its own, so that every position in the
/// module's text stays where it was.
fn evaluated_suffix() -> String {
    format!(
        "\n;{{ const evaluated = import.meta[{EVALUATED_KEY:?}]; delete import.meta[{EVALUATED_KEY:?}]; evaluated(); }}\n"
    )
}

/// The request's modules as the reference's worker takes them: `executor.js` (the program's
/// own module's name) is dropped, as upstream drops it.
pub(super) fn module_map(modules: Option<&BTreeMap<String, String>>) -> BTreeMap<String, String> {
    let mut map = modules.cloned().unwrap_or_default();
    map.remove(MAIN_MODULE);
    map
}

/// Workers' refusal of a module name it cannot type: a name must end in `.js` (a `.py` name
/// is a Python module, which a JavaScript main module cannot load).
pub(super) fn check_names(modules: &BTreeMap<String, String>) -> Result<(), String> {
    for name in modules.keys() {
        if name.ends_with(".js") {
            continue;
        }
        if name.ends_with(".py") {
            return Err(format!(
                "Module \"{name}\" is a Python module, but the main module isn't a Python module."
            ));
        }
        let typescript = if name.ends_with(".ts") {
            ". If you're trying to load TypeScript, bundle it first with '@cloudflare/worker-bundler' and pass the generated JavaScript modules."
        } else {
            ""
        };
        return Err(format!(
            "Module name must end with '.js' or '.py' (or the content must be an object indicating the type explicitly). Got: {name}{typescript}"
        ));
    }
    Ok(())
}

/// The prefix of the name a module is compiled under for the start's syntax check: one no
/// specifier resolves to, so that the module itself is declared later, by the loader, under
/// its own name. The resolver refuses every import of a module so named (the check parses;
/// it loads nothing).
const CHECK_PREFIX: &str = "codemode-syntax-check:";

/// The name a module is compiled under for the start's syntax check.
pub(super) fn checked_name(name: &str) -> String {
    format!("codemode-syntax-check:{name}")
}

/// The module name a check name stands for.
pub(super) fn unchecked_name(file: &str) -> &str {
    file.strip_prefix("codemode-syntax-check:").unwrap_or(file)
}

/// Compiles every module (imported or not), as the worker does when it starts: the first
/// that does not parse is the start's failure, as the caught error.
pub(super) fn check_syntax<'js>(
    ctx: &Ctx<'js>,
    modules: &BTreeMap<String, String>,
) -> Result<(), CaughtError<'js>> {
    for (name, source) in modules {
        match Module::declare(ctx.clone(), checked_name(name), source.as_str()).catch(ctx) {
            Ok(_) => {}
            // The module parsed; its imports, which the check does not follow, were refused.
            Err(CaughtError::Exception(e))
                if e.as_object().get::<_, String>("name").ok().as_deref()
                    != Some("SyntaxError") => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// `specifier` resolved against the directory of `base`, as a URL path: `.` and `..`
/// segments folded, a leading `/` from the root. A `..` above the root is no module's name:
/// `Err` with the name folded at the root.
pub(super) fn resolve_path(base: &str, specifier: &str) -> Result<String, String> {
    let mut segments: Vec<&str> = Vec::new();
    if !specifier.starts_with('/') {
        segments.extend(base.split('/'));
        segments.pop();
    }
    let mut above_root = false;
    for segment in specifier.split('/') {
        match segment {
            "" | "." => {}
            ".." => above_root |= segments.pop().is_none(),
            other => segments.push(other),
        }
    }
    let name = segments.join("/");
    if above_root { Err(name) } else { Ok(name) }
}

/// Why a specifier names no module: the map lacks the resolved name, or the specifier climbs
/// above the root.
enum Missing {
    Absent(String),
    AboveRoot(String),
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

    /// The module `name` names from `base`, resolved against `base`'s directory (the
    /// program's own module is `executor.js`, at the root), or the resolved name it lacks.
    fn lookup(&self, base: &str, name: &str) -> Result<String, Missing> {
        match resolve_path(base, name) {
            Ok(resolved) if self.0.contains_key(&resolved) || resolved == MAIN_MODULE => {
                Ok(resolved)
            }
            Ok(resolved) => Err(Missing::Absent(resolved)),
            Err(resolved) => Err(Missing::AboveRoot(resolved)),
        }
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
        if base.starts_with(CHECK_PREFIX) {
            return Err(Exception::throw_message(
                ctx,
                "the syntax check loads no module",
            ));
        }
        match self.lookup(base, name) {
            Ok(found) => Ok(found),
            Err(missing) => {
                let text = match (missing, self.static_import(ctx, base, name)) {
                    (Missing::AboveRoot(_), true) => {
                        format!("Invalid module specifier \"{name}\".\n  imported from \"{base}\".")
                    }
                    (Missing::Absent(resolved), true) => missing_module_text(&resolved, base),
                    (Missing::Absent(resolved) | Missing::AboveRoot(resolved), false) => {
                        missing_dynamic_module_text(&resolved)
                    }
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
            Some(source) => {
                // The module evaluates next (in the same job): global scope, until its last
                // statement says it is over.
                let internal = super::hook::internal_object(ctx)?;
                let module =
                    Module::declare(ctx.clone(), name, format!("{source}{}", evaluated_suffix()))?;
                let evaluated: Function = internal.get("moduleEvaluated")?;
                module.meta()?.prop(
                    EVALUATED_KEY,
                    rquickjs::object::Property::from(evaluated).configurable(),
                )?;
                let enter: Function = internal.get("enterGlobalScope")?;
                enter.call::<_, ()>(())?;
                Ok(module)
            }
            None => Err(Exception::throw_message(
                ctx,
                &missing_module_text(name, MAIN_MODULE),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{imports_statically, resolve_path};

    #[test]
    fn specifiers_resolve_against_the_importing_module_directory() {
        let ok = |name: &str| Ok(name.to_string());
        assert_eq!(resolve_path("executor.js", "./lib.js"), ok("lib.js"));
        assert_eq!(resolve_path("executor.js", "/lib.js"), ok("lib.js"));
        assert_eq!(resolve_path("lib/a.js", "./b.js"), ok("lib/b.js"));
        assert_eq!(resolve_path("lib/a.js", "b.js"), ok("lib/b.js"));
        assert_eq!(resolve_path("lib/a.js", "../b.js"), ok("b.js"));
        assert_eq!(resolve_path("lib/a.js", "/b.js"), ok("b.js"));
        assert_eq!(resolve_path("a.js", "../b.js"), Err("b.js".to_string()));
    }

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
