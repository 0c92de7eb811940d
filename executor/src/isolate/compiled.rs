//! The sandbox's own JavaScript, compiled once per process.
//!
//! Parsing `bootstrap.js` cost more than everything else in a trivial run together (about
//! 220 µs of a 530 µs run on the reference machine). An [`InternalScript`] is parsed and
//! compiled to QuickJS bytecode the first time any run needs it, in a scratch runtime of its
//! own; every later run only loads the bytecode into its fresh context, which keeps the
//! guarantee that no two runs share a runtime, a context or a value.
//!
//! An internal script is a single expression (typically a function to call with host
//! functions); [`InternalScript::evaluate`] returns its value.

use std::sync::OnceLock;

use rquickjs::module::WriteOptions;
use rquickjs::{Context, Ctx, Module, Runtime, Value};

/// One piece of the sandbox's JavaScript: an expression, compiled on first use.
///
/// Compiled without its source text and debug information: about half the bytecode to load
/// per run, and its functions print as native code, as the platform's own do on Workers.
pub(super) struct InternalScript {
    name: &'static str,
    source: &'static str,
    bytecode: OnceLock<Result<Vec<u8>, String>>,
}

impl InternalScript {
    /// A script whose `source` is one JavaScript expression; `name` names it in errors.
    pub(super) const fn stripped(name: &'static str, source: &'static str) -> Self {
        InternalScript {
            name,
            source,
            bytecode: OnceLock::new(),
        }
    }

    /// The value of the script's expression in `ctx`.
    ///
    /// Fails with the compilation error (the same for every run, since the source is
    /// fixed) or with whatever evaluating the expression threw.
    pub(super) fn evaluate<'js>(&self, ctx: &Ctx<'js>) -> rquickjs::Result<Value<'js>> {
        let bytecode = self
            .bytecode
            .get_or_init(|| compile(self.name, self.source))
            .as_ref()
            .map_err(|message| rquickjs::Error::new_loading_message(self.name, message))?;
        // SAFETY: the bytes were written by `Module::write` of this same QuickJS build in
        // this process, from a module that was declared but never evaluated, which is what
        // `Module::load` requires.
        let module = unsafe { Module::load(ctx.clone(), bytecode)? };
        let (module, loaded) = module.eval()?;
        loaded.finish::<()>()?;
        module.get("default")
    }
}

/// The bytecode of `export default (<source>);`, compiled in a runtime of its own.
fn compile(name: &str, source: &str) -> Result<Vec<u8>, String> {
    let runtime = Runtime::new().map_err(|e| e.to_string())?;
    let context = Context::full(&runtime).map_err(|e| e.to_string())?;
    context.with(|ctx| {
        let text = format!(
            "export default (\n{}\n);\n",
            source.trim_end().trim_end_matches(';')
        );
        // A name no module map entry can take, so a program cannot import the script.
        Module::declare(ctx.clone(), format!("codemode-internal:{name}"), text)
            .and_then(|module| {
                module.write(WriteOptions {
                    strip_source: true,
                    strip_debug: true,
                    ..WriteOptions::default()
                })
            })
            .map_err(|e| match e {
                rquickjs::Error::Exception => format!("{:?}", ctx.catch()),
                other => other.to_string(),
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    static DOUBLE: InternalScript = InternalScript::stripped("double", "(x) => x * 2;");
    static BROKEN: InternalScript = InternalScript::stripped("broken", "(x) => {");

    #[test]
    fn evaluates_the_expression_in_each_fresh_context() {
        for _ in 0..3 {
            let runtime = Runtime::new().unwrap();
            let context = Context::full(&runtime).unwrap();
            let doubled: i32 = context.with(|ctx| {
                let function: rquickjs::Function = DOUBLE.evaluate(&ctx).unwrap().get().unwrap();
                function.call((21,)).unwrap()
            });
            assert_eq!(doubled, 42);
        }
        assert!(DOUBLE.bytecode.get().is_some_and(Result::is_ok));
    }

    #[test]
    fn a_script_that_does_not_compile_fails_every_time() {
        for _ in 0..2 {
            let runtime = Runtime::new().unwrap();
            let context = Context::full(&runtime).unwrap();
            let failed = context.with(|ctx| BROKEN.evaluate(&ctx).is_err());
            assert!(failed);
        }
    }
}
