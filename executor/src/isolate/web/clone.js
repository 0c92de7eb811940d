// structuredClone: the structured clone algorithm over the language's values.
(function (native, use) {
  "use strict";
  const toString = Object.prototype.toString;
  const ERRORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
  const describe = (v) => {
    if (typeof v === "function") { try { return Function.prototype.toString.call(v); } catch { return "function"; } }
    if (typeof v === "symbol") return v.toString();
    // V8 names an object by its constructor (`#<Promise>`), as in its other messages.
    try {
      const proto = Object.getPrototypeOf(v);
      const ctor = proto && Object.getOwnPropertyDescriptor(proto, "constructor");
      const name = ctor && typeof ctor.value === "function" ? ctor.value.name : "";
      if (typeof name === "string" && name !== "") return `#<${name}>`;
    } catch {}
    return toString.call(v);
  };
  const fail = (v) => new DOMException(`${describe(v)} could not be cloned.`, "DataCloneError");
  function structuredClone(value, options) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'structuredClone' on 'ServiceWorkerGlobalScope': 1 argument required, but only 0 present.");
    const seen = new Map();
    const walk = (v) => {
      if (typeof v === "function" || typeof v === "symbol") throw fail(v);
      if (v === null || typeof v !== "object") return v;
      if (seen.has(v)) return seen.get(v);
      const brand = toString.call(v);
      let out;
      switch (brand) {
        case "[object Date]": out = new Date(v.getTime()); break;
        case "[object RegExp]": out = new RegExp(v.source, v.flags); break;
        case "[object Boolean]": out = Object(Boolean.prototype.valueOf.call(v)); break;
        case "[object Number]": out = Object(Number.prototype.valueOf.call(v)); break;
        case "[object String]": out = Object(String.prototype.valueOf.call(v)); break;
        case "[object BigInt]": out = Object(BigInt.prototype.valueOf.call(v)); break;
        case "[object ArrayBuffer]": out = v.slice(0); break;
        case "[object DataView]": out = new DataView(walk(v.buffer), v.byteOffset, v.byteLength); break;
        case "[object Map]": out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(walk(k), walk(x)); return out;
        case "[object Set]": out = new Set(); seen.set(v, out); for (const x of v) out.add(walk(x)); return out;
        case "[object Error]": {
          const C = ERRORS[v.name] ?? Error;
          out = new C(v.message);
          seen.set(v, out);
          if ("cause" in v) out.cause = walk(v.cause);
          if (typeof v.stack === "string") out.stack = v.stack;
          return out;
        }
        case "[object Array]": out = new Array(v.length); seen.set(v, out); for (const k of Object.keys(v)) out[k] = walk(v[k]); return out;
        case "[object Object]": out = {}; seen.set(v, out); for (const k of Object.keys(v)) out[k] = walk(v[k]); return out;
        default:
          if (ArrayBuffer.isView(v)) {
            const buffer = walk(v.buffer);
            out = new v.constructor(buffer, v.byteOffset, v.length);
            break;
          }
          if (v instanceof Error) { out = new Error(v.message); break; }
          if (v instanceof globalThis.Blob) { out = v.slice(0, v.size, v.type); break; }
          throw fail(v);
      }
      seen.set(v, out);
      return out;
    };
    return walk(value);
  }
  return { structuredClone };
})
