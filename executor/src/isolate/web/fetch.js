// fetch's classes (Headers, Body, Request, Response, Blob, File, FormData) and fetch itself,
// which is blocked with the reference's text unless the host routes it through its own
// handler (`native.outbound`, see bootstrap.js): then each request, redirects followed here,
// goes to the host and its answer becomes the Response.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const tag = (C, name) => define(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const { TextDecoder } = use("encoding");
  const { URL, URLSearchParams } = use("url");
  const streamsOf = () => use("streams");
  // A string body or Blob part is written as the engine holds it (a lone surrogate as its
  // three WTF-8 bytes, which read back as three U+FFFD), as workerd writes it.
  const encode = (s) => native.wtf8Encode(String(s));
  const decode = (b) => new TextDecoder().decode(b);
  const copyBytes = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice();

  // Headers: lower-cased names, sorted on iteration, set-cookie kept apart.
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const headerLists = new WeakMap();
  const immutable = new WeakSet();
  const mutable = (headers) => {
    if (immutable.has(headers)) throw new TypeError("Can't modify immutable headers.");
  };
  const normalizeValue = (v) => {
    const value = String(v).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
    if (/[\0\r\n]/.test(value)) throw new TypeError("Invalid header value.");
    return value;
  };
  const checkName = (name) => {
    name = String(name);
    if (!TOKEN.test(name)) throw new TypeError("Invalid header name.");
    return name.toLowerCase();
  };
  class Headers {
    constructor(init) {
      headerLists.set(this, []);
      if (init === undefined || init === null) return;
      if (init instanceof Headers) {
        for (const [k, v] of headerLists.get(init)) this.append(k, v);
      } else if (typeof init[Symbol.iterator] === "function") {
        for (const pair of init) {
          const p = [...pair];
          if (p.length !== 2) throw new TypeError("Invalid value for header pair.");
          this.append(p[0], p[1]);
        }
      } else if (typeof init === "object") {
        for (const k of Object.keys(init)) this.append(k, init[k]);
      } else {
        throw new TypeError("Failed to construct 'Headers': The provided value is not of type 'Record' or 'Sequence'.");
      }
    }
    append(name, value) { const entry = [checkName(name), normalizeValue(value)]; mutable(this); headerLists.get(this).push(entry); }
    delete(name) { const n = checkName(name); mutable(this); headerLists.set(this, headerLists.get(this).filter((p) => p[0] !== n)); }
    get(name) {
      const n = checkName(name);
      const values = headerLists.get(this).filter((p) => p[0] === n).map((p) => p[1]);
      return values.length === 0 ? null : values.join(", ");
    }
    getAll(name) {
      const n = checkName(name);
      if (n !== "set-cookie") throw new TypeError("getAll() can only be used with the header name \"Set-Cookie\".");
      return this.getSetCookie();
    }
    getSetCookie() { return headerLists.get(this).filter((p) => p[0] === "set-cookie").map((p) => p[1]); }
    has(name) { const n = checkName(name); return headerLists.get(this).some((p) => p[0] === n); }
    set(name, value) {
      const n = checkName(name);
      mutable(this);
      const list = headerLists.get(this).filter((p) => p[0] !== n);
      list.push([n, normalizeValue(value)]);
      headerLists.set(this, list);
    }
    #sorted() {
      const names = [...new Set(headerLists.get(this).map((p) => p[0]))].sort();
      const out = [];
      for (const n of names) {
        if (n === "set-cookie") for (const v of this.getSetCookie()) out.push([n, v]);
        else out.push([n, this.get(n)]);
      }
      return out;
    }
    forEach(callback, thisArg) { for (const [k, v] of this.#sorted()) callback.call(thisArg, v, k, this); }
    *entries() { yield* this.#sorted(); }
    *keys() { for (const [k] of this.#sorted()) yield k; }
    *values() { for (const [, v] of this.#sorted()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
  }
  tag(Headers, "Headers");

  // Blob and File.
  const blobBytes = new WeakMap();
  const partBytes = (part) => {
    if (part instanceof Blob) return blobBytes.get(part).bytes;
    if (part instanceof ArrayBuffer) return new Uint8Array(part).slice();
    if (ArrayBuffer.isView(part)) return copyBytes(part);
    return encode(String(part));
  };
  const concat = (chunks) => {
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) { out.set(c, at); at += c.length; }
    return out;
  };
  const blobType = (t) => {
    const s = t === undefined ? "" : String(t);
    return /^[\x20-\x7e]*$/.test(s) ? s.toLowerCase() : "";
  };
  class Blob {
    constructor(parts = [], options = {}) {
      if (typeof parts !== "object" || parts === null || typeof parts[Symbol.iterator] !== "function") {
        throw new TypeError("Failed to construct 'Blob': The provided value cannot be converted to a sequence.");
      }
      blobBytes.set(this, { bytes: concat([...parts].map(partBytes)), type: blobType(options && options.type) });
    }
    get size() { return blobBytes.get(this).bytes.length; }
    get type() { return blobBytes.get(this).type; }
    slice(start = 0, end, type) {
      const b = blobBytes.get(this).bytes;
      const out = new Blob([]);
      blobBytes.set(out, { bytes: b.slice(start, end === undefined ? b.length : end), type: blobType(type) });
      return out;
    }
    async arrayBuffer() { return blobBytes.get(this).bytes.slice().buffer; }
    async bytes() { return blobBytes.get(this).bytes.slice(); }
    async text() { return decode(blobBytes.get(this).bytes); }
    stream() { return bytesStream(blobBytes.get(this).bytes.slice()); }
  }
  tag(Blob, "Blob");
  class File extends Blob {
    #name; #lastModified;
    constructor(parts, name, options = {}) {
      if (arguments.length < 2) throw new TypeError(`Failed to construct 'File': 2 arguments required, but only ${arguments.length} present.`);
      super(parts, options);
      this.#name = String(name);
      this.#lastModified = options && options.lastModified !== undefined ? Number(options.lastModified) : Date.now();
    }
    get name() { return this.#name; }
    get lastModified() { return this.#lastModified; }
  }
  tag(File, "File");

  // FormData.
  const formLists = new WeakMap();
  const formEntry = (name, value, filename) => {
    if (value instanceof Blob) {
      if (!(value instanceof File) || filename !== undefined) {
        value = new File([value], filename !== undefined ? String(filename) : value instanceof File ? value.name : "blob", { type: value.type });
      }
      return [String(name), value];
    }
    return [String(name), String(value)];
  };
  class FormData {
    constructor() { formLists.set(this, []); }
    append(name, value, filename) { formLists.get(this).push(formEntry(name, value, filename)); }
    delete(name) { name = String(name); formLists.set(this, formLists.get(this).filter((p) => p[0] !== name)); }
    get(name) { name = String(name); const p = formLists.get(this).find((p) => p[0] === name); return p ? p[1] : null; }
    getAll(name) { name = String(name); return formLists.get(this).filter((p) => p[0] === name).map((p) => p[1]); }
    has(name) { name = String(name); return formLists.get(this).some((p) => p[0] === name); }
    set(name, value, filename) {
      const entry = formEntry(name, value, filename);
      const list = formLists.get(this);
      const i = list.findIndex((p) => p[0] === entry[0]);
      if (i < 0) list.push(entry);
      else formLists.set(this, list.filter((p, j) => j < i || (j > i && p[0] !== entry[0])).toSpliced(i, 0, entry));
    }
    forEach(callback, thisArg) { for (const [k, v] of formLists.get(this)) callback.call(thisArg, v, k, this); }
    *entries() { for (const p of formLists.get(this)) yield [p[0], p[1]]; }
    *keys() { for (const p of formLists.get(this)) yield p[0]; }
    *values() { for (const p of formLists.get(this)) yield p[1]; }
    [Symbol.iterator]() { return this.entries(); }
  }
  tag(FormData, "FormData");

  const multipart = (form) => {
    const boundary = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    const chunks = [];
    const esc = (s) => s.replace(/"/g, "%22").replace(/\r\n|\r|\n/g, "\r\n");
    for (const [name, value] of formLists.get(form)) {
      let head = `--${boundary}\r\nContent-Disposition: form-data; name="${esc(name)}"`;
      if (value instanceof File) {
        head += `; filename="${esc(value.name)}"\r\nContent-Type: ${value.type || "application/octet-stream"}\r\n\r\n`;
        chunks.push(encode(head), blobBytes.get(value).bytes, encode("\r\n"));
      } else {
        chunks.push(encode(head + "\r\n\r\n" + value.replace(/\r\n|\r|\n/g, "\r\n") + "\r\n"));
      }
    }
    chunks.push(encode(`--${boundary}--`));
    return { bytes: concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
  };
  const parseMultipart = (bytes, contentType) => {
    const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
    if (!m) throw new TypeError("Failed to parse body as FormData.");
    const boundary = "--" + (m[1] || m[2]);
    const text = Array.from(bytes, (b) => String.fromCharCode(b)).join("");
    const form = new FormData();
    for (const part of text.split(boundary).slice(1)) {
      if (part.startsWith("--")) break;
      const split = part.indexOf("\r\n\r\n");
      if (split < 0) continue;
      const head = part.slice(2, split);
      const body = part.slice(split + 4, part.endsWith("\r\n") ? -2 : undefined);
      const name = /name="([^"]*)"/i.exec(head);
      const filename = /filename="([^"]*)"/i.exec(head);
      const type = /content-type:\s*([^\r\n]*)/i.exec(head);
      const raw = Uint8Array.from(body, (c) => c.charCodeAt(0));
      if (filename) form.append(name ? name[1] : "", new File([raw], filename[1], { type: type ? type[1] : "" }));
      else form.append(name ? name[1] : "", decode(raw));
    }
    return form;
  };

  const bytesStream = (bytes) => new (streamsOf().ReadableStream)({
    type: "bytes",
    start(c) { if (bytes.length) c.enqueue(bytes); c.close(); },
  });

  // Body: the shared reading methods of Request and Response.
  const bodies = new WeakMap();
  const extract = (body) => {
    if (body === undefined || body === null) return { bytes: null, type: null };
    if (typeof body === "string") return { bytes: encode(body), type: "text/plain;charset=UTF-8" };
    if (body instanceof URLSearchParams) return { bytes: encode(body.toString()), type: "application/x-www-form-urlencoded;charset=UTF-8" };
    if (body instanceof FormData) return multipart(body);
    if (body instanceof Blob) return { bytes: blobBytes.get(body).bytes, type: body.type || null };
    if (body instanceof ArrayBuffer) return { bytes: new Uint8Array(body).slice(), type: null };
    if (ArrayBuffer.isView(body)) return { bytes: copyBytes(body), type: null };
    if (streamsOf().isReadableStream(body)) return { stream: body, type: null };
    return { bytes: encode(String(body)), type: "text/plain;charset=UTF-8" };
  };
  const consume = async (self) => {
    const b = bodies.get(self);
    if (b.used || (b.stream !== null && streamsOf().isDisturbed(b.stream))) throw new TypeError("Body has already been used. It can only be used once. Use tee() first if you need to read it twice.");
    b.used = true;
    if (b.signal && b.signal.aborted) throw b.signal.reason;
    if (b.stream) {
      const chunks = [];
      for await (const chunk of b.stream) chunks.push(typeof chunk === "string" ? encode(chunk) : partBytes(chunk));
      return concat(chunks);
    }
    return b.bytes ?? new Uint8Array(0);
  };
  class Body {
    constructor() { throw new TypeError("Illegal constructor"); }
    get body() {
      const b = bodies.get(this);
      if (b.stream) return b.stream;
      if (b.bytes === null) return null;
      b.stream = bytesStream(b.bytes);
      return b.stream;
    }
    get bodyUsed() { const b = bodies.get(this); return b.used || (b.stream !== null && streamsOf().isDisturbed(b.stream)); }
    async arrayBuffer() { return (await consume(this)).slice().buffer; }
    async bytes() { return (await consume(this)).slice(); }
    async text() { return decode(await consume(this)); }
    async json() { return JSON.parse(decode(await consume(this))); }
    async blob() {
      const bytes = await consume(this);
      // The content type as the headers hold it (workerd keeps its case; a Blob's own
      // constructor would lower-case it).
      const blob = new Blob([]);
      blobBytes.set(blob, { bytes, type: this.headers.get("content-type") ?? "" });
      return blob;
    }
    async formData() {
      const type = this.headers.get("content-type") ?? "";
      const bytes = await consume(this);
      if (/^multipart\/form-data/i.test(type)) return parseMultipart(bytes, type);
      if (/^application\/x-www-form-urlencoded/i.test(type)) {
        const form = new FormData();
        for (const [k, v] of new URLSearchParams(decode(bytes))) form.append(k, v);
        return form;
      }
      throw new TypeError("Unrecognized Content-Type header value. FormData can only parse the following MIME types: multipart/form-data, application/x-www-form-urlencoded.");
    }
  }
  const initBody = (self, body, headers) => {
    const e = extract(body);
    // Workers backs a body given whole (not a stream) with I/O, refused in global scope.
    if (e.bytes !== null && e.bytes !== undefined) native.refuseInGlobalScope();
    bodies.set(self, { bytes: e.bytes ?? null, stream: e.stream ?? null, used: false });
    if (e.type !== null && !headers.has("content-type")) headers.set("content-type", e.type);
  };
  const cloneBody = (from, to) => {
    const b = bodies.get(from);
    if (b.used) throw new TypeError("Body has already been used. It can only be used once. Use tee() first if you need to read it twice.");
    if (b.stream && b.bytes === null) {
      const [x, y] = b.stream.tee();
      b.stream = x;
      bodies.set(to, { bytes: null, stream: y, used: false });
    } else {
      bodies.set(to, { bytes: b.bytes, stream: null, used: false });
    }
  };

  const responses = new WeakMap();
  const STATUS_TEXT = "";
  class Response extends Body {
    constructor(body = null, init = {}) {
      const self = Object.create(new.target.prototype);
      init = init ?? {};
      const status = init.status === undefined ? 200 : Number(init.status);
      if (!(status >= 200 && status <= 599) || !Number.isInteger(status)) {
        throw new RangeError("Responses may only be constructed with status codes in the range 200 to 599, inclusive.");
      }
      const headers = new Headers(init.headers);
      responses.set(self, { status, statusText: init.statusText === undefined ? STATUS_TEXT : String(init.statusText), headers, type: "default", url: "", redirected: false });
      initBody(self, body, headers);
      return self;
    }
    static json(data, init = {}) {
      const headers = new Headers(init && init.headers);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      return new Response(JSON.stringify(data), { ...init, headers });
    }
    static error() {
      const r = new Response(null);
      const s = responses.get(r);
      s.status = 0; s.type = "error";
      return r;
    }
    static redirect(url, status = 302) {
      if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError(`${status} is not a redirect status code. It must be one of: 301, 302, 303, 307, or 308.`);
      native.refuseInGlobalScope();
      const r = new Response(null, { status, headers: { location: new URL(String(url)).href } });
      return r;
    }
    get status() { return responses.get(this).status; }
    get statusText() { return responses.get(this).statusText; }
    get ok() { const s = responses.get(this).status; return s >= 200 && s <= 299; }
    get headers() { return responses.get(this).headers; }
    get type() { return responses.get(this).type; }
    get url() { return responses.get(this).url; }
    get redirected() { return responses.get(this).redirected; }
    get cf() { return undefined; }
    get webSocket() { return null; }
    clone() {
      const s = responses.get(this);
      const r = Object.create(Response.prototype);
      responses.set(r, { ...s, headers: new Headers(s.headers) });
      cloneBody(this, r);
      return r;
    }
  }
  tag(Response, "Response");

  const requests = new WeakMap();
  const REDIRECT_ERROR = "Invalid redirect value, must be one of \"follow\" or \"manual\" (\"error\" won't be implemented since it does not make sense at the edge; use \"manual\" and check the response status code).";
  const METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"];
  class Request extends Body {
    constructor(input, init = {}) {
      const self = Object.create(new.target.prototype);
      init = init ?? {};
      const from = input instanceof Request ? requests.get(input) : null;
      let url;
      if (from) url = from.url;
      else {
        const parsed = URL.parse(String(input));
        if (parsed === null) throw new TypeError(`Invalid URL: ${String(input)}`);
        url = parsed.href;
      }
      let method = init.method !== undefined ? String(init.method) : from ? from.method : "GET";
      if (METHODS.includes(method.toUpperCase())) method = method.toUpperCase();
      const headers = new Headers(init.headers !== undefined ? init.headers : from ? from.headers : undefined);
      const body = init.body !== undefined ? init.body : null;
      if (body !== null && (method === "GET" || method === "HEAD")) throw new TypeError("Request with a GET or HEAD method cannot have a body.");
      const signal = init.signal ?? (from ? from.signal : new (use("abort").AbortController)().signal);
      if (init.redirect === "error") throw new TypeError(REDIRECT_ERROR);
      requests.set(self, { url, method, headers, redirect: init.redirect ?? (from ? from.redirect : "follow"), signal, integrity: init.integrity ?? "", keepalive: !!init.keepalive, cache: init.cache });
      if (from && init.body === undefined) {
        if (bodies.get(input).used) throw new TypeError("Cannot reconstruct a Request with a used body.");
        cloneBody(input, self);
      }
      else initBody(self, body, headers);
      return self;
    }
    get url() { return requests.get(this).url; }
    get method() { return requests.get(this).method; }
    get headers() { return requests.get(this).headers; }
    get redirect() { return requests.get(this).redirect; }
    get signal() { return requests.get(this).signal; }
    get integrity() { return requests.get(this).integrity; }
    get keepalive() { return requests.get(this).keepalive; }
    get cache() { return requests.get(this).cache; }
    get cf() { return undefined; }
    get fetcher() { return null; }
    clone() {
      const s = requests.get(this);
      const r = Object.create(Request.prototype);
      requests.set(r, { ...s, headers: new Headers(s.headers) });
      cloneBody(this, r);
      return r;
    }
  }
  tag(Request, "Request");

  // Workers RPC carries these across as values (they project as empty objects); bootstrap.js
  // reads the mark when a result crosses.
  for (const C of [Headers, Request, Response, Blob]) {
    define(C.prototype, Symbol.for("codemode.rpc-carried"), { value: true });
  }
  // A File is a Blob that does not cross.
  define(File.prototype, Symbol.for("codemode.rpc-carried"), { value: false });

  const BLOCKED = "This worker is not permitted to access the internet via global functions like fetch(). It must use capabilities (such as bindings in 'env') to talk to the outside world.";
  const REDIRECTS = [301, 302, 303, 307, 308];
  const MAX_REDIRECTS = 20;
  const ONE_TIME_BODY = "A request with a one-time-use body (it was initialized from a stream, not a buffer) encountered a redirect requiring the body to be retransmitted. To avoid this error in the future, construct this request from a buffer-like body initializer.";
  const NULL_BODY = [101, 204, 205, 304];

  // One request to the host: its headers as the reference's fetcher sees them (a body
  // carries its length, a stream goes chunked), its body read whole.
  const send = (method, url, headers, body) => {
    const list = [...headers];
    if (body !== null) {
      const has = (n) => list.some((p) => p[0] === n);
      if (body.streamed) { if (!has("transfer-encoding")) list.push(["transfer-encoding", "chunked"]); }
      else if (!has("content-length")) list.push(["content-length", String(body.bytes.length)]);
      list.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    }
    return native.outbound.send(method, url, list, body === null ? null : body.bytes);
  };

  // The host's answer as a Response whose headers cannot change, as a fetched one's.
  const answer = (reply, url, method, redirected, signal) => {
    const r = Object.create(Response.prototype);
    const headers = new Headers(reply.headers);
    immutable.add(headers);
    responses.set(r, { status: reply.status, statusText: reply.statusText, headers, type: "default", url, redirected });
    const empty = method === "HEAD" || NULL_BODY.includes(reply.status);
    bodies.set(r, { bytes: empty ? null : reply.body, stream: null, used: false, signal });
    return r;
  };

  // Settles with the host's reply, or rejects with the signal's reason once it aborts.
  const exchange = (method, url, headers, body, signal) => new Promise((resolve, reject) => {
    const pending = send(method, url, headers, body);
    const onAbort = () => { native.outbound.cancel(pending.id); reject(signal.reason); };
    signal.addEventListener("abort", onAbort);
    pending.done.then((reply) => {
      signal.removeEventListener("abort", onAbort);
      if (reply.error !== undefined) reject(new Error(reply.error));
      else resolve(reply);
    });
  });

  async function fetch(input, init) {
    native.refuseInGlobalScope();
    const request = new Request(input, init);
    if (!native.outbound || !native.outbound.enabled()) throw new Error(BLOCKED);
    // fetch(request) takes the request's own body.
    if (input instanceof Request && (init === undefined || init === null || init.body === undefined)) {
      const own = bodies.get(input);
      if (own.stream !== null || own.bytes !== null) own.used = true;
    }
    const r = requests.get(request);
    let url = r.url.replace(/#.*$/s, "");
    if (!/^https?:$/.test(new URL(url).protocol)) throw new TypeError(`Fetch API cannot load: ${url}`);
    const signal = r.signal;
    if (signal.aborted) throw signal.reason;
    let method = r.method;
    const held = bodies.get(request);
    let body = null;
    if (held.stream !== null || held.bytes !== null) {
      const streamed = held.bytes === null;
      body = { bytes: await consume(request), streamed };
    }
    const visited = [url];
    for (let hops = 0; ; hops += 1) {
      const reply = await exchange(method, url, r.headers, body, signal);
      const location = reply.headers.find((p) => p[0].toLowerCase() === "location");
      if (r.redirect !== "follow" || !REDIRECTS.includes(reply.status) || location === undefined) {
        return answer(reply, url, method, hops > 0, signal);
      }
      if (hops === MAX_REDIRECTS) throw new TypeError(`Too many redirects.${visited.join(", ")}`);
      url = new URL(location[1], url).href;
      visited.push(url);
      if (reply.status === 303 ? method !== "HEAD" : (reply.status <= 302 && method === "POST")) {
        method = "GET";
        body = null;
      } else if (body !== null && body.streamed) {
        throw new TypeError(ONE_TIME_BODY);
      }
    }
  }

  return { Headers, Body, Request, Response, Blob, File, FormData, fetch };
})
