async () => {
  const names = (start, stop) => {
    const seen = new Set();
    for (let o = start; o !== null && o !== undefined && o !== stop; o = Object.getPrototypeOf(o)) {
      for (const k of Object.getOwnPropertyNames(o)) seen.add(k);
    }
    return [...seen].sort();
  };
  const kind = (o, k) => {
    for (let p = o; p !== null; p = Object.getPrototypeOf(p)) {
      const d = Object.getOwnPropertyDescriptor(p, k);
      if (d === undefined) continue;
      if (d.get || d.set) return "accessor";
      return typeof d.value === "function" ? "method" : typeof d.value;
    }
    return "absent";
  };
  const out = {};
  for (const k of names(globalThis, Object.prototype)) {
    let t;
    try { t = typeof globalThis[k]; } catch (e) { t = "throws"; }
    out["global " + k] = t;
  }
  const objects = {
    crypto: () => crypto,
    "crypto.subtle": () => crypto.subtle,
    console: () => console,
    navigator: () => navigator,
    performance: () => performance,
  };
  for (const [label, get] of Object.entries(objects)) {
    let o;
    try { o = get(); } catch (e) { continue; }
    if (o === null || typeof o !== "object") continue;
    for (const k of names(o, Object.prototype)) out["member " + label + "." + k] = kind(o, k);
  }
  for (const c of ["URL", "Headers", "Request", "Response", "AbortSignal", "TextEncoder", "Blob", "EventTarget"]) {
    const ctor = globalThis[c];
    if (typeof ctor !== "function") continue;
    for (const k of names(ctor.prototype, Object.prototype)) out["member " + c + ".prototype." + k] = kind(ctor.prototype, k);
  }
  // Built-in members: the own properties (string and symbol keys) of the language's
  // constructors, their prototypes and the namespaces, so feature-detecting code
  // (`if (Iterator.prototype.chunks)`) takes the same path on both sides.
  const TypedArray = Object.getPrototypeOf(Uint8Array);
  const hidden = {
    TypedArray: () => TypedArray,
    "%IteratorPrototype%": () => Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
    "%ArrayIteratorPrototype%": () => Object.getPrototypeOf([][Symbol.iterator]()),
    "%GeneratorPrototype%": () => Object.getPrototypeOf(function* () {}).prototype,
    "%AsyncIteratorPrototype%": () => Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype),
    "%AsyncGeneratorPrototype%": () => Object.getPrototypeOf(async function* () {}).prototype,
    "%RegExpStringIteratorPrototype%": () => Object.getPrototypeOf("a".matchAll(/a/g)),
  };
  const builtinNames = ["Object", "Function", "Array", "String", "Number", "Boolean", "Symbol", "BigInt",
    "Date", "RegExp", "Error", "AggregateError", "SuppressedError", "Promise", "Proxy", "Map", "Set",
    "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "ArrayBuffer", "SharedArrayBuffer",
    "DataView", "Uint8Array", "Float16Array", "Iterator", "DisposableStack", "AsyncDisposableStack",
    "Math", "JSON", "Reflect", "Atomics", "Intl", "Intl.Collator", "Intl.DateTimeFormat",
    "Intl.NumberFormat", "Intl.PluralRules", "Intl.ListFormat", "Intl.RelativeTimeFormat",
    "Intl.Segmenter", "Intl.DisplayNames", "Intl.Locale", "Intl.DurationFormat"];
  const keyName = (k) => typeof k === "symbol" ? "[" + k.description + "]" : k;
  const own = (label, o) => {
    if (o === null || (typeof o !== "object" && typeof o !== "function")) return;
    for (const k of Reflect.ownKeys(o)) {
      if (typeof o === "function" && (k === "length" || k === "name" || k === "prototype")) continue;
      const d = Object.getOwnPropertyDescriptor(o, k);
      out["builtin " + label + "." + keyName(k)] =
        d.get || d.set ? "accessor" : typeof d.value === "function" ? "method" : typeof d.value;
    }
  };
  for (const label of builtinNames) {
    let o;
    try { o = label.split(".").reduce((v, k) => v[k], globalThis); } catch (e) { continue; }
    own(label, o);
    if (typeof o === "function" && o.prototype) own(label + ".prototype", o.prototype);
  }
  for (const [label, get] of Object.entries(hidden)) {
    try { own(label, get()); } catch (e) { /* absent */ }
  }
  const brand = (make) => { try { return Object.prototype.toString.call(make()); } catch (e) { return "absent"; } };
  const brands = {
    globalThis: () => globalThis,
    crypto: () => crypto,
    "crypto.subtle": () => crypto.subtle,
    console: () => console,
    navigator: () => navigator,
    performance: () => performance,
    "new URL": () => new URL("https://example.com/"),
    "new URLSearchParams": () => new URLSearchParams("a=1"),
    "new Headers": () => new Headers(),
    "new Request": () => new Request("https://example.com/"),
    "new Response": () => new Response("x"),
    "AbortSignal.abort()": () => AbortSignal.abort(),
    "new AbortController": () => new AbortController(),
    "new TextEncoder": () => new TextEncoder(),
    "new TextDecoder": () => new TextDecoder(),
    "new Blob": () => new Blob([]),
    "new FormData": () => new FormData(),
    "new EventTarget": () => new EventTarget(),
    "new Event": () => new Event("x"),
    "new DOMException": () => new DOMException("x"),
    "new ReadableStream": () => new ReadableStream(),
    Intl: () => Intl,
    "new Intl.NumberFormat": () => new Intl.NumberFormat("en-US"),
    "new Intl.DateTimeFormat": () => new Intl.DateTimeFormat("en-US"),
  };
  for (const [label, make] of Object.entries(brands)) out["brand " + label] = brand(make);
  // Samples: behaviour beyond presence, where a side is known to be partial.
  const samples = {
    "Intl en-US number": () => (1234567.891).toLocaleString("en-US"),
    "Intl de-DE number": () => new Intl.NumberFormat("de-DE").format(1234.5),
    "Intl fr-FR currency": () => new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(1234.5),
    "Intl en-GB date": () => new Date(0).toLocaleDateString("en-GB", { timeZone: "UTC" }),
    "Intl UTC date": () => new Date(0).toLocaleString("en-US", { timeZone: "UTC" }),
    "Intl America/New_York date": () => new Date(0).toLocaleString("en-US", { timeZone: "America/New_York" }),
    "Intl America/New_York 2024 date": () => new Date(Date.UTC(2024, 6, 4, 16)).toLocaleString("en-US", { timeZone: "America/New_York", timeZoneName: "short" }),
    "Intl Africa/Cairo date": () => new Date(Date.UTC(2024, 6, 4, 16)).toLocaleString("en-US", { timeZone: "Africa/Cairo" }),
    "Intl.Segmenter": () => typeof Intl.Segmenter,
    "Intl.DisplayNames": () => typeof Intl.DisplayNames,
    "crypto.subtle.digest SHA-256": async () => new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(1))).length,
    "crypto.subtle HMAC importKey": async () => Object.prototype.toString.call(await crypto.subtle.importKey("raw", new Uint8Array(16), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])),
    "crypto.subtle AES-GCM generateKey": async () => Object.prototype.toString.call(await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["encrypt"])),
    "ReadableStream BYOB reader": () => Object.prototype.toString.call(new ReadableStream({ type: "bytes" }).getReader({ mode: "byob" })),
  };
  for (const [label, run] of Object.entries(samples)) {
    try { out["sample " + label] = String(await run()); } catch (e) { out["sample " + label] = "throws " + (e && e.name); }
  }
  return out;
}
