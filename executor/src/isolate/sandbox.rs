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
    /// Engine patch 0042: nothing of the runtime is freed piecewise from now on; freeing it
    /// finalizes only what may hold the host's memory, and its allocator frees the rest.
    fn JS_AbandonRuntime(rt: *mut rquickjs::qjs::JSRuntime);
}

/// A sandbox's context. Dropping it abandons the sandbox's runtime (engine patch `0042`):
/// a sandbox is never used again once its run ended, so its heap is not taken apart object
/// by object (a full collection and every free, a sixth of a trivial run's instructions);
/// the runtime's [`super::heap::Heap`] returns every block when the runtime drops, after
/// the engine has finalized what holds the host's memory (Rust functions and classes,
/// external array buffers).
///
/// After it, the runtime runs no code: a value of the sandbox dropped later is not freed on
/// its own (the heap returns it with the rest), and every field declared before it in
/// [`Sandbox`] and the run's session has already dropped, freeing normally.
pub(super) struct SandboxContext(Context);

impl std::ops::Deref for SandboxContext {
    type Target = Context;

    fn deref(&self) -> &Context {
        &self.0
    }
}

impl Drop for SandboxContext {
    fn drop(&mut self) {
        self.0.with(|ctx| {
            // SAFETY: the context is live; nothing runs in its runtime after this (the
            // sandbox is being dropped, its runtime next), and the runtime's allocator is a
            // `Heap`, which frees every block the engine leaves.
            unsafe { JS_AbandonRuntime(rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr())) }
        });
    }
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
    pub ctx: SandboxContext,
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
        Preparation::start()?.into_sandbox()
    }
}

/// A sandbox being built, one stage at a time, so that a worker can answer a run between
/// two stages instead of after the whole preparation (see [`super::pool`]).
///
/// The stages, in order, with what each costs (instructions counted by callgrind, bench
/// `stages`): the runtime (0.1M, [`Preparation::start`]), the context with every intrinsic
/// (0.9M), the scope `bootstrap.js` builds (1.0M), the built-in members the reference lacks
/// removed (`intrinsics.js`, 0.3M), the Web globals (0.6M).
///
/// Guarantees: the stages run in that order, each once, on the runtime this preparation
/// made; nothing but the next stage touches it in between (a preparation holds no request
/// data and serves no run until [`step`](Preparation::step) has run the last stage).
pub(super) struct Preparation {
    next: Stage,
    host: SharedHost,
    interrupt: Arc<Interrupt>,
    meter: Arc<Meter>,
    // Dropped last, in this order.
    ctx: Option<Context>,
    rt: Runtime,
}

/// The stage a [`Preparation`] runs next.
#[derive(Clone, Copy)]
enum Stage {
    Context,
    Bootstrap,
    Intrinsics,
    Web,
    /// Every stage has run.
    Ready,
}

impl Preparation {
    /// The first stage: a fresh runtime with its memory budget and interrupt handler.
    pub(super) fn start() -> Result<Preparation, Error> {
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
        let host: SharedHost = Rc::new(RefCell::new(HostState::new(meter.clone())));
        Ok(Preparation {
            next: Stage::Context,
            host,
            interrupt,
            meter,
            ctx: None,
            rt,
        })
    }

    /// Runs the next stage; `true` once the last has run (then the preparation is ready:
    /// [`into_sandbox`](Preparation::into_sandbox)). A stage that fails leaves the
    /// preparation useless: the caller drops it.
    pub(super) fn step(&mut self) -> Result<bool, Error> {
        let stage = self.next;
        let Some(ctx) = &self.ctx else {
            self.ctx = Some(Context::full(&self.rt).map_err(quickjs_failure)?);
            self.next = Stage::Bootstrap;
            return Ok(false);
        };
        ctx.with(|ctx| match stage {
            Stage::Context | Stage::Ready => Ok(()),
            Stage::Bootstrap => install_bootstrap(&ctx, &self.host),
            Stage::Intrinsics => align_intrinsics(&ctx),
            Stage::Web => install_web(&ctx),
        })?;
        self.next = match stage {
            Stage::Context | Stage::Bootstrap => Stage::Intrinsics,
            Stage::Intrinsics => Stage::Web,
            Stage::Web | Stage::Ready => Stage::Ready,
        };
        Ok(matches!(self.next, Stage::Ready))
    }

    /// The sandbox, once [`step`](Preparation::step) has answered `true`; a preparation
    /// not yet ready is finished first.
    pub(super) fn into_sandbox(mut self) -> Result<Sandbox, Error> {
        while !self.step()? {}
        let Some(ctx) = self.ctx else {
            return Err(Error::Internal("a ready sandbox has no context".into()));
        };
        Ok(Sandbox {
            host: self.host,
            interrupt: self.interrupt,
            meter: self.meter,
            ctx: SandboxContext(ctx),
            rt: self.rt,
        })
    }
}

