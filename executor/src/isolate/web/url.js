// URL, URLSearchParams and URLPattern over ada (`ada-url`) and the `urlpattern` crate.
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
      if (field === "href" && native.urlParse(String(value), undefined) == null) {
        throw new TypeError("Failed to set the 'href' property on 'URL': the provided value is not of type 'valid URL string'.");
      }
      setField(this, field, value, false);
    };
    define(URL.prototype, field, descriptor);
  });
  define(URL.prototype, Symbol.toStringTag, { value: "URL", configurable: true });

  // URLPattern: the pattern is compiled by the `urlpattern` crate into one regexp per
  // component, which the engine's own RegExp runs (as the standard asks, and as workerd's V8
  // does); an input is brought to its eight components natively (a URL string by ada).
  const COMPONENTS = ["protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"];
  const patterns = new WeakMap();
  const NativeRegExp = RegExp;
  const regexpExec = RegExp.prototype.exec;
  const usv = (value) => String(value).toWellFormed();
  // A URLPatternInput: a dictionary (an object, or nothing) with its members read as
  // USVStrings, or a string.
  const patternInput = (input) => {
    if (input === undefined || input === null || typeof input === "object" || typeof input === "function") {
      const init = {};
      if (input === undefined || input === null) return init;
      for (const k of [...COMPONENTS, "baseURL"]) {
        const v = input[k];
        if (v !== undefined) init[k] = usv(v);
      }
      return init;
    }
    return usv(input);
  };
  // A component's regexp, with the flags the standard names (`v`, and `i` to ignore case).
  // This engine's `v` mode refuses some atoms outside a class that the standard allows (`-`,
  // `/`, `::`), so a source it refuses is compiled again in `u` mode, where those atoms mean
  // the same; a source neither mode compiles is the constructor's TypeError.
  const compile = (source, ignoreCase) => {
    for (const flags of ignoreCase ? ["vi", "ui"] : ["v", "u"]) {
      try {
        return new NativeRegExp(source, flags);
      } catch {}
    }
    throw new TypeError("Failed to construct URLPattern");
  };
  class URLPattern {
    constructor(input = {}, base, options) {
      if (base !== undefined && base !== null && typeof base === "object") { options = base; base = undefined; }
      const ignoreCase = !!(options && options.ignoreCase);
      const out = native.patternParse(JSON.stringify(patternInput(input)), base === undefined ? undefined : usv(base), ignoreCase);
      if (out[0] === "!") throw new TypeError("Failed to construct URLPattern");
      const compiled = JSON.parse(out);
      const regexps = compiled.components.map((c) => compile(c[1], ignoreCase));
      patterns.set(this, { compiled, regexps });
    }
    get hasRegExpGroups() { return patterns.get(this).compiled.hasRegExpGroups; }
    test(input = {}, base) { return match(this, input, base, "test") !== null; }
    exec(input = {}, base) { return match(this, input, base, "exec"); }
  }
  const match = (pattern, input, base, method) => {
    const { compiled, regexps } = patterns.get(pattern);
    const value = patternInput(input);
    const baseText = base === undefined ? undefined : usv(base);
    const out = native.patternInput(JSON.stringify(value), baseText);
    if (out[0] === "!") throw new TypeError(`Failed to ${method} URLPattern`);
    const components = JSON.parse(out);
    if (components === null) return null;
    const result = { inputs: baseText === undefined ? [value] : [value, baseText] };
    for (let i = 0; i < COMPONENTS.length; i++) {
      const found = Reflect.apply(regexpExec, regexps[i], [components[i]]);
      if (found === null) return null;
      const groups = {};
      compiled.components[i][2].forEach((name, j) => { groups[name] = found[j + 1]; });
      result[COMPONENTS[i]] = { input: components[i], groups };
    }
    return result;
  };
  COMPONENTS.forEach((c, i) => define(URLPattern.prototype, c, { configurable: true, enumerable: true, get() { return patterns.get(this).compiled.components[i][0]; } }));
  define(URLPattern.prototype, Symbol.toStringTag, { value: "URLPattern", configurable: true });

  return { URL, URLSearchParams, URLPattern };
})
