// URL, URLSearchParams and URLPattern over the `url` and `urlpattern` crates.
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const FIELDS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
  const parts = new WeakMap();
  const paramsOf = new WeakMap();
  const creating = Symbol("creating");

  class URLSearchParams {
    #list = [];
    #url = null;
    constructor(init = "") {
      if (init === creating) return;
      if (init instanceof URLSearchParams) {
        this.#list = init.#list.map((p) => [p[0], p[1]]);
      } else if (init !== null && typeof init === "object" || typeof init === "function") {
        if (typeof init[Symbol.iterator] === "function") {
          for (const pair of init) {
            const p = [...pair];
            if (p.length !== 2) throw new TypeError("Each query pair must be an iterable [name, value] tuple");
            this.#list.push([String(p[0]), String(p[1])]);
          }
        } else {
          for (const k of Object.keys(init)) this.#list.push([k, String(init[k])]);
        }
      } else {
        this.#parse(String(init));
      }
    }
    #parse(text) {
      const flat = native.formParse(text);
      this.#list = [];
      for (let i = 0; i < flat.length; i += 2) this.#list.push([flat[i], flat[i + 1]]);
    }
    #update() {
      if (this.#url === null) return;
      const s = this.toString();
      setField(this.#url, "search", s === "" ? "" : "?" + s, true);
    }
    static attach(params, url) { params.#url = url; params.#parse(parts.get(url)[9]); }
    static reparse(params, search) { params.#parse(search); }
    get size() { return this.#list.length; }
    append(name, value) { this.#list.push([String(name), String(value)]); this.#update(); }
    delete(name, value) {
      name = String(name);
      this.#list = this.#list.filter((p) => !(p[0] === name && (value === undefined || p[1] === String(value))));
      this.#update();
    }
    get(name) { name = String(name); const p = this.#list.find((p) => p[0] === name); return p ? p[1] : null; }
    getAll(name) { name = String(name); return this.#list.filter((p) => p[0] === name).map((p) => p[1]); }
    has(name, value) { name = String(name); return this.#list.some((p) => p[0] === name && (value === undefined || p[1] === String(value))); }
    set(name, value) {
      name = String(name); value = String(value);
      const i = this.#list.findIndex((p) => p[0] === name);
      if (i < 0) this.#list.push([name, value]);
      else {
        this.#list[i][1] = value;
        this.#list = this.#list.filter((p, j) => j <= i || p[0] !== name);
      }
      this.#update();
    }
    sort() {
      const key = (s) => Array.from(s, (c) => c.codePointAt(0) > 0xffff ? String.fromCharCode(0xd800, 0xdc00) : c).join("");
      this.#list = this.#list.map((p, i) => [p, i]).sort((a, b) => {
        const x = a[0][0], y = b[0][0];
        return x < y ? -1 : x > y ? 1 : a[1] - b[1];
      }).map((e) => e[0]);
      void key;
      this.#update();
    }
    forEach(callback, thisArg) { for (const [k, v] of this.#list) callback.call(thisArg, v, k, this); }
    *entries() { for (const p of this.#list) yield [p[0], p[1]]; }
    *keys() { for (const p of this.#list) yield p[0]; }
    *values() { for (const p of this.#list) yield p[1]; }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return native.formSerialize(this.#list.flat()); }
  }
  define(URLSearchParams.prototype, Symbol.toStringTag, { value: "URLSearchParams", configurable: true });

  const setField = (url, field, value, fromParams) => {
    const next = native.urlSet(parts.get(url)[0], field, String(value));
    if (next === undefined || next === null) return;
    parts.set(url, next);
    if (!fromParams && (field === "search" || field === "href")) {
      const params = paramsOf.get(url);
      if (params) URLSearchParams.reparse(params, next[9]);
    }
  };

  class URL {
    constructor(url, base) {
      if (arguments.length === 0) throw new TypeError("Failed to construct 'URL': constructor parameter 1 is not of type 'USVString'.");
      const p = native.urlParse(String(url), base === undefined ? undefined : String(base));
      if (p === undefined || p === null) throw new TypeError("Invalid URL string.");
      parts.set(this, p);
    }
    static canParse(url, base) {
      const p = native.urlParse(String(url), base === undefined ? undefined : String(base));
      return p !== undefined && p !== null;
    }
    static parse(url, base) {
      try { return new URL(url, base); } catch { return null; }
    }
    get searchParams() {
      let params = paramsOf.get(this);
      if (!params) {
        params = new URLSearchParams(creating);
        URLSearchParams.attach(params, this);
        paramsOf.set(this, params);
      }
      return params;
    }
    toString() { return parts.get(this)[0]; }
    toJSON() { return parts.get(this)[0]; }
  }
  FIELDS.forEach((field, i) => {
    const descriptor = { configurable: true, enumerable: true, get() { return parts.get(this)[i]; } };
    if (field !== "origin") descriptor.set = function (value) {
      if (field === "href" && native.urlParse(String(value)) == null) throw new TypeError("Invalid URL string.");
      setField(this, field, value, false);
    };
    define(URL.prototype, field, descriptor);
  });
  define(URL.prototype, Symbol.toStringTag, { value: "URL", configurable: true });

  const COMPONENTS = ["protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"];
  const patterns = new WeakMap();
  const inputJson = (input) => {
    if (typeof input === "string") return JSON.stringify(input);
    if (input instanceof URL) return JSON.stringify(input.href);
    const init = {};
    for (const k of [...COMPONENTS, "baseURL"]) if (input[k] !== undefined) init[k] = String(input[k]);
    return JSON.stringify(init);
  };
  class URLPattern {
    constructor(input = {}, base, options) {
      if (base !== undefined && typeof base === "object") { options = base; base = undefined; }
      const ignoreCase = !!(options && options.ignoreCase);
      const json = inputJson(input);
      const baseText = base === undefined ? undefined : String(base);
      const out = native.patternParse(json, baseText, ignoreCase);
      if (out[0] === "!") throw new TypeError(out.slice(1));
      patterns.set(this, { json, base: baseText, ignoreCase, components: JSON.parse(out) });
    }
    get hasRegExpGroups() { return patterns.get(this).components[8]; }
    test(input = {}, base) { return this.exec(input, base) !== null; }
    exec(input = {}, base) {
      const p = patterns.get(this);
      const out = native.patternExec(p.json, p.base, p.ignoreCase, inputJson(input), base === undefined ? undefined : String(base));
      if (out[0] === "!") throw new TypeError(out.slice(1));
      const result = JSON.parse(out);
      if (result === null) return null;
      for (const c of COMPONENTS) {
        const groups = result[c].groups;
        for (const k of Object.keys(groups)) if (groups[k] === null) groups[k] = undefined;
      }
      return result;
    }
  }
  COMPONENTS.forEach((c, i) => define(URLPattern.prototype, c, { configurable: true, enumerable: true, get() { return patterns.get(this).components[i]; } }));
  define(URLPattern.prototype, Symbol.toStringTag, { value: "URLPattern", configurable: true });

  return { URL, URLSearchParams, URLPattern };
})
