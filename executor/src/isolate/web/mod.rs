//! The Web platform globals of the sandbox: what a Workers program finds on `globalThis`
//! beyond the language (URL, encoding, crypto, events and abort, fetch's classes, streams,
//! compression, the Workers-only globals, `Intl`, `structuredClone` and the worker scope).
//!
//! Each concept is a JavaScript source (glue) over a few Rust functions where correctness or
//! speed matters (URL parsing and URLPattern on the `url` and `urlpattern` crates, WebCrypto's
//! algorithms on RustCrypto, randomness on `getrandom`, base64 and UTF-8, the Encoding
//! Standard's other encodings on `encoding_rs`, gzip and deflate on zlib, HTMLRewriter on lol_html, `Intl` on
//! ICU4X's compiled CLDR data and the IANA time zone database bundled by `jiff`). [`install`]
//! runs only a small installer: every global is an accessor that evaluates its concept's source the first time
//! a program touches it, then becomes an ordinary data property. So a context that uses no
//! Web global pays for none, and one that does pays once per concept.
//!
//! Guarantees: everything lives in the context it was installed in (nothing one run sets is
//! seen by another); a program may replace or delete any of these globals, as on Workers;
//! [`SOURCES`] lists every JavaScript source; each is compiled to bytecode once per process.

mod compression;
mod crypto;
mod encoding;
mod html;
mod intl;
mod url;

use std::ffi::c_int;
use std::panic::AssertUnwindSafe;
use std::ptr::NonNull;

use rquickjs::{Array, Ctx, Exception, Function, JsLifetime, Object, Value, qjs};

use super::compiled::InternalScript;

/// A concept: its name, its JavaScript source (compiled once per process), and the globals
/// it provides.
pub(crate) struct Concept {
    pub name: &'static str,
    pub script: InternalScript,
    pub globals: &'static [&'static str],
}

/// The installer: defines the lazy globals and the locale methods' hooks.
pub(crate) static INSTALLER: InternalScript =
    InternalScript::stripped("web-installer", include_str!("installer.js"));

/// Every concept, in the order their globals are defined.
pub(crate) static SOURCES: [Concept; 14] = [
    Concept {
        name: "events",
        script: InternalScript::stripped("web-events", include_str!("events.js")),
        globals: &[
            "Event",
            "EventTarget",
            "CustomEvent",
            "ErrorEvent",
            "MessageEvent",
            "CloseEvent",
            "PromiseRejectionEvent",
        ],
    },
    Concept {
        name: "abort",
        script: InternalScript::stripped("web-abort", include_str!("abort.js")),
        globals: &["AbortController", "AbortSignal"],
    },
    Concept {
        name: "url",
        script: InternalScript::stripped("web-url", include_str!("url.js")),
        globals: &["URL", "URLSearchParams", "URLPattern"],
    },
    Concept {
        name: "encoding",
        script: InternalScript::stripped("web-encoding", include_str!("encoding.js")),
        globals: &["TextEncoder", "TextDecoder", "atob", "btoa"],
    },
    Concept {
        name: "crypto",
        script: InternalScript::stripped("web-crypto", include_str!("crypto.js")),
        globals: &["crypto", "Crypto", "SubtleCrypto", "CryptoKey"],
    },
    Concept {
        name: "streams",
        script: InternalScript::stripped("web-streams", include_str!("streams.js")),
        globals: &[
            "ReadableStream",
            "ReadableStreamDefaultReader",
            "ReadableStreamDefaultController",
            "ReadableStreamBYOBReader",
            "ReadableStreamBYOBRequest",
            "ReadableByteStreamController",
            "WritableStream",
            "WritableStreamDefaultWriter",
            "WritableStreamDefaultController",
            "TransformStream",
            "TransformStreamDefaultController",
            "ByteLengthQueuingStrategy",
            "CountQueuingStrategy",
            "IdentityTransformStream",
            "FixedLengthStream",
            "TextEncoderStream",
            "TextDecoderStream",
        ],
    },
    Concept {
        name: "fetch",
        script: InternalScript::stripped("web-fetch", include_str!("fetch.js")),
        globals: &[
            "Headers", "Body", "Request", "Response", "Blob", "File", "FormData", "fetch",
        ],
    },
    Concept {
        name: "compression",
        script: InternalScript::stripped("web-compression", include_str!("compression.js")),
        globals: &["CompressionStream", "DecompressionStream"],
    },
    Concept {
        name: "html",
        script: InternalScript::stripped("web-html", include_str!("html.js")),
        globals: &["HTMLRewriter"],
    },
    Concept {
        name: "buffer",
        script: InternalScript::stripped("web-buffer", include_str!("buffer.js")),
        globals: &["Buffer"],
    },
    Concept {
        name: "workers",
        script: InternalScript::stripped("web-workers", include_str!("workers.js")),
        globals: &[
            "Cloudflare",
            "caches",
            "Cache",
            "CacheStorage",
            "ExtendableEvent",
            "FetchEvent",
            "ScheduledEvent",
            "TailEvent",
            "TraceEvent",
            "WebSocket",
            "WebSocketPair",
            "WebSocketRequestResponsePair",
            "EventSource",
        ],
    },
    Concept {
        name: "intl",
        script: InternalScript::stripped("web-intl", include_str!("intl.js")),
        globals: &["Intl"],
    },
    Concept {
        name: "clone",
        script: InternalScript::stripped("web-clone", include_str!("clone.js")),
        globals: &["structuredClone"],
    },
    Concept {
        name: "scope",
        script: InternalScript::stripped("web-scope", include_str!("scope.js")),
        globals: &[
            "navigator",
            "Navigator",
            "scheduler",
            "setImmediate",
            "clearImmediate",
            "reportError",
            "self",
            "global",
            "origin",
            "WorkerGlobalScope",
            "ServiceWorkerGlobalScope",
            "constructor",
            "addEventListener",
            "removeEventListener",
            "dispatchEvent",
            "process",
        ],
    },
];

