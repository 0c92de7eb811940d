// Streams: ReadableStream (default readers, async iteration, tee, pipes), WritableStream,
// TransformStream and the queuing strategies; byte streams with BYOB readers. A compact model of the standard: enough for
// bodies and for the stream programs models write, not byte-exact backpressure.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const creating = Symbol("creating");
  const tag = (C, name) => define(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const illegal = () => { throw new TypeError("Illegal constructor"); };

  class ReadableStreamDefaultController {
    #s;
    constructor(key, stream) { if (key !== creating) illegal(); this.#s = stream; }
    get desiredSize() { const s = this.#s; return s.state === "readable" ? Math.max(0, s.hwm - s.queue.length) : s.state === "closed" ? 0 : null; }
    enqueue(chunk) {
      const s = this.#s;
      if (s.closeRequested || s.state !== "readable") throw new TypeError("This ReadableStream is closed.");
      const reader = s.reader;
      if (reader && reader.requests.length > 0) reader.requests.shift().resolve({ value: chunk, done: false });
      else s.queue.push(chunk);
      pull(s);
    }
    close() {
      const s = this.#s;
      if (s.closeRequested || s.state !== "readable") throw new TypeError("This ReadableStream is closed.");
      s.closeRequested = true;
      if (s.queue.length === 0) finishClose(s);
    }
    error(reason) { errorStream(this.#s, reason); }
  }
  tag(ReadableStreamDefaultController, "ReadableStreamDefaultController");

  const finishClose = (s) => {
    s.state = "closed";
    const reader = s.reader;
    if (reader) {
      for (const r of reader.requests.splice(0)) r.resolve({ value: undefined, done: true });
      reader.closed.resolve(undefined);
    }
  };
  const errorStream = (s, reason) => {
    if (s.state !== "readable") return;
    s.state = "errored";
    s.storedError = reason;
    s.queue = [];
    const reader = s.reader;
    if (reader) {
      for (const r of reader.requests.splice(0)) r.reject(reason);
      reader.closed.reject(reason);
      reader.closed.promise.catch(() => {});
    }
  };
  const pull = (s) => {
    if (!s.started || s.pulling || s.state !== "readable" || s.closeRequested || typeof s.source.pull !== "function") return;
    const wanted = (s.reader && s.reader.requests.length > 0) || s.queue.length < s.hwm;
    if (!wanted) return;
    s.pulling = true;
    Promise.resolve()
      .then(() => s.source.pull.call(s.source, s.controller))
      .then(() => { s.pulling = false; pull(s); }, (e) => { s.pulling = false; errorStream(s, e); });
  };
  const deferred = () => {
    const d = {};
    d.promise = new Promise((resolve, reject) => { d.resolve = resolve; d.reject = reject; });
    return d;
  };

  const streams = new WeakMap();
  class ReadableStream {
    constructor(source = {}, strategy = {}) {
      const s = {
        source: source ?? {}, queue: [], state: "readable", reader: null, started: false,
        pulling: false, closeRequested: false, storedError: undefined,
        hwm: strategy && strategy.highWaterMark !== undefined ? Number(strategy.highWaterMark) : 1,
      };
      const type = s.source.type;
      if (type !== undefined && String(type) !== "bytes") throw new TypeError(`"${type}" is not a valid type of ReadableStream.`);
      s.bytes = type !== undefined;
      if (s.bytes && !(strategy && strategy.highWaterMark !== undefined)) s.hwm = 0;
      s.controller = s.bytes ? new ReadableByteStreamController(creating, s) : new ReadableStreamDefaultController(creating, s);
      streams.set(this, s);
      // start runs now, as the standard says (a stream closed or errored in start is so at
      // once); pulling waits for what it returns.
      let starting;
      try {
        starting = Promise.resolve(typeof s.source.start === "function" ? s.source.start.call(s.source, s.controller) : undefined);
      } catch (e) {
        starting = Promise.reject(e);
      }
      starting.then(() => { s.started = true; pull(s); }, (e) => errorStream(s, e));
    }
    static from(iterable) {
      const it = iterable[Symbol.asyncIterator] ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
      return new ReadableStream({
        async pull(c) {
          const { value, done } = await it.next();
          if (done) c.close(); else c.enqueue(value);
        },
      }, { highWaterMark: 0 });
    }
    get locked() { return streams.get(this).reader !== null; }
    getReader(options) {
      const mode = options === undefined || options === null ? undefined : options.mode;
      if (mode === undefined) return new ReadableStreamDefaultReader(this);
      if (String(mode) !== "byob") throw new TypeError("mode must be undefined or 'byob' in call to getReader().");
      return new ReadableStreamBYOBReader(this);
    }
    cancel(reason) {
      const s = streams.get(this);
      if (s.reader) return Promise.reject(new TypeError("This ReadableStream is currently locked to a reader."));
      return cancelStream(s, reason);
    }
    tee() {
      const reader = this.getReader();
      const branches = [];
      const pump = async () => {
        for (;;) {
          const { value, done } = await reader.read();
          for (const c of branches) { try { if (done) c.close(); else c.enqueue(value); } catch { } }
          if (done) return;
        }
      };
      let started = false;
      const make = () => new ReadableStream({
        start(c) { branches.push(c); },
        pull() { if (!started) { started = true; pump().catch((e) => branches.forEach((c) => c.error(e))); } },
      });
      return [make(), make()];
    }
    async pipeTo(destination, options = {}) {
      const reader = this.getReader();
      const writer = destination.getWriter();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          await writer.write(value);
        }
        if (!options.preventClose) await writer.close();
      } catch (e) {
        if (!options.preventAbort) await writer.abort(e).catch(() => {});
        throw e;
      } finally {
        reader.releaseLock();
        writer.releaseLock();
      }
    }
    pipeThrough(transform, options) {
      this.pipeTo(transform.writable, options).catch(() => {});
      return transform.readable;
    }
    values(options) { return iterate(this, options); }
    [Symbol.asyncIterator](options) { return iterate(this, options); }
  }
  tag(ReadableStream, "ReadableStream");
  // Workers RPC carries a ReadableStream across (see fetch.js).
  define(ReadableStream.prototype, Symbol.for("codemode.rpc-carried"), { value: true });
  const cancelStream = (s, reason) => {
    s.disturbed = true;
    if (s.state === "closed") return Promise.resolve();
    if (s.state === "errored") return Promise.reject(s.storedError);
    s.queue = [];
    finishClose(s);
    return Promise.resolve(typeof s.source.cancel === "function" ? s.source.cancel(reason) : undefined).then(() => undefined);
  };
  async function* iterate(stream, options) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      if (!(options && options.preventCancel)) reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }

  const readers = new WeakMap();
  class ReadableStreamDefaultReader {
    constructor(stream) {
      const s = streams.get(stream);
      if (s === undefined) throw new TypeError("Failed to construct 'ReadableStreamDefaultReader': parameter 1 is not a ReadableStream.");
      if (s.reader) throw new TypeError("This ReadableStream is currently locked to a reader.");
      const r = { stream: s, requests: [], closed: deferred() };
      if (s.state === "closed") r.closed.resolve(undefined);
      if (s.state === "errored") { r.closed.reject(s.storedError); r.closed.promise.catch(() => {}); }
      s.reader = r;
      readers.set(this, r);
    }
    get closed() { return readers.get(this).closed.promise; }
    read() {
      const r = readers.get(this);
      const s = r.stream;
      if (s === null) return Promise.reject(new TypeError("This ReadableStreamDefaultReader has been released."));
      s.disturbed = true;
      if (s.queue.length > 0) {
        const value = s.queue.shift();
        if (s.closeRequested && s.queue.length === 0) finishClose(s);
        else pull(s);
        return Promise.resolve({ value, done: false });
      }
      if (s.state === "closed") return Promise.resolve({ value: undefined, done: true });
      if (s.state === "errored") return Promise.reject(s.storedError);
      const d = deferred();
      r.requests.push(d);
      pull(s);
      return d.promise;
    }
    cancel(reason) {
      const r = readers.get(this);
      return r.stream ? cancelStream(r.stream, reason) : Promise.reject(new TypeError("This ReadableStreamDefaultReader has been released."));
    }
    releaseLock() {
      const r = readers.get(this);
      if (r.stream) { r.stream.reader = null; r.stream = null; }
    }
  }
  tag(ReadableStreamDefaultReader, "ReadableStreamDefaultReader");
  // A byte stream's controller: the default controller's queue, of byte views only. A BYOB read
  // is served from that queue, so `byobRequest` is always null (a source that checks it
  // enqueues instead).
  class ReadableByteStreamController extends ReadableStreamDefaultController {
    constructor(key, stream) { super(key, stream); }
    get byobRequest() { return null; }
    enqueue(chunk) {
      if (!ArrayBuffer.isView(chunk)) throw new TypeError("This ReadableStream is being used as a byte stream, but received a value that is not an ArrayBufferView.");
      if (chunk.byteLength === 0) throw new TypeError("Cannot enqueue a zero-length ArrayBuffer or ArrayBufferView.");
      super.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength).slice());
    }
  }

  // A BYOB reader: reads into the caller's view (its buffer is transferred, as the standard
  // says), from the stream's queue of bytes; what does not fit waits for the next read.
  class ReadableStreamBYOBReader {
    #reader; #stream; #pending = null;
    constructor(stream) {
      const s = streams.get(stream);
      if (s === undefined) throw new TypeError("Failed to construct 'ReadableStreamBYOBReader': parameter 1 is not a ReadableStream.");
      if (!s.bytes && s.state === "readable") throw new TypeError("This ReadableStream does not support BYOB reads.");
      this.#reader = new ReadableStreamDefaultReader(stream);
      this.#stream = s;
    }
    get closed() { return this.#reader.closed; }
    // The next queued bytes, without waiting; null when nothing is queued.
    #take() {
      if (this.#pending !== null) { const p = this.#pending; this.#pending = null; return p; }
      const s = this.#stream;
      if (s.queue.length === 0) return null;
      const chunk = s.queue.shift();
      if (s.closeRequested && s.queue.length === 0) finishClose(s);
      return chunk;
    }
    async read(view, options) {
      if (!ArrayBuffer.isView(view)) throw new TypeError("Failed to execute 'read' on 'ReadableStreamBYOBReader': parameter 1 is not of type 'ArrayBufferView'.");
      if (view.byteLength === 0) throw new TypeError("You must call read() on a \"byob\" reader with a positive-sized TypedArray object.");
      const element = view.BYTES_PER_ELEMENT || 1;
      const min = (options && options.min !== undefined ? Number(options.min) : 1) * element;
      const offset = view.byteOffset, length = view.byteLength, Kind = view.constructor;
      const buffer = typeof view.buffer.transfer === "function" ? view.buffer.transfer() : view.buffer;
      const target = new Uint8Array(buffer, offset, length);
      let filled = 0, done = false;
      const put = (chunk) => {
        const take = Math.min(chunk.length, target.length - filled);
        target.set(chunk.subarray(0, take), filled);
        filled += take;
        if (take < chunk.length) this.#pending = chunk.subarray(take);
      };
      for (;;) {
        // What is queued now fills the view as far as it goes; past `min`, nothing is awaited.
        for (let chunk = this.#take(); chunk !== null; chunk = filled < target.length ? this.#take() : null) put(chunk);
        if (filled >= min && filled % element === 0) break;
        const next = await this.#reader.read();
        if (next.done) { done = true; break; }
        put(next.value);
      }
      return { value: new Kind(buffer, offset, Math.floor(filled / element)), done: done && filled === 0 };
    }
    cancel(reason) { return this.#reader.cancel(reason); }
    releaseLock() { this.#reader.releaseLock(); }
  }
  tag(ReadableStreamBYOBReader, "ReadableStreamBYOBReader");
  class ReadableStreamBYOBRequest { constructor() { illegal(); } }
  tag(ReadableStreamBYOBRequest, "ReadableStreamBYOBRequest");
  tag(ReadableByteStreamController, "ReadableByteStreamController");

  // WritableStream: writes run one at a time through the sink.
  const sinks = new WeakMap();
  class WritableStreamDefaultController {
    #w;
    constructor(key, w) { if (key !== creating) illegal(); this.#w = w; }
    get signal() { return this.#w.abort.signal; }
    error(reason) { const w = this.#w; if (w.state === "writable") { w.state = "errored"; w.storedError = reason; } }
  }
  tag(WritableStreamDefaultController, "WritableStreamDefaultController");
  class WritableStream {
    constructor(sink = {}, strategy = {}) {
      const w = { sink: sink ?? {}, state: "writable", writer: null, storedError: undefined, abort: new (use("abort").AbortController)() };
      w.controller = new WritableStreamDefaultController(creating, w);
      w.chain = Promise.resolve(typeof w.sink.start === "function" ? w.sink.start.call(w.sink, w.controller) : undefined);
      w.chain.catch((e) => { w.state = "errored"; w.storedError = e; });
      sinks.set(this, w);
    }
    get locked() { return sinks.get(this).writer !== null; }
    getWriter() { return new WritableStreamDefaultWriter(this); }
    abort(reason) { return abortWritable(sinks.get(this), reason); }
    close() { return closeWritable(sinks.get(this)); }
  }
  tag(WritableStream, "WritableStream");
  const enqueueWrite = (w, op) => {
    const next = w.chain.then(() => {
      if (w.state === "errored") throw w.storedError;
      return op();
    });
    w.chain = next.catch((e) => { if (w.state !== "errored") { w.state = "errored"; w.storedError = e; } });
    return next.then(() => undefined);
  };
  const closeWritable = (w) => {
    if (w.state !== "writable") return Promise.reject(new TypeError("This WritableStream is closed."));
    w.state = "closing";
    return enqueueWrite(w, () => typeof w.sink.close === "function" ? w.sink.close.call(w.sink) : undefined)
      .then(() => { w.state = "closed"; });
  };
  const abortWritable = (w, reason) => {
    if (w.state === "closed" || w.state === "errored") return Promise.resolve();
    w.state = "errored";
    w.storedError = reason;
    w.abort.abort(reason);
    return Promise.resolve(typeof w.sink.abort === "function" ? w.sink.abort.call(w.sink, reason) : undefined).then(() => undefined);
  };
  const writers = new WeakMap();
  class WritableStreamDefaultWriter {
    constructor(stream) {
      const w = sinks.get(stream);
      if (w === undefined) throw new TypeError("Failed to construct 'WritableStreamDefaultWriter': parameter 1 is not a WritableStream.");
      if (w.writer) throw new TypeError("This WritableStream is currently locked to a writer.");
      w.writer = this;
      writers.set(this, w);
    }
    get closed() { const w = writers.get(this); return w.chain.then(() => { if (w.state === "errored") throw w.storedError; }); }
    get ready() { return Promise.resolve(); }
    get desiredSize() { return 1; }
    write(chunk) {
      const w = writers.get(this);
      if (w.state !== "writable") return Promise.reject(w.state === "errored" ? w.storedError : new TypeError("This WritableStream is closed."));
      return enqueueWrite(w, () => typeof w.sink.write === "function" ? w.sink.write.call(w.sink, chunk, w.controller) : undefined);
    }
    close() { return closeWritable(writers.get(this)); }
    abort(reason) { return abortWritable(writers.get(this), reason); }
    releaseLock() { const w = writers.get(this); if (w && w.writer === this) w.writer = null; }
  }
  tag(WritableStreamDefaultWriter, "WritableStreamDefaultWriter");

  class TransformStreamDefaultController {
    #t;
    constructor(key, t) { if (key !== creating) illegal(); this.#t = t; }
    get desiredSize() { return this.#t.readableController.desiredSize; }
    enqueue(chunk) { this.#t.readableController.enqueue(chunk); }
    error(reason) { this.#t.readableController.error(reason); }
    terminate() { try { this.#t.readableController.close(); } catch { } }
  }
  tag(TransformStreamDefaultController, "TransformStreamDefaultController");
  class TransformStream {
    #readable; #writable;
    constructor(transformer = {}, writableStrategy, readableStrategy) {
      const t = {};
      transformer = transformer ?? {};
      const controller = new TransformStreamDefaultController(creating, t);
      this.#readable = new ReadableStream({ start(c) { t.readableController = c; } }, { highWaterMark: Infinity });
      const started = Promise.resolve().then(() => typeof transformer.start === "function" ? transformer.start.call(transformer, controller) : undefined);
      this.#writable = new WritableStream({
        start() { return started; },
        // A transformer that throws errors both sides, as the standard says.
        async write(chunk) {
          try {
            return await (typeof transformer.transform === "function"
              ? transformer.transform.call(transformer, chunk, controller)
              : controller.enqueue(chunk));
          } catch (e) {
            controller.error(e);
            throw e;
          }
        },
        async close() {
          try {
            if (typeof transformer.flush === "function") await transformer.flush.call(transformer, controller);
          } catch (e) {
            controller.error(e);
            throw e;
          }
          controller.terminate();
        },
        abort(reason) { controller.error(reason); },
      });
    }
    get readable() { return this.#readable; }
    get writable() { return this.#writable; }
  }
  tag(TransformStream, "TransformStream");
  class IdentityTransformStream extends TransformStream { constructor() { super(); } }
  tag(IdentityTransformStream, "IdentityTransformStream");
  class FixedLengthStream extends TransformStream {
    constructor(length) {
      if (arguments.length === 0) throw new TypeError("Failed to construct 'FixedLengthStream': 1 argument required, but only 0 present.");
      super();
      void length;
    }
  }
  tag(FixedLengthStream, "FixedLengthStream");

  class ByteLengthQueuingStrategy {
    #hwm;
    constructor(init) { this.#hwm = Number(init.highWaterMark); }
    get highWaterMark() { return this.#hwm; }
    get size() { return (chunk) => chunk.byteLength; }
  }
  tag(ByteLengthQueuingStrategy, "ByteLengthQueuingStrategy");
  class CountQueuingStrategy {
    #hwm;
    constructor(init) { this.#hwm = Number(init.highWaterMark); }
    get highWaterMark() { return this.#hwm; }
    get size() { return () => 1; }
  }
  tag(CountQueuingStrategy, "CountQueuingStrategy");

  class TextEncoderStream extends TransformStream {
    constructor() {
      const encoder = new (use("encoding").TextEncoder)();
      super({ transform(chunk, c) { const b = encoder.encode(String(chunk)); if (b.length) c.enqueue(b); } });
    }
    get encoding() { return "utf-8"; }
  }
  tag(TextEncoderStream, "TextEncoderStream");
  class TextDecoderStream extends TransformStream {
    #encoding; #fatal; #ignoreBOM;
    constructor(label = "utf-8", options = {}) {
      const decoder = new (use("encoding").TextDecoder)(label, options);
      super({
        transform(chunk, c) {
          const text = decoder.decode(use("encoding").bytesOf(chunk), { stream: true });
          if (text) c.enqueue(text);
        },
        flush(c) { const text = decoder.decode(); if (text) c.enqueue(text); },
      });
      this.#encoding = decoder.encoding;
      this.#fatal = decoder.fatal;
      this.#ignoreBOM = decoder.ignoreBOM;
    }
    get encoding() { return this.#encoding; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
  }
  tag(TextDecoderStream, "TextDecoderStream");

  const isReadableStream = (v) => streams.has(v);
  const isDisturbed = (v) => streams.has(v) && streams.get(v).disturbed === true;
  return {
    ReadableStream, ReadableStreamDefaultReader, ReadableStreamDefaultController, ReadableStreamBYOBReader,
    ReadableStreamBYOBRequest, ReadableByteStreamController, WritableStream, WritableStreamDefaultWriter,
    WritableStreamDefaultController, TransformStream, TransformStreamDefaultController, ByteLengthQueuingStrategy,
    CountQueuingStrategy, IdentityTransformStream, FixedLengthStream, TextEncoderStream, TextDecoderStream,
    isReadableStream, isDisturbed,
  };
})
