// Event, EventTarget and the event classes Workers exposes.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const tag = (C, name) => define(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const state = new WeakMap();
  const listeners = new WeakMap();

  class Event {
    constructor(type, init = {}) {
      if (arguments.length === 0) throw new TypeError("Failed to construct 'Event': constructor parameter 1 is not of type 'string'.");
      state.set(this, {
        type: String(type),
        bubbles: !!(init && init.bubbles),
        cancelable: !!(init && init.cancelable),
        composed: !!(init && init.composed),
        defaultPrevented: false,
        stop: false,
        target: null,
        current: null,
        phase: 0,
        timeStamp: Date.now(),
      });
    }
    get type() { return state.get(this).type; }
    get bubbles() { return state.get(this).bubbles; }
    get cancelable() { return state.get(this).cancelable; }
    get composed() { return state.get(this).composed; }
    get defaultPrevented() { return state.get(this).defaultPrevented; }
    get returnValue() { return !state.get(this).defaultPrevented; }
    get target() { return state.get(this).target; }
    get currentTarget() { return state.get(this).current; }
    get srcElement() { return state.get(this).target; }
    get eventPhase() { return state.get(this).phase; }
    get isTrusted() { return false; }
    get timeStamp() { return state.get(this).timeStamp; }
    get cancelBubble() { return state.get(this).stop; }
    set cancelBubble(v) { if (v) state.get(this).stop = true; }
    composedPath() { const s = state.get(this); return s.current ? [s.current] : []; }
    // As workerd: defaultPrevented only for a cancelable event, yet dispatchEvent reports
    // false whenever a listener called preventDefault.
    preventDefault() { const s = state.get(this); s.prevented = true; if (s.cancelable) s.defaultPrevented = true; }
    stopPropagation() { state.get(this).stop = true; }
    stopImmediatePropagation() { const s = state.get(this); s.stop = true; s.immediate = true; }
  }
  for (const [k, v] of [["NONE", 0], ["CAPTURING_PHASE", 1], ["AT_TARGET", 2], ["BUBBLING_PHASE", 3]]) {
    define(Event, k, { value: v, enumerable: true });
    define(Event.prototype, k, { value: v, enumerable: true });
  }
  tag(Event, "Event");

  const flag = (options, key) => typeof options === "boolean" ? (key === "capture" && options) : !!(options && options[key]);
  class EventTarget {
    constructor() { listeners.set(this, new Map()); }
    addEventListener(type, listener, options) {
      if (listener === null || listener === undefined) return;
      const all = listeners.get(this) ?? (listeners.set(this, new Map()), listeners.get(this));
      const list = all.get(String(type)) ?? [];
      const capture = flag(options, "capture");
      if (list.some((l) => l.listener === listener && l.capture === capture)) return;
      const entry = { listener, capture, once: flag(options, "once"), removed: false };
      const signal = options && typeof options === "object" ? options.signal : undefined;
      if (signal !== undefined) {
        if (signal.aborted) return;
        signal.addEventListener("abort", () => this.removeEventListener(type, listener, options));
      }
      list.push(entry);
      all.set(String(type), list);
    }
    removeEventListener(type, listener, options) {
      const all = listeners.get(this);
      const list = all && all.get(String(type));
      if (!list) return;
      const capture = flag(options, "capture");
      const i = list.findIndex((l) => l.listener === listener && l.capture === capture);
      if (i >= 0) { list[i].removed = true; list.splice(i, 1); }
    }
    dispatchEvent(event) {
      if (!(event instanceof Event)) throw new TypeError("Failed to execute 'dispatchEvent' on 'EventTarget': parameter 1 is not of type 'Event'.");
      const s = state.get(event);
      s.target = this; s.current = this; s.phase = 2;
      const all = listeners.get(this);
      const list = all && all.get(s.type);
      if (list) {
        for (const entry of [...list]) {
          if (entry.removed) continue;
          if (entry.once) this.removeEventListener(s.type, entry.listener, entry.capture);
          // As workerd: a listener's exception leaves dispatchEvent at once.
          try {
            if (typeof entry.listener === "function") entry.listener.call(this, event);
            else if (entry.listener && typeof entry.listener.handleEvent === "function") entry.listener.handleEvent(event);
          } catch (e) {
            s.current = null; s.phase = 0;
            throw e;
          }
          if (s.immediate) break;
        }
      }
      s.current = null; s.phase = 0;
      return !s.prevented;
    }
  }
  tag(EventTarget, "EventTarget");

  const initOf = (init) => (init === undefined || init === null ? {} : init);
  class CustomEvent extends Event {
    #detail;
    constructor(type, init) { super(type, init); this.#detail = initOf(init).detail ?? null; }
    get detail() { return this.#detail; }
  }
  tag(CustomEvent, "CustomEvent");
  class ErrorEvent extends Event {
    #init;
    constructor(type, init) { super(type, init); this.#init = initOf(init); }
    get message() { return this.#init.message ?? ""; }
    get filename() { return this.#init.filename ?? ""; }
    get lineno() { return this.#init.lineno ?? 0; }
    get colno() { return this.#init.colno ?? 0; }
    get error() { return this.#init.error; }
  }
  tag(ErrorEvent, "ErrorEvent");
  class MessageEvent extends Event {
    #init;
    constructor(type, init) { super(type, init); this.#init = initOf(init); }
    get data() { return this.#init.data ?? null; }
    get origin() { return this.#init.origin ?? ""; }
    get lastEventId() { return this.#init.lastEventId ?? ""; }
    get source() { return this.#init.source ?? null; }
    get ports() { return this.#init.ports ?? []; }
  }
  tag(MessageEvent, "MessageEvent");
  class CloseEvent extends Event {
    #init;
    constructor(type, init) { super(type, init); this.#init = initOf(init); }
    get code() { return this.#init.code ?? 0; }
    get reason() { return this.#init.reason ?? ""; }
    get wasClean() { return !!this.#init.wasClean; }
  }
  tag(CloseEvent, "CloseEvent");
  class PromiseRejectionEvent extends Event {
    #init;
    constructor(type, init) { super(type, init); this.#init = initOf(init); }
    get promise() { return this.#init.promise; }
    get reason() { return this.#init.reason; }
  }
  tag(PromiseRejectionEvent, "PromiseRejectionEvent");

  // For other concepts: an EventTarget's event handler property (`onabort`).
  const handlerProperty = (C, type) => {
    const handlers = new WeakMap();
    define(C.prototype, "on" + type, {
      configurable: true,
      get() { return handlers.get(this)?.fn ?? null; },
      set(fn) {
        const old = handlers.get(this);
        if (old) this.removeEventListener(type, old.wrapper);
        if (typeof fn === "function") {
          const wrapper = (e) => fn.call(this, e);
          handlers.set(this, { fn, wrapper });
          this.addEventListener(type, wrapper);
        } else {
          handlers.delete(this);
        }
      },
    });
  };

  return { Event, EventTarget, CustomEvent, ErrorEvent, MessageEvent, CloseEvent, PromiseRejectionEvent, handlerProperty };
})
