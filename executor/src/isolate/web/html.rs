//! lol_html for `html.js`: HTMLRewriter on Cloudflare's own streaming rewriter, the one
//! workerd wraps, so selectors, parsing, the texts of its errors and the bytes it writes are
//! the reference's.
//!
//! lol_html calls its handlers synchronously, in the middle of `write`; a Workers handler may
//! return a promise the rewriter waits for. So each transform's lol_html runs on a worker
//! thread of its own, driven by the script's thread through two channels: the script sends a
//! chunk (`write`), the worker parses until a handler is due and reports the token (its kind,
//! the script's handler id, a pointer to it), then waits. The script runs the handler (and
//! awaits it), its calls on the token go through [`Rewriter::op`] (the worker is parked
//! inside the handler, so the token is alive and nothing else touches it), and `resume` lets
//! the worker go on. A chunk's output is collected and taken by the script.
//!
//! Bounds: lol_html buffers at most [`MEMORY_LIMIT`] bytes (a tag or a text it must hold
//! whole); what it writes is handed to the script chunk by chunk, where the run's memory limit
//! counts it. At most [`MAX_WORKERS`] rewriters run at once in the process; a worker ends with
//! its document, its failure, or when the script drops its rewriter.

use std::borrow::Cow;
use std::ffi::c_void;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use lol_html::html_content::{
    Comment, ContentType, Doctype, DocumentEnd, Element, EndTag, TextChunk,
};
use lol_html::{
    DocumentContentHandlers, ElementContentHandlers, HandlerResult, HtmlRewriter, MemorySettings,
    Selector, Settings,
};
use rquickjs::class::Trace;
use rquickjs::function::Opt;
use rquickjs::{
    Array, Class, Ctx, Exception, Function, IntoJs, JsLifetime, Object, TypedArray, Value,
};

/// The most lol_html may buffer for one transform.
pub(crate) const MEMORY_LIMIT: usize = 16 << 20;
/// The most rewriter workers alive at once in the process.
pub(crate) const MAX_WORKERS: usize = 256;

static WORKERS: AtomicUsize = AtomicUsize::new(0);

const STALE: &str = "This content token is no longer valid. Content tokens are only valid during the execution of the relevant content handler.";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Element,
    EndTag,
    Text,
    Comment,
    Doctype,
    End,
}

/// A token the worker is parked on, as an untyped pointer to its lol_html type.
struct Token(*mut c_void);
// SAFETY: the pointer is only followed on the script's thread while the worker that owns the
// token is blocked inside the handler, waiting on a channel (which orders the accesses).
unsafe impl Send for Token {}

/// What the worker tells the script.
enum Report {
    /// A handler is due on this token.
    Token {
        kind: Kind,
        handler: u32,
        token: Token,
    },
    /// The chunk (or the end of the document) went through.
    Done,
    /// The rewriter failed: lol_html's text, or an abort the script asked for.
    Failed(String),
}

/// What the script tells the worker.
enum Order {
    Write(Vec<u8>),
    End,
    /// The handler finished: go on (`true`), or abort the document (`false`).
    Resume(bool),
}

/// The worker's ends of the two channels; shared with the end-tag handlers the script adds.
struct WorkerLink {
    orders: Mutex<mpsc::Receiver<Order>>,
    reports: Mutex<mpsc::Sender<Report>>,
}

/// Parks the worker until the script has run handler `handler` on `token`.
fn ask(link: &WorkerLink, kind: Kind, handler: u32, token: *mut c_void) -> HandlerResult {
    let sent = link
        .reports
        .lock()
        .map_err(|_| "poisoned")?
        .send(Report::Token {
            kind,
            handler,
            token: Token(token),
        });
    sent.map_err(|_| "the script went away")?;
    let order = link.orders.lock().map_err(|_| "poisoned")?.recv();
    match order {
        Ok(Order::Resume(true)) => Ok(()),
        _ => Err("aborted by the script".into()),
    }
}

/// The handlers of one transform, as the script numbered them (-1: none).
struct Plan {
    selectors: Vec<String>,
    /// element, comments, text per selector.
    element_ids: Vec<i32>,
    /// doctype, comments, text, end per `onDocument`.
    document_ids: Vec<i32>,
}

fn id(ids: &[i32], i: usize) -> Option<u32> {
    ids.get(i).and_then(|&n| u32::try_from(n).ok())
}

