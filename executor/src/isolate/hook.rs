//! The run loop's hook: the object `bootstrap.js` returns, which the sandbox stores in its
//! runtime's userdata and the run, the module loader and the outbound bridge read back. Apart
//! from the sandbox so that what reads the hook need not import the sandbox that makes it.

use rquickjs::{Ctx, JsLifetime, Object};

/// What the sandbox keeps in its runtime's userdata for its runs: the object `bootstrap.js`
/// returns (the run loop's hook) and the program's `this` (an instance of the reference's
/// `CodeExecutor`, which the run hands to the program's module: see `run.rs`, `THIS_CLOSE`).
/// No global names either, so a program cannot reach the hook, enumerate it or call into it.
pub(super) struct InternalHook<'js> {
    pub(super) hook: Object<'js>,
    pub(super) program_this: Object<'js>,
}

// SAFETY: the hook holds nothing but values of the context it was made in, and is
// re-borrowed with that context's lifetime.
unsafe impl<'js> JsLifetime<'js> for InternalHook<'js> {
    type Changed<'to> = InternalHook<'to>;
}

/// The run loop's hook of the sandbox `ctx` belongs to.
pub(super) fn internal_object<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    ctx.userdata::<InternalHook<'js>>()
        .map(|kept| kept.hook.clone())
        .ok_or(rquickjs::Error::Unknown)
}

/// The program's `this` of the sandbox `ctx` belongs to.
pub(super) fn program_this<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    ctx.userdata::<InternalHook<'js>>()
        .map(|kept| kept.program_this.clone())
        .ok_or(rquickjs::Error::Unknown)
}
