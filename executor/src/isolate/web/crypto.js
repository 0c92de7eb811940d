// crypto: getRandomValues and randomUUID on getrandom; subtle.digest and HMAC keys (import,
// export, generate, sign, verify) on RustCrypto.
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
    throw new DOMException(`SubtleCrypto.${name} is not supported in this sandbox; SubtleCrypto here implements digest and HMAC.`, "NotSupportedError");
  };

  // CryptoKey: HMAC secret keys, the one key type this sandbox implements.
  const keys = new WeakMap();
  class CryptoKey {
    constructor(key, slots) {
      if (key !== creating) throw new TypeError("Illegal constructor");
      keys.set(this, slots);
      // Workers shows these as the key's own enumerable properties, in this order.
      for (const name of ["usages", "algorithm", "extractable", "type"]) {
        define(this, name, { get() { return keys.get(this)[name]; }, enumerable: true, configurable: true });
      }
    }
  }
  define(CryptoKey.prototype, Symbol.toStringTag, { value: "CryptoKey", configurable: true });

  const HASHES = { "SHA-1": 512, "SHA-256": 512, "SHA-384": 1024, "SHA-512": 1024, MD5: 512 };
  const JWK_ALG = { "SHA-1": "HS1", "SHA-256": "HS256", "SHA-384": "HS384", "SHA-512": "HS512" };
  const algorithmName = (a) => String(typeof a === "object" && a !== null ? a.name : a);
  const hashName = (h) => String(typeof h === "object" && h !== null ? h.name : h).toUpperCase();
  const notSupported = (what) => new DOMException(`${what} is not supported in this sandbox; SubtleCrypto here implements digest and HMAC.`, "NotSupportedError");
  const hmacAlgorithm = (algorithm) => {
    if (algorithmName(algorithm).toUpperCase() !== "HMAC") throw notSupported(`The algorithm ${algorithmName(algorithm)}`);
    const hash = hashName(algorithm.hash);
    if (!(hash in HASHES)) throw new DOMException("Unrecognized or unimplemented digest algorithm requested.", "NotSupportedError");
    return hash;
  };
  const checkUsages = (usages) => {
    const list = [...usages].map(String);
    for (const u of list) {
      if (u !== "sign" && u !== "verify") throw new DOMException(`Attempt to import secret HMAC key with invalid usage "${u}".`, "SyntaxError");
    }
    return list;
  };
  const makeKey = (raw, hash, extractable, usages) => {
    if (raw.length === 0) {
      throw new DOMException("Imported HMAC key length (0) must be a non-zero value up to 7 bits less than, and no greater than, the bit length of the raw key data (0).", "DataError");
    }
    return new CryptoKey(creating, {
      type: "secret", extractable: !!extractable, usages, raw,
      algorithm: { name: "HMAC", hash: { name: hash }, length: raw.length * 8 },
    });
  };
  const useKey = (key, usage) => {
    const slots = keys.get(key);
    if (slots === undefined) throw new TypeError("Failed to execute on 'SubtleCrypto': parameter 2 is not of type 'CryptoKey'.");
    if (!slots.usages.includes(usage)) throw new DOMException(`Requested key usage "${usage}" does not match any usage listed in this CryptoKey.`, "InvalidAccessError");
    return slots;
  };
  const base64url = (bytes) => use("encoding").btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const fromBase64url = (text) => Uint8Array.from(use("encoding").atob(String(text).replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const sameBytes = (x, y) => {
    if (x.length !== y.length) return false;
    let diff = 0;
    for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
    return diff === 0;
  };

  class SubtleCrypto {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    async digest(algorithm, data) {
      const name = algorithmName(algorithm).toUpperCase();
      const out = native.digest(name, dataBytes(data));
      if (out === undefined || out === null) throw new DOMException("Unrecognized or unimplemented digest algorithm requested.", "NotSupportedError");
      return out;
    }
    async importKey(format, keyData, algorithm, extractable, usages) {
      const hash = hmacAlgorithm(algorithm);
      const list = checkUsages(usages);
      let raw;
      if (format === "raw") raw = dataBytes(keyData);
      else if (format === "jwk") {
        if (keyData === null || typeof keyData !== "object" || keyData.kty !== "oct") throw new DOMException("HMAC \"jwk\" key import requires a JSON Web Key with Key Type parameter \"kty\" equal to \"oct\" (encoded as a JSON string).", "DataError");
        raw = fromBase64url(keyData.k);
      } else throw notSupported(`Importing an HMAC key in the "${format}" format`);
      const length = algorithm.length === undefined ? undefined : Number(algorithm.length);
      if (length !== undefined && length !== raw.length * 8) throw notSupported("An HMAC key length that is not its byte length");
      return makeKey(raw, hash, extractable, list);
    }
    async exportKey(format, key) {
      const slots = keys.get(key);
      if (slots === undefined) throw new TypeError("Failed to execute 'exportKey' on 'SubtleCrypto': parameter 2 is not of type 'CryptoKey'.");
      if (!slots.extractable) throw new DOMException("Attempt to export non-extractable HMAC key.", "InvalidAccessError");
      if (format === "raw") return slots.raw.slice().buffer;
      if (format === "jwk") {
        const jwk = { kty: "oct", key_ops: [...slots.usages] };
        if (slots.algorithm.hash.name in JWK_ALG) jwk.alg = JWK_ALG[slots.algorithm.hash.name];
        jwk.ext = true;
        jwk.k = base64url(slots.raw);
        return jwk;
      }
      throw notSupported(`Exporting an HMAC key in the "${format}" format`);
    }
    async generateKey(algorithm, extractable, usages) {
      const hash = hmacAlgorithm(algorithm);
      const list = checkUsages(usages);
      const bits = algorithm.length === undefined ? HASHES[hash] : Number(algorithm.length);
      if (!(bits > 0) || bits % 8 !== 0) throw notSupported("An HMAC key length that is not a whole number of bytes");
      const raw = new Uint8Array(bits / 8);
      for (let i = 0; i < raw.length; i += 65536) native.randomFill(raw.subarray(i, i + 65536));
      return makeKey(raw, hash, extractable, list);
    }
    async sign(algorithm, key, data) {
      const slots = useKey(key, "sign");
      if (algorithmName(algorithm).toUpperCase() !== "HMAC") throw notSupported(`The algorithm ${algorithmName(algorithm)}`);
      return native.hmac(slots.algorithm.hash.name, slots.raw, dataBytes(data));
    }
    async verify(algorithm, key, signature, data) {
      const slots = useKey(key, "verify");
      if (algorithmName(algorithm).toUpperCase() !== "HMAC") throw notSupported(`The algorithm ${algorithmName(algorithm)}`);
      const expected = new Uint8Array(native.hmac(slots.algorithm.hash.name, slots.raw, dataBytes(data)));
      return sameBytes(expected, dataBytes(signature));
    }
    timingSafeEqual(a, b) {
      const x = ArrayBuffer.isView(a) ? bytes(a) : new Uint8Array(a);
      const y = ArrayBuffer.isView(b) ? bytes(b) : new Uint8Array(b);
      if (x.byteLength !== y.byteLength) throw new TypeError("Input buffers must have the same byte length");
      return sameBytes(x, y);
    }
  }
  for (const name of ["decrypt", "deriveBits", "deriveKey", "encrypt", "unwrapKey", "wrapKey"]) {
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
