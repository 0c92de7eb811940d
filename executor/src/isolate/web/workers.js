// The Workers-only globals, as a Dynamic Worker has them: `Cloudflare` (the compatibility
// flags), the Cache API with no cache configured, the handler events (not constructible by a
// program), WebSocket (connecting is refused as fetch is), WebSocketPair (two connected ends
// in the same sandbox), WebSocketRequestResponsePair, and EventSource (connecting fails as
// fetch does; `EventSource.from` reads a stream). Every text is the one workerd gives.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const tag = (C, name) => define(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const { Event, EventTarget, MessageEvent, CloseEvent, ErrorEvent, handlerProperty } = use("events");
  const creating = Symbol("creating");
  const BLOCKED = "This worker is not permitted to access the internet via global functions like fetch(). It must use capabilities (such as bindings in 'env') to talk to the outside world.";
  const notString = (what, n) => new TypeError(`Failed to construct '${what}': constructor parameter ${n} is not of type 'string'.`);
  const domError = (message, name) => new DOMException(message, name);
  // A constant on a class and on its prototype, as Web IDL defines them.
  const constant = (C, name, value) => {
    define(C, name, { value, enumerable: true });
    define(C.prototype, name, { value, enumerable: true });
  };

  // --- Cloudflare -------------------------------------------------------------------------
  class Cloudflare {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
  }
  tag(Cloudflare, "Cloudflare");
  const cloudflare = new Cloudflare(creating);
  const flags = Object.assign(Object.create(null), native.compatibilityFlags());
  define(cloudflare, "compatibilityFlags", { value: Object.freeze(flags), writable: false, enumerable: true, configurable: true });

  // --- The Cache API, with no cache configured ---------------------------------------------
  const notImplemented = (on, method) => new Error(`Failed to execute '${method}' on '${on}': the method is not implemented.`);
  const notType = (on, method, n, type) => new TypeError(`Failed to execute '${method}' on '${on}': parameter ${n} is not of type '${type}'.`);
  const NO_CACHE = "No Cache was configured";
  const requestUrl = (on, method, request) => {
    const { Request } = use("fetch");
    if (request instanceof Request) return;
    if (typeof request !== "string") throw notType(on, method, 1, "Request or string");
    const { URL } = use("url");
    if (!URL.canParse(request)) throw new TypeError(`Invalid URL: ${request}`);
  };
  const rejecting = (fn) => function (...args) {
    try { fn.apply(this, args); } catch (e) { return Promise.reject(e); }
    return Promise.reject(new Error(NO_CACHE));
  };
  class Cache {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    add() { return Promise.reject(notImplemented("Cache", "add")); }
    addAll() { return Promise.reject(notImplemented("Cache", "addAll")); }
    matchAll() { return Promise.reject(notImplemented("Cache", "matchAll")); }
    keys() { return Promise.reject(notImplemented("Cache", "keys")); }
  }
  const methods = {
    delete: rejecting(function (request) { requestUrl("Cache", "delete", request); }),
    match: rejecting(function (request) { requestUrl("Cache", "match", request); }),
    put: rejecting(function (request, response) {
      const { Response } = use("fetch");
      requestUrl("Cache", "put", request);
      if (!(response instanceof Response)) throw notType("Cache", "put", 2, "Response");
    }),
  };
  for (const name of ["delete", "match", "put"]) {
    define(methods[name], "name", { value: name });
    define(Cache.prototype, name, { value: methods[name], writable: true, configurable: true });
  }
  tag(Cache, "Cache");
  class CacheStorage {
    #default = new Cache(creating);
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    get default() { return this.#default; }
    open(name) {
      if (typeof name !== "string") return Promise.reject(notType("CacheStorage", "open", 1, "string"));
      return Promise.resolve(new Cache(creating));
    }
    delete() { throw notImplemented("CacheStorage", "delete"); }
    match() { throw notImplemented("CacheStorage", "match"); }
    has() { throw notImplemented("CacheStorage", "has"); }
    keys() { throw notImplemented("CacheStorage", "keys"); }
  }
  tag(CacheStorage, "CacheStorage");
  const caches = new CacheStorage(creating);

  // --- Handler events: a program never constructs them -------------------------------------
  const illegal = () => { throw new TypeError("Illegal constructor"); };
  class ExtendableEvent extends Event {
    constructor() { illegal(); super(""); }
    waitUntil() {}
  }
  tag(ExtendableEvent, "ExtendableEvent");
  class FetchEvent extends ExtendableEvent {
    constructor() { illegal(); super(); }
    respondWith() {}
    passThroughOnException() {}
  }
  tag(FetchEvent, "FetchEvent");
  class ScheduledEvent extends ExtendableEvent {
    constructor() { illegal(); super(); }
    noRetry() {}
  }
  tag(ScheduledEvent, "ScheduledEvent");
  class TailEvent extends ExtendableEvent {
    constructor() { illegal(); super(); }
  }
  tag(TailEvent, "TailEvent");
  for (const C of [ExtendableEvent, FetchEvent, ScheduledEvent, TailEvent]) define(C, "length", { value: 0 });

  // --- WebSocket ----------------------------------------------------------------------------
  const sockets = new WeakMap();
  const READY = ["CONNECTING", "OPEN", "CLOSING", "CLOSED"];
  const later = (fn) => Promise.resolve().then(fn);
  const validCloseCode = (code) => code === 1000 || (code >= 3000 && code <= 4999) || (code >= 1001 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006);
  class WebSocket extends EventTarget {
    constructor(url, protocols) {
      if (url === creating) {
        super();
        sockets.set(this, { state: 1, accepted: false, closed: false, peer: null, queue: [], attachment: undefined });
        return;
      }
      if (arguments.length === 0 || (typeof url !== "string" && !(url instanceof use("url").URL))) throw notString("WebSocket", 1);
      const { URL } = use("url");
      const text = String(url);
      if (!URL.canParse(text)) throw domError("WebSocket Constructor: The url is invalid.", "SyntaxError");
      const scheme = new URL(text).protocol;
      if (scheme !== "ws:" && scheme !== "wss:") throw domError("WebSocket Constructor: The url scheme must be ws or wss.", "SyntaxError");
      throw new Error(BLOCKED);
    }
    accept() {
      const s = sockets.get(this);
      if (s.accepted) return;
      s.accepted = true;
      const queued = s.queue.splice(0);
      for (const event of queued) later(() => this.dispatchEvent(event));
    }
    send(message) {
      const s = sockets.get(this);
      if (!s.accepted) throw new TypeError("You must call one of accept() or state.acceptWebSocket() on this WebSocket before sending messages.");
      if (s.closed) throw new TypeError("Can't call WebSocket send() after close().");
      let data;
      if (message instanceof ArrayBuffer) data = message.slice(0);
      else if (ArrayBuffer.isView(message)) data = message.buffer.slice(message.byteOffset, message.byteOffset + message.byteLength);
      else data = String(message);
      deliver(s.peer, new MessageEvent("message", { data }));
    }
    close(code, reason) {
      const s = sockets.get(this);
      if (code !== undefined) {
        code = Number(code);
        if (!validCloseCode(code)) throw domError(`Invalid WebSocket close code: ${code}.`, "InvalidAccessError");
      }
      if (s.closed) return;
      s.closed = true;
      const peer = sockets.get(s.peer);
      s.state = peer.closed ? 3 : 2;
      if (peer.closed) peer.state = 3;
      else peer.state = 2;
      deliver(s.peer, new CloseEvent("close", { code: code ?? 1005, reason: reason === undefined ? "" : String(reason), wasClean: true }));
    }
    serializeAttachment(value) { sockets.get(this).attachment = use("clone").structuredClone(value); }
    deserializeAttachment() {
      const a = sockets.get(this).attachment;
      return a === undefined ? null : use("clone").structuredClone(a);
    }
    get readyState() { return sockets.get(this).state; }
    get bufferedAmount() { return 0; }
    get url() { return null; }
    get protocol() { return ""; }
    get extensions() { return ""; }
    get binaryType() { return "arraybuffer"; }
    set binaryType(value) {}
  }
  // An event for `target`, dispatched once that end has accepted.
  const deliver = (target, event) => {
    const s = sockets.get(target);
    if (s.accepted) later(() => target.dispatchEvent(event));
    else s.queue.push(event);
  };
  define(WebSocket, "length", { value: 0 });
  READY.forEach((name, value) => {
    constant(WebSocket, "READY_STATE_" + name, value);
    constant(WebSocket, name, value);
  });
  tag(WebSocket, "WebSocket");

  class WebSocketPair {
    constructor() {
      // A WebSocket is an I/O object, refused in global scope.
      native.refuseInGlobalScope();
      const a = new WebSocket(creating);
      const b = new WebSocket(creating);
      sockets.get(a).peer = b;
      sockets.get(b).peer = a;
      define(this, "0", { value: a, writable: true, enumerable: true, configurable: true });
      define(this, "1", { value: b, writable: true, enumerable: true, configurable: true });
    }
    *[Symbol.iterator]() { yield this[0]; yield this[1]; }
  }
  define(WebSocketPair.prototype, Symbol.iterator, { enumerable: false });
  tag(WebSocketPair, "WebSocketPair");

  class WebSocketRequestResponsePair {
    #request;
    #response;
    constructor(request, response) {
      if (typeof request !== "string") throw notString("WebSocketRequestResponsePair", 1);
      if (typeof response !== "string") throw notString("WebSocketRequestResponsePair", 2);
      this.#request = request;
      this.#response = response;
    }
    get request() { return this.#request; }
    get response() { return this.#response; }
  }
  define(WebSocketRequestResponsePair, "length", { value: 0 });
  tag(WebSocketRequestResponsePair, "WebSocketRequestResponsePair");

  // --- EventSource --------------------------------------------------------------------------
  const sources = new WeakMap();
  class EventSource extends EventTarget {
    constructor(url, init) {
      if (arguments.length === 0 || (typeof url !== "string" && url !== creating)) {
        if (!(url instanceof use("url").URL)) throw notString("EventSource", 1);
      }
      super();
      const s = { state: 0, url: null, withCredentials: false };
      sources.set(this, s);
      if (url === creating) {
        s.state = 1;
        return;
      }
      if (init !== undefined && init !== null && init.withCredentials !== undefined && init.withCredentials !== false) {
        throw domError("The init.withCredentials option is not supported. It must be false or undefined.", "NotSupportedError");
      }
      const { URL } = use("url");
      const text = String(url);
      if (!URL.canParse(text)) throw domError(`Cannot open an EventSource to '${text}'. The URL is invalid.`, "SyntaxError");
      s.url = new URL(text).href;
      // Connecting goes through fetch, which the sandbox refuses.
      later(() => {
        if (s.state === 2) return;
        s.state = 2;
        this.dispatchEvent(new ErrorEvent("error", { error: new Error(BLOCKED) }));
      });
    }
    static from(stream) {
      const source = new EventSource(creating);
      read(source, stream);
      return source;
    }
    close() { sources.get(this).state = 2; }
    get url() { return sources.get(this).url; }
    get withCredentials() { return sources.get(this).withCredentials; }
    get readyState() { return sources.get(this).state; }
  }
  define(EventSource, "length", { value: 0 });
  define(EventSource.from, "length", { value: 0 });
  ["CONNECTING", "OPEN", "CLOSED"].forEach((name, value) => constant(EventSource, name, value));
  for (const type of ["open", "message", "error"]) handlerProperty(EventSource, type);
  tag(EventSource, "EventSource");

  // The text/event-stream format, read from a stream of bytes or strings.
  const read = async (source, stream) => {
    const s = sources.get(source);
    const { TextDecoder } = use("encoding");
    const decoder = new TextDecoder();
    let buffer = "";
    let data = [];
    let type = "";
    let lastId = "";
    const dispatchLine = (line) => {
      if (line === "") {
        if (data.length > 0 && s.state !== 2) {
          const event = new MessageEvent(type || "message", { data: data.join("\n"), lastEventId: lastId });
          source.dispatchEvent(event);
        }
        data = [];
        type = "";
        return;
      }
      if (line.startsWith(":")) return;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "event") type = value;
      else if (field === "id" && !value.includes("\0")) lastId = value;
    };
    try {
      const reader = stream.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += typeof value === "string" ? value : decoder.decode(value, { stream: true });
        let at;
        while ((at = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, at);
          buffer = buffer.slice(at + (buffer.startsWith("\r\n", at) ? 2 : 1));
          dispatchLine(line);
        }
      }
    } catch (error) {
      if (s.state !== 2) {
        s.state = 2;
        source.dispatchEvent(new ErrorEvent("error", { error }));
      }
      return;
    }
    if (s.state !== 2) {
      s.state = 2;
      source.dispatchEvent(new ErrorEvent("error", {}));
    }
  };

  return {
    Cloudflare: cloudflare,
    caches,
    Cache,
    CacheStorage,
    ExtendableEvent,
    FetchEvent,
    ScheduledEvent,
    TailEvent,
    TraceEvent: TailEvent,
    WebSocket,
    WebSocketPair,
    WebSocketRequestResponsePair,
    EventSource,
  };
})