fn run_worker(plan: Plan, link: Arc<WorkerLink>, output: Arc<Mutex<Vec<u8>>>) {
    let report = |r: Report| {
        if let Ok(tx) = link.reports.lock() {
            let _ = tx.send(r);
        }
    };
    let mut settings = Settings::new()
        .with_memory_settings(MemorySettings::new().with_max_allowed_memory_usage(MEMORY_LIMIT));
    for (i, selector) in plan.selectors.iter().enumerate() {
        let selector = match Selector::from_str(selector) {
            Ok(s) => s,
            Err(e) => return report(Report::Failed(e.to_string())),
        };
        let mut h = ElementContentHandlers::default();
        if let Some(n) = id(&plan.element_ids, 3 * i) {
            let l = link.clone();
            h = h.element(move |el: &mut Element<'_, '_>| {
                ask(
                    &l,
                    Kind::Element,
                    n,
                    el as *mut Element<'_, '_> as *mut c_void,
                )
            });
        }
        if let Some(n) = id(&plan.element_ids, 3 * i + 1) {
            let l = link.clone();
            h = h.comments(move |c: &mut Comment<'_>| {
                ask(&l, Kind::Comment, n, c as *mut Comment<'_> as *mut c_void)
            });
        }
        if let Some(n) = id(&plan.element_ids, 3 * i + 2) {
            let l = link.clone();
            h = h.text(move |t: &mut TextChunk<'_>| {
                ask(&l, Kind::Text, n, t as *mut TextChunk<'_> as *mut c_void)
            });
        }
        settings = settings.append_element_content_handler((Cow::Owned(selector), h));
    }
    for i in 0..plan.document_ids.len() / 4 {
        let mut h = DocumentContentHandlers::default();
        if let Some(n) = id(&plan.document_ids, 4 * i) {
            let l = link.clone();
            h = h.doctype(move |d: &mut Doctype<'_>| {
                ask(&l, Kind::Doctype, n, d as *mut Doctype<'_> as *mut c_void)
            });
        }
        if let Some(n) = id(&plan.document_ids, 4 * i + 1) {
            let l = link.clone();
            h = h.comments(move |c: &mut Comment<'_>| {
                ask(&l, Kind::Comment, n, c as *mut Comment<'_> as *mut c_void)
            });
        }
        if let Some(n) = id(&plan.document_ids, 4 * i + 2) {
            let l = link.clone();
            h = h.text(move |t: &mut TextChunk<'_>| {
                ask(&l, Kind::Text, n, t as *mut TextChunk<'_> as *mut c_void)
            });
        }
        if let Some(n) = id(&plan.document_ids, 4 * i + 3) {
            let l = link.clone();
            h = h.end(move |e: &mut DocumentEnd<'_>| {
                ask(&l, Kind::End, n, e as *mut DocumentEnd<'_> as *mut c_void)
            });
        }
        settings = settings.append_document_content_handler(h);
    }
    let sink = output.clone();
    let mut rewriter = HtmlRewriter::new(settings, move |chunk: &[u8]| {
        if let Ok(mut out) = sink.lock() {
            out.extend_from_slice(chunk);
        }
    });
    loop {
        let order = match link.orders.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        match order {
            Ok(Order::Write(bytes)) => {
                if let Err(e) = rewriter.write(&bytes) {
                    return report(Report::Failed(e.to_string()));
                }
                report(Report::Done);
            }
            Ok(Order::End) => {
                return report(match rewriter.end() {
                    Ok(()) => Report::Done,
                    Err(e) => Report::Failed(e.to_string()),
                });
            }
            // A resume with no handler parked, or the script dropped its end: stop.
            Ok(Order::Resume(_)) | Err(_) => return,
        }
    }
}

/// Decrements the worker count when a worker ends, however it ends.
struct WorkerSlot;
impl Drop for WorkerSlot {
    fn drop(&mut self) {
        WORKERS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The script's end of one transform.
struct Driver {
    orders: mpsc::Sender<Order>,
    reports: mpsc::Receiver<Report>,
    link: Arc<WorkerLink>,
}

/// One transform's rewriter, as the script holds it.
#[derive(Trace, JsLifetime)]
#[rquickjs::class(rename = "HtmlRewriterNative")]
pub(crate) struct Rewriter {
    #[qjs(skip_trace)]
    plan: Option<Plan>,
    #[qjs(skip_trace)]
    driver: Option<Driver>,
    #[qjs(skip_trace)]
    output: Arc<Mutex<Vec<u8>>>,
    #[qjs(skip_trace)]
    current: Option<(Kind, Token)>,
}

fn type_error<T>(ctx: &Ctx<'_>, text: &str) -> rquickjs::Result<T> {
    Err(Exception::throw_type(ctx, text))
}

fn parser_error<T>(ctx: &Ctx<'_>, text: impl std::fmt::Display) -> rquickjs::Result<T> {
    type_error(ctx, &format!("Parser error: {text}"))
}

fn content_type(html: bool) -> ContentType {
    if html {
        ContentType::Html
    } else {
        ContentType::Text
    }
}

fn text_or_null<'js>(ctx: &Ctx<'js>, s: Option<String>) -> rquickjs::Result<Value<'js>> {
    match s {
        Some(s) => s.into_js(ctx),
        None => Ok(Value::new_null(ctx.clone())),
    }
}

