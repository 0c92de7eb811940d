//! One run, start to finish, on a worker thread: a fresh QuickJS runtime and context, the
//! sandbox scope, the program loaded as a module, and the event loop that drives promises,
//! timers and tool calls until the program settles or its bound ends it.
//!
//! Guarantees: nothing outlives the run (the runtime is dropped with every value, timer and
//! pending promise in it); tool calls and outbound requests still in flight when the run ends
//! are aborted and never answered into a later run; console lines written before a failure
//! are kept.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, Waker};
use std::time::{Duration, Instant};

use futures::stream::FuturesUnordered;
use futures::{FutureExt, StreamExt};
use rquickjs::context::EvalOptions;
use rquickjs::{CatchResultExt, CaughtError, Ctx, Function, Module, Object, Runtime, Value};
use tokio::runtime::Handle;
use tokio::task::AbortHandle;

use super::bounds::{Interrupt, RunClock};
use super::clone::{CloneError, clone_value};
use super::failure::{
    START_FAILED, StartFailure, module_syntax_failure, quickjs_failure, rendered_error,
    start_failure, syntax_location, translate_at,
};
use super::hook::{internal_object, program_this};
use super::host::{SharedHost, TIMER_COST};
use super::memory::Meter;
use super::modules::{MAIN_MODULE, ModuleMap, check_names, check_syntax, module_map};
use super::proxies::bind_providers;
use super::sandbox::{Sandbox, SandboxContext};
use super::text::CoercedText;
use super::timers::Fired;
use super::v8_messages::translate_syntax_error;
use crate::Error;
use crate::protocol::{
    BoxFuture, Dispatch, Envelope, ExecuteRequest, JsValue, Outbound, OutboundResponse, Outcome,
    Reply, RunError, ToolCall, separate_imports, texts,
};

/// The program's `this`: the reference runs the program inside a method of its
/// `WorkerEntrypoint` (a `CodeExecutor`), so a `this` at the program's top level is that
/// object (`this.count` reads undefined, `String(this)` is `[object WorkerEntrypoint]`).
/// The wrapper opens on the module's first line and closes after the program's `)`, so the
/// program keeps its lines and columns, and the tokens right after it are still `)` and `;`.
const THIS_OPEN: &str = "(function () { delete import.meta[\"codemode.this\"]; return (";
/// The wrapper's close. The reference's method also declares `const result` around the program's call, so the
/// program runs in that binding's temporal dead zone (`result = 1` without a declaration:
/// `Cannot access 'result' before initialization`); the wrapper's `let result`, which
/// nothing ever initializes, keeps that zone.
///
/// The `this` it calls the program's function with is the sandbox's own `CodeExecutor`
/// (made when the sandbox was prepared, see [`super::sandbox`], so part of its image and as
/// fresh for every run as the rest of the scope): the host hands it over in the module's
/// `import.meta` under [`THIS_KEY`]; the close reads it as the call's `this`, and the
/// open deletes it before the program's expression is evaluated, so no code of the
/// program sees it. Compiling and defining the two classes for every run cost more than
/// the program itself; the open's `delete` replaced an arrow function that took the value
/// out, which every run compiled and called (a function less to compile per run).
const THIS_CLOSE: &str = "; let result; }).call(import.meta[\"codemode.this\"])";

/// The `import.meta` key [`THIS_CLOSE`] takes the program's `this` from.
const THIS_KEY: &str = "codemode.this";

/// The bounds one run gets.
#[derive(Debug, Clone, Copy)]
pub(super) struct RunLimits {
    pub memory_limit_bytes: usize,
    pub max_stack_bytes: usize,
    pub bound: Duration,
    /// The wall-clock cap for runs whose clock stops during host waits.
    pub hard_cap: Duration,
}

/// What a finished run leaves behind: its sandbox, with every value, timer and pending
/// promise in it. Dropping it frees the runtime; the worker does so after answering.
pub(super) struct Remains(Session);

impl Remains {
    /// Bytes the used sandbox holds (what restoring it gives back).
    pub(super) fn held_bytes(&self) -> usize {
        self.0.meter.held()
    }

