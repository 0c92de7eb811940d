// The sandbox scope of one run. Evaluated once per context, before any provider, prelude or
// program, and called with `host`: the Rust functions behind console, timers and dispatch.
// Returns the internal object the run loop drives. Intrinsics are captured here, before the
// program can replace them.
(function (host) {
  "use strict";
  const TAG = "__codemode_binary_v1__";
  const hasOwn = Object.prototype.hasOwnProperty;
  const isError = Error.isError;
  const isView = ArrayBuffer.isView;
  const arrayFrom = Array.from;
  const getTime = Date.prototype.getTime;
  const mapEntries = Map.prototype.entries;
  const setValues = Set.prototype.values;
  const regexpSource = Object.getOwnPropertyDescriptor(RegExp.prototype, "source").get;
  const regexpFlags = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags").get;
  const getPrototypeOf = Object.getPrototypeOf;
  const ObjectPrototype = Object.prototype;
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const TypedArrayPrototype = getPrototypeOf(Uint8Array.prototype);
  const typedBuffer = getter(TypedArrayPrototype, "buffer");
  const typedOffset = getter(TypedArrayPrototype, "byteOffset");
  const typedLength = getter(TypedArrayPrototype, "byteLength");
  const viewBuffer = getter(DataView.prototype, "buffer");
  const viewOffset = getter(DataView.prototype, "byteOffset");
  const viewLength = getter(DataView.prototype, "byteLength");
  const pending = new Map();
  const timers = new Map();

  // The binary codec: JSON with binary values as tagged base64 objects.
  const viewBytes = (v) =>
    v instanceof Uint8Array ? v : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const stringify = (value) =>
    JSON.stringify(value, (key, v) => {
      if (v instanceof ArrayBuffer) return { [TAG]: "ArrayBuffer", data: host.b64encode(new Uint8Array(v)) };
      if (v instanceof Uint8Array) return { [TAG]: "Uint8Array", data: host.b64encode(v) };
      if (isView(v)) return { [TAG]: "ArrayBufferView", data: host.b64encode(viewBytes(v)) };
      return v;
    });
  const parse = (text) =>
    JSON.parse(text, (key, v) => {
      if (v !== null && typeof v === "object" && hasOwn.call(v, TAG) && typeof v.data === "string") {
        const buffer = host.b64decode(v.data);
        if (buffer === undefined) return v;
        return v[TAG] === "ArrayBuffer" ? buffer : new Uint8Array(buffer);
      }
      return v;
    });

  // Dispatch: every tool call leaves through the host and settles from there.
  const dispatch = (provider, tool, argsJson) =>
    new Promise((resolve) => {
      pending.set(host.call(String(provider), String(tool), String(argsJson)), resolve);
    });

  const makeProxy = (name, positional) =>
    new Proxy({}, {
      get: (target, key) => {
        if (hasOwn.call(target, key)) return target[key];
        if (typeof key !== "string") return undefined;
        return async (...args) => {
          const resJson = await dispatch(name, String(key), stringify(positional ? args : [args[0] ?? {}]));
          const data = parse(resJson);
          if (data.error) throw new Error(data.error);
          return data.result;
        };
      },
    });

  // console: log, warn and error are captured as `a.map(String).join(" ")`; the rest exist
  // and print nowhere.
  const render = (args) => args.map((a) => (isError(a) ? host.translate(String(a)) : String(a))).join(" ");
  const console = {};
  for (const name of ["info", "debug", "trace", "table", "dir", "dirxml", "group", "groupCollapsed",
    "groupEnd", "time", "timeEnd", "timeLog", "count", "countReset", "assert", "clear", "profile",
    "profileEnd", "timeStamp"]) {
    console[name] = () => {};
  }
  console.log = (...a) => { host.log(0, render(a)); };
  console.warn = (...a) => { host.log(1, render(a)); };
  console.error = (...a) => { host.log(2, render(a)); };
  globalThis.console = console;

  // Timers on the host clock.
  const addTimer = (fn, ms, args, repeat) => {
    const id = host.timer(Number(ms) || 0, repeat);
    timers.set(id, () => { if (typeof fn === "function") fn(...args); });
    return id;
  };
  const clearTimer = (id) => { if (timers.delete(id)) host.clearTimer(id); };
  globalThis.setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false);
  globalThis.setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true);
  globalThis.clearTimeout = clearTimer;
  globalThis.clearInterval = clearTimer;

  // Outbound is blocked, with the reference's text.
  globalThis.fetch = async () => {
    throw new Error("This worker is not permitted to access the internet via global functions like fetch(). It must use capabilities (such as bindings in 'env') to talk to the outside world.");
  };

  const internal = {
    state: 0,
    started: false,
    value: undefined,
    error: undefined,
    dispatch,
    makeProxy,
    settle(id, json) {
      const resolve = pending.get(id);
      if (resolve !== undefined) {
        pending.delete(id);
        resolve(json);
      }
    },
    fire(id, repeat) {
      const callback = timers.get(id);
      if (callback === undefined) return;
      if (!repeat) timers.delete(id);
      try { callback(); } catch (e) { /* an uncaught timer error does not end the run */ }
    },
    start(loaded, namespace) {
      loaded
        .then(() => {
          internal.started = true;
          const program = namespace.default;
          return program();
        })
        .then(
          (value) => { internal.state = 1; internal.value = value; },
          (error) => { internal.state = 2; internal.error = error; },
        );
    },
    // Intrinsics for cloning the result.
    dateValue: (d) => getTime.call(d),
    mapEntries: (m) => arrayFrom(mapEntries.call(m)),
    setValues: (s) => arrayFrom(setValues.call(s)),
    viewBytes: (v, dataView) =>
      dataView
        ? new Uint8Array(viewBuffer.call(v), viewOffset.call(v), viewLength.call(v))
        : new Uint8Array(typedBuffer.call(v), typedOffset.call(v), typedLength.call(v)),
    regexpParts: (r) => [regexpSource.call(r), regexpFlags.call(r)],
    typeName(o) {
      const proto = getPrototypeOf(o);
      if (proto === null || proto === ObjectPrototype) return "";
      const ctor = proto.constructor;
      return typeof ctor === "function" && typeof ctor.name === "string" && ctor.name !== "" ? ctor.name : "Object";
    },
  };
  return internal;
})