#[rquickjs::methods]
impl Rewriter {
    /// Feeds a chunk; answers the first handler due (its id), `null` when the chunk went
    /// through, or lol_html's text when the document cannot be rewritten.
    pub fn write<'js>(
        &mut self,
        ctx: Ctx<'js>,
        bytes: TypedArray<'js, u8>,
    ) -> rquickjs::Result<Value<'js>> {
        // SAFETY: the bytes are copied before any JavaScript runs again.
        let input = unsafe { bytes.as_bytes() }.unwrap_or_default().to_vec();
        self.send(&ctx, Order::Write(input))
    }

    /// Ends the document; answers as `write` does.
    pub fn end<'js>(&mut self, ctx: Ctx<'js>) -> rquickjs::Result<Value<'js>> {
        self.send(&ctx, Order::End)
    }

    /// The handler finished (`ok`) or threw (the document is abandoned); answers as `write`.
    pub fn resume<'js>(&mut self, ctx: Ctx<'js>, ok: bool) -> rquickjs::Result<Value<'js>> {
        self.current = None;
        self.send(&ctx, Order::Resume(ok))
    }

    /// The output written so far, taken.
    pub fn take<'js>(&mut self, ctx: Ctx<'js>) -> rquickjs::Result<TypedArray<'js, u8>> {
        let out = match self.output.lock() {
            Ok(mut out) => std::mem::take(&mut *out),
            Err(_) => Vec::new(),
        };
        TypedArray::new(ctx, out)
    }

    /// Stops the worker (the output stream was cancelled or failed).
    pub fn abort(&mut self) {
        self.current = None;
        self.driver = None;
    }

    /// Registers end-tag handler `id` on the current element.
    #[qjs(rename = "onEndTag")]
    pub fn on_end_tag<'js>(&mut self, ctx: Ctx<'js>, handler: u32) -> rquickjs::Result<()> {
        let link = match &self.driver {
            Some(d) => d.link.clone(),
            None => return type_error(&ctx, STALE),
        };
        let el = self.token::<Element<'static, 'static>>(&ctx, Kind::Element)?;
        if !el.can_have_content() {
            return parser_error(&ctx, "No end tag.");
        }
        // A later onEndTag replaces the earlier one, as on workerd.
        if let Some(handlers) = el.end_tag_handlers() {
            handlers.clear();
        }
        let registered = el.on_end_tag(Box::new(move |end: &mut EndTag<'_>| {
            ask(
                &link,
                Kind::EndTag,
                handler,
                end as *mut EndTag<'_> as *mut c_void,
            )
        }));
        match registered {
            Ok(()) => Ok(()),
            Err(_) => parser_error(&ctx, "No end tag."),
        }
    }

    /// An operation on the current token: `kind` is the token kind the script expects, `name`
    /// the operation, `a` and `b` its strings, `html` whether content is HTML.
    pub fn op<'js>(
        &mut self,
        ctx: Ctx<'js>,
        name: String,
        a: Opt<String>,
        b: Opt<String>,
        html: Opt<bool>,
    ) -> rquickjs::Result<Value<'js>> {
        let kind = match &self.current {
            Some((kind, _)) => *kind,
            None => return type_error(&ctx, STALE),
        };
        let a = a.0.unwrap_or_default();
        let b = b.0.unwrap_or_default();
        let ct = content_type(html.0.unwrap_or(false));
        let undefined = Value::new_undefined(ctx.clone());
        match kind {
            Kind::Element => {
                let el = self.token::<Element<'static, 'static>>(&ctx, Kind::Element)?;
                match name.as_str() {
                    "tagName" => return el.tag_name().into_js(&ctx),
                    "setTagName" => {
                        if let Err(e) = el.set_tag_name(&a) {
                            return parser_error(&ctx, e);
                        }
                    }
                    "namespaceURI" => return el.namespace_uri().into_js(&ctx),
                    "removed" => return el.removed().into_js(&ctx),
                    "attributes" => {
                        let list = Array::new(ctx.clone())?;
                        for (i, attr) in el.attributes().iter().enumerate() {
                            let pair = Array::new(ctx.clone())?;
                            pair.set(0, attr.name())?;
                            pair.set(1, attr.value())?;
                            list.set(i, pair)?;
                        }
                        return Ok(list.into_value());
                    }
                    "getAttribute" => return text_or_null(&ctx, el.get_attribute(&a)),
                    "hasAttribute" => return el.has_attribute(&a).into_js(&ctx),
                    "setAttribute" => {
                        if let Err(e) = el.set_attribute(&a, &b) {
                            return parser_error(&ctx, e);
                        }
                    }
                    "removeAttribute" => el.remove_attribute(&a),
                    "before" => el.before(&a, ct),
                    "after" => el.after(&a, ct),
                    "prepend" => el.prepend(&a, ct),
                    "append" => el.append(&a, ct),
                    "setInnerContent" => el.set_inner_content(&a, ct),
                    "replace" => el.replace(&a, ct),
                    "remove" => el.remove(),
                    "removeAndKeepContent" => el.remove_and_keep_content(),
                    _ => return type_error(&ctx, STALE),
                }
            }
            Kind::EndTag => {
                let end = self.token::<EndTag<'static>>(&ctx, Kind::EndTag)?;
                match name.as_str() {
                    "name" => return end.name().into_js(&ctx),
                    "setName" => end.set_name_str(a),
                    "before" => end.before(&a, ct),
                    "after" => end.after(&a, ct),
                    "remove" => end.remove(),
                    _ => return type_error(&ctx, STALE),
                }
            }
            Kind::Text => {
                let text = self.token::<TextChunk<'static>>(&ctx, Kind::Text)?;
                match name.as_str() {
                    "text" => return text.as_str().into_js(&ctx),
                    "lastInTextNode" => return text.last_in_text_node().into_js(&ctx),
                    "removed" => return text.removed().into_js(&ctx),
                    "before" => text.before(&a, ct),
                    "after" => text.after(&a, ct),
                    "replace" => text.replace(&a, ct),
                    "remove" => text.remove(),
                    _ => return type_error(&ctx, STALE),
                }
            }
            Kind::Comment => {
                let c = self.token::<Comment<'static>>(&ctx, Kind::Comment)?;
                match name.as_str() {
                    "text" => return c.text().into_js(&ctx),
                    "setText" => {
                        if let Err(e) = c.set_text(&a) {
                            return parser_error(&ctx, e);
                        }
                    }
                    "removed" => return c.removed().into_js(&ctx),
                    "before" => c.before(&a, ct),
                    "after" => c.after(&a, ct),
                    "replace" => c.replace(&a, ct),
                    "remove" => c.remove(),
                    _ => return type_error(&ctx, STALE),
                }
            }
            Kind::Doctype => {
                let d = self.token::<Doctype<'static>>(&ctx, Kind::Doctype)?;
                match name.as_str() {
                    "name" => return text_or_null(&ctx, d.name()),
                    "publicId" => return text_or_null(&ctx, d.public_id()),
                    "systemId" => return text_or_null(&ctx, d.system_id()),
                    _ => return type_error(&ctx, STALE),
                }
            }
            Kind::End => {
                let e = self.token::<DocumentEnd<'static>>(&ctx, Kind::End)?;
                match name.as_str() {
                    "append" => e.append(&a, ct),
                    _ => return type_error(&ctx, STALE),
                }
            }
        }
        Ok(undefined)
    }
}