    /// The sandbox, restored to what it was when prepared ([`Sandbox::restored`]): every
    /// other part of the run's session (its calls in flight, its clock) drops first.
    pub(super) fn restored(self) -> Sandbox {
        let Session {
            inflight,
            ready,
            held,
            arrived,
            aborts,
            fetch_aborts,
            host,
            clock,
            interrupt,
            dispatch,
            spawner,
            modules,
            main_source,
            memory_limit_bytes: _,
            meter,
            ctx,
            rt,
        } = self.0;
        drop((
            inflight,
            ready,
            held,
            arrived,
            aborts,
            fetch_aborts,
            clock,
            dispatch,
            spawner,
            modules,
        ));
        drop(main_source);
        Sandbox::restored(host, interrupt, meter, ctx, rt)
    }
}

/// Runs one request in `sandbox` (fresh, never used before). `spawner` is the caller's
/// runtime, where tool calls run.
pub(super) async fn run(
    request: ExecuteRequest,
    limits: RunLimits,
    spawner: Option<Handle>,
    sandbox: Sandbox,
) -> (Result<Outcome, Error>, Remains) {
    sandbox.resume_collection();
    let Sandbox {
        host,
        interrupt,
        meter,
        ctx,
        rt,
    } = sandbox;
    ctx.mark_used();
    meter.set_limit(limits.memory_limit_bytes);
    host.borrow_mut().outbound = match &request.outbound {
        Some(Outbound::Host(handler)) => Some(handler.clone()),
        Some(Outbound::Blocked) | None => None,
    };
    rt.set_max_stack_size(limits.max_stack_bytes);
    let modules = Arc::new(module_map(request.modules.as_ref()));
    rt.set_loader(ModuleMap(modules.clone()), ModuleMap(modules.clone()));
    let clock = RunClock::new(
        limits.bound,
        request.count_host_waits,
        limits.hard_cap,
        interrupt.clone(),
    );
    let mut session = Session {
        inflight: FuturesUnordered::new(),
        ready: VecDeque::new(),
        held: HashMap::new(),
        arrived: Vec::new(),
        aborts: Vec::new(),
        fetch_aborts: HashMap::new(),
        host,
        clock,
        interrupt,
        dispatch: request.dispatch.clone(),
        spawner,
        modules,
        main_source: String::new(),
        memory_limit_bytes: limits.memory_limit_bytes,
        meter,
        ctx,
        rt,
    };
    let outcome = session.run(&request).await;
    for abort in session.aborts.drain(..) {
        abort.abort();
    }
    (outcome, Remains(session))
}

/// What a host call in flight settles with.
enum Answer {
    /// A tool call's envelope.
    Tool(u32, Envelope),
    /// An outbound request's response, or why the handler failed.
    Fetch(u32, Result<OutboundResponse, String>),
}

/// A host call in flight: its answer, and when the answer was there (measured where the
/// call ran, so a busy loop does not reorder answers it looks at late).
type Inflight = Pin<Box<dyn Future<Output = (Answer, Instant)>>>;

struct Session {
    inflight: FuturesUnordered<Inflight>,
    /// Answers queued for the sandbox, delivered one per turn in this order.
    ready: VecDeque<Answer>,
    /// Answers held as host timers until they are due, by call id.
    held: HashMap<u32, Envelope>,
    /// Answers that arrived from the calls in flight, with when each was there and its
    /// call order.
    arrived: Vec<(Instant, u64, Answer)>,
    aborts: Vec<AbortHandle>,
    /// The outbound requests in flight, by id, so that an abandoned one can be aborted.
    fetch_aborts: HashMap<u32, AbortHandle>,
    host: SharedHost,
    clock: RunClock,
    interrupt: Arc<Interrupt>,
    dispatch: Option<Arc<dyn Dispatch>>,
    spawner: Option<Handle>,
    modules: Arc<BTreeMap<String, String>>,
    main_source: String,
    memory_limit_bytes: usize,
    /// The run's memory budget: whether it refused an allocation.
    meter: Arc<Meter>,
    // Dropped last, in this order.
    ctx: SandboxContext,
    rt: Runtime,
}

/// How the event loop ended.
enum Ended {
    Settled,
    TimedOut,
}

/// What handing the new calls to the host did.
enum Batch {
    /// There were none.
    Empty,
    /// They went, and their replies are filed.
    Ran,
    /// The run ended while the loop waited for their replies.
    Ended(Ended),
}

