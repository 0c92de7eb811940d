// TextEncoder, TextDecoder, atob and btoa over Rust's UTF-8 and base64, and encoding_rs for
// every other encoding of the Encoding Standard.
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

  // Labels, names and decoders are encoding_rs's (the Encoding Standard); UTF-8 that does not
  // stream takes the direct path.
  class TextDecoder {
    #encoding; #fatal; #ignoreBOM; #decoding = null;
    constructor(label = "utf-8", options = {}) {
      const name = native.encodingName(String(label));
      if (name === undefined || name === null) throw new RangeError(`"${label}" is not a valid encoding.`);
      this.#encoding = name;
      this.#fatal = !!(options && options.fatal);
      this.#ignoreBOM = !!(options && options.ignoreBOM);
    }
    get encoding() { return this.#encoding; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options) {
      const bytes = bytesOf(input);
      const stream = !!(options && options.stream);
      let text;
      if (this.#decoding === null && !stream && this.#encoding === "utf-8") {
        text = native.utf8Decode(bytes, this.#fatal, this.#ignoreBOM);
      } else {
        if (this.#decoding === null) this.#decoding = native.decoding(this.#encoding, this.#fatal, this.#ignoreBOM);
        text = this.#decoding.decode(bytes, stream);
      }
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