impl Rewriter {
    fn new(plan: Plan) -> Self {
        Rewriter {
            plan: Some(plan),
            driver: None,
            output: Arc::new(Mutex::new(Vec::new())),
            current: None,
        }
    }

    /// The current token as its lol_html type, if it is of `kind`.
    #[allow(clippy::mut_from_ref)]
    fn token<T>(&self, ctx: &Ctx<'_>, kind: Kind) -> rquickjs::Result<&mut T> {
        match &self.current {
            // SAFETY: `current` is set only from a worker's report and cleared before the
            // worker is resumed, so while it is set the worker is parked inside the handler
            // and the token it points to is alive and touched by no one else. The kind says
            // which lol_html type the pointer was made from.
            Some((k, Token(p))) if *k == kind => Ok(unsafe { &mut *(*p as *mut T) }),
            _ => type_error(ctx, STALE),
        }
    }

    /// Starts the worker on first use.
    fn start(&mut self, ctx: &Ctx<'_>) -> rquickjs::Result<()> {
        if self.driver.is_some() {
            return Ok(());
        }
        let Some(plan) = self.plan.take() else {
            return type_error(ctx, "This HTMLRewriter transform has already finished.");
        };
        if WORKERS.fetch_add(1, Ordering::SeqCst) >= MAX_WORKERS {
            WORKERS.fetch_sub(1, Ordering::SeqCst);
            return type_error(
                ctx,
                "Too many HTMLRewriter transforms are in progress at once in this process.",
            );
        }
        let slot = WorkerSlot;
        let (orders_tx, orders_rx) = mpsc::channel();
        let (reports_tx, reports_rx) = mpsc::channel();
        let link = Arc::new(WorkerLink {
            orders: Mutex::new(orders_rx),
            reports: Mutex::new(reports_tx),
        });
        let worker_link = link.clone();
        let output = self.output.clone();
        let spawned = std::thread::Builder::new()
            .name("html-rewriter".into())
            .stack_size(1 << 20)
            .spawn(move || {
                let _slot = slot;
                run_worker(plan, worker_link, output);
            });
        if spawned.is_err() {
            return type_error(ctx, "HTMLRewriter could not start its rewriter.");
        }
        self.driver = Some(Driver {
            orders: orders_tx,
            reports: reports_rx,
            link,
        });
        Ok(())
    }

