// Buffer, as workerd's Node.js compatibility layer exposes it on the global scope: a
// Uint8Array subclass with Node's encodings (utf8, hex, base64, base64url, latin1/binary,
// ascii, utf16le/ucs2), its static helpers (from, alloc, concat, byteLength, compare,
// isBuffer, isEncoding) and the methods model-written code uses (toString, toJSON, equals,
// compare, copy, slice/subarray, write, fill, indexOf/includes, the read/write integer and
// float accessors, swaps, inspect). Texts are Node's, as workerd prints them.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const { TextEncoder, TextDecoder } = use("encoding");
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const nodeError = (Type, code, message) => {
    const e = new Type(message);
    define(e, "code", { value: code, writable: true, configurable: true, enumerable: true });
    return e;
  };
  const describe = (v) => {
    if (v === null) return "null";
    if (v === undefined) return "undefined";
    if (typeof v === "function") return `function ${v.name}`;
    if (typeof v === "object") return v.constructor && v.constructor.name ? `an instance of ${v.constructor.name}` : "an instance of Object";
    let text = typeof v === "string" ? `'${v.length > 25 ? v.slice(0, 25) + "..." : v}'` : String(v);
    if (typeof v === "bigint") text += "n";
    return `type ${typeof v} (${text})`;
  };
  const invalidArg = (name, expected, v) => nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The "${name}" argument must be ${expected}. Received ${describe(v)}`);
  // Node writes integers past 2 ** 32 with separators (4_294_967_296).
  const received = (v) => {
    const big = typeof v === "bigint" ? v > 2n ** 32n || v < -(2n ** 32n) : Number.isInteger(v) && Math.abs(v) > 2 ** 32;
    const text = String(v);
    return (big ? text.replace(/\B(?=(\d{3})+(?!\d))/g, "_") : text) + (typeof v === "bigint" ? "n" : "");
  };
  const outOfRange = (name, range, v) => nodeError(RangeError, "ERR_OUT_OF_RANGE", `The value of "${name}" is out of range. It must be ${range}. Received ${received(v)}`);
  const unknownEncoding = (encoding) => nodeError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);

  const ENCODINGS = {
    utf8: "utf8", "utf-8": "utf8",
    hex: "hex",
    base64: "base64", base64url: "base64url",
    latin1: "latin1", binary: "latin1",
    ascii: "ascii",
    ucs2: "utf16le", "ucs-2": "utf16le", utf16le: "utf16le", "utf-16le": "utf16le",
  };
  const normalize = (encoding) => {
    if (encoding === undefined || encoding === null || encoding === "") return "utf8";
    const found = ENCODINGS[String(encoding).toLowerCase()];
    if (found === undefined) throw unknownEncoding(encoding);
    return found;
  };

  // --- encode: string -> bytes ------------------------------------------------------------
  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const B64_INDEX = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;
  B64_INDEX["-".charCodeAt(0)] = 62;
  B64_INDEX["_".charCodeAt(0)] = 63;
  const base64Decode = (text) => {
    const out = new Uint8Array(Math.ceil(text.length * 3 / 4));
    let bits = 0, count = 0, n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 61) break; // '='
      const v = c < 128 ? B64_INDEX[c] : -1;
      if (v < 0) continue;
      bits = (bits << 6) | v;
      count += 6;
      if (count >= 8) {
        count -= 8;
        out[n++] = (bits >> count) & 0xff;
      }
    }
    return out.subarray(0, n);
  };
  const hexDecode = (text) => {
    const out = new Uint8Array(text.length >>> 1);
    let n = 0;
    for (; n < out.length; n++) {
      const byte = parseInt(text.substr(n * 2, 2), 16);
      if (Number.isNaN(byte) || !/^[0-9a-fA-F]{2}$/.test(text.substr(n * 2, 2))) break;
      out[n] = byte;
    }
    return out.subarray(0, n);
  };
  const encode = (text, encoding) => {
    switch (encoding) {
      case "utf8": return encoder.encode(text);
      case "hex": return hexDecode(text);
      case "base64":
      case "base64url": return base64Decode(text);
      case "latin1":
      case "ascii": {
        const out = new Uint8Array(text.length);
        for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
        return out;
      }
      case "utf16le": {
        const out = new Uint8Array(text.length * 2);
        for (let i = 0; i < text.length; i++) {
          const c = text.charCodeAt(i);
          out[i * 2] = c & 0xff;
          out[i * 2 + 1] = c >> 8;
        }
        return out;
      }
    }
  };

  // --- decode: bytes -> string ------------------------------------------------------------
  const base64Encode = (bytes, url) => {
    const alphabet = url ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" : B64;
    let out = "";
    let i = 0;
    for (; i + 2 < bytes.length; i += 3) {
      const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      out += alphabet[v >> 18] + alphabet[(v >> 12) & 63] + alphabet[(v >> 6) & 63] + alphabet[v & 63];
    }
    const rest = bytes.length - i;
    if (rest === 1) {
      const v = bytes[i] << 16;
      out += alphabet[v >> 18] + alphabet[(v >> 12) & 63] + (url ? "" : "==");
    } else if (rest === 2) {
      const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
      out += alphabet[v >> 18] + alphabet[(v >> 12) & 63] + alphabet[(v >> 6) & 63] + (url ? "" : "=");
    }
    return out;
  };
  const fromCodes = (codes) => {
    let out = "";
    for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode.apply(null, codes.subarray(i, i + 8192));
    return out;
  };
  const decode = (bytes, encoding) => {
    switch (encoding) {
      case "utf8": return decoder.decode(bytes);
      case "hex": {
        let out = "";
        for (let i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
        return out;
      }
      case "base64": return base64Encode(bytes, false);
      case "base64url": return base64Encode(bytes, true);
      case "latin1": return fromCodes(bytes);
      case "ascii": return fromCodes(Uint8Array.from(bytes, (b) => b & 0x7f));
      case "utf16le": {
        const codes = new Uint16Array(bytes.length >>> 1);
        for (let i = 0; i < codes.length; i++) codes[i] = bytes[i * 2] | (bytes[i * 2 + 1] << 8);
        return fromCodes(codes);
      }
    }
  };

  class FastBuffer extends Uint8Array {
    static from(value, encodingOrOffset, length) {
      if (typeof value === "string") return fromBytes(encode(value, normalize(encodingOrOffset)));
      if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer)) {
        const offset = encodingOrOffset === undefined ? 0 : Number(encodingOrOffset) || 0;
        if (offset > value.byteLength) throw nodeError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"offset" is outside of buffer bounds');
        const size = length === undefined ? value.byteLength - offset : Number(length) || 0;
        if (offset + size > value.byteLength) throw nodeError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"length" is outside of buffer bounds');
        return new FastBuffer(value, offset, size);
      }
      if (ArrayBuffer.isView(value)) {
        const bytes = value instanceof Uint8Array ? value : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
        if (value instanceof Uint8Array || value instanceof DataView) return fromBytes(Uint8Array.prototype.slice.call(bytes));
        return fromBytes(Uint8Array.from(value, (v) => Number(v) & 0xff));
      }
      if (value !== null && typeof value === "object") {
        const primitive = typeof value.valueOf === "function" ? value.valueOf() : value;
        if (primitive !== value && primitive !== null && primitive !== undefined) return FastBuffer.from(primitive, encodingOrOffset, length);
        if (value.type === "Buffer" && Array.isArray(value.data)) return fromBytes(Uint8Array.from(value.data));
        if (Array.isArray(value) || typeof value.length === "number") return fromBytes(Uint8Array.from(Array.prototype.slice.call(value), (v) => Number(v) & 0xff));
        if (typeof value[Symbol.toPrimitive] === "function") return FastBuffer.from(value[Symbol.toPrimitive]("string"), encodingOrOffset, length);
      }
      throw nodeError(TypeError, "ERR_INVALID_ARG_TYPE", `The first argument must be of type string or an instance of Buffer, TypedArray, ArrayBuffer, SharedArrayBuffer, or Array or an Array-like Object. Received ${describe(value)}`);
    }
    static alloc(size, fill, encoding) {
      checkSize(size);
      const b = new FastBuffer(size);
      if (fill !== undefined && fill !== 0) b.fill(fill, 0, b.length, encoding);
      return b;
    }
    static allocUnsafe(size) { checkSize(size); return new FastBuffer(size); }
    static allocUnsafeSlow(size) { checkSize(size); return new FastBuffer(size); }
    static byteLength(value, encoding) {
      if (typeof value !== "string") {
        if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
        throw invalidArg("string", "of type string or an instance of Buffer or ArrayBuffer", value);
      }
      // Node counts hex and base64 from the text's length, not by decoding it.
      switch (normalize(encoding)) {
        case "hex": return value.length >>> 1;
        case "base64":
        case "base64url": {
          let n = value.length;
          if (n > 0 && value.charCodeAt(n - 1) === 61) n--;
          if (n > 1 && value.charCodeAt(n - 1) === 61) n--;
          return (n * 3) >>> 2;
        }
        case "latin1":
        case "ascii": return value.length;
        case "utf16le": return value.length * 2;
        default: return encoder.encode(value).length;
      }
    }
    static of(...items) { return fromBytes(Uint8Array.from(items, (v) => Number(v) & 0xff)); }
    static concat(list, totalLength) {
      if (!Array.isArray(list)) throw invalidArg("list", "an (Buffer|Uint8Array)[]", list);
      list.forEach((item, i) => {
        if (!(item instanceof Uint8Array)) throw new TypeError(`Incorrect type for array element ${i}: the provided value is not of type 'Uint8Array'.`);
      });
      const total = totalLength === undefined ? list.reduce((n, b) => n + b.length, 0) : totalLength;
      const out = FastBuffer.alloc(total);
      let at = 0;
      for (const item of list) {
        if (at >= total) break;
        const part = item.subarray(0, total - at);
        Uint8Array.prototype.set.call(out, part, at);
        at += part.length;
      }
      return out;
    }
    static isBuffer(value) { return value instanceof FastBuffer; }
    static isEncoding(encoding) { return typeof encoding === "string" && ENCODINGS[encoding.toLowerCase()] !== undefined; }
    static compare(a, b) {
      if (!(a instanceof Uint8Array)) throw invalidArg("buf1", "an instance of Buffer or Uint8Array", a);
      if (!(b instanceof Uint8Array)) throw invalidArg("buf2", "an instance of Buffer or Uint8Array", b);
      return compareBytes(a, b);
    }

    toString(encoding, start, end) {
      if (arguments.length === 0) return decoder.decode(this);
      const from = Math.max(0, start === undefined ? 0 : Math.trunc(Number(start)) || 0);
      const to = Math.min(this.length, end === undefined ? this.length : Math.trunc(Number(end)) || 0);
      if (to <= from) return "";
      return decode(this.subarray(from, to), normalize(encoding));
    }
    toLocaleString(encoding, start, end) { return this.toString(encoding, start, end); }
    toJSON() { return { type: "Buffer", data: Array.from(this) }; }
    equals(other) {
      if (!(other instanceof Uint8Array)) throw invalidArg("otherBuffer", "an instance of Buffer or Uint8Array", other);
      return compareBytes(this, other) === 0;
    }
    compare(target, targetStart = 0, targetEnd = target.length, sourceStart = 0, sourceEnd = this.length) {
      if (!(target instanceof Uint8Array)) throw invalidArg("target", "an instance of Buffer or Uint8Array", target);
      return compareBytes(this.subarray(sourceStart, sourceEnd), target.subarray(targetStart, targetEnd));
    }
    copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
      const part = this.subarray(sourceStart, Math.min(sourceEnd, sourceStart + target.length - targetStart));
      Uint8Array.prototype.set.call(target, part, targetStart);
      return part.length;
    }
    slice(start, end) { return this.subarray(start, end); }
    subarray(start, end) {
      const view = Uint8Array.prototype.subarray.call(this, start, end);
      return new FastBuffer(view.buffer, view.byteOffset, view.length);
    }
    write(text, offset, length, encoding) {
      if (typeof offset === "string") { encoding = offset; offset = 0; length = undefined; }
      else if (typeof length === "string") { encoding = length; length = undefined; }
      offset = offset === undefined ? 0 : offset;
      const bytes = encode(String(text), normalize(encoding));
      const room = Math.min(this.length - offset, length === undefined ? Infinity : length);
      const part = bytes.subarray(0, Math.max(0, room));
      Uint8Array.prototype.set.call(this, part, offset);
      return part.length;
    }
    fill(value, offset = 0, end = this.length, encoding) {
      if (typeof offset === "string") { encoding = offset; offset = 0; end = this.length; }
      else if (typeof end === "string") { encoding = end; end = this.length; }
      if (typeof value === "string") {
        const bytes = value.length === 0 ? new Uint8Array([0]) : encode(value, normalize(encoding));
        if (bytes.length === 0) throw nodeError(TypeError, "ERR_INVALID_ARG_VALUE", `The argument 'value' is invalid. Received '${value}'`);
        for (let i = offset, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
        return this;
      }
      if (value instanceof Uint8Array) {
        for (let i = offset, j = 0; i < end; i++, j = (j + 1) % value.length) this[i] = value[j];
        return this;
      }
      Uint8Array.prototype.fill.call(this, Number(value) & 0xff, offset, end);
      return this;
    }
    indexOf(value, byteOffset = 0, encoding) { return search(this, value, byteOffset, encoding, false); }
    lastIndexOf(value, byteOffset = this.length, encoding) { return search(this, value, byteOffset, encoding, true); }
    includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }
    swap16() { return swap(this, 2); }
    swap32() { return swap(this, 4); }
    swap64() { return swap(this, 8); }
    inspect() {
      const shown = Array.from(this.subarray(0, 50), (b) => (b < 16 ? "0" : "") + b.toString(16)).join(" ");
      const more = this.length > 50 ? ` ... ${this.length - 50} more byte${this.length - 50 === 1 ? "" : "s"}` : "";
      return `<Buffer ${shown}${more}>`;
    }
  }
  const fromBytes = (bytes) => new FastBuffer(bytes.buffer, bytes.byteOffset, bytes.length);
  const checkSize = (size) => {
    if (typeof size !== "number") throw invalidArg("size", "of type number", size);
    if (!(size >= 0)) throw new RangeError(`Invalid typed array length: ${size}`);
    if (!(size <= 2 ** 31 - 1)) throw outOfRange("size", ">= 0 && <= 2147483647", size);
  };
  const compareBytes = (a, b) => {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  };
  const search = (buffer, value, offset, encoding, last) => {
    if (typeof offset === "string") { encoding = offset; offset = last ? buffer.length : 0; }
    offset = Number(offset);
    if (Number.isNaN(offset)) offset = last ? buffer.length : 0;
    if (offset < 0) offset = Math.max(0, buffer.length + offset);
    let needle;
    if (typeof value === "number") needle = new Uint8Array([value & 0xff]);
    else if (typeof value === "string") needle = encode(value, normalize(encoding));
    else if (value instanceof Uint8Array) needle = value;
    else throw invalidArg("value", "one of type number or string or an instance of Buffer or Uint8Array", value);
    if (needle.length === 0) return Math.min(offset, buffer.length);
    const matches = (at) => { for (let j = 0; j < needle.length; j++) if (buffer[at + j] !== needle[j]) return false; return true; };
    if (last) {
      for (let i = Math.min(offset, buffer.length - needle.length); i >= 0; i--) if (matches(i)) return i;
    } else {
      for (let i = offset; i + needle.length <= buffer.length; i++) if (matches(i)) return i;
    }
    return -1;
  };
  const swap = (buffer, size) => {
    if (buffer.length % size !== 0) throw nodeError(RangeError, "ERR_INVALID_BUFFER_SIZE", `Buffer size must be a multiple of ${size * 8}-bits`);
    for (let i = 0; i < buffer.length; i += size) {
      for (let a = i, b = i + size - 1; a < b; a++, b--) { const t = buffer[a]; buffer[a] = buffer[b]; buffer[b] = t; }
    }
    return buffer;
  };

  // The numeric accessors, through a DataView over the same bytes.
  const view = (b) => new DataView(b.buffer, b.byteOffset, b.byteLength);
  // The checks and texts workerd's node:buffer gives, in its order: an offset outside
  // [0, length] names the length with "&&"; one that leaves too few bytes names the last
  // start with "and"; a buffer shorter than the value is out of bounds.
  const checkOffset = (b, offset, size) => {
    if (offset === undefined) offset = 0;
    if (typeof offset !== "number") throw invalidArg("offset", "of type number", offset);
    if (!Number.isInteger(offset)) throw outOfRange("offset", "an integer", offset);
    if (offset < 0 || offset > b.length) throw outOfRange("offset", `>= 0 && <= ${b.length}`, offset);
    if (b.length - size < 0) throw nodeError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", "Attempt to access memory outside buffer bounds");
    if (offset > b.length - size) throw outOfRange("offset", `>= 0 and <= ${b.length - size}`, offset);
    return offset;
  };
  // An integer write's value range, in Node's words.
  const checkValue = (kind, size, value) => {
    if (kind.startsWith("Float")) return;
    const bits = size * 8;
    const signed = kind.startsWith("Int") || kind.startsWith("BigInt");
    const big = kind.startsWith("Big");
    const v = big ? value : Number(value);
    const one = big ? 1n : 1;
    const min = signed ? -(big ? 2n ** BigInt(bits - 1) : 2 ** (bits - 1)) : big ? 0n : 0;
    const max = signed ? (big ? 2n ** BigInt(bits - 1) : 2 ** (bits - 1)) - one : (big ? 2n ** BigInt(bits) : 2 ** bits) - one;
    if (v > max || v < min) {
      const n = big ? "n" : "";
      let range;
      if (size > 3) {
        range = signed ? `>= -(2${n} ** ${bits - 1}${n}) and < 2${n} ** ${bits - 1}${n}` : `>= 0${n} and < 2${n} ** ${bits}${n}`;
      } else {
        range = `>= ${min}${n} and <= ${max}${n}`;
      }
      throw outOfRange("value", range, value);
    }
  };
  const accessors = [
    ["UInt8", "Uint8", 1], ["Int8", "Int8", 1],
    ["UInt16", "Uint16", 2], ["Int16", "Int16", 2],
    ["UInt32", "Uint32", 4], ["Int32", "Int32", 4],
    ["Float", "Float32", 4], ["Double", "Float64", 8],
    ["BigUInt64", "BigUint64", 8], ["BigInt64", "BigInt64", 8],
  ];
  for (const [name, kind, size] of accessors) {
    const ends = size === 1 ? [["", false]] : [["LE", true], ["BE", false]];
    for (const [suffix, little] of ends) {
      const read = function (offset) { return view(this)["get" + kind](checkOffset(this, offset, size), little); };
      const write = function (value, offset) {
        checkValue(kind, size, value);
        const at = checkOffset(this, offset, size);
        view(this)["set" + kind](at, value, little);
        return at + size;
      };
      for (const [prefix, fn] of [["read", read], ["write", write]]) {
        for (const spelled of name.startsWith("UInt") || name.startsWith("BigUInt") ? [name, name.replace("UInt", "Uint")] : [name]) {
          const key = prefix + spelled + suffix;
          const method = { [key]: fn }[key];
          define(FastBuffer.prototype, key, { value: method, writable: true, configurable: true });
        }
      }
    }
  }

  // Buffer itself is a function, callable without `new` as Node's (deprecated) Buffer(arg)
  // is; its prototype is FastBuffer's, so instances, `instanceof` and species agree.
  function Buffer(arg, encodingOrOffset, length) {
    return typeof arg === "number" ? FastBuffer.alloc(arg) : FastBuffer.from(arg, encodingOrOffset, length);
  }
  for (const key of ["from", "of", "alloc", "allocUnsafe", "allocUnsafeSlow", "byteLength", "concat", "isBuffer", "isEncoding", "compare"]) {
    define(Buffer, key, { value: FastBuffer[key], writable: true, configurable: true, enumerable: true });
  }
  define(Buffer, "poolSize", { value: 8192, writable: true, configurable: true, enumerable: true });
  define(Buffer, "prototype", { value: FastBuffer.prototype, writable: false });
  define(FastBuffer.prototype, "constructor", { value: Buffer, writable: true, configurable: true });
  define(Buffer, Symbol.species, { get() { return FastBuffer; }, configurable: true });
  return { Buffer };
})
