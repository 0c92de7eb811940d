// Installs the sandbox's Web globals lazily. Called with `native` (the Rust functions and
// `load`, which evaluates a concept's source) and `eager` ([concept name, global name] pairs).
// A concept's source evaluates to `function (native, use)` returning its exports; `use(name)`
// gives another concept's exports, loading it once.
//
// The Rust side has defined every global as a lazy data property of the engine's own kind
// (its value computed on first read, by the function this returns: `(concept, key) =>
// value`), which costs no function object per global. The globals in `eager` already had a
// value (bootstrap.js's `fetch`), which a lazy property cannot replace: they become
// accessors that settle into the same data property on first read or write.
(function (native, eager) {
  "use strict";
  const define = Object.defineProperty;
  const loaded = Object.create(null);
  const use = (name) => {
    let exports = loaded[name];
    if (exports === undefined) {
      exports = native.load(name)(native, use);
      loaded[name] = exports;
    }
    return exports;
  };
  const settle = (key, value) => {
    define(globalThis, key, { value, writable: true, configurable: true, enumerable: false });
  };
  for (const [name, key] of eager) {
    define(globalThis, key, {
      configurable: true,
      enumerable: false,
      get() {
        const value = use(name)[key];
        settle(key, value);
        return value;
      },
      set(value) {
        settle(key, value);
      },
    });
  }
  // Locale methods reach Intl only when called.
  // Method definitions, as V8's built-ins are: no `prototype`, not constructors.
  const locale = (method) => ({
    hook(locales, options) { return use("intl")[method](this, locales, options); },
  }).hook;
  const hooks = [
    [Number.prototype, "toLocaleString", "numberToLocaleString"],
    [BigInt.prototype, "toLocaleString", "bigintToLocaleString"],
    [Date.prototype, "toLocaleString", "dateToLocaleString"],
    [Date.prototype, "toLocaleDateString", "dateToLocaleDateString"],
    [Date.prototype, "toLocaleTimeString", "dateToLocaleTimeString"],
  ];
  const localeCompare = {
    localeCompare(that, locales, options) { return use("intl").localeCompare(this, that, locales, options); },
  }.localeCompare;
  // The lengths V8 gives them (test262 checks them): 1 here, 0 for the toLocale… methods.
  define(localeCompare, "length", { value: 1 });
  define(String.prototype, "localeCompare", {
    value: localeCompare,
    writable: true, configurable: true, enumerable: false,
  });
  // Case mapping by a language's rules (Turkish dotted i…); without locales, as en-US.
  const upper = String.prototype.toUpperCase, lower = String.prototype.toLowerCase;
  for (const [key, plain, isUpper] of [["toLocaleUpperCase", upper, true], ["toLocaleLowerCase", lower, false]]) {
    const method = { [key](locales) {
      if (this === undefined || this === null) throw new TypeError(`String.prototype.${key} called on null or undefined`);
      return locales === undefined ? plain.call(this) : use("intl").caseMap(this, locales, isUpper);
    } }[key];
    define(method, "length", { value: 0 });
    define(String.prototype, key, {
      value: method,
      writable: true, configurable: true, enumerable: false,
    });
  }
  // Array#toLocaleString hands its locales and options to each element, as ECMA-402 says;
  // a method definition (no prototype, not a constructor) of length 0, as V8's.
  const arrayToLocaleString = {
    toLocaleString(locales, options) {
      const o = Object(this);
      const n = Math.min(Math.max(Math.trunc(Number(o.length)) || 0, 0), 2 ** 53 - 1);
      let s = "";
      for (let i = 0; i < n; i++) {
        if (i > 0) s += ",";
        const e = o[i];
        if (e !== undefined && e !== null) s += String(e.toLocaleString(locales, options));
      }
      return s;
    },
  }.toLocaleString;
  define(arrayToLocaleString, "length", { value: 0 });
  define(Array.prototype, "toLocaleString", {
    value: arrayToLocaleString,
    writable: true, configurable: true, enumerable: false,
  });
  // %TypedArray%.prototype.toLocaleString likewise hands them on (ECMA-402 13.5.1); the
  // receiver must be a typed array neither detached nor out of bounds (ValidateTypedArray,
  // which the engine's own entries() performs without side effects).
  const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
  const typedLength = Object.getOwnPropertyDescriptor(TypedArrayPrototype, "length").get;
  const typedEntries = TypedArrayPrototype.entries;
  const typedJoin = TypedArrayPrototype.join;
  const typedTag = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
  // The engine's checks, named as this method: `Method %TypedArray%.prototype.toLocaleString
  // called on incompatible receiver #<Object>`, `Cannot perform
  // %TypedArray%.prototype.toLocaleString on a detached or out-of-bounds ArrayBuffer`.
  const validated = (check) => {
    try {
      check();
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      throw new TypeError(e.message.replace(/^(Method |Cannot perform )(%TypedArray%\.prototype\.)(join|entries) /, "$1$2toLocaleString "));
    }
  };
  const typedToLocaleString = {
    toLocaleString(locales, options) {
      if (typedTag.call(this) === undefined) validated(() => typedJoin.call(this));
      validated(() => typedEntries.call(this));
      const n = typedLength.call(this);
      let s = "";
      for (let i = 0; i < n; i++) {
        if (i > 0) s += ",";
        const e = this[i];
        if (e !== undefined && e !== null) s += String(e.toLocaleString(locales, options));
      }
      return s;
    },
  }.toLocaleString;
  define(typedToLocaleString, "length", { value: 0 });
  define(TypedArrayPrototype, "toLocaleString", {
    value: typedToLocaleString,
    writable: true, configurable: true, enumerable: false,
  });
  for (const [proto, key, method] of hooks) {
    const fn = locale(method);
    define(fn, "name", { value: key });
    define(fn, "length", { value: 0 });
    define(proto, key, { value: fn, writable: true, configurable: true, enumerable: false });
  }
  define(globalThis, Symbol.toStringTag, {
    value: "ServiceWorkerGlobalScope",
    configurable: true,
    writable: false,
    enumerable: false,
  });
  // console: the members Workers adds beyond the ones bootstrap.js captures, and its brand.
  const console = globalThis.console;
  if (console !== null && typeof console === "object") {
    define(console, "context", { value: function context() { return console; }, writable: true, configurable: true, enumerable: true });
    define(console, "createTask", { value: function createTask() { return { run: (fn) => fn() }; }, writable: true, configurable: true, enumerable: true });
    define(console, Symbol.toStringTag, { value: "console", configurable: true });
  }
  // performance: now() on the wall clock (time origin 0), as Workers reports it.
  const Performance = function Performance() { throw new TypeError("Illegal constructor"); };
  const performance = Object.create(Performance.prototype);
  define(Performance.prototype, "now", { value: function now() { return Date.now(); }, writable: true, configurable: true });
  define(Performance.prototype, "timeOrigin", { get() { return 0; }, configurable: true });
  define(Performance.prototype, Symbol.toStringTag, { value: "Performance", configurable: true });
  settle("performance", performance);
  return (name, key) => use(name)[key];
})
