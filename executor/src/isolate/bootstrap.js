// The sandbox scope of one run. Evaluated once per context, before any provider, prelude or
// program, and called with `host`: the Rust functions behind console, timers and dispatch.
// Returns the internal object the run loop drives. Intrinsics are captured here, before the
// program can replace them.
(function (host) {
  "use strict";
  const TAG = "__codemode_binary_v1__";
  const hasOwn = Object.prototype.hasOwnProperty;
  const RPC_CARRIED = Symbol.for("codemode.rpc-carried");
  const carried = (o) => { try { return o[RPC_CARRIED] === true; } catch { return false; } };
  const isError = Error.isError;
  const isView = ArrayBuffer.isView;
  const arrayFrom = Array.from;
  const getTime = Date.prototype.getTime;
  const mapEntries = Map.prototype.entries;
  const setValues = Set.prototype.values;
  const regexpSource = Object.getOwnPropertyDescriptor(RegExp.prototype, "source").get;
  const regexpFlags = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags").get;
  const getPrototypeOf = Object.getPrototypeOf;
  const unboxers = [Number.prototype.valueOf, String.prototype.valueOf, Boolean.prototype.valueOf,
    BigInt.prototype.valueOf];
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
  const fetches = new Map();
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

  const MODULE_NAMESPACE = "[object Module]";
  const ownDescriptor = Object.getOwnPropertyDescriptor;
  const isModuleNamespace = (o) => {
    const tag = ownDescriptor(o, Symbol.toStringTag);
    return tag !== undefined && tag.value === "Module" && !tag.configurable && !tag.writable;
  };

  // Global scope: Workers evaluates a module (imported statically or with import(), at any
  // point of the run) as global scope, where timers, random values and I/O are refused. The
  // module loader enters it for every module it loads; each module's last statement leaves
  // it once the reactions its body queued have run (see isolate/modules.rs); once the
  // program started, the run loop leaves whatever is left when a job ends (a module that
  // threw: its import's job evaluated it), and when the job queue is empty.
  const GLOBAL_SCOPE = "Disallowed operation called within global scope. Asynchronous I/O (ex: fetch() or connect()), setting a timeout, and generating random values are not allowed within global scope. To fix this error, perform this operation within a handler. https://developers.cloudflare.com/workers/runtime-apis/handlers/";
  const ErrorClass = Error;
  const resolvedPromise = Promise.resolve();
  const promiseThen = Promise.prototype.then;
  const PromiseClass = Promise;
  const promiseRace = Promise.race;
  let globalScope = 0;
  const refuseInGlobalScope = () => {
    if (globalScope > 0) throw new ErrorClass(GLOBAL_SCOPE);
  };

  // Timers on the host clock, at most MAX_TIMERS active at once as on Workers (which also
  // counts the executor's own timeout timer once the program's synchronous start returned,
  // and refuses the next with the same QuotaExceededError).
  const MAX_TIMERS = 10000;
  let finishedTimers = 0;
  let raceTimer = 0;
  const addTimer = (fn, ms, args, repeat) => {
    const active = timers.size + raceTimer;
    if (active >= MAX_TIMERS) {
      throw new globalThis.DOMException(
        `You have exceeded the number of active timeouts you may set. max active timeouts: ${MAX_TIMERS}, current active timeouts: ${active}, finished timeouts: ${finishedTimers}`,
        "QuotaExceededError");
    }
    const id = host.timer(Number(ms) || 0, repeat);
    timers.set(id, () => { if (typeof fn === "function") fn(...args); });
    return id;
  };
  const clearTimer = (id) => {
    if (timers.delete(id)) {
      finishedTimers += 1;
      host.clearTimer(id);
    }
  };
  globalThis.setTimeout = (fn, ms, ...args) => { refuseInGlobalScope(); return addTimer(fn, ms, args, false); };
  globalThis.setInterval = (fn, ms, ...args) => { refuseInGlobalScope(); return addTimer(fn, ms, args, true); };
  // (Named as before the global-scope check wrapped it.)
  const guardedClear = { clearTimer: (id) => { refuseInGlobalScope(); clearTimer(id); } }.clearTimer;
  globalThis.clearTimeout = guardedClear;
  globalThis.clearInterval = guardedClear;

  // V8's wording and refusals where QuickJS's differ and programs read them: JSON errors
  // (a host parses them out of a tool's text), the UTC zone name of Date strings, and code
  // generation from strings, which Workers refuses.
  const SyntaxErrorClass = SyntaxError;
  const TypeErrorClass = TypeError;
  const nativeParse = JSON.parse;
  const nativeStringify = JSON.stringify;
  const nativeRawJSON = JSON.rawJSON;
  const jsonParseMessage = (text) => {
    const n = text.length;
    const special = text === "NaN" || text === "Infinity" || text === "undefined" || text === "[object Object]";
    const at = (p, after) => {
      let line = 1, column = 1;
      // V8 ends a line at LF, CR, or CR LF taken as one.
      for (let k = 0; k < p; k++) {
        const ends = text[k] === "\n" || (text[k] === "\r" && text[k + 1] !== "\n");
        if (ends) { line += 1; column = 1; } else { column += 1; }
      }
      return `${after ? "" : " in JSON"} at position ${p} (line ${line} column ${column})`;
    };
    const fail = (message) => { throw { message }; };
    const unexpected = (p, specific) => {
      if (specific !== undefined) fail(specific + at(p, specific.endsWith("after JSON")));
      if (p >= n) fail("Unexpected end of JSON input");
      const c = text[p];
      if (c === '"') fail("Unexpected string" + at(p));
      if (c === "-" || (c >= "0" && c <= "9")) fail("Unexpected number" + at(p));
      if (special) fail(`"${text}" is not valid JSON`);
      if (n < 21) fail(`Unexpected token '${c}', "${text}" is not valid JSON`);
      if (p < 10) fail(`Unexpected token '${c}', "${text.slice(0, p + 10)}"... is not valid JSON`);
      if (p >= n - 10) fail(`Unexpected token '${c}', ..."${text.slice(p - 10)}" is not valid JSON`);
      fail(`Unexpected token '${c}', ..."${text.slice(p - 10, p + 10)}"... is not valid JSON`);
    };
    let i = 0;
    const ws = () => { while (i < n && " \t\n\r".includes(text[i])) i += 1; };
    const digits = () => { const s = i; while (i < n && text[i] >= "0" && text[i] <= "9") i += 1; return i > s; };
    const string = () => {
      i += 1;
      for (;;) {
        if (i >= n) fail("Unterminated string" + at(n));
        const c = text[i];
        if (c === '"') { i += 1; return; }
        if (c < " ") unexpected(i, "Bad control character in string literal");
        if (c === "\\") {
          i += 1;
          if (i >= n) fail("Unterminated string" + at(n));
          if (text[i] === "u") {
            for (let k = 1; k <= 4; k++) {
              if (!/[0-9a-fA-F]/.test(text[i + k] ?? "")) unexpected(i + k, "Bad Unicode escape");
            }
            i += 4;
          } else if (!"\"\\/bfnrt".includes(text[i])) {
            unexpected(i, "Bad escaped character");
          }
        }
        i += 1;
      }
    };
    const number = () => {
      if (text[i] === "-") { i += 1; if (!(text[i] >= "0" && text[i] <= "9")) unexpected(i, "No number after minus sign"); }
      if (text[i] === "0") { i += 1; if (text[i] >= "0" && text[i] <= "9") unexpected(i); } else digits();
      if (text[i] === ".") { i += 1; if (!digits()) unexpected(i, "Unterminated fractional number"); }
      if (text[i] === "e" || text[i] === "E") {
        i += 1;
        if (text[i] === "+" || text[i] === "-") i += 1;
        if (!digits()) unexpected(i, "Exponent part is missing a number");
      }
    };
    const value = () => {
      ws();
      const c = text[i];
      if (c === "{") {
        i += 1; ws();
        if (text[i] === "}") { i += 1; return; }
        if (text[i] !== '"') unexpected(i, "Expected property name or '}'");
        for (;;) {
          string(); ws();
          if (text[i] !== ":") unexpected(i, "Expected ':' after property name");
          i += 1; value(); ws();
          if (text[i] === "}") { i += 1; return; }
          if (text[i] !== ",") unexpected(i, "Expected ',' or '}' after property value");
          i += 1; ws();
          if (text[i] !== '"') unexpected(i, "Expected double-quoted property name");
        }
      }
      if (c === "[") {
        i += 1; ws();
        if (text[i] === "]") { i += 1; return; }
        for (;;) {
          value(); ws();
          if (text[i] === "]") { i += 1; return; }
          if (text[i] !== ",") unexpected(i, "Expected ',' or ']' after array element");
          i += 1;
        }
      }
      if (c === '"') return string();
      if (c === "-" || (c >= "0" && c <= "9")) return number();
      for (const word of ["true", "false", "null"]) {
        if (c === word[0]) {
          for (let k = 1; k < word.length; k++) if (text[i + k] !== word[k]) unexpected(i + k);
          i += word.length;
          return;
        }
      }
      unexpected(i);
    };
    try {
      value(); ws();
      if (i < n) unexpected(i, "Unexpected non-whitespace character after JSON");
    } catch (e) {
      return e.message;
    }
    return undefined;
  };
  const circularMessage = (root) => {
    const stack = [];
    const nameOf = (o) => {
      const proto = getPrototypeOf(o);
      const ctor = proto === null ? undefined : proto.constructor;
      return typeof ctor === "function" && ctor.name ? ctor.name : "Object";
    };
    const keyText = (key) => (typeof key === "number" ? `index ${key}` : `property '${key}'`);
    const visit = (key, v) => {
      if (v !== null && typeof v === "object" && typeof v.toJSON === "function") v = v.toJSON(String(key));
      if (v === null || typeof v !== "object") return undefined;
      const start = stack.findIndex((entry) => entry[1] === v);
      if (start >= 0) {
        let text = `Converting circular structure to JSON\n    --> starting at object with constructor '${nameOf(stack[start][1])}'`;
        let index = start + 1;
        const prefixEnd = Math.min(stack.length, index + 2);
        for (; index < prefixEnd; index++) text += `\n    |     ${keyText(stack[index][0])} -> object with constructor '${nameOf(stack[index][1])}'`;
        if (stack.length > index + 1) text += "\n    |     ...";
        for (index = Math.max(index, stack.length - 1); index < stack.length; index++) text += `\n    |     ${keyText(stack[index][0])} -> object with constructor '${nameOf(stack[index][1])}'`;
        return `${text}\n    --- ${keyText(key)} closes the circle`;
      }
      stack.push([key, v]);
      const keys = Array.isArray(v) ? v.map((_, k) => k) : Object.keys(v);
      for (const k of keys) {
        const found = visit(k, v[k]);
        if (found !== undefined) return found;
      }
      stack.pop();
      return undefined;
    };
    try { return visit("", root); } catch (e) { return undefined; }
  };
  // JSON.rawJSON's refusal in V8's words: its parser reads no whitespace before the value
  // (`Unexpected token '\n', "\n123" is not valid JSON`), an empty text, one ending in
  // whitespace or holding an object or array is `Invalid value for JSON.rawJSON`, other text
  // that is no JSON gets JSON.parse's text.
  const rawJSONMessage = (text) => {
    const blank = (c) => c === " " || c === "\t" || c === "\n" || c === "\r";
    const n = text.length;
    if (n === 0) return "Invalid value for JSON.rawJSON";
    if (blank(text[0])) {
      const c = text[0];
      return n < 21
        ? `Unexpected token '${c}', "${text}" is not valid JSON`
        : `Unexpected token '${c}', "${text.slice(0, 10)}"... is not valid JSON`;
    }
    if (blank(text[n - 1])) return "Invalid value for JSON.rawJSON";
    return jsonParseMessage(text) ?? "Invalid value for JSON.rawJSON";
  };
  const json = {
    rawJSON(text) {
      try {
        return nativeRawJSON(text);
      } catch (e) {
        if (e instanceof SyntaxErrorClass) e.message = rawJSONMessage(String(text));
        throw e;
      }
    },
    parse(text, reviver) {
      try {
        return nativeParse(text, reviver);
      } catch (e) {
        if (e instanceof SyntaxErrorClass) {
          const message = jsonParseMessage(String(text));
          if (message !== undefined) e.message = message;
        }
        throw e;
      }
    },
    stringify(value, replacer, space) {
      try {
        return nativeStringify(value, replacer, space);
      } catch (e) {
        if (e instanceof TypeErrorClass) {
          if (e.message === "BigInt are forbidden in JSON.stringify") {
            e.message = "Do not know how to serialize a BigInt";
          } else if (e.message === "circular reference") {
            const message = circularMessage(value);
            if (message !== undefined) e.message = message;
          }
        }
        throw e;
      }
    },
  };
  for (const name of ["parse", "stringify", "rawJSON"]) {
    Object.defineProperty(JSON, name, { value: json[name], writable: true, configurable: true, enumerable: false });
  }
  const dateToString = Date.prototype.toString;
  const dateToTimeString = Date.prototype.toTimeString;
  const getTimezoneOffset = Date.prototype.getTimezoneOffset;
  const withZoneName = (date, text) =>
    text !== "Invalid Date" && getTimezoneOffset.call(date) === 0 ? `${text} (Coordinated Universal Time)` : text;
  // A receiver that is no Date: the engine's check of its own toUTCString (V8's `Method
  // Date.prototype.toUTCString called on incompatible receiver #<Object>`), named as this method.
  const dateToUTCString = Date.prototype.toUTCString;
  const dateText = (date, method, name) => {
    try {
      return method.call(date);
    } catch (e) {
      try {
        dateToUTCString.call(date);
      } catch (refused) {
        if (refused instanceof TypeError) {
          throw new TypeError(refused.message.replace("Date.prototype.toUTCString ", `Date.prototype.${name} `));
        }
      }
      throw e;
    }
  };
  const dates = {
    toString() { return withZoneName(this, dateText(this, dateToString, "toString")); },
    toTimeString() { return withZoneName(this, dateText(this, dateToTimeString, "toTimeString")); },
  };
  for (const name of ["toString", "toTimeString"]) {
    Object.defineProperty(Date.prototype, name, { value: dates[name], writable: true, configurable: true, enumerable: false });
  }
  const refuseCodegen = () => {
    throw new EvalError("Code generation from strings disallowed for this context");
  };
  // V8 refuses any argument but undefined (a number too), and makes `Function()` without
  // arguments (no source to compile) an empty `anonymous` function; measured on workerd.
  const evaluators = {
    eval(source) {
      if (source === undefined) return undefined;
      return refuseCodegen();
    },
  };
  const generatedEmpty = new WeakSet();
  Object.defineProperty(globalThis, "eval", { value: evaluators.eval, writable: true, configurable: true, enumerable: false });
  for (const proto of [Function.prototype, getPrototypeOf(async function () {}),
    getPrototypeOf(function* () {}), getPrototypeOf(async function* () {})]) {
    const original = proto.constructor;
    const refused = original !== Function ? function () { return refuseCodegen(); } : function () {
      if (arguments.length > 0) return refuseCodegen();
      const empty = function anonymous() {};
      generatedEmpty.add(empty);
      // A subclass (`class F extends Function`) gets its instances, as V8 makes them.
      if (new.target !== undefined && new.target !== refused) {
        const proto = new.target.prototype;
        if (proto !== null && (typeof proto === "object" || typeof proto === "function")) Object.setPrototypeOf(empty, proto);
      }
      return empty;
    };
    Object.defineProperty(refused, "name", { value: original.name });
    Object.defineProperty(refused, "length", { value: 1 });
    Object.defineProperty(refused, "prototype", { value: proto });
    Object.defineProperty(proto, "constructor", { value: refused, writable: true, configurable: true, enumerable: false });
    if (original === Function) {
      Object.defineProperty(globalThis, "Function", { value: refused, writable: true, configurable: true, enumerable: false });
    }
  }

  // Errors read as V8 words them inside the sandbox too, not only where they leave it:
  // the engine calls the embedder's stack hook (the executor sets it to this function,
  // JS_SetErrorPrepareStackTrace) for every error it creates, so the message is translated
  // once, before the program can read it, and the stack reads as V8's (`Name: message`,
  // then the program's own frames, without internal or native ones).
  const translateRendered = host.translate;
  const ErrorConstructor = Error;
  const prepareStackTrace = (error, callsites) => {
    let head = "Error";
    try {
      const name = error.name === undefined ? "Error" : String(error.name);
      let message = error.message === undefined ? "" : String(error.message);
      if (isError(error) && host.needsPosition(message)) {
        // V8 renders the callee or the operand as written; the first frame in the program's
        // own code locates it in the source.
        const site = callsites.find((s) => {
          const file = s.getFileName();
          return typeof file === "string" && !s.isNative() && file !== "<input>" && !file.startsWith("codemode-internal:");
        });
        if (site !== undefined) {
          message = host.translateAt(message, site.getFileName(), site.getLineNumber(), site.getColumnNumber());
          error.message = message;
        }
      } else if (isError(error) && hasOwn.call(error, "message") && typeof error.message === "string") {
        const prefix = `${name}: `;
        const translated = translateRendered(prefix + message);
        if (translated.startsWith(prefix) && translated !== prefix + message) {
          message = translated.slice(prefix.length);
          error.message = message;
        }
      }
      head = message === "" ? name : name === "" ? message : `${name}: ${message}`;
    } catch (e) { /* a throwing name or message getter keeps the plain head */ }
    const frames = [];
    for (const site of callsites) {
      const file = site.getFileName();
      if (site.isNative() || typeof file !== "string" || file === "<input>" || file.startsWith("codemode-internal:")) continue;
      const fn = site.getFunctionName();
      const at = `${file}:${site.getLineNumber()}:${site.getColumnNumber()}`;
      frames.push(fn ? `    at ${fn} (${at})` : `    at ${at}`);
    }
    // A program's own hook (V8's API: an ordinary property of Error, absent at first)
    // still formats the stack, after the translation.
    const programPrepareStackTrace = ErrorConstructor.prepareStackTrace;
    if (typeof programPrepareStackTrace === "function") return programPrepareStackTrace(error, callsites);
    return [head, ...frames].join("\n");
  };

  // Function source text as V8 prints it: built-ins as `function name() { [native code] }`
  // on one line, and the wrappers above as the built-ins they stand in for.
  const functionToString = Function.prototype.toString;
  const standIns = new WeakMap();
  const quickjsNative = /^function (.*)\(\) \{\n {4}\[native code\]\n\}$/;
  const functionText = {
    toString() {
      if (generatedEmpty.has(this)) return "function anonymous(\n) {\n\n}";
      if (standIns.has(this)) return `function ${standIns.get(this)}() { [native code] }`;
      const text = functionToString.call(this);
      const native = quickjsNative.exec(text);
      if (native === null) return text;
      return native[1].startsWith("bound ") ? "function () { [native code] }" : `function ${native[1]}() { [native code] }`;
    },
  };
  Object.defineProperty(Function.prototype, "toString", { value: functionText.toString, writable: true, configurable: true, enumerable: false });
  for (const [fn, name] of [[functionText.toString, "toString"], [json.parse, "parse"], [json.stringify, "stringify"],
    [dates.toString, "toString"], [dates.toTimeString, "toTimeString"], [evaluators.eval, "eval"]]) {
    standIns.set(fn, name);
  }
  for (const proto of [Function.prototype, getPrototypeOf(async function () {}),
    getPrototypeOf(function* () {}), getPrototypeOf(async function* () {})]) {
    standIns.set(proto.constructor, proto.constructor.name);
  }

  // Outbound is blocked, with the reference's text.
  globalThis.fetch = async () => {
    throw new Error("This worker is not permitted to access the internet via global functions like fetch(). It must use capabilities (such as bindings in 'env') to talk to the outside world.");
  };

  // Outbound: in the host's mode, every fetch() request leaves through the host and settles
  // from there; fetch.js builds the request and the Response (see isolate/web).
  const outbound = {
    enabled: () => host.outboundEnabled(),
    send(method, url, headers, bytes) {
      const id = host.fetch(String(method), String(url), nativeStringify(headers),
        bytes === null ? undefined : host.b64encode(bytes));
      return { id, done: new Promise((resolve) => { fetches.set(id, resolve); }) };
    },
    cancel(id) {
      if (fetches.delete(id)) host.cancelFetch(id);
    },
  };

  // The run loop's hook. The executor keeps it out of the program's reach (no global names
  // it); it is frozen and its run state read-only all the same, so that nothing reaching it
  // could forge how the program settled or swap the intrinsics the result is cloned with.
  let state = 0, started = false, begun = false, exited, settledValue, settledError;
  const internal = {
    get state() { return state; },
    get started() { return started; },
    get value() { return settledValue; },
    get error() { return settledError; },
    // process.exit(): the run ends and `execute()` rejects with `text`, as workerd cancels
    // the request (web/scope.js; the caller throws an uncatchable error to stop the program).
    get exited() { return exited; },
    exit(text) { if (state === 0) { state = 2; exited = text; } },
    outbound,
    prepareStackTrace,
    dispatch,
    makeProxy,
    settle(id, json) {
      const resolve = pending.get(id);
      if (resolve !== undefined) {
        pending.delete(id);
        resolve(json);
      }
    },
    settleFetch(id, json) {
      const resolve = fetches.get(id);
      if (resolve === undefined) return;
      fetches.delete(id);
      const reply = nativeParse(json);
      if (reply.error === undefined) {
        const buffer = host.b64decode(reply.body);
        reply.body = new Uint8Array(buffer === undefined ? 0 : buffer);
      }
      resolve(reply);
    },
    fire(id, repeat) {
      const callback = timers.get(id);
      if (callback === undefined) return;
      if (!repeat) {
        timers.delete(id);
        finishedTimers += 1;
      }
      try { callback(); } catch (e) { /* an uncaught timer error does not end the run */ }
    },
    start(loaded, namespace) {
      if (begun) return;
      begun = true;
      // The reference's method awaits `Promise.race([program(), timeout])` and returns; Workers
      // RPC takes the method's result a reaction later and sends it as it is then. So the
      // result is read three reactions after the program settles (its value, and what later
      // reactions push into it, as the reference sends them): the run stops there
      // (`host.settled`), whatever else is queued.
      const settled = (value) => {
        if (state === 0) { state = 1; settledValue = value; host.settled(); }
      };
      const failed = (error) => {
        if (state === 0) { state = 2; settledError = error; host.settled(); }
      };
      promiseThen.call(loaded, () => {
        started = true;
        const program = namespace.default;
        const evaluate = async () => {
          const running = program();
          raceTimer = 1;
          return await promiseRace.call(PromiseClass, [running]);
        };
        promiseThen.call(evaluate(), settled, failed);
      }, failed);
    },
    // Global scope (above): entered per module loaded, left per module evaluated.
    enterGlobalScope() { globalScope += 1; },
    moduleEvaluated() {
      promiseThen.call(resolvedPromise, () => { if (globalScope > 0) globalScope -= 1; });
    },
    leaveGlobalScope() { globalScope = 0; },
    // A job of the run loop ended (see run.rs, `job_ended`).
    jobEnded() { if (started) globalScope = 0; },
    refuseInGlobalScope,
    // Intrinsics for cloning the result.
    dateValue: (d) => getTime.call(d),
    mapEntries: (m) => arrayFrom(mapEntries.call(m)),
    setValues: (s) => arrayFrom(setValues.call(s)),
    viewBytes: (v, dataView) =>
      dataView
        ? new Uint8Array(viewBuffer.call(v), viewOffset.call(v), viewLength.call(v))
        : new Uint8Array(typedBuffer.call(v), typedOffset.call(v), typedLength.call(v)),
    regexpParts: (r) => [regexpSource.call(r), regexpFlags.call(r)],
    // A boxed primitive's value, read from its internal slot as structured clone reads it:
    // `[value]`, or undefined when `o` is no Number, String, Boolean or BigInt object.
    unbox(o) {
      for (const valueOf of unboxers) {
        try { return [valueOf.call(o)]; } catch (e) { /* not this brand */ }
      }
      return undefined;
    },
    typeName(o) {
      const proto = getPrototypeOf(o);
      if (proto === ObjectPrototype) return "";
      // Platform values Workers RPC carries (Headers, Request, Response, Blob, ReadableStream
      // and their subclasses; their prototypes carry this mark, see isolate/web) cross like
      // plain objects.
      if (proto !== null && carried(o)) return "";
      // A module namespace object (null prototype, a fixed `Module` tag): V8 names it by its
      // tag when it refuses it.
      if (proto === null && isModuleNamespace(o)) return MODULE_NAMESPACE;
      // Workers RPC refuses a null-prototype object as it refuses a class instance.
      if (proto === null) return "Object";
      const ctor = proto.constructor;
      return typeof ctor === "function" && typeof ctor.name === "string" && ctor.name !== "" ? ctor.name : "Object";
    },
  };
  return Object.freeze(internal);
})