fn fail_text(error: rquickjs::CaughtError<'_>) -> Error {
    Error::StartFailed(start_failure_text(error, "", &Default::default()))
}

/// Runs `bootstrap.js` with the host functions and keeps the internal object it returns
/// out of the program's reach, in the runtime's userdata.
fn install_bootstrap(ctx: &Ctx<'_>, host: &SharedHost) -> Result<(), Error> {
    let setup: Function = BOOTSTRAP
        .evaluate(ctx)
        .and_then(|value| value.get())
        .catch(ctx)
        .map_err(fail_text)?;
    let host_fns = host_object(ctx, host).catch(ctx).map_err(fail_text)?;
    let internal: Object = setup.call((host_fns,)).catch(ctx).map_err(fail_text)?;
    let stack_hook: Function = internal
        .get("prepareStackTrace")
        .catch(ctx)
        .map_err(fail_text)?;
    // SAFETY: engine patch 0041's setter takes its own reference to the hook, a function of
    // this live context.
    unsafe { JS_SetErrorPrepareStackTrace(ctx.as_raw().as_ptr(), stack_hook.as_raw()) };
    ctx.store_userdata(InternalHook(internal)).map_err(|_| {
        Error::StartFailed("the sandbox's internal hook could not be stored".into())
    })?;
    Ok(())
}

/// Removes the built-in members the reference lacks (`intrinsics.js`).
fn align_intrinsics(ctx: &Ctx<'_>) -> Result<(), Error> {
    INTRINSICS
        .evaluate(ctx)
        .and_then(|value| value.get::<Function>())
        .and_then(|align| align.call::<_, ()>(()))
        .catch(ctx)
        .map_err(fail_text)
}

/// Installs the Web globals, with the outbound hook `bootstrap.js` made.
fn install_web(ctx: &Ctx<'_>) -> Result<(), Error> {
    let outbound: Object = internal_object(ctx)
        .and_then(|internal| internal.get("outbound"))
        .catch(ctx)
        .map_err(fail_text)?;
    super::web::install(ctx, Some(outbound))
        .catch(ctx)
        .map_err(fail_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a program sees of the scope: bootstrap's console, intrinsics.js's removals, a
    /// lazy Web global, and the run loop's hook (kept out of the program's reach).
    fn scope_seen(sandbox: &Sandbox) -> String {
        sandbox.ctx.with(|ctx| {
            assert!(internal_object(&ctx).is_ok(), "the hook is stored");
            ctx.eval::<String, _>(
                "[typeof console.log, 'chunks' in Iterator.prototype, typeof URL, \
                  typeof TextEncoder].join(' ')",
            )
            .expect("the probe runs")
        })
    }

    #[test]
    fn a_dropped_sandbox_finalizes_what_holds_the_hosts_memory() {
        use std::sync::Arc;
        let held = Arc::new(());
        let sandbox = Sandbox::prepare().expect("a sandbox");
        sandbox.ctx.with(|ctx| {
            let kept = held.clone();
            let probe = rquickjs::Function::new(ctx.clone(), move || Arc::strong_count(&kept))
                .expect("a Rust function");
            ctx.globals().set("probe", probe).expect("set");
            // A cycle through the Rust function: only a collection (or the abandoned
            // runtime's finalization) frees it.
            let count: usize = ctx
                .eval("const o = { probe }; o.self = o; probe.o = o; probe()")
                .expect("the probe runs");
            assert_eq!(count, 2);
        });
        let meter = sandbox.meter.clone();
        assert!(meter.held() > 0, "the sandbox's heap is counted");
        drop(sandbox);
        assert_eq!(
            Arc::strong_count(&held),
            1,
            "the abandoned runtime dropped the Rust function's closure"
        );
    }

    #[test]
    fn a_preparation_runs_every_stage_once_in_order() {
        let mut preparation = Preparation::start().expect("a runtime");
        let mut steps = 0;
        while !preparation.step().expect("a stage") {
            steps += 1;
            assert!(steps < 10, "the stages end");
        }
        assert_eq!(
            steps, 3,
            "context, bootstrap, intrinsics, then the Web stage ends it"
        );
        assert!(
            preparation.step().expect("a ready preparation"),
            "ready stays ready"
        );
        let sandbox = preparation.into_sandbox().expect("a sandbox");
        assert_eq!(scope_seen(&sandbox), "function false function function");
    }

    #[test]
    fn a_preparation_taken_half_way_is_finished_first() {
        let mut preparation = Preparation::start().expect("a runtime");
        assert!(!preparation.step().expect("the context"));
        assert!(!preparation.step().expect("the bootstrap"));
        let sandbox = preparation.into_sandbox().expect("a sandbox");
        assert_eq!(scope_seen(&sandbox), "function false function function");
        let whole = Sandbox::prepare().expect("a sandbox");
        assert_eq!(scope_seen(&whole), scope_seen(&sandbox));
    }
}
