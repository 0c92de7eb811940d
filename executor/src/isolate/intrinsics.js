// The language's built-in members as the reference's V8 has them. QuickJS ships members V8
// does not have (proposals it implements early, and its own debugging accessors); a program
// that feature-detects them (`if (Iterator.prototype.chunks)`) would take a path it never
// takes on the reference, so they are removed from every fresh context, before any program.
// Measured on both sides by the surface inventory (`builtin …` entries of
// surface/inventory.yaml); the members kept on purpose are listed there with their reasons.
(function () {
  "use strict";
  const absentOnTheReference = [
    // Iterator chunking (TC39 stage 2.7): V8 has neither.
    [Iterator.prototype, "chunks"],
    [Iterator.prototype, "windows"],
    // Immutable ArrayBuffers (TC39 stage 2.7): V8 has none of the three.
    [ArrayBuffer.prototype, "transferToImmutable"],
    [ArrayBuffer.prototype, "sliceToImmutable"],
    [ArrayBuffer.prototype, "immutable"],
    // QuickJS's source positions of a function (SpiderMonkey-style); V8 has none.
    [Function.prototype, "fileName"],
    [Function.prototype, "lineNumber"],
    [Function.prototype, "columnNumber"],
  ];
  for (const [owner, key] of absentOnTheReference) delete owner[key];

  // Atomics.waitAsync, which V8 has and QuickJS lacks. A run is one agent: nothing but its
  // own Atomics.notify can wake a waiter, so the waiters are kept here, per shared buffer and
  // byte position, and Atomics.notify wakes them (in the order they started waiting) after
  // any waiter of the engine's own. The checks and their order are the specification's, the
  // texts V8's (platform/atomics-wait-async). One difference is kept: on the reference a
  // waiter's promise never settles (workerd answers "Promise will never complete."), where
  // ours settles it with "ok" on notify or "timed-out" after the timeout, as the spec says.
  const setTimer = globalThis.setTimeout;
  const clearTimer = globalThis.clearTimeout;
  const TypedArrayPrototype = Object.getPrototypeOf(Int32Array.prototype);
  const getter = (o, k) => Object.getOwnPropertyDescriptor(o, k).get;
  const typedTag = getter(TypedArrayPrototype, Symbol.toStringTag);
  const typedBuffer = getter(TypedArrayPrototype, "buffer");
  const typedOffset = getter(TypedArrayPrototype, "byteOffset");
  const typedLength = getter(TypedArrayPrototype, "length");
  const sharedLength = getter(SharedArrayBuffer.prototype, "byteLength");
  const engineNotify = Atomics.notify;
  const load = Atomics.load;
  const asIntN = BigInt.asIntN;
  const waiters = new WeakMap(); // shared buffer -> Map(byte position -> [waiter])
  const isArray = Array.isArray;
  // A value as V8 names it in these messages.
  const rendered = (v) => {
    const tag = typedTag.call(v);
    if (tag !== undefined) return `[object ${tag}]`;
    if (isArray(v)) return "[object Array]";
    if (v !== null && (typeof v === "object" || typeof v === "function")) {
      let name = "Object";
      try { const c = v.constructor; if (typeof c === "function" && typeof c.name === "string" && c.name !== "") name = c.name; } catch { /* Object */ }
      return `#<${name}>`;
    }
    return String(v);
  };
  const waitable = (typedArray) => {
    const tag = typedTag.call(typedArray);
    if (tag !== "Int32Array" && tag !== "BigInt64Array") {
      // The engine's own notify refuses the value first, with the value as V8 renders it.
      engineNotify(typedArray, 0, 0);
      throw new TypeError(`${rendered(typedArray)} is not an int32 or BigInt64 typed array.`);
    }
    return tag;
  };
  const isShared = (buffer) => { try { sharedLength.call(buffer); return true; } catch { return false; } };
  const toIndex = (typedArray, index) => {
    const n = Number(index);
    const i = n !== n ? 0 : Math.trunc(n);
    if (i < 0 || i >= typedLength.call(typedArray)) throw new RangeError(`Invalid atomic access index: ${i}`);
    return i;
  };
  const position = (typedArray, i, tag) => typedOffset.call(typedArray) + i * (tag === "Int32Array" ? 4 : 8);
  const toBigInt64 = (value) => {
    const kind = typeof value;
    if (value === undefined || value === null || kind === "number" || kind === "symbol") {
      throw new TypeError(`Cannot convert ${String(value)} to a BigInt`);
    }
    return asIntN(64, value);
  };
  // Method definitions, as V8's built-ins are: no `prototype`, not constructors.
  const { waitAsync, notify } = {
  waitAsync(typedArray, index, value, timeout) {
    const tag = waitable(typedArray);
    const buffer = typedBuffer.call(typedArray);
    if (!isShared(buffer)) throw new TypeError(`${rendered(typedArray)} is not a shared typed array.`);
    const i = toIndex(typedArray, index);
    const v = tag === "Int32Array" ? value | 0 : toBigInt64(value);
    const q = Number(timeout);
    const t = q !== q ? Infinity : q < 0 ? 0 : q;
    if (load(typedArray, i) !== v) return { async: false, value: "not-equal" };
    if (t === 0) return { async: false, value: "timed-out" };
    let lists = waiters.get(buffer);
    if (lists === undefined) waiters.set(buffer, (lists = new Map()));
    const at = position(typedArray, i, tag);
    const list = lists.get(at) ?? [];
    lists.set(at, list);
    const promise = new Promise((resolve) => {
      const waiter = { resolve, timer: undefined };
      list.push(waiter);
      if (t !== Infinity) {
        waiter.timer = setTimer(() => {
          const k = list.indexOf(waiter);
          if (k >= 0) list.splice(k, 1);
          resolve("timed-out");
        }, t);
      }
    });
    return { async: true, value: promise };
  },
  notify(typedArray, index, count) {
    const tag = waitable(typedArray);
    const i = toIndex(typedArray, index);
    let c = Infinity;
    if (count !== undefined) {
      const n = Number(count);
      c = n !== n ? 0 : Math.max(Math.trunc(n), 0);
    }
    let woken = engineNotify(typedArray, i, c);
    const lists = waiters.get(typedBuffer.call(typedArray));
    const list = lists && lists.get(position(typedArray, i, tag));
    while (list && list.length > 0 && woken < c) {
      const waiter = list.shift();
      if (waiter.timer !== undefined) clearTimer(waiter.timer);
      waiter.resolve("ok");
      woken += 1;
    }
    return woken;
  },
  };
  for (const fn of [waitAsync, notify]) {
    Object.defineProperty(Atomics, fn.name, { value: fn, writable: true, configurable: true, enumerable: false });
  }
})
