// The JSON projection shared by results and recorded call arguments.
//
// It is JSON.stringify exactly (toJSON honoured, Map/Set -> {}, Date -> ISO
// string, undefined in arrays -> null and dropped in objects, -0 -> 0,
// NaN/Infinity -> null, functions and symbols dropped), except that binary
// values and BigInts get a tagged shape so a codec difference stays visible:
//
//   typed array  -> {"$<TypeName>": [elements]}   (BigInt64/BigUint64: decimal strings)
//   ArrayBuffer  -> {"$ArrayBuffer": [bytes]}
//   DataView     -> {"$DataView": [viewed bytes]}
//   BigInt       -> {"$BigInt": "123"}
//
// A replacer sees each value after its toJSON ran, so toJSON keeps priority.

const tagOf = (v) => Object.prototype.toString.call(v).slice(8, -1);

function replacer(_key, value) {
  if (typeof value === "bigint") return { $BigInt: value.toString() };
  if (value === null || typeof value !== "object") return value;
  const tag = tagOf(value);
  if (tag === "ArrayBuffer" || tag === "SharedArrayBuffer") {
    return { ["$" + tag]: Array.from(new Uint8Array(value)) };
  }
  if (ArrayBuffer.isView(value)) {
    if (tag === "DataView") {
      return {
        $DataView: Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)),
      };
    }
    // A typed array: Symbol.toStringTag names its type (Uint8Array, Float64Array, ...).
    const elements = Array.from(value, (e) => (typeof e === "bigint" ? e.toString() : e));
    return { ["$" + tag]: elements };
  }
  return value;
}

/** The JSON text of `value`'s projection, or undefined when it projects to "absent". Throws on a cycle. */
export function projectToJson(value) {
  return JSON.stringify(value, replacer);
}

/**
 * The projection as a plain JSON value, or undefined when it is absent
 * (a top-level undefined, function or symbol). Throws when JSON.stringify does
 * (a cycle, a throwing toJSON or getter).
 */
export function project(value) {
  const text = projectToJson(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** Like project(), but a failure becomes {"$unprojectable": "<message>"}. */
export function projectSafe(value) {
  try {
    return project(value);
  } catch (err) {
    return { $unprojectable: err instanceof Error ? err.message : String(err) };
  }
}