impl Session {
    /// The run's outcome; a run whose memory budget refused an allocation ended out of
    /// memory, whatever the program did after the refusal.
    async fn run(&mut self, request: &ExecuteRequest) -> Result<Outcome, Error> {
        let outcome = self.run_program(request).await;
        if self.meter.exhausted() {
            let mut failed = self.failed(RunError::OutOfMemory {
                limit_bytes: self.memory_limit_bytes,
            });
            // The lines captured before the refusal, wherever the run's end put them.
            if let Ok(ended) = outcome {
                failed.logs = ended.logs;
            }
            return Ok(failed);
        }
        outcome
    }

    async fn run_program(&mut self, request: &ExecuteRequest) -> Result<Outcome, Error> {
        match self.start(request) {
            Ok(()) => {}
            Err(StartFailure::Text(text)) => return Err(Error::StartFailed(text)),
            Err(StartFailure::Syntax { text, line, column }) => {
                return Err(Error::SyntaxError { text, line, column });
            }
            Err(StartFailure::Invalid(text)) => return Err(Error::InvalidRequest(text)),
            Err(StartFailure::Bound(error)) => return Ok(self.failed(error)),
        }
        match self.event_loop().await? {
            Ended::TimedOut => Ok(self.failed(RunError::TimedOut {
                bound_ms: self.clock.bound_ms(),
            })),
            Ended::Settled => {
                // Reading the settled value out runs program code (getters, proxy traps,
                // `message` accessors): it runs under the CPU deadline like any other.
                // process.exit() cancels the run as workerd cancels a request: `execute()`
                // rejects with its text.
                let exited = self
                    .ctx
                    .with(|ctx| internal_object(&ctx)?.get::<_, Option<String>>("exited"))
                    .map_err(quickjs_failure)?;
                if let Some(text) = exited {
                    self.host.borrow_mut().logs.clear();
                    return Err(Error::Rejected(text));
                }
                let began = self.clock.begin_crossing();
                let settled = self.settled();
                self.clock.end_js(began);
                if self.interrupt.fired() {
                    return Ok(self.failed(RunError::TimedOut {
                        bound_ms: self.clock.bound_ms(),
                    }));
                }
                settled
            }
        }
    }

    fn failed(&self, error: RunError) -> Outcome {
        Outcome {
            result: JsValue::Undefined,
            error: Some(error),
            logs: std::mem::take(&mut self.host.borrow_mut().logs),
        }
    }

