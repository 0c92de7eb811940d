//! A run's sandbox, prepared before its request arrives.
//!
//! Everything a run needs that does not depend on its request (a runtime with its
//! memory budget and interrupt handler, a full context, the scope `bootstrap.js` builds, the
//! Web globals) is built by [`Sandbox::prepare`]. A worker prepares its next sandbox right
//! after answering a run, while it would otherwise wait, so a request only pays for what is
//! its own: providers, preludes, the program.
//!
//! Once prepared, a sandbox's memory (its runtime's own [`Region`]) is imaged; after a run
//! the image is written back over it ([`Sandbox::restored`]), which makes it, byte for
//! byte, the sandbox it was before the run: the next run gets a sandbox as fresh as a newly
//! prepared one for the price of a copy (see `docs/performance.md`, "How a run stays cheap").
//!
//! Guarantees: a sandbox serves one run at a time, and every run starts from the prepared
//! state (a new sandbox, or one whose memory was restored from its image and whose host
//! state was made anew: no value, timer, module, seed or count of a run reaches the next);
//! a prepared sandbox holds no request data; the run sets its bounds (memory limit, stack,
//! module map) before any of its code runs.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use rquickjs::context::EvalOptions;
use rquickjs::{CatchResultExt, Context, Ctx, Function, Object, Runtime};

use super::bounds::Interrupt;
use super::compiled::InternalScript;
use super::failure::{quickjs_failure, start_failure_text};
use super::hook::{InternalHook, internal_object};
use super::host::{HostState, SharedHost, host_object};
use super::memory::{Budget, Meter};
use super::modules::ModuleMap;
use super::region::{Image, Region};
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
    /// Engine patch 0043: every object the runtime holds now is part of its image; freeing
    /// one later does not finalize what it holds of the host's.
    fn JS_MarkRuntimePrepared(rt: *mut rquickjs::qjs::JSRuntime);
    /// Engine patch 0043: the run is over and the image comes back next; what the objects
    /// made since the image hold of the host's is finalized, nothing else is freed.
    fn JS_AbandonRuntimeRun(rt: *mut rquickjs::qjs::JSRuntime);
    /// Engine patch 0043: seeds `Math.random`.
    fn JS_SetRandomSeed(ctx: *mut rquickjs::qjs::JSContext, seed: u64);
}

/// The address space a sandbox's region reserves for a run bounded to `memory_limit`
/// bytes: twice the limit (room for the allocator's fragmentation) and 64 MiB (the
/// prepared scope, the budget's reserve), at most 1 TiB. Address space only: the system
/// provides memory for what the run touches.
pub(super) fn region_bytes(memory_limit: usize) -> usize {
    memory_limit
        .saturating_mul(2)
        .saturating_add(64 << 20)
        .min(1 << 40)
}

/// A sandbox's context, with the memory its runtime allocates from and the image of that
/// memory as prepared.
///
/// Restoring ([`SandboxContext::restore`]) ends a run: what the run's objects hold of the
/// host's is finalized (engine patch `0043`), then the image is written back, so the
/// runtime is again what preparation left, at the same addresses; `Math.random` is seeded
/// anew. Dropping it abandons the runtime (engine patch `0042`): its heap is not taken
/// apart object by object; the engine finalizes what holds the host's memory (Rust
/// functions and classes, external array buffers) and the region is unmapped whole when
/// the runtime drops. A sandbox dropped after a run is restored first, so that what the
/// image's own objects hold of the host's is finalized too.
///
/// After a restore or the abandonment no value made before it may be used or dropped: every
/// field declared before this one in [`Sandbox`] and the run's session holds none or has
/// already dropped.
pub(super) struct SandboxContext {
    ctx: Context,
    region: Rc<Region>,
    image: Image,
    /// What the budget counted when the image was taken.
    imaged_bytes: usize,
    /// Whether a run used the sandbox since it was imaged or restored.
    used: Cell<bool>,
}

impl std::ops::Deref for SandboxContext {
    type Target = Context;

    fn deref(&self) -> &Context {
        &self.ctx
    }
}

impl SandboxContext {
    /// Records that a run uses the sandbox (a drop then restores it first).
    pub(super) fn mark_used(&self) {
        self.used.set(true);
    }

    /// Writes the image back over the sandbox's memory after a run, and seeds `Math.random`
    /// anew (the image holds the seed preparation drew).
    fn restore(&self) {
        self.ctx.with(|ctx| {
            // SAFETY: the context is live; the run's values have all dropped (the caller's
            // guarantee), and nothing runs in the runtime until the image is back.
            unsafe { JS_AbandonRuntimeRun(rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr())) }
        });
        // SAFETY: the image was captured from this region; no value of the run is held, and
        // the context's own references are the image's (taken before it was captured).
        unsafe { self.region.restore(&self.image) };
        self.used.set(false);
        let seed = getrandom::u64().unwrap_or_else(|_| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        // SAFETY: the context is live again, as the image holds it.
        self.ctx
            .with(|ctx| unsafe { JS_SetRandomSeed(ctx.as_raw().as_ptr(), seed) });
    }
}

