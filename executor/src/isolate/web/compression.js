// CompressionStream and DecompressionStream: TransformStreams over zlib (compression.rs), in
// the formats and with the texts workerd has.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const tag = (C, name) => define(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const { TransformStream } = use("streams");
  const FORMATS = "The compression format must be either 'deflate', 'deflate-raw' or 'gzip'.";
  const bytesOf = (chunk) => {
    if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
    if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    throw new TypeError("This TransformStream is being used as a byte stream, but received a value that is not a BufferSource. Consider using a TextEncoderStream first.");
  };
  const transformer = (codec) => {
    const step = (out, controller) => {
      if (typeof out === "string") throw new TypeError(out);
      if (out.length > 0) controller.enqueue(out);
    };
    return {
      transform(chunk, controller) { step(codec.push(bytesOf(chunk)), controller); },
      flush(controller) { step(codec.finish(), controller); },
    };
  };
  const codecFor = (what, format, compress) => {
    // workerd's compression streams are I/O objects, refused in global scope.
    native.refuseInGlobalScope();
    if (typeof format !== "string") throw new TypeError(`Failed to construct '${what}': constructor parameter 1 is not of type 'string'.`);
    const codec = native.codec(format, compress);
    if (codec === undefined) throw new TypeError(FORMATS);
    return codec;
  };
  class CompressionStream extends TransformStream {
    constructor(format) { super(transformer(codecFor("CompressionStream", format, true))); }
  }
  tag(CompressionStream, "CompressionStream");
  class DecompressionStream extends TransformStream {
    constructor(format) { super(transformer(codecFor("DecompressionStream", format, false))); }
  }
  tag(DecompressionStream, "DecompressionStream");
  for (const C of [CompressionStream, DecompressionStream]) define(C, "length", { value: 0 });
  return { CompressionStream, DecompressionStream };
})