    /// Builds the scope, binds the providers, runs the preludes and loads the program.
    fn start(&mut self, request: &ExecuteRequest) -> Result<(), StartFailure> {
        let (imports, body) = separate_imports(&request.code);
        // Static imports are this executor's extension for a request with a module map.
        // Without one, the program reads as the reference reads it, spliced into a method
        // body, where `import` must open `import(...)`: V8 names the token after it.
        if !imports.is_empty() && self.modules.is_empty() {
            return Err(StartFailure::Text(format!(
                "{START_FAILED}SyntaxError: {}",
                import_in_body_text(&imports)
            )));
        }
        // The program's first line is the module's second: a syntax error's line in the
        // module, less one, is its line in the request's code (when no import was moved).
        let locatable = imports.is_empty();
        // The worker types every module by its name before anything runs.
        check_names(&self.modules).map_err(StartFailure::Text)?;
        self.main_source =
            format!("{imports};export default {THIS_OPEN}\n{body}\n){THIS_CLOSE};\n");
        self.host.borrow_mut().sources = Some((self.main_source.clone(), self.modules.clone()));
        let began = self.clock.begin_js();
        let main_source = self.main_source.clone();
        let modules = self.modules.clone();
        let host = self.host.clone();
        host.borrow_mut().timers.set_now(Instant::now());
        let result = self.ctx.with(|ctx| -> Result<(), StartFailure> {
            let fail = |ctx: &Ctx<'_>, error: CaughtError<'_>, source: &str| {
                start_failure(ctx, error, source, &modules)
            };
            let internal: Object = internal_object(&ctx)
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, ""))?;
            // No global scope left over from an earlier run of this sandbox.
            let leave: Function = internal
                .get("leaveGlobalScope")
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, ""))?;
            leave
                .call::<_, ()>(())
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, ""))?;
            // Every module is compiled when the worker starts, imported or not.
            check_syntax(&ctx, &modules).map_err(|e| module_syntax_failure(e, &modules))?;
            let fail_provider =
                |e: CaughtError<'_>, source: &str| start_failure(&ctx, e, source, &modules);
            bind_providers(&ctx, &internal, &request.providers, &fail_provider)?;
            for provider in &request.providers {
                if let Some(prelude) = &provider.prelude {
                    let mut options = EvalOptions::default();
                    options.filename = Some(format!("prelude:{}", provider.name));
                    ctx.eval_with_options::<(), _>(prelude.as_str(), options)
                        .catch(&ctx)
                        .map_err(|e| fail(&ctx, e, prelude))?;
                }
            }
            let declared = Module::declare(ctx.clone(), MAIN_MODULE, main_source.as_str())
                .catch(&ctx)
                .map_err(|e| {
                    let location = locatable.then(|| syntax_location(&e)).flatten();
                    match (fail(&ctx, e, &main_source), location) {
                        (StartFailure::Text(text), Some((line, column))) => StartFailure::Syntax {
                            text,
                            line: line - 1,
                            column,
                        },
                        (failure, _) => failure,
                    }
                })?;
            // The program's `this` (see THIS_CLOSE): the wrapper takes it out of
            // `import.meta` before the program runs.
            let executor = program_this(&ctx)
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, ""))?;
            declared
                .meta()
                .and_then(|meta| meta.set(THIS_KEY, executor))
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, ""))?;
            let (module, loaded) = declared
                .eval()
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, &main_source))?;
            let namespace = module
                .namespace()
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, &main_source))?;
            let start: Function = internal
                .get("start")
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, ""))?;
            // The loop's clock starts when the program does, not when it was compiled.
            host.borrow_mut().timers.set_now(Instant::now());
            start
                .call::<_, ()>((loaded, namespace))
                .catch(&ctx)
                .map_err(|e| fail(&ctx, e, &main_source))?;
            Ok(())
        });
        self.clock.end_js(began);
        match result {
            Err(_) if self.interrupt.fired() => Err(StartFailure::Bound(RunError::TimedOut {
                bound_ms: self.clock.bound_ms(),
            })),
            Err(StartFailure::Text(text)) if text.contains("out of memory") => {
                Err(StartFailure::Bound(RunError::OutOfMemory {
                    limit_bytes: self.memory_limit_bytes,
                }))
            }
            other => other,
        }
    }

    /// Runs every pending job (promise reactions) with the CPU deadline armed, or those up
    /// to the one that takes the program's result: the reference sends the result as it is
    /// then, and nothing run after it reaches the outcome.
    fn drain_jobs(&mut self) {
        let began = self.clock.begin_js();
        loop {
            if self.host.borrow().settled {
                break;
            }
            match self.rt.execute_pending_job() {
                Ok(true) => self.job_ended(),
                Ok(false) => {
                    if !self.modules.is_empty() {
                        // Whatever module evaluation left unfinished (a module that threw, a
                        // link that failed) is over once the queue is empty.
                        self.ctx.with(|ctx| {
                            let leave = internal_object(&ctx)
                                .and_then(|i| i.get::<_, Function>("leaveGlobalScope"));
                            if let Ok(leave) = leave {
                                let _ = leave.call::<_, ()>(()).catch(&ctx);
                            }
                        });
                    }
                    break;
                }
                Err(job) => {
                    job.0.with(|ctx| {
                        let _ = ctx.catch();
                    });
                    if self.interrupt.fired() || self.meter.exhausted() {
                        break;
                    }
                    self.job_ended();
                }
            }
        }
        self.clock.end_js(began);
    }

    /// After a job of a run with modules: once the program started, a module evaluates
    /// inside one job (its import's, which runs the module's microtasks too), so global
    /// scope ends with the job, also when the module threw before its last statement.
    fn job_ended(&mut self) {
        if self.modules.is_empty() {
            return;
        }
        self.ctx.with(|ctx| {
            let ended = internal_object(&ctx).and_then(|i| i.get::<_, Function>("jobEnded"));
            if let Ok(ended) = ended {
                let _ = ended.call::<_, ()>(()).catch(&ctx);
            }
        });
    }

    /// Calls `internal[method](args)` with the CPU deadline armed.
    fn call_internal<A>(&mut self, method: &str, args: A)
    where
        A: for<'js> rquickjs::function::IntoArgs<'js>,
    {
        let began = self.clock.begin_js();
        self.ctx.with(|ctx| {
            let function = internal_object(&ctx).and_then(|i| i.get::<_, Function>(method));
            if let Ok(function) = function {
                let _ = function.call::<_, ()>(args).catch(&ctx);
            }
        });
        self.clock.end_js(began);
    }

    /// The event loop, in the reference's order (`docs/event-loop.md`): answers ready for
    /// the sandbox are delivered one per turn, in the order queued; once none is left, the
    /// calls made since the host last ran reach the host together, and the loop waits for
    /// their [`Reply`]s (immediate answers are queued: the batch's last call first, then the
    /// others in call order; delayed ones become host timers); once that makes nothing more,
    /// the loop is idle and takes one event: the earliest of a due timer (by deadline, then
    /// sequence; the sandbox's and the host's alike) and an answer that arrived late (by
    /// arrival, then call order).
    async fn event_loop(&mut self) -> Result<Ended, Error> {
        loop {
            self.drain_jobs();
            if self.interrupt.fired() || self.meter.exhausted() {
                return Ok(Ended::TimedOut);
            }
            let state: i32 = self
                .ctx
                .with(|ctx| internal_object(&ctx)?.get("state"))
                .map_err(quickjs_failure)?;
            if state != 0 {
                return Ok(Ended::Settled);
            }
            if self.clock.expired() {
                return Ok(Ended::TimedOut);
            }
            self.spawn_new_fetches();
            if let Some(answer) = self.ready.pop_front() {
                self.deliver(answer);
                continue;
            }
            match self.run_batch().await {
                Batch::Empty => {}
                Batch::Ran => continue,
                Batch::Ended(ended) => return Ok(ended),
            }
            // Idle: one event runs.
            let now = Instant::now();
            self.collect_arrived();
            let first_arrival = self
                .arrived
                .iter()
                .enumerate()
                .min_by_key(|(_, (at, order, _))| (*at, *order))
                .map(|(index, (at, _, _))| (index, *at));
            let due = {
                let mut host = self.host.borrow_mut();
                match (host.timers.next_due(), first_arrival) {
                    (Some(due), Some((_, arrival))) if due > arrival => None,
                    _ => host.timers.pop_due(now),
                }
            };
            match due {
                Some(Fired::Timer { id, repeat }) => {
                    if !repeat {
                        self.meter.release_host(TIMER_COST);
                    }
                    self.call_internal("fire", (id, repeat));
                    if repeat {
                        self.host.borrow_mut().timers.rearm(id);
                    }
                    continue;
                }
                Some(Fired::Answer(call)) => {
                    if let Some(envelope) = self.held.remove(&call) {
                        self.deliver(Answer::Tool(call, envelope));
                    }
                    continue;
                }
                None => {}
            }
            if let Some((index, at)) = first_arrival {
                let (_, _, answer) = self.arrived.swap_remove(index);
                self.host.borrow_mut().timers.set_now(at);
                self.deliver(answer);
                continue;
            }
            let counts = self.inflight.is_empty();
            let deadline = self.clock.wait_deadline(counts);
            let next_timer = self.host.borrow().timers.next_due();
            let began = Instant::now();
            let interrupt = self.interrupt.clone();
            let settled = tokio::select! {
                biased;
                // A cancelled run ends at the top of the loop, as one past its bound.
                _ = interrupt.until_cancelled() => None,
                Some(done) = self.inflight.next(), if !self.inflight.is_empty() => Some(done),
                _ = sleep_until(next_timer) => None,
                _ = tokio::time::sleep_until(deadline.into()) => None,
            };
            self.clock.end_wait(began, counts);
            if let Some((answer, at)) = settled {
                self.arrive(at, answer);
            }
        }
    }

    /// Moves every answer that has arrived out of the calls in flight, without waiting.
    fn collect_arrived(&mut self) {
        while let Some(Some((answer, at))) = self.inflight.next().now_or_never() {
            self.arrive(at, answer);
        }
    }

    /// Files an arrived answer with when it was there and the order its call was made (tool
    /// calls before outbound requests).
    fn arrive(&mut self, at: Instant, answer: Answer) {
        let order = match &answer {
            Answer::Tool(id, _) => u64::from(*id),
            Answer::Fetch(id, _) => (1 << 32) | u64::from(*id),
        };
        self.arrived.push((at, order, answer));
    }

    /// Hands one answer to the sandbox.
    fn deliver(&mut self, answer: Answer) {
        match answer {
            Answer::Tool(id, envelope) => {
                let json = envelope_json(envelope);
                self.call_internal("settle", (id, json));
            }
            Answer::Fetch(id, reply) => {
                self.fetch_aborts.remove(&id);
                self.call_internal("settleFetch", (id, reply_json(reply)));
            }
        }
    }

    /// Hands the calls the sandbox made since the host last ran to the dispatch, as one
    /// batch, and waits for every call's [`Reply`] (there at once in process; a round trip
    /// to a remote host). Immediate answers are queued for the sandbox: the batch's last
    /// call first when it is one of them, then the others in call order (as the reference's
    /// host answers a batch); delayed ones are held as host timers, set in call order; the
    /// others run on, their answers arriving later.
    async fn run_batch(&mut self) -> Batch {
        let calls = std::mem::take(&mut self.host.borrow_mut().new_calls);
        if calls.is_empty() {
            return Batch::Empty;
        }
        let replies: Vec<_> = calls
            .into_iter()
            .map(|(id, call)| (id, self.reply(call)))
            .collect();
        let waiting =
            futures::future::join_all(replies.into_iter().map(|(id, reply)| async move {
                match reply {
                    Ok(reply) => (id, reply),
                    Err(waiting) => (id, waiting.await),
                }
            }));
        tokio::pin!(waiting);
        // In process every reply is there: no wait, no task hand-off.
        if let Some(answered) = (&mut waiting).now_or_never() {
            self.file_replies(answered);
            return Batch::Ran;
        }
        let deadline = self.clock.wait_deadline(false);
        let began = Instant::now();
        let interrupt = self.interrupt.clone();
        let answered = tokio::select! {
            biased;
            // A cancelled run ends at the top of the loop, as one past its bound.
            _ = interrupt.until_cancelled() => None,
            answered = &mut waiting => Some(answered),
            _ = tokio::time::sleep_until(deadline.into()) => None,
        };
        self.clock.end_wait(began, false);
        match answered {
            Some(answered) => {
                self.file_replies(answered);
                Batch::Ran
            }
            None if self.interrupt.fired() => Batch::Ran,
            None => Batch::Ended(Ended::TimedOut),
        }
    }

    /// Files a batch's replies, in call order: see [`Session::run_batch`].
    fn file_replies(&mut self, replies: Vec<(u32, Reply)>) {
        let last = replies.len().saturating_sub(1);
        let mut at_once = Vec::new();
        for (index, (id, reply)) in replies.into_iter().enumerate() {
            match reply {
                Reply::Now(envelope) => at_once.push((index == last, Answer::Tool(id, envelope))),
                Reply::After(delay, envelope) => {
                    self.host.borrow_mut().timers.add_answer(id, delay);
                    self.held.insert(id, envelope);
                }
                Reply::Later(future) => self.spawn_late(id, future),
            }
        }
        if let Some(position) = at_once.iter().position(|(is_last, _)| *is_last) {
            let last = at_once.remove(position);
            at_once.insert(0, last);
        }
        self.ready
            .extend(at_once.into_iter().map(|(_, answer)| answer));
    }

    /// Hands one call to the dispatch: its reply when it is there at once, or the future
    /// that brings it.
    fn reply(&mut self, call: ToolCall) -> Result<Reply, BoxFuture<'static, Reply>> {
        let Some(dispatch) = &self.dispatch else {
            return Ok(Reply::Now(Envelope::Error(texts::tool_not_found(
                &call.tool,
            ))));
        };
        // The dispatch, and the first poll of its answer, run here in the caller's
        // runtime's context: a tool that answers at once answers without a task of its
        // own (a hand-off to another thread and back, which costs more than a quick
        // tool); one that does not is spawned on the caller's runtime, as every call is.
        let entered = self.spawner.as_ref().map(Handle::enter);
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let mut future = dispatch.reply(call);
            match future
                .as_mut()
                .poll(&mut std::task::Context::from_waker(Waker::noop()))
            {
                Poll::Ready(reply) => Ok(reply),
                Poll::Pending => Err(future),
            }
        }));
        drop(entered);
        polled.unwrap_or_else(|_| {
            Ok(Reply::Now(Envelope::Error(
                "The tool call failed: its dispatch panicked".into(),
            )))
        })
    }

    /// Runs a call whose answer is not there yet on the caller's runtime; its answer
    /// arrives later, stamped with when it was there.
    fn spawn_late(&mut self, id: u32, future: BoxFuture<'static, Envelope>) {
        let timed = async move { (future.await, Instant::now()) };
        let handle = match &self.spawner {
            Some(spawner) => spawner.spawn(timed),
            None => tokio::spawn(timed),
        };
        self.aborts.push(handle.abort_handle());
        self.inflight.push(Box::pin(async move {
            let (envelope, at) = handle.await.unwrap_or_else(|e| {
                (
                    Envelope::Error(format!("The tool call failed: {e}")),
                    Instant::now(),
                )
            });
            (Answer::Tool(id, envelope), at)
        }));
    }

    /// Hands the outbound requests the sandbox made since the last look to the handler, and
    /// aborts the ones the program abandoned.
    fn spawn_new_fetches(&mut self) {
        let (fetches, cancelled, handler) = {
            let mut host = self.host.borrow_mut();
            (
                std::mem::take(&mut host.new_fetches),
                std::mem::take(&mut host.cancelled_fetches),
                host.outbound.clone(),
            )
        };
        for id in cancelled {
            if let Some(abort) = self.fetch_aborts.remove(&id) {
                abort.abort();
            }
        }
        let Some(handler) = handler else {
            return;
        };
        for (id, request) in fetches {
            let future = handler.fetch(request);
            let timed = async move { (future.await, Instant::now()) };
            let handle = match &self.spawner {
                Some(spawner) => spawner.spawn(timed),
                None => tokio::spawn(timed),
            };
            self.aborts.push(handle.abort_handle());
            self.fetch_aborts.insert(id, handle.abort_handle());
            self.inflight.push(Box::pin(async move {
                let (reply, at) = handle.await.unwrap_or_else(|e| {
                    (
                        Err(format!("The outbound request failed: {e}")),
                        Instant::now(),
                    )
                });
                (Answer::Fetch(id, reply), at)
            }));
        }
    }

    /// The outcome of a program that settled.
    fn settled(&mut self) -> Result<Outcome, Error> {
        let main_source = self.main_source.clone();
        let modules = self.modules.clone();
        let memory_limit_bytes = self.memory_limit_bytes;
        let meter = self.meter.clone();
        let settled = self.ctx.with(|ctx| -> Result<Settled, Error> {
            let internal = internal_object(&ctx).map_err(quickjs_failure)?;
            let state: i32 = internal.get("state").map_err(quickjs_failure)?;
            if state == 1 {
                let value: Value = internal.get("value").map_err(quickjs_failure)?;
                return match clone_value(&ctx, &internal, value, &meter) {
                    Ok(result) => Ok(Settled::Value(result)),
                    Err(CloneError::OutOfMemory) => Ok(Settled::Failed(RunError::OutOfMemory {
                        limit_bytes: memory_limit_bytes,
                    })),
                    Err(CloneError::Uncloneable(text)) => Err(Error::Rejected(text)),
                    Err(CloneError::Js(e)) => Err(Error::Rejected(caught_text(&ctx, e))),
                };
            }
            let thrown: Value = internal.get("error").map_err(quickjs_failure)?;
            let started: bool = internal.get("started").unwrap_or(true);
            if is_out_of_memory(&thrown) {
                return Ok(Settled::Failed(RunError::OutOfMemory {
                    limit_bytes: memory_limit_bytes,
                }));
            }
            if !started {
                return Err(Error::StartFailed(format!(
                    "{START_FAILED}{}",
                    rendered_error(&thrown, &main_source, &modules)
                )));
            }
            Ok(Settled::Failed(threw(
                &ctx,
                &internal,
                &meter,
                thrown,
                &main_source,
                &modules,
            )))
        })?;
        let logs = std::mem::take(&mut self.host.borrow_mut().logs);
        Ok(match settled {
            Settled::Value(result) => Outcome {
                result,
                error: None,
                logs,
            },
            Settled::Failed(error) => Outcome {
                result: JsValue::Undefined,
                error: Some(error),
                logs,
            },
        })
    }
}

