// Streams: ReadableStream (default readers, async iteration, tee, pipes), WritableStream,
// TransformStream and the queuing strategies. A compact model of the standard: enough for
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
      s.controller = new ReadableStreamDefaultController(creating, s);
      streams.set(this, s);
      Promise.resolve()
        .then(() => typeof s.source.start === "function" ? s.source.start.call(s.source, s.controller) : undefined)
        .then(() => { s.started = true; pull(s); }, (e) => errorStream(s, e));
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
      if (options && options.mode === "byob") throw new TypeError("BYOB readers are not supported in this sandbox.");
      return new ReadableStreamDefaultReader(this);
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
  class ReadableStreamBYOBReader { constructor() { throw new TypeError("BYOB readers are not supported in this sandbox."); } }
  tag(ReadableStreamBYOBReader, "ReadableStreamBYOBReader");
  class ReadableStreamBYOBRequest { constructor() { illegal(); } }
  tag(ReadableStreamBYOBRequest, "ReadableStreamBYOBRequest");
  class ReadableByteStreamController { constructor() { illegal(); } }
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
    constructor(label = "utf-8", options = {}) {
      const decoder = new (use("encoding").TextDecoder)(label, options);
      let pending = new Uint8Array(0);
      super({
        transform(chunk, c) {
          const b = use("encoding").bytesOf(chunk);
          const all = new Uint8Array(pending.length + b.length);
          all.set(pending); all.set(b, pending.length);
          let end = all.length, back = 0;
          while (back < 3 && end - back - 1 >= 0 && (all[end - back - 1] & 0xc0) === 0x80) back++;
          const lead = end - back - 1;
          if (lead >= 0) {
            const need = all[lead] >= 0xf0 ? 4 : all[lead] >= 0xe0 ? 3 : all[lead] >= 0xc0 ? 2 : 1;
            if (need > back + 1) end = lead;
          }
          pending = all.slice(end);
          const text = decoder.decode(all.subarray(0, end));
          if (text) c.enqueue(text);
        },
        flush(c) { if (pending.length) c.enqueue(decoder.decode(pending)); },
      });
    }
    get encoding() { return "utf-8"; }
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
