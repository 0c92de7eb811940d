// Materializes the catalogue's tool behaviours into async JS functions, and
// connectors into bindings `{ callTool(name, arg) }`. Every host-side call is
// recorded through `record(tool, args)` on arrival, before the behaviour runs
// (and before any delay_ms).
//
// Behaviours (see docs/case-format.md, "Tool behaviours"):
//   {returns: V}                     resolves with V
//   {returns_seq: [V1, V2, ...]}     n-th call -> n-th value, the last repeats (count per tool per request)
//   {echo: "args"}                   resolves with the argument array
//   {echo: "first"}                  resolves with the first argument
//   {echo: [i, "key", ...]}          resolves with the value at that path inside the argument array
//   {throws: "m"}                    rejects with new Error(m)
//   {throws_value: V}                rejects with V itself
//   {control: "pause"}               resolves with {"__codemode_control__": "pause"}
//   {control: {error: "m"}}          resolves with {"__codemode_control__": "error", "message": "m"}
//   delay_ms: N                      beside any of the above: waits N ms first
//
// A value V is JSON where an object whose single key is `$<Type>` stands for a
// binary value: {"$Uint8Array": [1,2]} (any typed array by name; BigInt64Array /
// BigUint64Array elements as decimal strings), {"$ArrayBuffer": [bytes]},
// {"$DataView": [bytes]}, {"$BigInt": "123"}, and {"$undefined": true} for
// undefined. Decoding is recursive. A single `$key` that names none of these
// is left as a plain object.

const TYPED_ARRAYS = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};
if (typeof Float16Array === "function") TYPED_ARRAYS.Float16Array = Float16Array;

/** Decode a catalogue value V into the JS value it stands for. */
export function decodeValue(v) {
  if (Array.isArray(v)) return v.map(decodeValue);
  if (v === null || typeof v !== "object") return v;
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0].startsWith("$")) {
    const type = keys[0].slice(1);
    const payload = v[keys[0]];
    if (type === "undefined") return undefined;
    if (type === "BigInt") return BigInt(payload);
    if (type === "ArrayBuffer") return new Uint8Array(payload).buffer;
    if (type === "DataView") return new DataView(new Uint8Array(payload).buffer);
    const Ctor = TYPED_ARRAYS[type];
    if (Ctor) {
      const big = type === "BigInt64Array" || type === "BigUint64Array";
      return new Ctor(payload.map((e) => (big ? BigInt(e) : e)));
    }
  }
  const out = {};
  for (const k of keys) out[k] = decodeValue(v[k]);
  return out;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function describe(behaviour) {
  try {
    return JSON.stringify(behaviour);
  } catch {
    return String(behaviour);
  }
}

/**
 * Turn one behaviour into an async function `(...args) => value`.
 * The function does not record; callers record before invoking it.
 */
export function materialize(behaviour) {
  if (behaviour === null || typeof behaviour !== "object" || Array.isArray(behaviour)) {
    throw new Error(`invalid tool behaviour: ${describe(behaviour)}`);
  }
  const delay = behaviour.delay_ms;
  let body;
  if ("returns" in behaviour) {
    const value = behaviour.returns;
    body = () => decodeValue(value);
  } else if ("returns_seq" in behaviour) {
    const seq = behaviour.returns_seq;
    if (!Array.isArray(seq) || seq.length === 0) {
      throw new Error(`returns_seq needs a non-empty array: ${describe(behaviour)}`);
    }
    let n = 0;
    body = () => decodeValue(seq[Math.min(n++, seq.length - 1)]);
  } else if ("echo" in behaviour) {
    const how = behaviour.echo;
    if (how === "args") body = (args) => args;
    else if (how === "first") body = (args) => args[0];
    else if (Array.isArray(how)) {
      body = (args) => {
        let cur = args;
        for (const step of how) {
          if (cur === null || cur === undefined) return undefined;
          cur = cur[step];
        }
        return cur;
      };
    } else throw new Error(`invalid echo: ${describe(behaviour)}`);
  } else if ("throws" in behaviour) {
    const message = behaviour.throws;
    body = () => {
      throw new Error(message);
    };
  } else if ("throws_value" in behaviour) {
    const value = behaviour.throws_value;
    body = () => {
      throw decodeValue(value);
    };
  } else if ("control" in behaviour) {
    const c = behaviour.control;
    if (c === "pause") body = () => ({ __codemode_control__: "pause" });
    else if (c && typeof c === "object" && "error" in c) {
      body = () => ({ __codemode_control__: "error", message: c.error });
    } else throw new Error(`invalid control: ${describe(behaviour)}`);
  } else {
    throw new Error(`invalid tool behaviour: ${describe(behaviour)}`);
  }
  return async (...args) => {
    if (typeof delay === "number" && delay > 0) await sleep(delay);
    return body(args);
  };
}

/**
 * Materialize a `{rawName: behaviour}` record into `{rawName: async fn}`.
 * Each fn records `{tool: "<prefix>.<rawName>", args}` on arrival.
 */
export function materializeTools(prefix, tools, record) {
  const fns = {};
  for (const [name, behaviour] of Object.entries(tools ?? {})) {
    const run = materialize(behaviour);
    const tool = `${prefix}.${name}`;
    fns[name] = (...args) => {
      record(tool, args);
      return run(...args);
    };
  }
  return fns;
}

/**
 * Materialize a connector `{name, tools}` into `{name, binding: {callTool(name, arg)}}`.
 * Every callTool records `{tool: "<connector>.<tool>", args: [arg]}` on arrival,
 * an unknown tool included; an unknown tool then rejects with
 * `Unknown connector tool "<name>"`.
 */
export function materializeConnector(connector, record) {
  const runs = {};
  for (const [name, behaviour] of Object.entries(connector.tools ?? {})) {
    runs[name] = materialize(behaviour);
  }
  const prefix = connector.name;
  return {
    name: connector.name,
    binding: {
      async callTool(name, arg) {
        record(`${prefix}.${name}`, [arg]);
        const run = Object.prototype.hasOwnProperty.call(runs, name) ? runs[name] : undefined;
        if (!run) throw new Error(`Unknown connector tool "${name}"`);
        return run(arg);
      },
    },
  };
}