/// Installs the Web globals into `ctx`'s global object. Call once per context, after the
/// language intrinsics and before any program runs. `outbound` is the scope's way out for
/// `fetch` (`enabled`, `send`, `cancel`, from `bootstrap.js`); without it `fetch` is blocked.
/// Makes the prototype of every Rust class the Web globals instantiate, and names their
/// types.
///
/// rquickjs keeps a class's prototype, once made, in its runtime's own table (outside the
/// engine's heap). A sandbox restored from its image must find there only what the image
/// holds, so every prototype is made while the sandbox is prepared, never by a run: a
/// prototype first made by a run would stay in that table after the run's heap is gone.
/// The test `every_rust_class_has_its_prototype_prepared` checks that the list is whole.
pub(crate) fn class_prototypes(ctx: &Ctx<'_>) -> rquickjs::Result<Vec<&'static str>> {
    let mut made = intl::class_prototypes(ctx)?;
    made.push(prototype_of::<compression::Codec>(ctx)?);
    made.push(prototype_of::<html::Rewriter>(ctx)?);
    made.push(prototype_of::<encoding::Decoding>(ctx)?);
    Ok(made)
}

/// Makes the prototype of the Rust class `C` and names its type.
fn prototype_of<'js, C: rquickjs::class::JsClass<'js>>(
    ctx: &Ctx<'js>,
) -> rquickjs::Result<&'static str> {
    rquickjs::Class::<C>::prototype(ctx)?;
    Ok(std::any::type_name::<C>())
}

pub(crate) fn install<'js>(ctx: &Ctx<'js>, outbound: Option<Object<'js>>) -> rquickjs::Result<()> {
    let natives = Object::new(ctx.clone())?;
    if let Some(outbound) = outbound {
        natives.set("outbound", outbound)?;
    }
    url::natives(ctx, &natives)?;
    encoding::natives(ctx, &natives)?;
    crypto::natives(ctx, &natives)?;
    compression::natives(ctx, &natives)?;
    html::natives(ctx, &natives)?;
    intl::natives(ctx, &natives)?;
    // The compatibility flags of the Dynamic Worker the reference runs programs in, as
    // `Cloudflare.compatibilityFlags` reads them there (measured on workerd 1.20261117.1).
    natives.set(
        "compatibilityFlags",
        Function::new(ctx.clone(), |ctx: Ctx<'js>| {
            ctx.json_parse(include_str!("compatibility-flags.json"))
        })?,
    )?;
    // Workers refuses random values and I/O in global scope (a module's evaluation); the
    // sandbox's internal object knows whether a module is evaluating. A context with the
    // Web globals but without the sandbox's bootstrap (the globals' own unit tests) has no
    // module evaluating, so nothing to refuse.
    natives.set(
        "refuseInGlobalScope",
        Function::new(ctx.clone(), |ctx: Ctx<'js>| -> rquickjs::Result<()> {
            if ctx.userdata::<super::hook::InternalHook<'js>>().is_none() {
                return Ok(());
            }
            let internal = super::hook::internal_object(&ctx)?;
            let refuse: Function = internal.get("refuseInGlobalScope")?;
            refuse.call(())
        })?,
    )?;
    // process.exit(): the run ends with `text` (bootstrap.js's `internal.exit`), and an
    // uncatchable error stops the program where it stands, as workerd cancels the request.
    natives.set(
        "exit",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, text: String| -> rquickjs::Result<()> {
                let internal = super::hook::internal_object(&ctx)?;
                let exit: Function = internal.get("exit")?;
                exit.call::<_, ()>((text.as_str(),))?;
                let value = rquickjs::Exception::from_message(ctx.clone(), &text)?.into_value();
                // SAFETY: `value` is a live error object of this context, which outlives the call.
                unsafe {
                    rquickjs::qjs::JS_SetUncatchableError(ctx.as_raw().as_ptr(), value.as_raw())
                };
                Err(ctx.throw(value))
            },
        )?,
    )?;
    natives.set(
        "load",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, name: String| -> rquickjs::Result<Value<'js>> {
                match SOURCES.iter().find(|c| c.name == name) {
                    Some(concept) => concept.script.evaluate(&ctx),
                    None => Err(rquickjs::Error::new_loading(&name)),
                }
            },
        )?,
    )?;
    // Every global a lazy data property, in the order the concepts name them; the ones
    // that already have a value (bootstrap.js's `fetch`) are left to the installer.
    let global = ctx.globals();
    let eager = Array::new(ctx.clone())?;
    for concept in &SOURCES {
        for name in concept.globals {
            if !define_lazy(ctx, &global, name)? {
                let pair = Array::new(ctx.clone())?;
                pair.set(0, concept.name)?;
                pair.set(1, *name)?;
                eager.set(eager.len(), pair)?;
            }
        }
    }
    let installer: Function = INSTALLER.evaluate(ctx)?.get()?;
    let resolve: Function = installer.call((natives, eager))?;
    ctx.store_userdata(LazyGlobals(resolve))
        .map_err(|_| rquickjs::Error::Unknown)?;
    Ok(())
}

