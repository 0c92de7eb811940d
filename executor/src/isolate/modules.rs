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

/// The text for an import of a module the request does not provide.
pub(super) fn missing_module_text(name: &str, base: &str) -> String {
    format!("No such module \"{name}\".\n  imported from \"{base}\"")
}

/// Resolves and loads names from one request's module map.
#[derive(Clone)]
pub(super) struct ModuleMap(pub Arc<BTreeMap<String, String>>);

impl ModuleMap {
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
            None => Err(Exception::throw_message(
                ctx,
                &missing_module_text(name, base),
            )),
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
