// AbortController and AbortSignal (abort, timeout, any), on the events concept.
(function (native, use) {
  "use strict";
  const { Event, EventTarget, handlerProperty } = use("events");
  const define = Object.defineProperty;
  const inner = new WeakMap();
  const creating = Symbol("creating");
  const abortError = () => new DOMException("The operation was aborted", "AbortError");

  const signalAbort = (signal, reason) => {
    const s = inner.get(signal);
    if (s.aborted) return;
    s.aborted = true;
    s.reason = reason === undefined ? abortError() : reason;
    signal.dispatchEvent(new Event("abort"));
    for (const dependent of s.dependents) signalAbort(dependent, s.reason);
  };

  class AbortSignal extends EventTarget {
    constructor(key) {
      if (key !== creating) throw new TypeError("Illegal constructor");
      super();
      inner.set(this, { aborted: false, reason: undefined, dependents: [] });
    }
    get aborted() { return inner.get(this).aborted; }
    get reason() { return inner.get(this).reason; }
    throwIfAborted() { const s = inner.get(this); if (s.aborted) throw s.reason; }
    static abort(reason) {
      const signal = new AbortSignal(creating);
      signalAbort(signal, reason);
      return signal;
    }
    static timeout(ms) {
      const signal = new AbortSignal(creating);
      setTimeout(() => signalAbort(signal, new DOMException("The operation was aborted due to timeout", "TimeoutError")), Number(ms));
      return signal;
    }
    static any(signals) {
      const signal = new AbortSignal(creating);
      for (const source of signals) {
        if (source.aborted) { signalAbort(signal, source.reason); return signal; }
      }
      for (const source of signals) inner.get(source).dependents.push(signal);
      return signal;
    }
  }
  handlerProperty(AbortSignal, "abort");
  define(AbortSignal.prototype, Symbol.toStringTag, { value: "AbortSignal", configurable: true });

  class AbortController {
    #signal = new AbortSignal(creating);
    get signal() { return this.#signal; }
    abort(reason) { signalAbort(this.#signal, reason); }
  }
  define(AbortController.prototype, Symbol.toStringTag, { value: "AbortController", configurable: true });

  return { AbortController, AbortSignal };
})