/// The installer's `(concept, key) => value`, which computes a lazy global's value; kept
/// in the runtime's userdata, out of every program's reach.
struct LazyGlobals<'js>(Function<'js>);

// SAFETY: it holds nothing but a value of the context it was made in, and is re-borrowed
// with that context's lifetime.
unsafe impl<'js> JsLifetime<'js> for LazyGlobals<'js> {
    type Changed<'to> = LazyGlobals<'to>;
}

unsafe extern "C" {
    /// Engine patch 0040 (`vendor/patches`): defines a data property whose value `init`
    /// computes on first read, as the engine's own lazy intrinsics are. `true` when defined,
    /// `false` when the object already has the property, -1 on exception.
    fn JS_DefineLazyProperty(
        ctx: *mut qjs::JSContext,
        this_obj: qjs::JSValue,
        prop: qjs::JSAtom,
        init: unsafe extern "C" fn(*mut qjs::JSContext, qjs::JSAtom) -> qjs::JSValue,
        flags: c_int,
    ) -> c_int;
}

/// Defines `globalThis[name]` as a lazy global (writable, configurable, not enumerable, as
/// Workers' globals are); `false` where the global object already has `name`.
fn define_lazy<'js>(ctx: &Ctx<'js>, global: &Object<'js>, name: &str) -> rquickjs::Result<bool> {
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: `raw` is this live context; the atom is made and freed here, and the global
    // object is borrowed (the callee does not take its reference).
    let defined = unsafe {
        let atom = qjs::JS_NewAtomLen(raw, name.as_ptr().cast(), name.len() as _);
        if atom == qjs::JS_ATOM_NULL {
            return Err(rquickjs::Error::Exception);
        }
        let flags = (qjs::JS_PROP_WRITABLE | qjs::JS_PROP_CONFIGURABLE) as c_int;
        let defined = JS_DefineLazyProperty(raw, global.as_raw(), atom, lazy_global, flags);
        qjs::JS_FreeAtom(raw, atom);
        defined
    };
    match defined {
        -1 => Err(rquickjs::Error::Exception),
        0 => Ok(false),
        _ => Ok(true),
    }
}

