//! The run loop's hook: the object `bootstrap.js` returns, which the sandbox stores in its
//! runtime's userdata and the run, the module loader and the outbound bridge read back. Apart
//! from the sandbox so that what reads the hook need not import the sandbox that makes it.

use rquickjs::{Ctx, JsLifetime, Object};

/// The object `bootstrap.js` returns (the run loop's hook), kept in the runtime's userdata:
/// no global names it, so a program cannot reach it, enumerate it or call into it.
pub(super) struct InternalHook<'js>(pub(super) Object<'js>);

// SAFETY: the hook holds nothing but a value of the context it was made in, and is
// re-borrowed with that context's lifetime.
unsafe impl<'js> JsLifetime<'js> for InternalHook<'js> {
    type Changed<'to> = InternalHook<'to>;
}

/// The run loop's hook of the sandbox `ctx` belongs to.
pub(super) fn internal_object<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    ctx.userdata::<InternalHook<'js>>()
        .map(|hook| hook.0.clone())
        .ok_or(rquickjs::Error::Unknown)
}

/// The program's `this` (an instance of the reference's `CodeExecutor`), made with the
/// sandbox and kept in the runtime's userdata beside the hook: the run hands it to the
/// program's module (see `run.rs`, `THIS_CLOSE`).
pub(super) struct ProgramThis<'js>(pub(super) Object<'js>);

// SAFETY: as the hook's: a value of the context it was made in, re-borrowed with that
// context's lifetime.
unsafe impl<'js> JsLifetime<'js> for ProgramThis<'js> {
    type Changed<'to> = ProgramThis<'to>;
}

/// The program's `this` of the sandbox `ctx` belongs to.
pub(super) fn program_this<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    ctx.userdata::<ProgramThis<'js>>()
        .map(|this| this.0.clone())
        .ok_or(rquickjs::Error::Unknown)
}