impl Drop for SandboxContext {
    fn drop(&mut self) {
        if self.used.get() {
            self.restore();
        }
        self.ctx.with(|ctx| {
            // SAFETY: the context is live; nothing runs in its runtime after this (the
            // sandbox is being dropped, its runtime next), and the runtime's region is
            // unmapped whole once the runtime has dropped.
            unsafe { JS_AbandonRuntime(rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr())) }
        });
    }
}

/// QuickJS's own initial collection threshold.
const DEFAULT_GC_THRESHOLD: usize = 256 << 10;

/// A runtime and context with the sandbox scope installed, newly prepared or restored.
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

    /// Builds a sandbox whose region reserves `capacity` bytes (see [`region_bytes`]).
    /// Fails only if the system has no address space for it, QuickJS cannot allocate one or
    /// the sandbox's own JavaScript throws, which is a bug, reported as
    /// [`Error::StartFailed`].
    pub(super) fn prepare(capacity: usize) -> Result<Sandbox, Error> {
        Preparation::start(capacity)?.into_sandbox()
    }

    /// The sandbox of a finished run made again what it was when prepared: its memory
    /// restored from its image, its host state, interrupt and budget made anew, no module
    /// map. Every value of the run must have dropped (the run's session holds the parts).
    pub(super) fn restored(
        host: SharedHost,
        interrupt: Arc<Interrupt>,
        meter: Arc<Meter>,
        ctx: SandboxContext,
        rt: Runtime,
    ) -> Sandbox {
        ctx.restore();
        meter.reset(ctx.imaged_bytes);
        *host.borrow_mut() = HostState::new(meter.clone());
        interrupt.reset();
        let none = Arc::new(BTreeMap::new());
        rt.set_loader(ModuleMap(none.clone()), ModuleMap(none));
        Sandbox {
            host,
            interrupt,
            meter,
            ctx,
            rt,
        }
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
    region: Rc<Region>,
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
    /// The first stage: a fresh runtime in a region of `capacity` bytes of address space,
    /// with its memory budget and interrupt handler.
    pub(super) fn start(capacity: usize) -> Result<Preparation, Error> {
        let (budget, meter, region) = Budget::new(capacity).ok_or_else(|| {
            Error::StartFailed(format!(
                "the system refused {capacity} bytes of address space for a sandbox's memory"
            ))
        })?;
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
            region,
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
        ctx.with(|ctx| {
            // SAFETY: the context is live and runs nothing meanwhile.
            unsafe { JS_MarkRuntimePrepared(rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr())) }
        });
        let image = self.region.capture();
        let imaged_bytes = self.meter.js_used();
        Ok(Sandbox {
            host: self.host,
            interrupt: self.interrupt,
            meter: self.meter,
            ctx: SandboxContext {
                ctx,
                region: self.region,
                image,
                imaged_bytes,
                used: Cell::new(false),
            },
            rt: self.rt,
        })
    }
}

fn fail_text(error: rquickjs::CaughtError<'_>) -> Error {
    Error::StartFailed(start_failure_text(error, "", &Default::default()))
}