enum Settled {
    Value(JsValue),
    Failed(RunError),
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
        None => std::future::pending().await,
    }
}

/// The JSON the sandbox's dispatch promise resolves with.
fn envelope_json(envelope: Envelope) -> String {
    envelope.to_json()
}

/// The JSON the sandbox's outbound promise resolves with: the response with its body in
/// base64, or the handler's failure.
fn reply_json(reply: Result<OutboundResponse, String>) -> String {
    use base64::Engine;
    match reply {
        Ok(response) => serde_json::json!({
            "status": response.status,
            "statusText": response.status_text,
            "headers": response.headers,
            "body": base64::engine::general_purpose::STANDARD.encode(&response.body),
        })
        .to_string(),
        Err(text) => serde_json::json!({ "error": text }).to_string(),
    }
}

/// The text of a caught error (an exception's `String()`), for a failed crossing.
fn caught_text(ctx: &Ctx<'_>, error: rquickjs::Error) -> String {
    match error {
        rquickjs::Error::Exception => {
            let value = ctx.catch();
            value
                .get::<CoercedText>()
                .map(|c| c.0)
                .unwrap_or_else(|_| "The result could not be cloned.".into())
        }
        other => other.to_string(),
    }
}

fn is_out_of_memory(thrown: &Value<'_>) -> bool {
    let Some(object) = thrown.as_object() else {
        return false;
    };
    let name: Option<String> = object.get("name").ok();
    let message: Option<String> = object.get("message").ok();
    name.as_deref() == Some("InternalError") && message.as_deref() == Some("out of memory")
}