/// The value of the lazy global `prop`: its concept's export, loading the concept once.
unsafe extern "C" fn lazy_global(raw: *mut qjs::JSContext, prop: qjs::JSAtom) -> qjs::JSValue {
    let Some(raw) = NonNull::new(raw) else {
        return qjs::JS_EXCEPTION;
    };
    // SAFETY: the engine calls this on its own thread, inside an operation on `raw` (the
    // runtime is in use, so no other thread holds it).
    let ctx = unsafe { Ctx::from_raw(raw) };
    let computed = std::panic::catch_unwind(AssertUnwindSafe(|| -> rquickjs::Result<Value<'_>> {
        // SAFETY: `JS_AtomToString` returns a new reference, which the value takes over.
        let key: String =
            unsafe { Value::from_raw(ctx.clone(), qjs::JS_AtomToString(raw.as_ptr(), prop)) }
                .get()?;
        let concept = SOURCES
            .iter()
            .find(|c| c.globals.contains(&key.as_str()))
            .ok_or(rquickjs::Error::Unknown)?;
        let resolve = ctx
            .userdata::<LazyGlobals<'_>>()
            .map(|lazy| lazy.0.clone())
            .ok_or(rquickjs::Error::Unknown)?;
        resolve.call((concept.name, key.as_str()))
    }));
    match computed {
        // A reference of its own for the engine; `value` drops its own (and its context's).
        // SAFETY: `value` is a live value of this context.
        Ok(Ok(value)) => unsafe { qjs::JS_DupValue(raw.as_ptr(), value.as_raw()) },
        // The exception is pending in the context, where the engine looks for it.
        Ok(Err(rquickjs::Error::Exception)) => qjs::JS_EXCEPTION,
        Ok(Err(error)) => {
            let _ = Exception::throw_internal(&ctx, &error.to_string());
            qjs::JS_EXCEPTION
        }
        Err(_) => {
            let _ = Exception::throw_internal(&ctx, "a Web global failed to load");
            qjs::JS_EXCEPTION
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use rquickjs::{Context, Runtime};

    /// Every struct of the crate declared `#[rquickjs::class(...)]` has its prototype made by
    /// `class_prototypes` (a sandbox restored from its image relies on it: see there).
    #[test]
    fn every_rust_class_has_its_prototype_prepared() {
        fn sources(dir: &std::path::Path, found: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    sources(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    found.push((path.display().to_string(), text));
                }
            }
        }
        let mut files = Vec::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let mut classes = Vec::new();
        for (path, text) in &files {
            let mut lines = text.lines();
            while let Some(line) = lines.next() {
                if !line.trim_start().starts_with("#[rquickjs::class") {
                    continue;
                }
                let name = lines
                    .find_map(|l| {
                        let rest = l.trim_start().strip_prefix("pub(crate) struct ")?;
                        Some(rest.split([' ', '<', '{']).next()?.to_string())
                    })
                    .unwrap_or_else(|| panic!("{path}: a class without a struct after it"));
                classes.push(name);
            }
        }
        assert!(
            classes.len() >= 7,
            "the scan finds the classes: {classes:?}"
        );
        let rt = Runtime::new().unwrap();
        let ctx = Context::full(&rt).unwrap();
        let made = ctx.with(|ctx| super::class_prototypes(&ctx).unwrap());
        for class in &classes {
            assert!(
                made.iter().any(|m| m.ends_with(&format!("::{class}"))),
                "{class} is a Rust class whose prototype class_prototypes does not make: {made:?}"
            );
        }
    }

    /// Every concept loads and provides each global it names, in a fresh context.
    #[test]
    fn every_concept_provides_its_globals() {
        let rt = Runtime::new().unwrap();
        let ctx = Context::full(&rt).unwrap();
        ctx.with(|ctx| {
            super::install(&ctx, None).unwrap();
            let started = Instant::now();
            for concept in &super::SOURCES {
                for name in concept.globals {
                    let kind: String = ctx.eval(format!("typeof globalThis[{name:?}]")).unwrap();
                    assert_ne!(kind, "undefined", "{}: {name}", concept.name);
                }
            }
            eprintln!("loading every concept took {:?}", started.elapsed());
        });
    }

    /// A lazy global is an ordinary data property (writable, configurable, not enumerable)
    /// from the start: described, it loads; written or deleted before any read, its concept
    /// never loads; one that already had a value (here `fetch`) is left to the installer.
    #[test]
    fn lazy_globals_read_write_and_delete_as_data_properties() {
        let rt = Runtime::new().unwrap();
        let ctx = Context::full(&rt).unwrap();
        ctx.with(|ctx| {
            ctx.eval::<(), _>("globalThis.fetch = function fetch() { return 'before'; };")
                .unwrap();
            super::install(&ctx, None).unwrap();
            let seen: String = ctx
                .eval(
                    r#"(() => {
                      const d = Object.getOwnPropertyDescriptor(globalThis, "TextEncoder");
                      const described = [typeof d.value, d.writable, d.enumerable, d.configurable, "get" in d].join();
                      globalThis.URLSearchParams = 5;
                      delete globalThis.Blob;
                      let threw = "";
                      try { Blob } catch (e) { threw = e.name; }
                      const keys = Object.keys(globalThis).filter((k) => k === "URL" || k === "TextEncoder");
                      return [described, URLSearchParams, threw, typeof globalThis.Blob, keys.length,
                        typeof URL, new TextEncoder().encode("é").length, fetch === globalThis.fetch,
                        fetch.name].join("|");
                    })()"#,
                )
                .unwrap();
            assert_eq!(
                seen,
                "function,true,false,true,false|5|ReferenceError|undefined|0|function|2|true|fetch"
            );
        });
    }
}
