// HTMLRewriter: Workers' streaming HTML rewriter, on lol_html (html.rs) as workerd has it.
// `transform(response)` answers a Response whose body is the rewritten stream: each chunk
// read from the source goes through lol_html, whose handlers call back here; a handler that
// returns a promise is awaited before the rewriter goes on, and so is content given as a
// stream or Response (read whole, then written as a string would be). The shapes (own properties of the
// content tokens, enumerable methods), argument checks and texts are workerd's.
(function (native, use) {
  "use strict";
  const html = native.html;
  const define = Object.defineProperty;
  const { Response } = use("fetch");
  const { ReadableStream } = use("streams");
  const STALE = "This content token is no longer valid. Content tokens are only valid during the execution of the relevant content handler.";
  const CONTENT = "string or JsReadableStream or Response";
  const LOCKED = "The ReadableStream has been locked to a reader.";
  const NO_STREAM = "Replacing content in HTML comments using a ReadableStream or Response object is not implemented. You must provide a string.";
  const fail = (text) => { throw new TypeError(text); };
  const param = (method, on, n, type) => `Failed to execute '${method}' on '${on}': parameter ${n} is not of type '${type}'.`;
  const encoder = new TextEncoder();

  // A content token: its rewriter and whether its handler is still running.
  const tokens = new WeakMap();
  const live = (self) => {
    const t = tokens.get(self);
    if (t === undefined || !t.live) fail(STALE);
    return t;
  };
  const op = (self, name, a = "", b = "", isHtml = false) => live(self).rw.op(name, a, b, isHtml);
  // A missing argument is refused; an explicit undefined is the text "undefined" (JSG's).
  const content = (method, on, count, value, options) => {
    if (count < 1) fail(param(method, on, 1, CONTENT));
    if (options !== undefined && options !== null && typeof options !== "object" && typeof options !== "function") {
      fail(param(method, on, 2, "ContentOptions"));
    }
    const isHtml = !!(options && options.html);
    if (value instanceof Response || value instanceof ReadableStream) {
      // workerd streams content into elements, end tags and text, and gives this text for
      // comments and the document's end alike.
      if (on === "Comment" || on === "DocumentEnd") fail(NO_STREAM);
      if (value instanceof Response && value.bodyUsed) fail(LOCKED);
      const stream = value instanceof ReadableStream ? value : value.body;
      if (stream === null) return ["", isHtml];
      if (stream.locked) fail(LOCKED);
      return [stream, isHtml];
    }
    return [String(value), isHtml];
  };
  // A content stream's text: its chunks (bytes, as UTF-8) joined.
  const readText = async (stream) => {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      text += typeof value === "string" ? value : decoder.decode(value, { stream: true });
    }
  };
  const string = (method, on, n, count, value) => {
    if (count < n) fail(param(method, on, n, "string"));
    return String(value);
  };

  // Methods as workerd defines them: enumerable, on the prototype.
  // The constructor comes last among the prototype's own keys, as on workerd.
  const methods = (proto, table) => {
    const ctor = Object.getOwnPropertyDescriptor(proto, "constructor");
    if (ctor !== undefined) delete proto.constructor;
    for (const key of Object.keys(table)) {
      define(proto, key, { value: table[key], writable: true, enumerable: true, configurable: true });
    }
    if (ctor !== undefined) define(proto, "constructor", ctor);
  };
  const tag = (proto, name) => define(proto, Symbol.toStringTag, { value: name, configurable: true });
  const illegal = function () { throw new TypeError("Illegal constructor"); };
  const tokenClass = (name) => {
    const C = { [name]: function () { return illegal(); } }[name];
    tag(C.prototype, name);
    return C;
  };
  const contentMethods = (on, names) => {
    const table = {};
    for (const name of names) {
      table[name] = { [name](value, options) {
        const [text, isHtml] = content(name, on, arguments.length, value, options);
        const t = live(this);
        // Content given as a stream is read whole before the rewriter goes on; the content
        // after it on the same token waits its turn, so the order of the calls is kept.
        if (typeof text !== "string" || t.deferred.length > 0) {
          t.deferred.push(typeof text === "string" ? [name, text, isHtml] : [name, readText(text), isHtml]);
        } else {
          t.rw.op(name, text, "", isHtml);
        }
        return this;
      } }[name];
    }
    return table;
  };
  const removeMethod = {
    remove() { op(this, "remove"); return this; },
  };
  // Own properties of each token, read through the rewriter (workerd's are own properties
  // too); the read-only ones refuse writes with V8's text.
  const readOnly = (on, key) => function () {
    throw new TypeError(`Cannot assign to read only property '${key}' of object '#<${on}>'`);
  };
  const ownProperties = (on, entries) => {
    const descriptors = {};
    for (const [key, get, set] of entries) {
      descriptors[key] = { get, set: set ?? readOnly(on, key), enumerable: true, configurable: true };
    }
    return descriptors;
  };

  // AttributesIterator: a snapshot of the element's attributes as [name, value] pairs.
  function AttributesIterator() { return illegal(); }
  tag(AttributesIterator.prototype, "AttributesIterator");
  const pairs = new WeakMap();
  methods(AttributesIterator.prototype, {
    next() {
      const p = pairs.get(this);
      if (p === undefined || p.i >= p.list.length) return { done: true };
      return { done: false, value: p.list[p.i++] };
    },
  });
  define(AttributesIterator.prototype, Symbol.iterator, {
    value: function () { return this; }, writable: true, enumerable: false, configurable: true,
  });

  const Element = tokenClass("Element");
  const EL = "Element";
  methods(Element.prototype, {
    ...contentMethods(EL, ["before", "after", "prepend", "append", "replace", "setInnerContent"]),
    ...removeMethod,
    removeAndKeepContent() { op(this, "removeAndKeepContent"); return this; },
    getAttribute(name) { const n = string("getAttribute", EL, 1, arguments.length, name); return op(this, "getAttribute", n); },
    hasAttribute(name) { const n = string("hasAttribute", EL, 1, arguments.length, name); return op(this, "hasAttribute", n); },
    setAttribute(name, value) {
      const n = string("setAttribute", EL, 1, arguments.length, name);
      const v = string("setAttribute", EL, 2, arguments.length, value);
      op(this, "setAttribute", n, v);
      return this;
    },
    removeAttribute(name) { const n = string("removeAttribute", EL, 1, arguments.length, name); op(this, "removeAttribute", n); return this; },
    onEndTag(handler) {
      if (typeof handler !== "function") fail(param("onEndTag", EL, 1, "function"));
      const t = live(this);
      const id = t.run.add({ kind: "endTag", fn: handler, self: undefined, once: true });
      t.rw.onEndTag(id);
    },
  });
  const ELEMENT_PROPS = ownProperties(EL, [
    ["namespaceURI", function () { return op(this, "namespaceURI"); }],
    ["removed", function () { return op(this, "removed"); }],
    ["attributes", function () {
      const list = op(this, "attributes");
      const it = Object.create(AttributesIterator.prototype);
      pairs.set(it, { list, i: 0 });
      return it;
    }],
    ["tagName", function () { return op(this, "tagName"); }, function (v) { op(this, "setTagName", String(v)); }],
  ]);

  const EndTag = tokenClass("EndTag");
  methods(EndTag.prototype, { ...contentMethods("EndTag", ["before", "after"]), ...removeMethod });
  const END_TAG_PROPS = ownProperties("EndTag", [
    ["name", function () { return op(this, "name"); }, function (v) { op(this, "setName", String(v)); }],
  ]);

  const Text = tokenClass("Text");
  methods(Text.prototype, { ...contentMethods("Text", ["before", "after", "replace"]), ...removeMethod });
  const TEXT_PROPS = ownProperties("Text", [
    ["removed", function () { return op(this, "removed"); }],
    ["lastInTextNode", function () { return op(this, "lastInTextNode"); }],
    ["text", function () { return op(this, "text"); }],
  ]);

  const Comment = tokenClass("Comment");
  methods(Comment.prototype, { ...contentMethods("Comment", ["before", "after", "replace"]), ...removeMethod });
  const COMMENT_PROPS = ownProperties("Comment", [
    ["removed", function () { return op(this, "removed"); }],
    ["text", function () { return op(this, "text"); }, function (v) { op(this, "setText", String(v)); }],
  ]);

  const Doctype = tokenClass("Doctype");
  const DOCTYPE_PROPS = ownProperties("Doctype", [
    ["systemId", function () { return op(this, "systemId"); }],
    ["publicId", function () { return op(this, "publicId"); }],
    ["name", function () { return op(this, "name"); }],
  ]);

  const DocumentEnd = tokenClass("DocumentEnd");
  methods(DocumentEnd.prototype, contentMethods("DocumentEnd", ["append"]));

  const KINDS = {
    element: [Element.prototype, ELEMENT_PROPS],
    endTag: [EndTag.prototype, END_TAG_PROPS],
    text: [Text.prototype, TEXT_PROPS],
    comments: [Comment.prototype, COMMENT_PROPS],
    doctype: [Doctype.prototype, DOCTYPE_PROPS],
    end: [DocumentEnd.prototype, {}],
  };

  // An error a handler threw, as workerd hands it on: a new error of the same built-in class
  // with the same message; anything else thrown becomes an Error with its text.
  const BUILTIN_ERRORS = [TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];
  const rethrown = (e) => {
    if (e instanceof Error) {
      const C = BUILTIN_ERRORS.find((K) => e instanceof K) ?? Error;
      return new C(e.message);
    }
    if (e !== null && typeof e === "object") {
      const ctor = e.constructor;
      return new Error(`#<${typeof ctor === "function" && ctor.name ? ctor.name : "Object"}>`);
    }
    return new Error(String(e));
  };

  // One transform's handlers, numbered for the rewriter.
  class Run {
    constructor() { this.handlers = new Map(); this.next = 0; }
    add(h) { const id = this.next++; this.handlers.set(id, h); return id; }
  }
  const numbered = (run, h, key) => (h[key] === undefined ? -1 : run.add({ kind: key, fn: h[key], self: h.self }));

  const rewriters = new WeakMap();
  const handlerFields = (what, handlers, keys) => {
    const h = { self: handlers };
    if (handlers === null) return h;
    for (const key of keys) {
      const v = handlers[key];
      if (v !== undefined && typeof v !== "function") {
        fail(`Incorrect type for the '${key}' field on '${what}': the provided value is not of type 'function'.`);
      }
      h[key] = v;
    }
    return h;
  };
  const isHandlers = (v) => v === null || typeof v === "object" || typeof v === "function";

  function HTMLRewriter() {
    if (new.target === undefined) {
      fail("Failed to construct 'HTMLRewriter': Please use the 'new' operator, this object constructor cannot be called as a function.");
    }
    rewriters.set(this, { elements: [], documents: [] });
  }
  define(HTMLRewriter, "length", { value: 0 });
  tag(HTMLRewriter.prototype, "HTMLRewriter");
  const self = (r) => rewriters.get(r) ?? fail("Illegal invocation");
  methods(HTMLRewriter.prototype, {
    on(selector, handlers) {
      const s = self(this);
      if (arguments.length < 1) fail(param("on", "HTMLRewriter", 1, "string"));
      if (handlers === undefined || !isHandlers(handlers)) fail(param("on", "HTMLRewriter", 2, "ElementContentHandlers"));
      const h = handlerFields("ElementContentHandlers", handlers, ["element", "comments", "text"]);
      const text = String(selector);
      const error = html.selectorError(text);
      if (error !== undefined && error !== null) fail(`Parser error: ${error}`);
      h.selector = text;
      s.elements.push(h);
      return this;
    },
    onDocument(handlers) {
      const s = self(this);
      if (handlers === undefined || !isHandlers(handlers)) fail(param("onDocument", "HTMLRewriter", 1, "DocumentContentHandlers"));
      s.documents.push(handlerFields("DocumentContentHandlers", handlers, ["doctype", "comments", "text", "end"]));
      return this;
    },
    transform(response) {
      const s = self(this);
      if (!(response instanceof Response)) fail(param("transform", "HTMLRewriter", 1, "Response"));
      const init = { status: response.status, statusText: response.statusText, headers: response.headers };
      if (response.bodyUsed) fail(LOCKED);
      const body = response.body;
      if (body === null) return new Response(null, init);
      const reader = body.getReader();
      // The handlers as they are now: later `on` calls do not reach this transform.
      const run = new Run();
      const selectors = [], elementIds = [], documentIds = [];
      for (const h of s.elements) {
        selectors.push(h.selector);
        elementIds.push(numbered(run, h, "element"), numbered(run, h, "comments"), numbered(run, h, "text"));
      }
      for (const h of s.documents) {
        documentIds.push(numbered(run, h, "doctype"), numbered(run, h, "comments"), numbered(run, h, "text"), numbered(run, h, "end"));
      }
      const rw = html.rewriter(selectors, elementIds, documentIds);
      // Reading starts now, as on workerd (the source's body is used from here on).
      let pending = reader.read();
      let finished = false;
      const step = async (answer) => {
        // Runs every handler due until the chunk is through.
        while (typeof answer === "number") {
          const h = run.handlers.get(answer);
          if (h.once) run.handlers.delete(answer);
          const [proto, props] = KINDS[h.kind];
          const token = Object.create(proto);
          Object.defineProperties(token, props);
          const t = { rw, run, live: true, deferred: [] };
          tokens.set(token, t);
          try {
            const result = h.fn.call(h.self, token);
            if (result !== null && typeof result === "object" && typeof result.then === "function") await result;
            for (const [name, text, isHtml] of t.deferred) rw.op(name, await text, "", isHtml);
          } catch (e) {
            t.live = false;
            rw.resume(false);
            throw rethrown(e);
          }
          t.live = false;
          answer = rw.resume(true);
        }
        if (typeof answer === "string") throw new TypeError(`Parser error: ${answer}`);
      };
      const stop = (reason) => {
        finished = true;
        rw.abort();
        reader.cancel(reason).catch(() => {});
      };
      const out = new ReadableStream({
        async pull(controller) {
          try {
            while (!finished) {
              const { done, value } = await pending;
              pending = null;
              if (done) {
                await step(rw.end());
                finished = true;
              } else {
                const bytes = typeof value === "string" ? encoder.encode(value)
                  : value instanceof ArrayBuffer ? new Uint8Array(value)
                  : ArrayBuffer.isView(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
                  : fail("This TransformStream is being used as a byte stream, but received a value that is not a BufferSource. Consider using a TextEncoderStream first.");
                await step(rw.write(bytes));
                pending = reader.read();
              }
              const chunk = rw.take();
              if (chunk.length > 0) controller.enqueue(chunk);
              if (finished) { controller.close(); return; }
              if (chunk.length > 0) return;
            }
          } catch (e) {
            stop(e);
            throw e;
          }
        },
        cancel(reason) { stop(reason); },
      });
      return new Response(out, init);
    },
  });
  return { HTMLRewriter };
})
