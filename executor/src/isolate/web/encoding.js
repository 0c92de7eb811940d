// TextEncoder, TextDecoder, atob and btoa over Rust's UTF-8 and base64.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const bytesOf = (input) => {
    if (input === undefined) return new Uint8Array(0);
    if (input instanceof ArrayBuffer || input instanceof SharedArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError("Failed to execute 'decode' on 'TextDecoder': parameter 1 is not of type 'Array'.");
  };
  const wellFormed = (s) => String(s).toWellFormed();

  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") { return native.utf8Encode(wellFormed(input)); }
    encodeInto(source, destination) {
      let read = 0, written = 0;
      for (const ch of wellFormed(source)) {
        const bytes = native.utf8Encode(ch);
        if (written + bytes.length > destination.length) break;
        destination.set(bytes, written);
        written += bytes.length;
        read += ch.length;
      }
      return { read, written };
    }
  }
  define(TextEncoder.prototype, Symbol.toStringTag, { value: "TextEncoder", configurable: true });

  const ENCODINGS = {
    "utf-8": ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"],
    "utf-16le": ["utf-16le", "utf-16", "ucs-2", "unicode", "csunicode", "iso-10646-ucs-2", "unicodefeff"],
    "utf-16be": ["utf-16be", "unicodefffe"],
    "windows-1252": ["windows-1252", "latin1", "iso-8859-1", "ascii", "us-ascii", "cp1252", "cp819", "ibm819", "iso8859-1", "iso_8859-1", "l1", "x-cp1252", "iso-ir-100", "csisolatin1", "iso88591", "iso_8859-1:1987", "ansi_x3.4-1968"],
  };
  const encodingOf = (label) => {
    const l = String(label).trim().toLowerCase();
    for (const name of Object.keys(ENCODINGS)) if (ENCODINGS[name].includes(l)) return name;
    throw new RangeError(`"${label}" is not a valid encoding.`);
  };
  // windows-1252's bytes 0x80-0x9F; the rest are Latin-1.
  const CP1252 = "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";
  const decodeOther = (encoding, bytes, fatal, ignoreBOM) => {
    let out = "";
    if (encoding === "windows-1252") {
      for (const b of bytes) out += b >= 0x80 && b <= 0x9f ? CP1252[b - 0x80] : String.fromCharCode(b);
      return out;
    }
    const little = encoding === "utf-16le";
    let i = 0;
    if (!ignoreBOM && bytes.length >= 2 && (little ? bytes[0] === 0xff && bytes[1] === 0xfe : bytes[0] === 0xfe && bytes[1] === 0xff)) i = 2;
    const units = [];
    for (; i + 1 < bytes.length; i += 2) units.push(little ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1]);
    const odd = i < bytes.length;
    if (fatal && odd) return undefined;
    for (let k = 0; k < units.length; k += 8192) out += String.fromCharCode(...units.slice(k, k + 8192));
    if (fatal && !out.isWellFormed()) return undefined;
    return out.toWellFormed() + (odd ? "\ufffd" : "");
  };
  class TextDecoder {
    #encoding; #fatal; #ignoreBOM;
    constructor(label = "utf-8", options = {}) {
      this.#encoding = encodingOf(label);
      this.#fatal = !!(options && options.fatal);
      this.#ignoreBOM = !!(options && options.ignoreBOM);
    }
    get encoding() { return this.#encoding; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options) {
      const bytes = bytesOf(input);
      const text = this.#encoding === "utf-8"
        ? native.utf8Decode(bytes, this.#fatal, this.#ignoreBOM)
        : decodeOther(this.#encoding, bytes, this.#fatal, this.#ignoreBOM);
      if (text === undefined || text === null) throw new TypeError("Failed to decode input.");
      return text;
    }
  }
  define(TextDecoder.prototype, Symbol.toStringTag, { value: "TextDecoder", configurable: true });

  function atob(data) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'atob' on 'ServiceWorkerGlobalScope': 1 argument required, but only 0 present.");
    const out = native.atob(String(data));
    if (out === undefined || out === null) throw new DOMException("atob() called with invalid base64-encoded data. (Only whitespace, '+', '/', alphanumeric ASCII, and up to two terminal '=' signs when the input data length is divisible by 4 are allowed.)", "InvalidCharacterError");
    return out;
  }
  function btoa(data) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'btoa' on 'ServiceWorkerGlobalScope': 1 argument required, but only 0 present.");
    const out = native.btoa(String(data));
    if (out === undefined || out === null) throw new DOMException("btoa() can only operate on characters in the Latin1 (ISO/IEC 8859-1) range.", "InvalidCharacterError");
    return out;
  }
  return { TextEncoder, TextDecoder, atob, btoa, bytesOf };
})