/// A thrown value as a run error: its `message` (translated for errors) and its clone.
fn threw<'js>(
    ctx: &Ctx<'js>,
    internal: &Object<'js>,
    meter: &Meter,
    thrown: Value<'js>,
    main_source: &str,
    modules: &BTreeMap<String, String>,
) -> RunError {
    let is_error = thrown.as_object().is_some_and(|o| o.is_error());
    let message = if thrown.is_null() || thrown.is_undefined() {
        None
    } else if let Some(object) = thrown.as_object() {
        let value: Value = object
            .get("message")
            .unwrap_or_else(|_| Value::new_undefined(ctx.clone()));
        match clone_value(ctx, internal, value, meter) {
            // A message holding a lone surrogate is the program's own text, kept whole.
            Ok(JsValue::String(text)) if is_error && text.is_well_formed() => Some(
                JsValue::String(translate_at(&text.to_text(), object, main_source, modules).into()),
            ),
            Ok(value) => Some(value),
            Err(_) => Some(JsValue::Undefined),
        }
    } else {
        Some(JsValue::Undefined)
    };
    let mut thrown = clone_value(ctx, internal, thrown, meter).unwrap_or(JsValue::Undefined);
    if let (JsValue::Error { message: text, .. }, Some(JsValue::String(translated))) =
        (&mut thrown, &message)
    {
        *text = translated.to_text().into_owned();
    }
    RunError::Threw { message, thrown }
}

/// V8's text for a static import declaration inside a function body: the token after
/// `import` is unexpected (`Unexpected identifier 'axios'`, `Unexpected token '{'`).
fn import_in_body_text(imports: &str) -> String {
    // The block opens with whitespace and comments, then the first declaration.
    let mut rest = imports;
    loop {
        rest = rest.trim_start();
        if let Some(comment) = rest.strip_prefix("//") {
            rest = comment.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(comment) = rest.strip_prefix("/*") {
            rest = comment.split_once("*/").map_or("", |(_, after)| after);
        } else {
            break;
        }
    }
    let after = rest.strip_prefix("import").unwrap_or(rest);
    translate_syntax_error("unexpected token", after.trim_start(), 1, 1)
}
