// The language's built-in members as the reference's V8 has them. QuickJS ships members V8
// does not have (proposals it implements early, and its own debugging accessors); a program
// that feature-detects them (`if (Iterator.prototype.chunks)`) would take a path it never
// takes on the reference, so they are removed from every fresh context, before any program.
// Measured on both sides by the surface inventory (`builtin …` entries of
// surface/inventory.yaml); the members kept on purpose are listed there with their reasons.
(function () {
  "use strict";
  const absentOnTheReference = [
    // Iterator chunking (TC39 stage 2.7): V8 has neither.
    [Iterator.prototype, "chunks"],
    [Iterator.prototype, "windows"],
    // Immutable ArrayBuffers (TC39 stage 2.7): V8 has none of the three.
    [ArrayBuffer.prototype, "transferToImmutable"],
    [ArrayBuffer.prototype, "sliceToImmutable"],
    [ArrayBuffer.prototype, "immutable"],
    // QuickJS's source positions of a function (SpiderMonkey-style); V8 has none.
    [Function.prototype, "fileName"],
    [Function.prototype, "lineNumber"],
    [Function.prototype, "columnNumber"],
  ];
  for (const [owner, key] of absentOnTheReference) delete owner[key];
})