    fn send<'js>(&mut self, ctx: &Ctx<'js>, order: Order) -> rquickjs::Result<Value<'js>> {
        self.start(ctx)?;
        let Some(driver) = &self.driver else {
            return type_error(ctx, STALE);
        };
        let report = match driver.orders.send(order) {
            Ok(()) => driver.reports.recv().ok(),
            Err(_) => None,
        };
        match report {
            Some(Report::Token {
                kind,
                handler,
                token,
            }) => {
                self.current = Some((kind, token));
                handler.into_js(ctx)
            }
            Some(Report::Done) => Ok(Value::new_null(ctx.clone())),
            Some(Report::Failed(text)) => {
                self.driver = None;
                text.into_js(ctx)
            }
            None => {
                self.driver = None;
                "The rewriter stopped.".into_js(ctx)
            }
        }
    }
}

/// Adds `html` (selector checking and the rewriter's constructor) to the natives.
pub(crate) fn natives<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
    let html = Object::new(ctx.clone())?;
    html.set(
        "selectorError",
        Function::new(ctx.clone(), |selector: String| -> Option<String> {
            Selector::from_str(&selector).err().map(|e| e.to_string())
        })?,
    )?;
    html.set(
        "rewriter",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>,
             selectors: Vec<String>,
             element_ids: Vec<i32>,
             document_ids: Vec<i32>|
             -> rquickjs::Result<Class<'js, Rewriter>> {
                Class::instance(
                    ctx,
                    Rewriter::new(Plan {
                        selectors,
                        element_ids,
                        document_ids,
                    }),
                )
            },
        )?,
    )?;
    natives.set("html", html)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    use rquickjs::{Context, Runtime};

    use super::WORKERS;

    fn settle(rt: &Runtime) {
        while rt.is_job_pending() {
            rt.execute_pending_job().unwrap();
        }
    }

    /// A document goes through its handlers and its worker ends with it; one the program
    /// abandons inside a handler that never settles ends its worker when the context goes.
    #[test]
    fn workers_end_with_their_document_or_their_context() {
        let rt = Runtime::new().unwrap();
        let ctx = Context::full(&rt).unwrap();
        ctx.with(|ctx| {
            super::super::install(&ctx, None).unwrap();
            let _: () = ctx
                .eval(
                    r#"
                    new HTMLRewriter().on("a", { element(e) { e.setAttribute("k", "v"); } })
                      .transform(new Response("<a>1</a><b>2</b>")).text().then((t) => { globalThis.done = t; });
                    new HTMLRewriter().on("b", { element() { globalThis.parked = true; return new Promise(() => {}); } })
                      .transform(new Response("<b>x</b>")).text();
                    "#,
                )
                .unwrap();
        });
        settle(&rt);
        ctx.with(|ctx| {
            let done: String = ctx.globals().get("done").unwrap();
            assert_eq!(done, "<a k=\"v\">1</a><b>2</b>");
            assert!(ctx.globals().get::<_, bool>("parked").unwrap());
        });
        drop(ctx);
        drop(rt);
        let started = Instant::now();
        while WORKERS.load(Ordering::SeqCst) != 0 {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "a rewriter worker outlived its context"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
