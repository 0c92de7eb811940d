// The worker scope: navigator, scheduler, setImmediate, reportError, self and the global's
// own EventTarget methods.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const { EventTarget } = use("events");
  const creating = Symbol("creating");
  const tag = (C, name) => define(C.prototype, Symbol.toStringTag, { value: name, configurable: true });

  class Navigator {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    get userAgent() { return "Cloudflare-Workers"; }
    get language() { return "en"; }
    get languages() { return ["en"]; }
    get platform() { return ""; }
    get hardwareConcurrency() { return 1; }
    sendBeacon() { return false; }
  }
  tag(Navigator, "Navigator");
  // Workers reports these as own data properties of navigator.
  const navigator = new Navigator(creating);
  for (const k of ["userAgent", "language", "languages", "platform", "hardwareConcurrency"]) {
    define(navigator, k, { value: Navigator.prototype.__lookupGetter__(k).call(navigator), enumerable: true, configurable: true });
  }

  class Scheduler {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    wait(ms, options) {
      return new Promise((resolve, reject) => {
        const signal = options && options.signal;
        if (signal && signal.aborted) return reject(signal.reason);
        const id = setTimeout(resolve, Number(ms) || 0);
        if (signal) signal.addEventListener("abort", () => { clearTimeout(id); reject(signal.reason); });
      });
    }
  }
  tag(Scheduler, "Scheduler");

  class WorkerGlobalScope extends EventTarget {
    constructor() { throw new TypeError("Illegal constructor"); }
  }
  tag(WorkerGlobalScope, "WorkerGlobalScope");
  class ServiceWorkerGlobalScope extends WorkerGlobalScope {
    constructor() { throw new TypeError("Illegal constructor"); }
  }
  tag(ServiceWorkerGlobalScope, "ServiceWorkerGlobalScope");

  // The global's listeners live on a hidden target.
  const target = new EventTarget();
  function addEventListener(type, listener, options) { target.addEventListener(type, listener, options); }
  function removeEventListener(type, listener, options) { target.removeEventListener(type, listener, options); }
  function dispatchEvent(event) { return target.dispatchEvent(event); }

  function setImmediate(fn, ...args) { return setTimeout(fn, 0, ...args); }
  function clearImmediate(id) { clearTimeout(id); }
  function reportError(error) {
    const { ErrorEvent } = use("events");
    target.dispatchEvent(new ErrorEvent("error", { error, message: "Uncaught " + String(error) }));
  }

  // The minimal `process` Workers exposes: an empty env, nextTick, the platform. No Node.js
  // built-in modules exist here, so getBuiltinModule finds none.
  const process = {
    nextTick(callback, ...args) { queueMicrotask(() => callback(...args)); },
    env: {},
    // workerd cancels the request: nothing after the call runs (no catch, no finally), the
    // run fails with this text and its console lines are dropped. The code reads as an int32.
    exit(code) { native.exit(`The Node.js process.exit(${code | 0}) API was called. Canceling the request.`); },
    getBuiltinModule(name) { void name; return undefined; },
    platform: "linux",
    features: {
      cached_builtins: true, debug: false, inspector: false, ipv6: true, openssl_is_boringssl: true, require_module: false,
      tls: true, tls_alpn: true, tls_ocsp: true, tls_sni: true, typescript: false, uv: true,
    },
  };

  return {
    navigator, Navigator, process, scheduler: new Scheduler(creating), setImmediate, clearImmediate, reportError,
    self: globalThis, global: globalThis, origin: "null", WorkerGlobalScope, ServiceWorkerGlobalScope,
    constructor: ServiceWorkerGlobalScope, addEventListener, removeEventListener, dispatchEvent,
  };
})
