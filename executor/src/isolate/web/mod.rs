//! The Web platform globals of the sandbox: what a Workers program finds on `globalThis`
//! beyond the language (URL, encoding, crypto, events and abort, fetch's classes, streams,
//! compression, the Workers-only globals, `Intl`, `structuredClone` and the worker scope).
//!
//! Each concept is a JavaScript source (glue) over a few Rust functions where correctness or
//! speed matters (URL parsing and URLPattern on the `url` and `urlpattern` crates, hashes on
//! RustCrypto, randomness on `getrandom`, base64 and UTF-8, gzip and deflate on zlib, HTMLRewriter on lol_html, `Intl` on
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

use rquickjs::{Array, Ctx, Function, Object, Value};

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
    let concepts = Object::new(ctx.clone())?;
    for concept in &SOURCES {
        let globals = Array::new(ctx.clone())?;
        for (i, name) in concept.globals.iter().enumerate() {
            globals.set(i, *name)?;
        }
        concepts.set(concept.name, globals)?;
    }
    let installer: Function = INSTALLER.evaluate(ctx)?.get()?;
    installer.call((natives, concepts))
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use rquickjs::{Context, Runtime};

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
}
