//! A run's sandbox, prepared before its request arrives.
//!
//! Everything a run needs that does not depend on its request (a fresh runtime with its
//! memory budget and interrupt handler, a full context, the scope `bootstrap.js` builds, the
//! Web globals) is built by [`Sandbox::prepare`]. A worker prepares its next sandbox right
//! after answering a run, while it would otherwise wait, so a request only pays for what is
//! its own: providers, preludes, the program.
//!
//! Guarantees: a sandbox serves exactly one run and is dropped with it (no two runs share a
//! runtime, a context or a value); a prepared sandbox holds no request data; the run sets
//! its bounds (memory limit, stack, module map) before any of its code runs.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use rquickjs::{CatchResultExt, Context, Ctx, Function, JsLifetime, Object, Runtime};

use super::bounds::Interrupt;
use super::compiled::InternalScript;
use super::host::{HostState, SharedHost, host_object};
use super::memory::{Budget, Meter};
use super::run::{quickjs_failure, start_failure_text};
use crate::Error;

static BOOTSTRAP: InternalScript =
    InternalScript::stripped("bootstrap", include_str!("bootstrap.js"));
/// Removes the built-in members QuickJS has and the reference's V8 lacks.
static INTRINSICS: InternalScript =
    InternalScript::stripped("intrinsics", include_str!("intrinsics.js"));

unsafe extern "C" {
    /// Engine patch 0041 (`vendor/patches`): the embedder's stack hook, called with every
    /// error the context makes and its call sites (a program's own `Error.prepareStackTrace`
    /// is an ordinary property of `Error`, as on V8).
    fn JS_SetErrorPrepareStackTrace(
        ctx: *mut rquickjs::qjs::JSContext,
        hook: rquickjs::qjs::JSValue,
    );
}

/// QuickJS's own initial collection threshold.
const DEFAULT_GC_THRESHOLD: usize = 256 << 10;

/// The object `bootstrap.js` returns (the run loop's hook), kept in the runtime's userdata:
/// no global names it, so a program cannot reach it, enumerate it or call into it.
pub(super) struct InternalHook<'js>(Object<'js>);

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

/// A fresh runtime and context with the sandbox scope installed.
pub(super) struct Sandbox {
    pub host: SharedHost,
    pub interrupt: Arc<Interrupt>,
    pub meter: Arc<Meter>,
    // Dropped last, in this order.
    pub ctx: Context,
    pub rt: Runtime,
}

impl Sandbox {
    /// Collects garbage as QuickJS does by default from now on: once allocation grows by
    /// half past what a prepared sandbox holds.
    ///
    /// Every prepared sandbox holds the same (the same scripts run in each), so the size is
    /// measured once per process: measuring walks the whole heap, which costs a third of a
    /// trivial run.
    pub(super) fn resume_collection(&self) {
        static PREPARED_BYTES: OnceLock<usize> = OnceLock::new();
        let held = *PREPARED_BYTES
            .get_or_init(|| usize::try_from(self.rt.memory_usage().malloc_size).unwrap_or(0));
        self.rt
            .set_gc_threshold((held + held / 2).max(DEFAULT_GC_THRESHOLD));
    }

    /// Builds a sandbox. Fails only if QuickJS cannot allocate one or the sandbox's own
    /// JavaScript throws, which is a bug, reported as [`Error::StartFailed`].
    pub(super) fn prepare() -> Result<Sandbox, Error> {
        let (budget, meter) = Budget::new();
        let rt = Runtime::new_with_alloc(budget).map_err(quickjs_failure)?;
        // Everything built here lives as long as the sandbox: collecting while building
        // finds no garbage. The run sets a threshold when it starts.
        rt.set_gc_threshold(usize::MAX);
        let interrupt = Interrupt::new();
        let handler = interrupt.clone();
        // An exhausted budget stops the program at once: whatever it does next, the run has
        // ended out of memory, and nothing more it makes is kept.
        let budget_meter = meter.clone();
        rt.set_interrupt_handler(Some(Box::new(move || {
            handler.should_interrupt() || budget_meter.exhausted()
        })));
        let ctx = Context::full(&rt).map_err(quickjs_failure)?;
        let host: SharedHost = Rc::new(RefCell::new(HostState::new(meter.clone())));
        ctx.with(|ctx| install_scope(&ctx, &host))?;
        Ok(Sandbox {
            host,
            interrupt,
            meter,
            ctx,
            rt,
        })
    }
}

/// Runs `bootstrap.js` with the host functions, removes the built-in members the reference
/// lacks (`intrinsics.js`), installs the Web globals and keeps the
/// internal object out of the program's reach.
fn install_scope(ctx: &Ctx<'_>, host: &SharedHost) -> Result<(), Error> {
    let no_modules = Default::default();
    let fail = |error| Error::StartFailed(start_failure_text(error, "", &no_modules));
    let setup: Function = BOOTSTRAP
        .evaluate(ctx)
        .and_then(|value| value.get())
        .catch(ctx)
        .map_err(fail)?;
    let host_fns = host_object(ctx, host).catch(ctx).map_err(fail)?;
    let internal: Object = setup.call((host_fns,)).catch(ctx).map_err(fail)?;
    let outbound: Object = internal.get("outbound").catch(ctx).map_err(fail)?;
    let stack_hook: Function = internal.get("prepareStackTrace").catch(ctx).map_err(fail)?;
    // SAFETY: engine patch 0041's setter takes its own reference to the hook, a function of
    // this live context.
    unsafe { JS_SetErrorPrepareStackTrace(ctx.as_raw().as_ptr(), stack_hook.as_raw()) };
    INTRINSICS
        .evaluate(ctx)
        .and_then(|value| value.get::<Function>())
        .and_then(|align| align.call::<_, ()>(()))
        .catch(ctx)
        .map_err(fail)?;
    super::web::install(ctx, Some(outbound))
        .catch(ctx)
        .map_err(fail)?;
    ctx.store_userdata(InternalHook(internal)).map_err(|_| {
        Error::StartFailed("the sandbox's internal hook could not be stored".into())
    })?;
    Ok(())
}
