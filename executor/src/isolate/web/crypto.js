// crypto: getRandomValues and randomUUID on getrandom; SubtleCrypto (every algorithm, format
// and operation workerd has, with its texts) and DigestStream on RustCrypto (crypto.rs).
// Keys are bytes held here; each operation is one call of `native.subtle`.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const creating = Symbol("creating");
  const INTEGER_VIEWS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  const bytes = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const isBufferSource = (data) => data instanceof ArrayBuffer || ArrayBuffer.isView(data);
  const dataBytes = (data, method = "digest", position = 2) => {
    if (data instanceof ArrayBuffer) return new Uint8Array(data).slice();
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    throw new TypeError(`Failed to execute '${method}' on 'SubtleCrypto': parameter ${position} is not of type 'ArrayBuffer or ArrayBufferView'.`);
  };
  const optionalBytes = (data) => (data === undefined ? undefined : dataBytes(data));
  const fail = (name, text) => new DOMException(text, name);
  const failText = (answer) => {
    const at = answer.indexOf("|");
    const name = answer.slice(0, at);
    const text = answer.slice(at + 1);
    return name === "Error" ? new Error(text) : name === "TypeError" ? new TypeError(text) : new DOMException(text, name);
  };
  // One native operation; a refusal comes back as "Name|text" and is thrown.
  const call = (op, names, blobs, numbers = []) => {
    const answer = native.subtle(op, names, blobs, numbers);
    if (typeof answer === "string") throw failText(answer);
    return answer;
  };
  const random = (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 65536) native.randomFill(out.subarray(i, i + 65536));
    return out;
  };
  const concat = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };
  const base64url = (b) => {
    let s = "";
    for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
    return use("encoding").btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  const fromBase64url = (text, what) => {
    try {
      return Uint8Array.from(use("encoding").atob(String(text).replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    } catch {
      throw fail("DataError", what);
    }
  };
  const sameBytes = (x, y) => {
    if (x.length !== y.length) return false;
    let diff = 0;
    for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
    return diff === 0;
  };
  const stripZeros = (b) => { let i = 0; while (i < b.length - 1 && b[i] === 0) i++; return b.subarray(i); };

  // Usages, in the order workerd lists them on a key.
  const USAGES = ["encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"];
  const validateUsages = (name, context, usages, allowed) => {
    const seen = new Set();
    for (const u of [...usages].map(String)) {
      if (!USAGES.includes(u) || !allowed.includes(u)) throw fail("SyntaxError", `Attempt to ${context} ${name} key with invalid usage "${u}".`);
      seen.add(u);
    }
    return USAGES.filter((u) => seen.has(u));
  };

  // The algorithms workerd registers, by their canonical names.
  const ALGORITHMS = ["AES-CTR", "AES-CBC", "AES-GCM", "AES-KW", "HMAC", "PBKDF2", "HKDF", "RSASSA-PKCS1-v1_5", "RSA-PSS", "RSA-OAEP", "ECDSA", "ECDH", "Ed25519", "X25519"];
  const canonical = (name) => ALGORITHMS.find((a) => a.toLowerCase() === String(name).toLowerCase());
  const normalize = (algorithm) => {
    if (typeof algorithm === "string") return { name: algorithm };
    if (algorithm === null || typeof algorithm !== "object") throw new TypeError("Algorithm must be a string or an object with a \"name\" member.");
    return algorithm;
  };
  const DIGESTS = { "SHA-1": 64, "SHA-256": 64, "SHA-384": 128, "SHA-512": 128, MD5: 64 };
  const hashOf = (hash, where = "algorithm") => {
    if (hash === undefined) throw new TypeError(`Missing field "hash" in "${where}".`);
    const name = String(typeof hash === "object" && hash !== null ? hash.name : hash).toUpperCase();
    if (!(name in DIGESTS)) throw fail("NotSupportedError", "Unrecognized or unimplemented digest algorithm requested.");
    return name;
  };
  const CURVES = { "P-256": 32, "P-384": 48, "P-521": 66 };
  const curveOf = (algorithm) => {
    if (algorithm.namedCurve === undefined) throw new TypeError("Missing field \"namedCurve\" in \"algorithm\".");
    const curve = String(algorithm.namedCurve);
    if (!(curve in CURVES)) throw fail("NotSupportedError", `Unrecognized or unimplemented EC curve "${curve}" requested.`);
    return curve;
  };

  // CryptoKey: the slots are here; the key shows usages, algorithm, extractable and type.
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
  const makeKey = (slots) => new CryptoKey(creating, slots);
  const slotsOf = (key, method, position) => {
    const slots = keys.get(key);
    if (slots === undefined) throw new TypeError(`Failed to execute '${method}' on 'SubtleCrypto': parameter ${position} is not of type 'CryptoKey'.`);
    return slots;
  };
  const validateOperation = (slots, requested, usage) => {
    if (String(requested).toLowerCase() !== slots.algorithm.name.toLowerCase()) {
      throw fail("InvalidAccessError", `Requested algorithm "${requested}" does not match this CryptoKey's algorithm "${slots.algorithm.name}".`);
    }
    if (!slots.usages.includes(usage)) throw fail("InvalidAccessError", `Requested key usage "${usage}" does not match any usage listed in this CryptoKey.`);
  };

  // --- Secret keys: AES, HMAC, PBKDF2, HKDF --------------------------------------------------
  const AES_USAGES = { "AES-KW": ["wrapKey", "unwrapKey"] };
  const aesUsages = (name) => AES_USAGES[name] || ["encrypt", "decrypt", "wrapKey", "unwrapKey"];
  const aesKey = (name, raw, extractable, usages) => makeKey({
    type: "secret", extractable: !!extractable, usages, raw, algorithm: { name, length: raw.length * 8 },
  });
  const importAes = (name, format, keyData, algorithm, extractable, usages) => {
    const list = validateUsages(name, "import secret", usages, aesUsages(name));
    let raw;
    if (format === "raw" || format === "raw-secret") raw = keyData;
    else if (format === "jwk") {
      if (keyData.kty !== "oct") throw fail("DataError", `Symmetric "jwk" key import requires a JSON Web Key with Key Type parameter "kty" equal to "oct" (encountered "${keyData.kty}").`);
      raw = fromBase64url(keyData.k, "Invalid base64url in the \"k\" member of the JSON Web Key.");
      if (keyData.alg !== undefined) {
        const expected = `A${raw.length * 8}${name.slice(4)}`;
        if (keyData.alg !== expected && [16, 24, 32].includes(raw.length)) throw fail("DataError", `Symmetric "jwk" key contains invalid "alg" value "${keyData.alg}", expected "${expected}".`);
      }
      if (keyData.use !== undefined && list.length > 0 && keyData.use !== "enc") throw fail("DataError", `Symmetric "jwk" key must have a "use" of "enc", not "${keyData.use}".`);
      checkJwkOps(keyData, list);
    } else throw fail("NotSupportedError", `Unrecognized key import format "${format}".`);
    if (![16, 24, 32].includes(raw.length)) throw fail("DataError", `Imported AES key length must be 128, 192, or 256 bits but provided ${raw.length * 8}.`);
    return aesKey(name, raw, extractable, list);
  };
  const checkJwkOps = (jwk, usages) => {
    if (jwk.key_ops === undefined) return;
    const ops = [...jwk.key_ops].map(String);
    const dup = ops.find((op, i) => ops.indexOf(op) !== i);
    if (dup !== undefined) throw fail("DataError", `Symmetric "jwk" key contains duplicate value "${dup}", in "key_op".`);
    for (const u of usages) if (!ops.includes(u)) throw fail("DataError", `"jwk" key missing usage "${u}", in "key_ops".`);
  };
  const HMAC_JWK = { "SHA-1": "HS1", "SHA-256": "HS256", "SHA-384": "HS384", "SHA-512": "HS512" };
  const hmacKey = (raw, hash, length, extractable, usages) => makeKey({
    type: "secret", extractable: !!extractable, usages, raw, algorithm: { name: "HMAC", hash: { name: hash }, length },
  });
  const importHmac = (format, keyData, algorithm, extractable, usages) => {
    const hash = hashOf(algorithm.hash);
    const list = validateUsages("HMAC", "import secret", usages, ["sign", "verify"]);
    let raw;
    if (format === "raw") raw = keyData;
    else if (format === "jwk") {
      if (keyData.kty !== "oct") throw fail("DataError", `HMAC "jwk" key import requires a JSON Web Key with Key Type parameter ("kty") equal to "oct" (encountered "${keyData.kty}").`);
      raw = fromBase64url(keyData.k, "HMAC \"jwk\" key import requires a base64Url encoding of the key");
      if (keyData.alg !== undefined && HMAC_JWK[hash] !== undefined && keyData.alg !== HMAC_JWK[hash]) {
        throw fail("DataError", `HMAC "jwk" key import specifies "alg" that is incompatible with the hash name (encountered "${keyData.alg}", expected "${HMAC_JWK[hash]}").`);
      }
    } else throw fail("NotSupportedError", `Unrecognized key import format "${format}".`);
    const size = raw.length * 8;
    const length = algorithm.length === undefined ? size : Number(algorithm.length);
    if (length === 0 || length > size || length <= size - 8) {
      throw fail("DataError", `Imported HMAC key length (${length}) must be a non-zero value up to 7 bits less than, and no greater than, the bit length of the raw key data (${size}).`);
    }
    return hmacKey(raw, hash, length, extractable, list);
  };
  const importKdf = (name, format, keyData, extractable, usages) => {
    if (extractable) throw fail("SyntaxError", `${name} key cannot be extractable.`);
    if (format !== "raw") {
      throw fail("NotSupportedError", name === "PBKDF2"
        ? `PBKDF2 key must be imported in "raw" format (requested "${format}").`
        : `HKDF key must be imported in "raw" format (requested "${format}")`);
    }
    const list = validateUsages(name, "import secret", usages, ["deriveKey", "deriveBits"]);
    return makeKey({ type: "secret", extractable: false, usages: list, raw: keyData, algorithm: { name } });
  };

  // --- Asymmetric keys: import helpers --------------------------------------------------------
  // The usages a private and a public key of each algorithm may have.
  const PAIR_USAGES = {
    ECDSA: [["sign"], ["verify"]],
    Ed25519: [["sign"], ["verify"]],
    ECDH: [["deriveKey", "deriveBits"], []],
    X25519: [["deriveKey", "deriveBits"], []],
    "RSASSA-PKCS1-v1_5": [["sign"], ["verify"]],
    "RSA-PSS": [["sign"], ["verify"]],
    "RSA-OAEP": [["decrypt", "unwrapKey"], ["encrypt", "wrapKey"]],
  };
  const pairKeys = (name, algorithm, extractable, usages, privateSlots, publicSlots) => {
    const [privateAllowed, publicAllowed] = PAIR_USAGES[name];
    const list = validateUsages(name, "generate", usages, [...privateAllowed, ...publicAllowed]);
    const privateKey = makeKey({ ...privateSlots, type: "private", extractable: !!extractable, algorithm, usages: list.filter((u) => privateAllowed.includes(u)) });
    const publicKey = makeKey({ ...publicSlots, type: "public", extractable: true, algorithm, usages: list.filter((u) => publicAllowed.includes(u)) });
    if (keys.get(privateKey).usages.length === 0) throw fail("SyntaxError", "Attempt to generate asymmetric keys with no valid private key usages.");
    return { publicKey, privateKey };
  };
  const asymmetricUsages = (name, type, usages) => {
    const [privateAllowed, publicAllowed] = PAIR_USAGES[name];
    return validateUsages(name, type === "private" ? "import private" : "import public", usages, type === "private" ? privateAllowed : publicAllowed);
  };
  const checkAsymmetricJwk = (name, jwk, usages, extractable) => {
    if (jwk.key_ops !== undefined) {
      const ops = [...jwk.key_ops].map(String);
      if (ops.some((op, i) => ops.indexOf(op) !== i)) throw fail("DataError", "A JSON Web Key's Key Operations parameter (\"key_ops\") must not contain duplicates.");
      for (const u of usages) {
        if (!ops.includes(u)) throw fail("DataError", "All specified key usages must be present in the JSON Web Key's Key Operations parameter (\"key_ops\").");
      }
    }
    if (jwk.use !== undefined && usages.length > 0) {
      const expected = ["RSA-OAEP", "ECDH", "X25519"].includes(name) ? "enc" : "sig";
      if (jwk.use !== expected) throw fail("DataError", `Asymmetric "jwk" import requires a JSON Web Key with Public Key Use "use" ("${jwk.use}") equal to "${expected}".`);
    }
    if (jwk.ext !== undefined && !jwk.ext && extractable) throw fail("DataError", "Cannot create an extractable CryptoKey from an unextractable JSON Web Key.");
  };
  const jwkMember = (jwk, member, name) => {
    if (jwk[member] === undefined) throw fail("DataError", `Invalid ${name} key in JSON Web Key; missing or invalid ${member === "d" ? "Private Key" : member} parameter ("${member}").`);
    return fromBase64url(jwk[member], `Invalid ${name} key in JSON Web Key; the "${member}" member is not base64url.`);
  };

  // --- EC: ECDSA and ECDH ---------------------------------------------------------------------
  const importEc = (name, format, keyData, algorithm, extractable, usages) => {
    const curve = curveOf(algorithm);
    const keyAlgorithm = { name, namedCurve: curve };
    const size = CURVES[curve];
    let type, d, point;
    if (format === "raw") {
      type = "public";
      point = new Uint8Array(call("ecFromPoint", [curve], [keyData]));
    } else if (format === "spki") {
      type = "public";
      point = new Uint8Array(call("ecFromSpki", [curve], [keyData]));
    } else if (format === "pkcs8") {
      type = "private";
      [d, point] = call("ecFromPkcs8", [curve], [keyData]).map((b) => new Uint8Array(b));
    } else if (format === "jwk") {
      if (keyData.kty !== "EC") throw fail("DataError", `Elliptic curve "jwk" key import requires a JSON Web Key with Key Type parameter "kty" ("${keyData.kty}") equal to "EC".`);
      if (name === "ECDSA" && keyData.alg !== undefined) {
        const curves = { ES256: "P-256", ES384: "P-384", ES512: "P-521" };
        if (!(keyData.alg in curves)) throw fail("NotSupportedError", `Unrecognized or unimplemented algorithm "${keyData.alg}" listed in JSON Web Key Algorithm parameter.`);
        if (curves[keyData.alg] !== curve) throw fail("DataError", `JSON Web Key Algorithm parameter "alg" ("${keyData.alg}") does not match requested curve.`);
      }
      type = keyData.d === undefined ? "public" : "private";
      if (keyData.x === undefined) throw fail("DataError", "Invalid EC key in JSON Web Key; missing \"x\".");
      if (keyData.y === undefined) throw fail("DataError", "Invalid EC key in JSON Web Key; missing \"y\".");
      const x = fromBase64url(keyData.x, "Invalid EC key in JSON Web Key; missing \"x\".");
      const y = fromBase64url(keyData.y, "Invalid EC key in JSON Web Key; missing \"y\".");
      const pad = (b) => (b.length >= size ? b.subarray(b.length - size) : concat(new Uint8Array(size - b.length), b));
      const onCurve = x.length <= size && y.length <= size && native.subtle("ecFromPoint", [curve], [concat([4], pad(x), pad(y))], []);
      if (typeof onCurve !== "object" || !onCurve) throw fail("OperationError", "Invalid EC key; public key coordinates \"x\" and \"y\" are invalid: Point is not on curve..");
      point = new Uint8Array(onCurve);
      if (type === "private") {
        d = jwkMember(keyData, "d", "EC");
        const derived = new Uint8Array(call("ecFromScalar", [curve], [d]));
        if (!sameBytes(derived, point)) throw fail("DataError", "Invalid EC key in JSON Web Key; the public point does not match the private scalar.");
      }
    } else throw fail("NotSupportedError", `Unrecognized key import format "${format}".`);
    if (format === "jwk") checkAsymmetricJwk(name, keyData, [...usages].map(String), extractable);
    const list = asymmetricUsages(name, type, usages);
    return makeKey({ type, extractable: !!extractable, usages: list, algorithm: keyAlgorithm, curve, d, point });
  };
  const exportEc = (format, slots) => {
    const size = CURVES[slots.curve];
    if (format === "raw") {
      if (slots.type !== "public") throw fail("InvalidAccessError", "Raw export of elliptic curve keys is only allowed for public keys.");
      return slots.point.slice().buffer;
    }
    if (format === "jwk") {
      const jwk = { kty: "EC", key_ops: [...slots.usages], ext: true, crv: slots.curve };
      jwk.x = base64url(slots.point.subarray(1, 1 + size));
      jwk.y = base64url(slots.point.subarray(1 + size));
      if (slots.type === "private") jwk.d = base64url(slots.d);
      return jwk;
    }
    return exportDer(format, slots, () => call("ecPkcs8", [slots.curve], [slots.d]), () => call("ecSpki", [slots.curve], [slots.point]));
  };
  const exportDer = (format, slots, pkcs8, spki) => {
    if (format === "pkcs8") {
      if (slots.type !== "private") throw fail("InvalidAccessError", `Asymmetric pkcs8 export requires private key (not "${slots.type}").`);
      return pkcs8();
    }
    if (format === "spki") {
      if (slots.type !== "public") throw fail("InvalidAccessError", `Asymmetric spki export requires public key (not "${slots.type}").`);
      return spki();
    }
    throw fail("InvalidAccessError", `Cannot export "${slots.algorithm.name}" in "${format}" format.`);
  };

  // --- OKP: Ed25519 and X25519 ----------------------------------------------------------------
  const importOkp = (name, format, keyData, extractable, usages) => {
    let type, priv, pub;
    if (format === "raw") {
      type = "public";
      if (keyData.length !== 32) throw fail("DataError", `${name} raw keys must be exactly 32-bytes (provided ${keyData.length}).`);
      pub = keyData;
    } else if (format === "spki") {
      type = "public";
      pub = new Uint8Array(call("okpFromSpki", [name], [keyData]));
    } else if (format === "pkcs8") {
      type = "private";
      priv = new Uint8Array(call("okpFromPkcs8", [name], [keyData]));
      pub = new Uint8Array(call("okpPublic", [name], [priv]));
    } else if (format === "jwk") {
      if (keyData.kty !== "OKP") throw fail("DataError", `${name} "jwk" key imports requires a JSON Web Key with Key Type parameter "kty" ("${keyData.kty}") equal to "OKP".`);
      if (keyData.crv === undefined) throw fail("DataError", `Missing field "crv" for ${name} key.`);
      if (keyData.crv !== name) throw fail("NotSupportedError", `Only ${name} is supported but "${keyData.crv}" was requested.`);
      if (name === "Ed25519" && keyData.alg !== undefined && keyData.alg !== "EdDSA") {
        throw fail("DataError", `JSON Web Key Algorithm parameter "alg" ("${keyData.alg}") does not match requested Ed25519 curve.`);
      }
      pub = fromBase64url(keyData.x, "Invalid public key in JSON Web Key.");
      if (pub.length !== 32) throw fail("DataError", `Invalid length ${pub.length} for public key`);
      type = keyData.d === undefined ? "public" : "private";
      if (type === "private") {
        priv = fromBase64url(keyData.d, "Invalid private key in JSON Web Key.");
        if (priv.length !== 32) throw fail("DataError", `Invalid length ${priv.length} for private key`);
        pub = new Uint8Array(call("okpPublic", [name], [priv]));
      }
      checkAsymmetricJwk(name, keyData, [...usages].map(String), extractable);
    } else throw fail("NotSupportedError", `Unrecognized key import format "${format}".`);
    const list = asymmetricUsages(name, type, usages);
    return makeKey({ type, extractable: !!extractable, usages: list, algorithm: { name }, priv, pub });
  };
  const exportOkp = (format, slots) => {
    const name = slots.algorithm.name;
    if (format === "raw") {
      if (slots.type !== "public") throw fail("InvalidAccessError", `Raw export of ${name} keys is only allowed for public keys.`);
      return slots.pub.slice().buffer;
    }
    if (format === "jwk") {
      const jwk = { kty: "OKP", key_ops: [...slots.usages] };
      if (name === "Ed25519") jwk.alg = "EdDSA";
      jwk.ext = true;
      jwk.crv = name;
      jwk.x = base64url(slots.pub);
      if (slots.type === "private") jwk.d = base64url(slots.priv);
      return jwk;
    }
    return exportDer(format, slots, () => call("okpPkcs8", [name], [slots.priv]), () => call("okpSpki", [name], [slots.pub]));
  };

  // --- RSA --------------------------------------------------------------------------------------
  const RSA_JWK = {
    "RSASSA-PKCS1-v1_5": (h) => `RS${h.slice(4)}`,
    "RSA-PSS": (h) => `PS${h.slice(4)}`,
    "RSA-OAEP": (h) => (h === "SHA-1" ? "RSA-OAEP" : `RSA-OAEP-${h.slice(4)}`),
  };
  const bitLength = (b) => { const s = stripZeros(b); return (s.length - 1) * 8 + (32 - Math.clz32(s[0])); };
  const rsaAlgorithm = (name, n, e, hash) => ({ name, modulusLength: bitLength(n), publicExponent: new Uint8Array(e), hash: { name: hash } });
  const importRsa = (name, format, keyData, algorithm, extractable, usages) => {
    const hash = hashOf(algorithm.hash);
    let type, der, n, e;
    if (format === "spki") {
      type = "public";
      [der, n, e] = call("rsaFromSpki", [], [keyData]).map((b) => new Uint8Array(b));
    } else if (format === "pkcs8") {
      type = "private";
      let spki;
      [der, spki, n, e] = call("rsaFromPkcs8", [], [keyData]).map((b) => new Uint8Array(b));
      void spki;
    } else if (format === "jwk") {
      if (keyData.kty !== "RSA") throw fail("DataError", `RSASSA-PKCS1-v1_5 "jwk" key import requires a JSON Web Key with Key Type parameter "kty" ("${keyData.kty}") equal to "RSA".`);
      if (keyData.alg !== undefined) {
        const known = { RS1: "SHA-1", RS256: "SHA-256", RS384: "SHA-384", RS512: "SHA-512", PS1: "SHA-1", PS256: "SHA-256", PS384: "SHA-384", PS512: "SHA-512", "RSA-OAEP": "SHA-1", "RSA-OAEP-256": "SHA-256", "RSA-OAEP-384": "SHA-384", "RSA-OAEP-512": "SHA-512" };
        if (!(keyData.alg in known)) throw fail("NotSupportedError", `Unrecognized or unimplemented algorithm "${keyData.alg}" listed in JSON Web Key Algorithm parameter.`);
        if (known[keyData.alg] !== hash) throw fail("DataError", `JSON Web Key Algorithm parameter "alg" ("${keyData.alg}") does not match requested hash algorithm "${keyData.alg}".`);
      }
      const members = [jwkMember(keyData, "n", "RSA"), jwkMember(keyData, "e", "RSA")];
      type = keyData.d === undefined ? "public" : "private";
      if (type === "private") members.push(jwkMember(keyData, "d", "RSA"), jwkMember(keyData, "p", "RSA"), jwkMember(keyData, "q", "RSA"));
      checkAsymmetricJwk(name, keyData, [...usages].map(String), extractable);
      const modulus = stripZeros(members[0]).length * 8;
      if (modulus % 8 !== 0 || modulus < 256 || modulus > 16384) throw fail("OperationError", `The modulus length must be a multiple of 8 and between 256 and 16k, but ${modulus} was requested.`);
      const imported = new Uint8Array(call("rsaFromJwk", [], members));
      [der, n, e] = type === "private"
        ? (([p, , pn, pe]) => [p, pn, pe])(call("rsaFromPkcs8", [], [imported]).map((b) => new Uint8Array(b)))
        : call("rsaFromSpki", [], [imported]).map((b) => new Uint8Array(b));
    } else if (format === "raw") {
      throw fail("NotSupportedError", `Unrecognized key import format "${format}".`);
    } else throw fail("NotSupportedError", `Unrecognized key import format "${format}".`);
    const list = asymmetricUsages(name, type, usages);
    return makeKey({ type, extractable: !!extractable, usages: list, algorithm: rsaAlgorithm(name, n, e, hash), der });
  };
  const exportRsa = (format, slots) => {
    if (format === "jwk") {
      const members = call("rsaJwk", [], [slots.der], [slots.type === "private" ? 1 : 0]).map((b) => new Uint8Array(b));
      const jwk = { kty: "RSA", key_ops: [...slots.usages], alg: RSA_JWK[slots.algorithm.name](slots.algorithm.hash.name), ext: true };
      // The members in workerd's JsonWebKey order: d first, then n, e and the CRT values.
      const names = ["n", "e", "d", "p", "q", "dp", "dq", "qi"];
      if (members.length > 2) jwk.d = base64url(members[2]);
      members.forEach((m, i) => { if (i !== 2) jwk[names[i]] = base64url(m); });
      return jwk;
    }
    return exportDer(format, slots, () => slots.der.slice().buffer, () => slots.der.slice().buffer);
  };
  const generateRsa = (name, algorithm, extractable, usages) => {
    if (algorithm.publicExponent === undefined) throw new TypeError("Missing field \"publicExponent\" in \"algorithm\".");
    const hash = hashOf(algorithm.hash);
    if (algorithm.modulusLength === undefined) throw new TypeError("Missing field \"modulusLength\" in \"algorithm\".");
    const bits = Number(algorithm.modulusLength);
    if (!(bits > 0)) throw fail("OperationError", `modulusLength must be greater than zero (requested ${bits}).`);
    const exponent = dataBytes(algorithm.publicExponent);
    const [privateAllowed, publicAllowed] = PAIR_USAGES[name];
    validateUsages(name, "generate", usages, [...privateAllowed, ...publicAllowed]);
    if (bits % 8 !== 0 || bits < 256 || bits > 16384) throw fail("OperationError", `The modulus length must be a multiple of 8 and between 256 and 16k, but ${bits} was requested.`);
    const significant = stripZeros(exponent);
    if (significant.length > 4) throw fail("OperationError", "The \"publicExponent\" must be either 3 or 65537, but got a number larger than 2^32.");
    const value = significant.reduce((v, b) => v * 256 + b, 0);
    if (value !== 3 && value !== 65537) throw fail("OperationError", `The "publicExponent" must be either 3 or 65537, but got ${value}.`);
    const pkcs8 = new Uint8Array(call("rsaGenerate", [], [exponent], [bits]));
    const [der, spki, n, e] = call("rsaFromPkcs8", [], [pkcs8]).map((b) => new Uint8Array(b));
    const keyAlgorithm = rsaAlgorithm(name, n, e, hash);
    keyAlgorithm.publicExponent = exponent;
    return pairKeys(name, keyAlgorithm, extractable, usages, { der }, { der: spki });
  };

  // --- Import, export and generation by algorithm ---------------------------------------------
  const importByAlgorithm = (name, format, keyData, algorithm, extractable, usages) => {
    if (name.startsWith("AES-")) return importAes(name, format, keyData, algorithm, extractable, usages);
    if (name === "HMAC") return importHmac(format, keyData, algorithm, extractable, usages);
    if (name === "PBKDF2" || name === "HKDF") return importKdf(name, format, keyData, extractable, usages);
    if (name === "ECDSA" || name === "ECDH") return importEc(name, format, keyData, algorithm, extractable, usages);
    if (name === "Ed25519" || name === "X25519") return importOkp(name, format, keyData, extractable, usages);
    return importRsa(name, format, keyData, algorithm, extractable, usages);
  };
  const importKeySync = (format, keyData, algorithm, extractable, usages) => {
    algorithm = normalize(algorithm);
    format = String(format);
    if (keyData !== undefined && keyData !== null && typeof keyData !== "object") {
      throw new TypeError("Failed to execute 'importKey' on 'SubtleCrypto': parameter 2 is not of type 'BufferSource or JsonWebKey'.");
    }
    if (format === "raw" || format === "raw-secret" || format === "pkcs8" || format === "spki") {
      if (!isBufferSource(keyData)) throw new TypeError("Import data provided for \"raw\", \"pkcs8\", or \"spki\" import formats must be a buffer source.");
      keyData = dataBytes(keyData);
    } else if (format === "jwk") {
      if (keyData === null || typeof keyData !== "object" || isBufferSource(keyData)) throw new TypeError("Import data provided for \"jwk\" import format must be a JsonWebKey.");
      if (keyData.ext !== undefined && !keyData.ext && extractable) throw fail("DataError", `JWK ext field for "${algorithm.name}" is set to false but extractable is true`);
    } else throw fail("NotSupportedError", `Unrecognized key import format "${format}".`);
    const name = canonical(algorithm.name);
    if (name === undefined) throw fail("NotSupportedError", `Unrecognized key import algorithm "${algorithm.name}" requested.`);
    const key = importByAlgorithm(name, format, keyData, algorithm, extractable, usages);
    const slots = keys.get(key);
    if (slots.usages.length === 0 && (slots.type === "secret" || slots.type === "private")) throw fail("SyntaxError", "Secret/private CryptoKeys must have at least one usage.");
    return key;
  };
  const exportKeySync = (format, key) => {
    const slots = slotsOf(key, "exportKey", 2);
    const name = slots.algorithm.name;
    if (!slots.extractable) throw fail("InvalidAccessError", `Attempt to export non-extractable ${name} key.`);
    format = String(format);
    if (name.startsWith("AES-")) {
      if (format === "raw" || format === "raw-secret") return slots.raw.slice().buffer;
      if (format === "jwk") return { kty: "oct", key_ops: [...slots.usages], alg: `A${slots.raw.length * 8}${name.slice(4)}`, ext: true, k: base64url(slots.raw) };
      throw fail("NotSupportedError", `${name} key only supports exporting "raw", "raw-secret" & "jwk", not "${format}".`);
    }
    if (name === "HMAC") {
      if (format === "raw") return slots.raw.slice().buffer;
      if (format === "jwk") {
        const jwk = { kty: "oct", key_ops: [...slots.usages] };
        if (slots.algorithm.hash.name in HMAC_JWK) jwk.alg = HMAC_JWK[slots.algorithm.hash.name];
        jwk.ext = true;
        jwk.k = base64url(slots.raw);
        return jwk;
      }
      throw fail("NotSupportedError", `Unimplemented key export format "${format}".`);
    }
    if (name === "ECDSA" || name === "ECDH") return exportEc(format, slots);
    if (name === "Ed25519" || name === "X25519") return exportOkp(format, slots);
    if (name.startsWith("RSA")) return exportRsa(format, slots);
    throw fail("NotSupportedError", `Unrecognized key export format "${format}".`);
  };
  const generateKeySync = (algorithm, extractable, usages) => {
    algorithm = normalize(algorithm);
    const name = canonical(algorithm.name);
    if (name === undefined || name === "PBKDF2" || name === "HKDF") throw fail("NotSupportedError", `Unrecognized key generation algorithm "${algorithm.name}" requested.`);
    if (name.startsWith("AES-")) {
      if (algorithm.length === undefined) throw new TypeError("Missing field \"length\" in \"algorithm\".");
      const length = Number(algorithm.length);
      const list = validateUsages(name, "generate", usages, aesUsages(name));
      if (![128, 192, 256].includes(length)) throw fail("OperationError", `Generated AES key length must be 128, 192, or 256 bits but requested ${length}.`);
      return aesKey(name, random(length / 8), extractable, list);
    }
    if (name === "HMAC") {
      const hash = hashOf(algorithm.hash);
      const list = validateUsages(name, "generate", usages, ["sign", "verify"]);
      const length = algorithm.length === undefined ? DIGESTS[hash] * 8 : Number(algorithm.length);
      if (!(length > 0)) throw fail("OperationError", `HMAC key length must be a non-zero unsigned long integer (requested ${length}).`);
      const raw = random(Math.ceil(length / 8));
      if (length % 8 !== 0) raw[raw.length - 1] &= (0xff << (8 - (length % 8))) & 0xff;
      return hmacKey(raw, hash, length, extractable, list);
    }
    if (name === "ECDSA" || name === "ECDH") {
      const curve = curveOf(algorithm);
      const [d, point] = call("ecGenerate", [curve], []).map((b) => new Uint8Array(b));
      return pairKeys(name, { name, namedCurve: curve }, extractable, usages, { curve, d, point }, { curve, point });
    }
    if (name === "Ed25519" || name === "X25519") {
      const priv = random(32);
      const pub = new Uint8Array(call("okpPublic", [name], [priv]));
      return pairKeys(name, { name }, extractable, usages, { priv, pub }, { pub });
    }
    return generateRsa(name, algorithm, extractable, usages);
  };

  // --- Operations ---------------------------------------------------------------------------
  const aesParams = (name, algorithm, encrypt) => {
    if (name === "AES-GCM") {
      if (algorithm.iv === undefined) throw new TypeError("Missing field \"iv\" in \"algorithm\".");
      const tag = algorithm.tagLength === undefined ? 128 : Number(algorithm.tagLength);
      return { iv: dataBytes(algorithm.iv), aad: algorithm.additionalData === undefined ? new Uint8Array(0) : dataBytes(algorithm.additionalData), bits: tag };
    }
    if (name === "AES-CBC") {
      if (algorithm.iv === undefined) throw new TypeError("Missing field \"iv\" in \"algorithm\".");
      return { iv: dataBytes(algorithm.iv), aad: new Uint8Array(0), bits: 0 };
    }
    if (name === "AES-CTR") {
      if (algorithm.counter === undefined) throw new TypeError("Missing \"counter\" member in \"algorithm\".");
      const counter = dataBytes(algorithm.counter);
      if (counter.length !== 16) throw fail("OperationError", `Counter must have length of 16 bytes (provided ${counter.length}).`);
      if (algorithm.length === undefined) throw new TypeError("Missing \"length\" member in \"algorithm\".");
      return { iv: counter, aad: new Uint8Array(0), bits: Number(algorithm.length) };
    }
    void encrypt;
    return { iv: new Uint8Array(0), aad: new Uint8Array(0), bits: 0 };
  };
  const cipher = (algorithm, slots, data, encrypt) => {
    const name = slots.algorithm.name;
    if (name.startsWith("AES-") && name !== "AES-KW") {
      const p = aesParams(name, algorithm, encrypt);
      return call("aes", [name], [slots.raw, p.iv, p.aad, data], [encrypt ? 1 : 0, p.bits]);
    }
    if (name === "RSA-OAEP") {
      const label = algorithm.label === undefined ? new Uint8Array(0) : dataBytes(algorithm.label);
      if (encrypt && slots.type !== "public") throw fail("InvalidAccessError", "Encryption requires a public key.");
      if (!encrypt && slots.type !== "private") throw fail("InvalidAccessError", "Decryption requires a private key.");
      return call(encrypt ? "rsaEncrypt" : "rsaDecrypt", [slots.algorithm.hash.name], [slots.der, data, label]);
    }
    throw fail("NotSupportedError", `The ${encrypt ? "encrypt" : "decrypt"} operation is not implemented for "${name}".`);
  };
  const wrapBytes = (algorithm, slots, data, wrap) => {
    if (slots.algorithm.name === "AES-KW") return call("aes", ["AES-KW"], [slots.raw, new Uint8Array(0), new Uint8Array(0), data], [wrap ? 1 : 0, 0]);
    return cipher(algorithm, slots, data, wrap);
  };
  const signBytes = (algorithm, slots, data) => {
    const name = slots.algorithm.name;
    if (name === "HMAC") return native.hmac(slots.algorithm.hash.name, slots.raw, data);
    if (slots.type !== "private") throw fail("InvalidAccessError", "Asymmetric signing requires a private key.");
    if (name === "ECDSA") return call("ecSign", [slots.curve, ecdsaHash(algorithm)], [slots.d, data]);
    if (name === "Ed25519") return call("edSign", [], [slots.priv, data]);
    if (name === "RSASSA-PKCS1-v1_5") return call("rsaSign", [slots.algorithm.hash.name], [slots.der, data]);
    if (name === "RSA-PSS") return call("rsaSign", [slots.algorithm.hash.name], [slots.der, data], [pssSalt(algorithm)]);
    throw fail("NotSupportedError", `The sign and verify operations are not implemented for "${name}".`);
  };
  const verifyBytes = (algorithm, slots, signature, data) => {
    const name = slots.algorithm.name;
    if (name === "HMAC") return sameBytes(new Uint8Array(native.hmac(slots.algorithm.hash.name, slots.raw, data)), signature);
    if (slots.type !== "public") throw fail("InvalidAccessError", "Asymmetric verification requires a public key.");
    if (name === "ECDSA") return call("ecVerify", [slots.curve, ecdsaHash(algorithm)], [slots.point, signature, data]);
    if (name === "Ed25519") {
      if (signature.length !== 64) throw fail("OperationError", `Invalid Ed25519 signature length ${signature.length}`);
      return call("edVerify", [], [slots.pub, signature, data]);
    }
    if (name === "RSASSA-PKCS1-v1_5") return call("rsaVerify", [slots.algorithm.hash.name], [slots.der, signature, data]);
    if (name === "RSA-PSS") return call("rsaVerify", [slots.algorithm.hash.name], [slots.der, signature, data], [pssSalt(algorithm)]);
    throw fail("NotSupportedError", `The sign and verify operations are not implemented for "${name}".`);
  };
  const ecdsaHash = (algorithm) => {
    if (algorithm.hash === undefined) throw new TypeError("Missing \"hash\" in AlgorithmIdentifier. (ECDSA requires that the hash algorithm be specified at call time rather than on the key. This differs from other WebCrypto algorithms for historical reasons.)");
    return hashOf(algorithm.hash);
  };
  const pssSalt = (algorithm) => {
    if (algorithm.saltLength === undefined) throw fail("DataError", "Failed to provide salt for RSA-PSS key operation which requires a salt");
    const salt = Number(algorithm.saltLength);
    if (salt < 0) throw fail("DataError", `SaltLength for RSA-PSS must be non-negative (provided ${salt}).`);
    return salt;
  };
  const deriveBitsSync = (algorithm, slots, length) => {
    const name = slots.algorithm.name;
    if (name === "PBKDF2") {
      const hash = hashOf(algorithm.hash);
      if (algorithm.salt === undefined) throw new TypeError("Missing field \"salt\" in \"algorithm\".");
      const salt = dataBytes(algorithm.salt);
      if (algorithm.iterations === undefined) throw new TypeError("Missing field \"iterations\" in \"algorithm\".");
      if (length === null || length === undefined) throw fail("OperationError", "PBKDF2 cannot derive a key with null length.");
      return call("pbkdf2", [hash], [slots.raw, salt], [Number(algorithm.iterations), length]);
    }
    if (name === "HKDF") {
      const hash = hashOf(algorithm.hash);
      if (algorithm.salt === undefined) throw new TypeError("Missing field \"salt\" in \"algorithm\".");
      const salt = dataBytes(algorithm.salt);
      if (algorithm.info === undefined) throw new TypeError("Missing field \"info\" in \"algorithm\".");
      const info = dataBytes(algorithm.info);
      if (length === null || length === undefined) throw fail("OperationError", "HKDF cannot derive a key with null length.");
      return call("hkdf", [hash], [slots.raw, salt, info], [length]);
    }
    if (name === "ECDH" || name === "X25519") {
      if (slots.type !== "private") throw fail("InvalidAccessError", `The deriveBits operation is only valid for a private key, not "${slots.type}".`);
      const peer = algorithm.public;
      if (peer === undefined) throw new TypeError("Missing field \"public\" in \"derivedKeyParams\".");
      const other = keys.get(peer);
      if (other === undefined) throw new TypeError("Failed to execute 'deriveBits' on 'SubtleCrypto': parameter 1 is not of type 'CryptoKey'.");
      if (other.type !== "public") throw fail("InvalidAccessError", `The provided key has type "${other.type}", not "public"`);
      if (other.algorithm.name !== name) throw fail("InvalidAccessError", `Private key for derivation is using "${name}" while public key is using "${other.algorithm.name}".`);
      let secret;
      if (name === "ECDH") {
        if (other.curve !== slots.curve) throw fail("InvalidAccessError", `Private key for derivation is using curve "${slots.curve}" while public key is using "${other.curve}".`);
        secret = new Uint8Array(call("ecDerive", [slots.curve], [slots.d, other.point]));
      } else {
        secret = new Uint8Array(call("xDerive", [], [slots.priv, other.pub]));
      }
      if (length === null || length === undefined) return secret.buffer;
      if (length > secret.length * 8) throw fail("OperationError", `Derived key length (${length} bits) is too long (should be at most ${secret.length * 8} bits).`);
      const out = secret.slice(0, Math.ceil(length / 8));
      if (length % 8 !== 0) out[out.length - 1] &= (0xff << (8 - (length % 8))) & 0xff;
      return out.buffer;
    }
    throw fail("NotSupportedError", `The deriveBits operation is not implemented for "${name}".`);
  };
  const keyLengthFor = (derived) => {
    const name = canonical(derived.name);
    if (name === undefined || !["AES-CTR", "AES-CBC", "AES-GCM", "AES-KW", "HMAC", "HKDF", "PBKDF2"].includes(name)) {
      throw fail("NotSupportedError", `Unrecognized derived key type "${derived.name}" requested.`);
    }
    if (name.startsWith("AES-")) {
      if (derived.length === undefined) throw new TypeError("Missing field \"length\" in \"derivedKeyParams\".");
      const length = Number(derived.length);
      if (![128, 192, 256].includes(length)) throw fail("OperationError", `Derived AES key must be 128, 192, or 256 bits in length but provided ${length}.`);
      return length;
    }
    if (name === "HMAC") {
      if (derived.length !== undefined) {
        if (Number(derived.length) > 0) return Number(derived.length);
        throw new TypeError("HMAC key length must be a non-zero unsigned long integer.");
      }
      return DIGESTS[hashOf(derived.hash, "derivedKeyParams")] * 8;
    }
    return null;
  };

  class SubtleCrypto {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    async digest(algorithm, data) {
      const name = String(typeof algorithm === "object" && algorithm !== null ? algorithm.name : algorithm).toUpperCase();
      const out = native.digest(name, dataBytes(data));
      if (out === undefined || out === null) throw fail("NotSupportedError", "Unrecognized or unimplemented digest algorithm requested.");
      return out;
    }
    async generateKey(algorithm, extractable, usages) {
      native.refuseInGlobalScope();
      const key = generateKeySync(algorithm, extractable, usages);
      if (key instanceof CryptoKey && keys.get(key).usages.length === 0) throw fail("SyntaxError", "Secret/private CryptoKeys must have at least one usage.");
      return key;
    }
    async importKey(format, keyData, algorithm, extractable, usages) {
      return importKeySync(format, keyData, algorithm, extractable, usages);
    }
    async exportKey(format, key) { return exportKeySync(format, key); }
    async encrypt(algorithm, key, data) {
      algorithm = normalize(algorithm);
      const slots = slotsOf(key, "encrypt", 2);
      const bytes = dataBytes(data, "encrypt", 3);
      validateOperation(slots, algorithm.name, "encrypt");
      return cipher(algorithm, slots, bytes, true);
    }
    async decrypt(algorithm, key, data) {
      algorithm = normalize(algorithm);
      const slots = slotsOf(key, "decrypt", 2);
      const bytes = dataBytes(data, "decrypt", 3);
      validateOperation(slots, algorithm.name, "decrypt");
      return cipher(algorithm, slots, bytes, false);
    }
    async sign(algorithm, key, data) {
      algorithm = normalize(algorithm);
      const slots = slotsOf(key, "sign", 2);
      const bytes = dataBytes(data, "sign", 3);
      validateOperation(slots, algorithm.name, "sign");
      return signBytes(algorithm, slots, bytes);
    }
    async verify(algorithm, key, signature, data) {
      algorithm = normalize(algorithm);
      const slots = slotsOf(key, "verify", 2);
      const sig = dataBytes(signature, "verify", 3);
      const bytes = dataBytes(data, "verify", 4);
      validateOperation(slots, algorithm.name, "verify");
      return verifyBytes(algorithm, slots, sig, bytes);
    }
    async deriveBits(algorithm, baseKey, length) {
      algorithm = normalize(algorithm);
      const slots = slotsOf(baseKey, "deriveBits", 2);
      if (length !== undefined && length !== null && Number(length) < 0) throw new TypeError("deriveBits length must be an unsigned long integer.");
      validateOperation(slots, algorithm.name, "deriveBits");
      return deriveBitsSync(algorithm, slots, length === undefined || length === null ? null : Number(length));
    }
    async deriveKey(algorithm, baseKey, derivedKeyAlgorithm, extractable, usages) {
      algorithm = normalize(algorithm);
      derivedKeyAlgorithm = normalize(derivedKeyAlgorithm);
      const slots = slotsOf(baseKey, "deriveKey", 2);
      validateOperation(slots, algorithm.name, "deriveKey");
      const length = keyLengthFor(derivedKeyAlgorithm);
      const secret = deriveBitsSync(algorithm, slots, length);
      return importKeySync("raw", secret, derivedKeyAlgorithm, extractable, usages);
    }
    async wrapKey(format, key, wrappingKey, wrapAlgorithm) {
      const wrapping = slotsOf(wrappingKey, "wrapKey", 3);
      const slots = slotsOf(key, "wrapKey", 2);
      wrapAlgorithm = normalize(wrapAlgorithm);
      validateOperation(wrapping, wrapAlgorithm.name, "wrapKey");
      if (!slots.extractable) throw fail("InvalidAccessError", `Attempt to export non-extractable ${slots.algorithm.name} key.`);
      const exported = exportKeySync(format, key);
      const data = exported instanceof ArrayBuffer ? new Uint8Array(exported) : use("encoding").TextEncoder.prototype.encode.call(new (use("encoding").TextEncoder)(), JSON.stringify(exported));
      return wrapBytes(wrapAlgorithm, wrapping, data, true);
    }
    async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, usages) {
      unwrapAlgorithm = normalize(unwrapAlgorithm);
      const unwrapping = slotsOf(unwrappingKey, "unwrapKey", 3);
      validateOperation(unwrapping, unwrapAlgorithm.name, "unwrapKey");
      const data = new Uint8Array(wrapBytes(unwrapAlgorithm, unwrapping, dataBytes(wrappedKey, "unwrapKey", 2), false));
      let keyData = data;
      if (String(format) === "jwk") {
        keyData = JSON.parse(new (use("encoding").TextDecoder)().decode(data));
        if (keyData === null || typeof keyData !== "object" || keyData.kty === undefined) throw fail("DataError", "Missing \"kty\" field or corrupt JSON unwrapping key?");
      }
      return importKeySync(format, keyData, unwrappedKeyAlgorithm, extractable, usages);
    }
    timingSafeEqual(a, b) {
      const x = ArrayBuffer.isView(a) ? bytes(a) : new Uint8Array(a);
      const y = ArrayBuffer.isView(b) ? bytes(b) : new Uint8Array(b);
      if (x.byteLength !== y.byteLength) throw new TypeError("Input buffers must have the same byte length");
      return sameBytes(x, y);
    }
  }
  define(SubtleCrypto.prototype, Symbol.toStringTag, { value: "SubtleCrypto", configurable: true });
  const subtle = new SubtleCrypto(creating);

  class Crypto {
    constructor(key) { if (key !== creating) throw new TypeError("Illegal constructor"); }
    get subtle() { return subtle; }
    getRandomValues(array) {
      native.refuseInGlobalScope();
      if (!INTEGER_VIEWS.some((C) => array instanceof C)) {
        throw fail("TypeMismatchError", "ArrayBufferView argument to getRandomValues() must be an integer-typed view.");
      }
      if (array.byteLength > 65536) {
        throw fail("QuotaExceededError", `getRandomValues() only accepts buffers of size <= 64K but provided ${array.byteLength} bytes.`);
      }
      native.randomFill(bytes(array));
      return array;
    }
    randomUUID() {
      native.refuseInGlobalScope();
      const b = random(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
  }

  // DigestStream: a WritableStream of bytes (strings as UTF-8) whose `digest` settles with their
  // hash on close; SHA and MD5 as digest() names them, and workerd's checksums by their own names.
  const { WritableStream } = use("streams");
  const CHECKSUMS = ["crc32", "crc32c", "crc64nvme"];
  class DigestStream extends WritableStream {
    #state;
    constructor(algorithm) {
      const given = String(typeof algorithm === "object" && algorithm !== null ? algorithm.name : algorithm);
      const name = CHECKSUMS.includes(given) ? given : given.toUpperCase();
      if (native.digest(name, new Uint8Array(0)) == null) throw fail("NotSupportedError", "Unrecognized or unimplemented digest algorithm requested.");
      const state = { chunks: [], written: 0, settle: null };
      const digest = new Promise((resolve, reject) => { state.settle = { resolve, reject }; });
      digest.catch(() => {});
      state.digest = digest;
      super({
        write(chunk) {
          let b;
          if (typeof chunk === "string") b = use("encoding").TextEncoder.prototype.encode.call(new (use("encoding").TextEncoder)(), chunk);
          else if (chunk instanceof ArrayBuffer || ArrayBuffer.isView(chunk)) b = dataBytes(chunk);
          else throw new TypeError("DigestStream is a byte stream but received an object of non-ArrayBuffer/ArrayBufferView/string type on its writable side.");
          state.chunks.push(b);
          state.written += b.length;
        },
        close() { state.settle.resolve(native.digest(name, concat(...state.chunks))); state.chunks = []; },
        abort(reason) { state.settle.reject(reason); state.chunks = []; },
      });
      this.#state = state;
    }
    get digest() { return this.#state.digest; }
    get bytesWritten() { return BigInt(this.#state.written); }
  }
  define(DigestStream.prototype, Symbol.toStringTag, { value: "DigestStream", configurable: true });
  define(Crypto.prototype, "DigestStream", { value: DigestStream, writable: true, configurable: true });
  define(Crypto.prototype, Symbol.toStringTag, { value: "Crypto", configurable: true });
  const crypto = new Crypto(creating);
  return { crypto, Crypto, SubtleCrypto, CryptoKey };
})