/// The program's `this`, as one expression: an instance of the classes the reference runs the
/// program in (its `WorkerEntrypoint`, a `CodeExecutor`), so `this.count` reads undefined and
/// `String(this)` is `[object WorkerEntrypoint]`.
const EXECUTOR_CLASSES: &str = "new (class CodeExecutor extends (class WorkerEntrypoint { \
    get [Symbol.toStringTag]() { return \"WorkerEntrypoint\" } }) { evaluate() {} })()";

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
    // The program's `this` (run.rs, `THIS_CLOSE`): made here, once per sandbox, so a run
    // compiles and defines no class of its own; restoring the image makes it again what it
    // was, whatever a run did to it. Its source is kept: `this.constructor` prints it.
    let mut options = EvalOptions::default();
    options.filename = Some(super::modules::MAIN_MODULE.into());
    let executor: Object = ctx
        .eval_with_options(EXECUTOR_CLASSES, options)
        .catch(ctx)
        .map_err(fail_text)?;
    ctx.store_userdata(InternalHook {
        hook: internal,
        program_this: executor,
    })
    .map_err(|_| Error::StartFailed("the sandbox's internal hook could not be stored".into()))?;
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
        .and_then(|()| super::web::class_prototypes(ctx).map(drop))
        .catch(ctx)
        .map_err(fail_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST_REGION: usize = 256 << 20;

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

    /// A Rust function holding `held`, set as the global `name` (it answers how many hold
    /// `held`).
    fn set_probe(ctx: &Ctx<'_>, name: &str, held: &Arc<()>) {
        let kept = held.clone();
        let probe =
            Function::new(ctx.clone(), move || Arc::strong_count(&kept)).expect("a function");
        ctx.globals().set(name, probe).expect("set");
    }

    #[test]
    fn a_dropped_sandbox_finalizes_what_holds_the_hosts_memory() {
        let held = Arc::new(());
        let sandbox = Sandbox::prepare(TEST_REGION).expect("a sandbox");
        sandbox.ctx.with(|ctx| {
            set_probe(&ctx, "probe", &held);
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
    fn a_restore_finalizes_what_the_run_made_and_keeps_what_the_image_holds() {
        let made_by_run = Arc::new(());
        let in_image = Arc::new(());
        let mut preparation = Preparation::start(TEST_REGION).expect("a runtime");
        while !preparation.step().expect("a stage") {}
        preparation
            .ctx
            .as_ref()
            .expect("a context")
            .with(|ctx| set_probe(&ctx, "imaged", &in_image));
        let sandbox = preparation.into_sandbox().expect("a sandbox");
        let parts = |s: Sandbox| (s.host, s.interrupt, s.meter, s.ctx, s.rt);
        let mut sandbox = sandbox;
        for round in 0..4 {
            // Odd rounds collect (which reorders the engine's object list, so the restore
            // walks all of it); even ones do not, so the restore finalizes the run's objects
            // from the list's end alone, and their run grows the global object after making
            // the probe (a shape resized moves to the list's end, and a shape must not end
            // that walk before the probe).
            let collect = round % 2 == 1;
            sandbox.ctx.mark_used();
            sandbox.ctx.with(|ctx| {
                set_probe(&ctx, "probe", &made_by_run);
                // The run's function in a cycle (only a collection or the restore frees it);
                // the image's function deleted and collected: its closure must survive, the
                // image holds the function again.
                let count: usize = ctx
                    .eval("const o = { probe }; o.self = o; probe.o = o; delete globalThis.imaged; probe()")
                    .expect("the run");
                assert_eq!(count, 2, "round {round}");
                if !collect {
                    ctx.eval::<(), _>("for (let i = 0; i < 256; i++) globalThis['grown' + i] = i;")
                        .expect("the global grows");
                }
            });
            if collect {
                sandbox.rt.run_gc();
                assert_eq!(
                    Arc::strong_count(&in_image),
                    2,
                    "round {round}: collected, not finalized"
                );
            }
            let (host, interrupt, meter, ctx, rt) = parts(sandbox);
            sandbox = Sandbox::restored(host, interrupt, meter, ctx, rt);
            assert_eq!(
                Arc::strong_count(&made_by_run),
                1,
                "round {round}: the run's closure dropped"
            );
            let seen = sandbox.ctx.with(|ctx| {
                ctx.eval::<String, _>("typeof probe + ' ' + imaged()")
                    .expect("the next run")
            });
            assert_eq!(seen, "undefined 2", "round {round}");
        }
        drop(sandbox);
        assert_eq!(
            Arc::strong_count(&in_image),
            1,
            "the image's closure dropped with the sandbox"
        );
    }

    #[test]
    fn a_sandbox_dropped_after_a_run_finalizes_what_the_run_freed_of_the_image() {
        let in_image = Arc::new(());
        let mut preparation = Preparation::start(TEST_REGION).expect("a runtime");
        while !preparation.step().expect("a stage") {}
        preparation
            .ctx
            .as_ref()
            .expect("a context")
            .with(|ctx| set_probe(&ctx, "probe", &in_image));
        let sandbox = preparation.into_sandbox().expect("a sandbox");
        sandbox.ctx.mark_used();
        sandbox.ctx.with(|ctx| {
            ctx.eval::<(), _>("delete globalThis.probe")
                .expect("the run")
        });
        sandbox.rt.run_gc();
        assert_eq!(
            Arc::strong_count(&in_image),
            2,
            "collected during the run, not finalized"
        );
        drop(sandbox);
        assert_eq!(
            Arc::strong_count(&in_image),
            1,
            "restored, then finalized with the rest"
        );
    }

    #[test]
    fn a_preparation_runs_every_stage_once_in_order() {
        let mut preparation = Preparation::start(TEST_REGION).expect("a runtime");
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
        let mut preparation = Preparation::start(TEST_REGION).expect("a runtime");
        assert!(!preparation.step().expect("the context"));
        assert!(!preparation.step().expect("the bootstrap"));
        let sandbox = preparation.into_sandbox().expect("a sandbox");
        assert_eq!(scope_seen(&sandbox), "function false function function");
        let whole = Sandbox::prepare(TEST_REGION).expect("a sandbox");
        assert_eq!(scope_seen(&whole), scope_seen(&sandbox));
    }
}
