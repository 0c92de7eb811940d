// crypto: getRandomValues and randomUUID on getrandom, subtle.digest on RustCrypto.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const creating = Symbol("creating");
  const INTEGER_VIEWS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  const bytes = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const dataBytes = (data) => {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    throw new TypeError("Failed to execute 'digest' on 'SubtleCrypto': parameter 2 is not of type 'ArrayBuffer or ArrayBufferView'.");
  };
  const unsupported = (name) => async function () {
    throw new DOMException(`SubtleCrypto.${name} is not supported in this sandbox.`, "NotSupportedError");
  };

  class CryptoKey {
    constructor() { throw new TypeError("Illegal constructor"); }
  }
  define(CryptoKey.prototype, Symbol.toStringTag, { value: "CryptoKey", configurable: true });

  class SubtleCrypto {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    async digest(algorithm, data) {
      const name = String(typeof algorithm === "object" && algorithm !== null ? algorithm.name : algorithm).toUpperCase();
      const out = native.digest(name, dataBytes(data));
      if (out === undefined || out === null) throw new DOMException(`Unrecognized name.`, "NotSupportedError");
      return out;
    }
    timingSafeEqual(a, b) {
      const x = ArrayBuffer.isView(a) ? bytes(a) : new Uint8Array(a);
      const y = ArrayBuffer.isView(b) ? bytes(b) : new Uint8Array(b);
      if (x.byteLength !== y.byteLength) throw new TypeError("Input buffers must have the same byte length");
      let diff = 0;
      for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
      return diff === 0;
    }
  }
  for (const name of ["decrypt", "deriveBits", "deriveKey", "encrypt", "exportKey", "generateKey", "importKey", "sign", "unwrapKey", "verify", "wrapKey"]) {
    define(SubtleCrypto.prototype, name, { value: unsupported(name), writable: true, configurable: true });
  }
  define(SubtleCrypto.prototype, Symbol.toStringTag, { value: "SubtleCrypto", configurable: true });
  const subtle = new SubtleCrypto(creating);

  class Crypto {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    get subtle() { return subtle; }
    getRandomValues(array) {
      if (!INTEGER_VIEWS.some((C) => array instanceof C)) {
        throw new DOMException("ArrayBufferView argument to getRandomValues() must be an integer-typed view.", "TypeMismatchError");
      }
      if (array.byteLength > 65536) {
        throw new DOMException(`getRandomValues() only accepts buffers of size <= 64K but provided ${array.byteLength} bytes.`, "QuotaExceededError");
      }
      native.randomFill(bytes(array));
      return array;
    }
    randomUUID() {
      const b = new Uint8Array(16);
      native.randomFill(b);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
  }
  class DigestStream {
    constructor() { throw new DOMException("DigestStream is not supported in this sandbox.", "NotSupportedError"); }
  }
  define(Crypto.prototype, "DigestStream", { value: DigestStream, writable: true, configurable: true });
  define(Crypto.prototype, Symbol.toStringTag, { value: "Crypto", configurable: true });
  const crypto = new Crypto(creating);
  return { crypto, Crypto, SubtleCrypto, CryptoKey };
})
