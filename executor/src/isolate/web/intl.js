// Intl on ICU4X. This script is the ECMA-402 facade: it reads and validates options with
// V8's texts, negotiates locales (default en-US, as workerd), resolves options and shapes
// results; every locale-dependent answer comes from `native.intl()` (Rust over ICU4X's
// compiled CLDR data and the IANA time zone database; see `web/intl/mod.rs`).
(function (native, use) {
  "use strict";
  const N = native.intl();
  const define = Object.defineProperty;
  const method = (o, name, fn) => define(o, name, { value: fn, writable: true, configurable: true, enumerable: false });
  const tag = (C, name) => define(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const DEFAULT_LOCALE = "en-US";
  const FALLBACK = Symbol("IntlLegacyConstructedSymbol");
  // Lists are built and read without Array.prototype's overridable methods and without its
  // index setters: a program may replace push, join, slice, sort or indexOf, or define a
  // setter for "0", and Intl must not notice (ECMA-402's internal Lists).
  const append = (a, v) => { define(a, a.length, { value: v, writable: true, enumerable: true, configurable: true }); return a; };
  const joined = (a, sep) => { let s = ""; for (let i = 0; i < a.length; i++) s += (i ? sep : "") + a[i]; return s; };
  const copy = (a) => a.map((x) => x);
  // A boolean option read once (a getter runs once, as in V8), undefined when absent.
  const optionalBoolean = (v) => (v === undefined ? undefined : Boolean(v));
  // Records likewise: no prototype, so a setter a program defines on Object.prototype for
  // "weekday" or "timeZone" never runs when a field is stored.
  const record = (o) => Object.assign(Object.create(null), o);
  // An accessor whose getter is named as the specification's are ("get format").
  const accessor = (o, name, fn) => define(o, name, {
    get: Object.getOwnPropertyDescriptor({ get [name]() { return fn(this); } }, name).get,
    configurable: true, enumerable: false,
  });
  const sorted = (a, before = (x, y) => x < y) => {
    const b = copy(a);
    for (let i = 1; i < b.length; i++) {
      const x = b[i];
      let j = i;
      for (; j > 0 && before(x, b[j - 1]); j--) b[j] = b[j - 1];
      b[j] = x;
    }
    return b;
  };

  // Options, read as ECMA-402's GetOption does (ToString, then the allowed values).
  // CoerceOptionsToObject: undefined is an empty record, null is refused (ToObject).
  const options = (o) => {
    if (o === undefined) return Object.create(null);
    if (o === null) throw new TypeError("Cannot convert undefined or null to object");
    return Object(o);
  };
  const strictOptions = (o) => {
    if (o === undefined) return Object.create(null);
    if (o === null || (typeof o !== "object" && typeof o !== "function")) throw new TypeError("Options must be an object");
    return o;
  };
  // ToString, which refuses a Symbol (String() would describe it).
  const toStr = (v) => {
    if (typeof v === "symbol") throw new TypeError("Cannot convert a Symbol value to a string");
    return String(v);
  };
  const opt = (o, k, allowed, fallback, service) => {
    const v = o[k];
    if (v === undefined) return fallback;
    const s = toStr(v);
    if (allowed && !allowed.includes(s)) throw new RangeError(`Value ${s} out of range for ${service} options property ${k}`);
    return s;
  };
  const bool = (o, k, fallback) => {
    const v = o[k];
    return v === undefined ? fallback : Boolean(v);
  };
  const num = (o, k, min, max, fallback) => numValue(o[k], k, min, max, fallback);
  // DefaultNumberOption: a value already read.
  const numValue = (v, k, min, max, fallback) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max) throw new RangeError(`${k} value is out of range.`);
    return Math.floor(n);
  };

  // Locales: CanonicalizeLocaleList, and lookup negotiation with the relevant -u- keywords.
  const LEGACY_LANGUAGES = ["in", "iw", "ji", "jw", "mo", "sh", "tl", "no"];
  const canonicalList = (locales) => {
    if (locales === undefined) return [];
    if (locales === null) throw new TypeError("Cannot convert undefined or null to object");
    const seen = [];
    const single = typeof locales === "string" || locales_.has(locales);
    const list = single ? [locales] : Object(locales);
    const len = single ? 1 : Math.min(Math.max(0, Math.floor(Number(list.length)) || 0), 2 ** 32);
    for (let i = 0; i < len; i++) {
      if (!(i in list)) continue;
      const v = list[i];
      if (typeof v !== "string" && (typeof v !== "object" || v === null)) throw new TypeError("Language ID should be string or object.");
      // A Locale gives its tag from its slot, without calling its toString.
      const s = locales_.has(v) ? locales_.get(v).tag : String(v);
      // V8's fast path: a bare two-letter lower-case language that is not deprecated or
      // legacy, and `fil`, are taken as written, without ICU's aliases (`tw` stays `tw` in a
      // list, where `new Intl.Locale("tw")` is `ak`).
      const c = (/^[a-z]{2}$/.test(s) && !LEGACY_LANGUAGES.includes(s)) || s === "fil" ? s : N.canonicalize(s);
      if (c === undefined || c === null) throw new RangeError(`Invalid language tag: ${s}`);
      if (!seen.includes(c)) append(seen, c);
    }
    return seen;
  };
  // A tag split into its base and its -u- keywords (other extensions dropped).
  const split = (t) => {
    const parts = t.split("-");
    const keywords = Object.create(null);
    let base = [], i = 0;
    // The -u- attributes and the other extensions and private use, kept as they are.
    const attributes = [], others = [];
    for (; i < parts.length && parts[i].length !== 1; i++) append(base, parts[i]);
    while (i < parts.length) {
      const singleton = parts[i++];
      if (singleton === "x") { append(others, "x"); while (i < parts.length) append(others, parts[i++]); break; }
      if (singleton !== "u") { append(others, singleton); while (i < parts.length && parts[i].length !== 1) append(others, parts[i++]); continue; }
      while (i < parts.length && parts[i].length > 2) append(attributes, parts[i++]);
      while (i < parts.length && parts[i].length === 2) {
        const key = parts[i++];
        const value = [];
        while (i < parts.length && parts[i].length > 2) append(value, parts[i++]);
        if (!(key in keywords)) keywords[key] = value.length ? joined(value, "-") : "true";
      }
    }
    return { base: joined(base, "-"), keywords, attributes, others };
  };
  // The locale a service resolves for `locales`: the first supported one (or en-US), with the
  // requested keywords in `relevant` that `valid` accepts.
  const resolve = (locales, relevant = {}, anyLanguage = false) => {
    const requested = canonicalList(locales);
    let found = null;
    for (const t of requested) {
      const { base, keywords } = split(t);
      const available = N.available(base, anyLanguage);
      if (available !== undefined && available !== null) { found = { base: available, keywords }; break; }
    }
    if (found === null) found = { base: DEFAULT_LOCALE, keywords: Object.create(null) };
    const kept = {};
    for (const key of Object.keys(relevant)) {
      const v = found.keywords[key];
      if (v !== undefined && relevant[key](v)) kept[key] = v;
    }
    return { base: found.base, kept };
  };
  const withKeywords = (base, kw) => {
    const keys = sorted(Object.keys(kw).filter((k) => kw[k] !== undefined));
    return keys.length ? `${base}-u-${joined(keys.map((k) => (kw[k] === "true" ? k : `${k}-${kw[k]}`)), "-")}` : base;
  };
  const supportedLocalesOf = (locales, o) => {
    o = options(o);
    opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", "Intl.supportedLocalesOf");
    return canonicalList(locales).filter((t) => N.supported(split(t).base));
  };

  const NUMBERING_SYSTEMS = ["adlm", "ahom", "arab", "arabext", "bali", "beng", "bhks", "brah", "cakm", "cham", "deva", "diak", "fullwide", "gara", "gong", "gonm", "gujr", "gukh", "guru", "hanidec", "hmng", "hmnp", "java", "kali", "kawi", "khmr", "knda", "krai", "lana", "lanatham", "laoo", "latn", "lepc", "limb", "mathbold", "mathdbl", "mathmono", "mathsanb", "mathsans", "mlym", "modi", "mong", "mroo", "mtei", "mymr", "mymrepka", "mymrpao", "mymrshan", "mymrtlng", "nagm", "newa", "nkoo", "olck", "onao", "orya", "osma", "outlined", "rohg", "saur", "segment", "shrd", "sind", "sinh", "sora", "sund", "sunu", "takr", "talu", "tamldec", "telu", "thai", "tibt", "tirh", "tnsa", "tols", "vaii", "wara", "wcho"];
  const CALENDARS = ["buddhist", "chinese", "coptic", "dangi", "ethioaa", "ethiopic", "gregory", "hebrew", "indian", "islamic", "islamic-civil", "islamic-rgsa", "islamic-tbla", "islamic-umalqura", "iso8601", "japanese", "persian", "roc"];
  const isNu = (v) => NUMBERING_SYSTEMS.includes(v);
  const isCa = (v) => CALENDARS.includes(v) || v === "gregorian" || v === "islamicc" || v === "ethiopic-amete-alem";
  const canonicalCa = (v) => (v === "gregorian" ? "gregory" : v === "islamicc" ? "islamic-civil" : v === "ethiopic-amete-alem" ? "ethioaa" : v);
  const typeToken = /^[A-Za-z0-9]{3,8}(-[A-Za-z0-9]{3,8})*$/;
  const numberingOption = (o, service) => {
    const v = opt(o, "numberingSystem", null, undefined, service);
    if (v !== undefined && !typeToken.test(v)) throw new RangeError(`Invalid numberingSystem : ${v}`);
    return v === undefined ? undefined : v.toLowerCase();
  };

  // NumberFormat.
  const CURRENCY_DIGITS = { ADP: 0, AFN: 0, ALL: 0, AMD: 2, BHD: 3, BIF: 0, BYR: 0, CAD: 2, CHF: 2, CLF: 4, CLP: 0, COP: 2, CRC: 2, CZK: 2, DJF: 0, ESP: 0, GNF: 0, GYD: 2, HUF: 2, IDR: 2, IQD: 0, IRR: 0, ISK: 0, ITL: 0, JOD: 3, JPY: 0, KMF: 0, KPW: 0, KRW: 0, KWD: 3, LAK: 0, LBP: 0, LUF: 0, LYD: 3, MGA: 0, MGF: 0, MMK: 0, MNT: 2, MRO: 0, MUR: 2, OMR: 3, PKR: 2, PYG: 0, RSD: 0, RWF: 0, SLE: 2, SLL: 0, SOS: 0, STD: 0, SYP: 0, TMM: 0, TND: 3, TRL: 0, TWD: 2, TZS: 2, UGX: 0, UYI: 0, UYW: 4, UZS: 2, VEF: 2, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0, YER: 0, ZMK: 0, ZWD: 0 };
  const SANCTIONED_UNITS = ["acre", "bit", "byte", "celsius", "centimeter", "day", "degree", "fahrenheit", "fluid-ounce", "foot", "gallon", "gigabit", "gigabyte", "gram", "hectare", "hour", "inch", "kilobit", "kilobyte", "kilogram", "kilometer", "liter", "megabit", "megabyte", "meter", "microsecond", "mile", "mile-scandinavian", "milliliter", "millimeter", "millisecond", "minute", "month", "nanosecond", "ounce", "percent", "petabyte", "pound", "second", "stone", "terabit", "terabyte", "week", "yard", "year"];
  const isUnit = (u) => SANCTIONED_UNITS.includes(u) || (u.includes("-per-") && u.split("-per-").length === 2 && u.split("-per-").every((x) => SANCTIONED_UNITS.includes(x)));
  // Digit options (ECMA-402 SetNumberFormatDigitOptions) into r.
  const digitOptions = (o, r, mnfdDefault, mxfdDefault, notation, service) => {
    const mnid = num(o, "minimumIntegerDigits", 1, 21, 1);
    const mnfd = o.minimumFractionDigits, mxfd = o.maximumFractionDigits;
    const mnsd = o.minimumSignificantDigits, mxsd = o.maximumSignificantDigits;
    r.minimumIntegerDigits = mnid;
    const increment = num(o, "roundingIncrement", 1, 5000, 1);
    if (![1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000].includes(increment)) throw new RangeError("roundingIncrement value is out of range.");
    const roundingMode = opt(o, "roundingMode", ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"], "halfExpand", service);
    const priority = opt(o, "roundingPriority", ["auto", "morePrecision", "lessPrecision"], "auto", service);
    const trailing = opt(o, "trailingZeroDisplay", ["auto", "stripIfInteger"], "auto", service);
    if (increment !== 1) mxfdDefault = mnfdDefault;
    const hasSd = mnsd !== undefined || mxsd !== undefined;
    const hasFd = mnfd !== undefined || mxfd !== undefined;
    let needSd = true, needFd = true;
    if (priority === "auto") {
      needSd = hasSd;
      if (needSd || (!hasFd && notation === "compact")) needFd = false;
    }
    if (needSd) {
      if (hasSd) {
        r.minimumSignificantDigits = numValue(mnsd, "minimumSignificantDigits", 1, 21, 1);
        r.maximumSignificantDigits = numValue(mxsd, "maximumSignificantDigits", r.minimumSignificantDigits, 21, 21);
      } else { r.minimumSignificantDigits = 1; r.maximumSignificantDigits = 21; }
    }
    if (needFd) {
      if (hasFd) {
        let lo = numValue(mnfd, "minimumFractionDigits", 0, 100, undefined);
        let hi = numValue(mxfd, "maximumFractionDigits", 0, 100, undefined);
        if (lo === undefined) lo = Math.min(mnfdDefault, hi);
        else if (hi === undefined) hi = Math.max(mxfdDefault, lo);
        else if (lo > hi) throw new RangeError("maximumFractionDigits value is out of range.");
        r.minimumFractionDigits = lo; r.maximumFractionDigits = hi;
      } else { r.minimumFractionDigits = mnfdDefault; r.maximumFractionDigits = mxfdDefault; }
    }
    let roundingType;
    if (!needSd && !needFd) {
      r.minimumFractionDigits = 0; r.maximumFractionDigits = 0; r.minimumSignificantDigits = 1; r.maximumSignificantDigits = 2;
      roundingType = "morePrecision";
    } else if (priority === "auto") roundingType = needSd ? "significantDigits" : "fractionDigits";
    else roundingType = priority;
    if (increment !== 1) {
      if (roundingType !== "fractionDigits") throw new TypeError("roundingIncrement is only valid with fraction digits rounding");
      if (r.maximumFractionDigits !== r.minimumFractionDigits) throw new RangeError("maximumFractionDigits value is out of range.");
    }
    return { roundingType, increment, roundingMode, priority, trailing, compactDefault: !needSd && !needFd };
  };
  const numberFormats = new WeakMap();
  // ECMA-402's legacy construction: NumberFormat or DateTimeFormat called as a function on an
  // object inheriting from its prototype initializes a new one and hangs it on that object
  // under %Intl%.[[FallbackSymbol]]; the methods unwrap it.
  const legacy = (self, C, made) => {
    if (self !== null && typeof self === "object" && C.prototype.isPrototypeOf(self)) {
      define(self, FALLBACK, { value: made, writable: false, enumerable: false, configurable: false });
      return self;
    }
    return made;
  };
  const unwrap = (x, C, states) => {
    if (typeof x !== "object" || x === null) return undefined;
    const s = states.get(x);
    if (s !== undefined || !C.prototype.isPrototypeOf(x)) return s;
    const inner = x[FALLBACK];
    return typeof inner === "object" && inner !== null ? states.get(inner) : undefined;
  };
  const numberState = (nf, name) => {
    const s = unwrap(nf, NumberFormat, numberFormats);
    if (s === undefined) throw new TypeError(`Method ${unwrapper(nf, name, "NumberFormat")} called on incompatible receiver ${receiverText(nf)}`);
    return s;
  };
  // A receiver as V8's incompatible-receiver errors write it: a primitive as its string, an
  // object as `#<Constructor>`.
  const isObject = (x) => x !== null && (typeof x === "object" || typeof x === "function");
  const receiverText = (x) => (isObject(x) ? "#<" + (x.constructor?.name ?? "Object") + ">" : String(x));
  // The method an incompatible receiver's error names, as V8 checks it: `format` (a getter,
  // named `get …`) and `resolvedOptions` first ask for an object, then unwrap it
  // (`UnwrapNumberFormat`); the other methods name themselves.
  const unwrapper = (x, name, service) => {
    if (name !== "format" && name !== "resolvedOptions") return `Intl.${service}.prototype.${name}`;
    if (isObject(x)) return `Unwrap${service}`;
    return `${name === "format" ? "get " : ""}Intl.${service}.prototype.${name}`;
  };
  // The built-in method a formatter is made for (`Number.prototype.toLocaleString`), which V8
  // names in the formatter's option errors; the next constructor takes it, before any of the
  // caller's code runs, so a formatter made inside an option's getter names its own service.
  let caller;
  const takeCaller = (own) => {
    const c = caller ?? own;
    caller = undefined;
    return c;
  };
  const madeFor = (name, make) => {
    caller = name;
    try {
      return make();
    } finally {
      caller = undefined;
    }
  };
  const S_NF = "Intl.NumberFormat";
  function NumberFormat(locales, options_) {
    if (!new.target) return legacy(this, NumberFormat, new NumberFormat(locales, options_));
    const service = takeCaller(S_NF);
    const o = options(options_);
    const { base, kept } = resolve(locales, { nu: isNu });
    opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", service);
    const nuOption = numberingOption(o, service);
    const nu = nuOption !== undefined && isNu(nuOption) ? nuOption : kept.nu;
    const style = opt(o, "style", ["decimal", "percent", "currency", "unit"], "decimal", service);
    let currency = opt(o, "currency", null, undefined, service);
    // SetNumberFormatUnitOptions: a missing currency (or unit) is refused as soon as it is read.
    if (currency === undefined && style === "currency") throw new TypeError("Currency code is required with currency style.");
    if (currency !== undefined && !/^[A-Za-z]{3}$/.test(currency)) throw new RangeError(`Invalid currency code : ${currency}`);
    const currencyDisplay = opt(o, "currencyDisplay", ["code", "symbol", "narrowSymbol", "name"], "symbol", service);
    const currencySign = opt(o, "currencySign", ["standard", "accounting"], "standard", service);
    const unit = opt(o, "unit", null, undefined, service);
    // A missing unit is named as the empty one, a TypeError (V8's text).
    if (unit === undefined && style === "unit") throw new TypeError(`Invalid unit argument for ${service}() ''`);
    if (unit !== undefined && !isUnit(unit)) throw new RangeError(`Invalid unit argument for ${service}() '${unit}'`);
    const unitDisplay = opt(o, "unitDisplay", ["short", "narrow", "long"], "short", service);
    if (currency !== undefined) currency = currency.toUpperCase();
    const notation = opt(o, "notation", ["standard", "scientific", "engineering", "compact"], "standard", service);
    const cDigits = style === "currency" ? (CURRENCY_DIGITS[currency] ?? 2) : 0;
    const mnfdDefault = style === "currency" && notation === "standard" ? cDigits : 0;
    const mxfdDefault = style === "currency" && notation === "standard" ? cDigits : style === "percent" ? 0 : 3;
    const locale = withKeywords(base, nu === kept.nu ? { nu } : {});
    const r = record({ locale, numberingSystem: nu ?? N.numberingSystem(base), style });
    if (style === "currency") Object.assign(r, { currency, currencyDisplay, currencySign });
    if (style === "unit") Object.assign(r, { unit, unitDisplay });
    const digits = digitOptions(o, r, mnfdDefault, mxfdDefault, notation, service);
    const compactDisplay = opt(o, "compactDisplay", ["short", "long"], "short", service);
    const defaultGrouping = notation === "compact" ? "min2" : "auto";
    let grouping = o.useGrouping;
    if (grouping === undefined) grouping = defaultGrouping;
    else if (grouping === true) grouping = "always";
    else if (!grouping) grouping = false;
    else {
      grouping = String(grouping);
      if (grouping === "true" || grouping === "false") grouping = defaultGrouping;
      else if (!["min2", "auto", "always"].includes(grouping)) throw new RangeError(`Value ${grouping} out of range for Intl.NumberFormat options property useGrouping`);
    }
    const signDisplay = opt(o, "signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto", service);
    r.useGrouping = grouping;
    r.notation = notation;
    if (notation === "compact") r.compactDisplay = compactDisplay;
    r.signDisplay = signDisplay;
    r.roundingIncrement = digits.increment;
    r.roundingMode = digits.roundingMode;
    r.roundingPriority = digits.compactDefault ? "morePrecision" : digits.priority;
    r.trailingZeroDisplay = digits.trailing;
    const nativeOptions = { ...r, useGrouping: String(grouping), roundingType: digits.roundingType };
    if (digits.compactDefault) nativeOptions.roundingType = "morePrecision";
    const tagWithNu = withKeywords(base, { nu: r.numberingSystem });
    // The unit percent (and percent-per-X) in a short or narrow width is the locale's percent
    // pattern around the number itself, the denominator dropped, as ICU formats it for V8.
    const percentUnit = style === "unit" && unitDisplay !== "long" && (unit === "percent" || unit.startsWith("percent-per-"));
    const formatter = percentUnit ? N.numberFormatter(tagWithNu, { ...nativeOptions, style: "percent", scaled: false }) : N.numberFormatter(tagWithNu, nativeOptions);
    numberFormats.set(this, { r, formatter, percentUnit, unit: style === "unit" && !percentUnit ? { unit, unitDisplay, tag: base, options: nativeOptions } : null });
  }
  // A value as the formatter takes it: a number, or a decimal string (BigInt, numeric text).
  const numeric = (x) => {
    if (typeof x === "bigint") return x.toString();
    if (typeof x === "string") {
      const t = x.trim();
      if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return t;
      return Number(x);
    }
    const p = typeof x === "object" && x !== null ? x.valueOf() : x;
    if (typeof p === "bigint") return p.toString();
    return Number(p);
  };
  const numberParts = (state, x) => {
    const v = numeric(x);
    const parts = state.formatter.parts(v);
    if (state.unit !== null) return unitParts(state, v, parts);
    // V8 types the percent sign of the unit percent as the unit.
    if (state.percentUnit) return parts.map((p) => (p.type === "percentSign" ? { type: "unit", value: p.value } : p));
    return parts;
  };
  // Units: the number's parts inside CLDR's pattern for the unit, the width and the
  // number's plural (`unitWords`).
  const unitParts = (state, v, parts) => unitWords(state.unit, v, parts) ?? [...parts, { type: "literal", value: " " }, { type: "unit", value: state.unit.unit }];
  const join = (parts) => { let s = ""; for (const p of parts) s += p.value; return s; };
  accessor(NumberFormat.prototype, "format", (self) => {
    const state = numberState(self, "format");
    if (state.bound === undefined) {
      const bound = (x) => join(numberParts(state, x));
      define(bound, "name", { value: "" });
      state.bound = bound;
    }
    return state.bound;
  });
  method(NumberFormat.prototype, "formatToParts", { formatToParts(x) { return numberParts(numberState(this, "formatToParts"), x); } }.formatToParts);
  // formatRange as ICU's range formatter does it (collapse "auto"): a side is the core digits
  // inside the pattern's affixes (sign, currency symbol, percent or compact sign: ICU's middle
  // modifier) inside the unit's words (its outer modifier). The unit's words are shared, in
  // the plural CLDR's plural ranges give the two numbers; the affixes are shared only when the
  // start's are more than one code point and the same on both sides ("US$3–5", "$3 – $5").
  // The separator is the locale's range pattern, spaced when a side repeats an affix.
  const RANGE_CORE = new Set(["integer", "group", "decimal", "fraction", "nan", "infinity", "exponentSeparator", "exponentMinusSign", "exponentInteger"]);
  const rangeSide = (parts) => {
    let i = 0, j = parts.length - 1;
    while (i < parts.length && !RANGE_CORE.has(parts[i].type)) i++;
    while (j >= i && !RANGE_CORE.has(parts[j].type)) j--;
    return { before: parts.slice(0, i), core: parts.slice(i, j + 1), after: parts.slice(j + 1) };
  };
  const codePoints = (parts) => { let n = 0; for (const p of parts) n += [...p.value].length; return n; };
  const sourced = (parts, source) => parts.map((p) => ({ ...p, source }));
  const rangeParts = (state, a, b) => {
    if (a === undefined || b === undefined) throw new TypeError("start or end is undefined");
    const va = numeric(a), vb = numeric(b);
    if (Number.isNaN(va) || Number.isNaN(vb)) throw new RangeError("Invalid number range");
    const x = numberParts(state, a), y = numberParts(state, b);
    if (join(x) === join(y)) return [{ type: "approximatelySign", value: "~", source: "shared" }, ...x.map((p) => ({ ...p, source: "shared" }))];
    const unit = state.unit;
    const inner = (v, parts) => (unit === null ? parts : state.formatter.parts(numeric(v)));
    const sx = rangeSide(inner(a, x)), sy = rangeSide(inner(b, y));
    const middle = codePoints(sx.before) + codePoints(sx.after);
    const collapse = middle > 1 && join(sx.before) === join(sy.before) && join(sx.after) === join(sy.after);
    if (state.rangePattern === undefined) state.rangePattern = N.rangePattern(state.r.locale, state.r.numberingSystem);
    const pattern = state.rangePattern;
    const i0 = pattern.indexOf("{0}"), i1 = pattern.indexOf("{1}");
    let infix = pattern.slice(i0 + 3, i1);
    if (!collapse && middle > 0) {
      if (!/^[\s\u200e\u200f]/.test(infix)) infix = " " + infix;
      if (!/[\s\u200e\u200f]$/.test(infix)) infix += " ";
    }
    const out = [];
    const push = (parts, source) => { for (const p of sourced(parts, source)) append(out, p); };
    const head = pattern.slice(0, i0), tail = pattern.slice(i1 + 3);
    let words = [[], []];
    if (unit !== null) {
      const affixes = N.unitAffixes(unit.tag, unit.unit, unit.unitDisplay, pluralDigits(unit, va), pluralDigits(unit, vb));
      if (affixes !== undefined && affixes !== null) {
        words = [[], []];
        if (affixes.length === 1) wordParts(affixes[0], words[1]);
        else { wordParts(affixes[0], words[0]); wordParts(affixes[1], words[1]); }
      }
    }
    push(words[0], "shared");
    if (head) push([{ type: "literal", value: head }], "shared");
    if (collapse) {
      push(sx.before, "shared");
      push(sx.core, "startRange");
      push([{ type: "literal", value: infix }], "shared");
      push(sy.core, "endRange");
      push(sx.after, "shared");
    } else {
      push([...sx.before, ...sx.core, ...sx.after], "startRange");
      push([{ type: "literal", value: infix }], "shared");
      push([...sy.before, ...sy.core, ...sy.after], "endRange");
    }
    if (tail) push([{ type: "literal", value: tail }], "shared");
    push(words[1], "shared");
    return out;
  };
  method(NumberFormat.prototype, "formatRange", { formatRange(a, b) { return join(rangeParts(numberState(this, "formatRange"), a, b)); } }.formatRange);
  method(NumberFormat.prototype, "formatRangeToParts", { formatRangeToParts(a, b) { return rangeParts(numberState(this, "formatRangeToParts"), a, b); } }.formatRangeToParts);
  method(NumberFormat.prototype, "resolvedOptions", { resolvedOptions() { return { ...numberState(this, "resolvedOptions").r }; } }.resolvedOptions);
  method(NumberFormat, "supportedLocalesOf", { supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); } }.supportedLocalesOf);
  tag(NumberFormat, "Intl.NumberFormat");

  // DateTimeFormat.
  const S_DTF = "Intl.DateTimeFormat";
  const DATE_FIELDS = ["weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName"];
  const dateFormats = new WeakMap();
  const hourCycles = new Map();
  // The locale's default cycle, read off its formatted hours.
  const localeCycles = (base) => {
    let c = hourCycles.get(base);
    if (c === undefined) {
      const f = N.dateFormatter(base, { hour: "numeric", timeZone: "UTC" });
      const at13 = f.parts(13 * 3600000), at0 = f.parts(0);
      const twelve = at13.some((p) => p.type === "dayPeriod");
      const zero = at0.find((p) => p.type === "hour")?.value;
      const h11 = twelve ? /^[0٠۰०০]$/.test(zero ?? "") : false;
      c = { default: twelve ? (h11 ? "h11" : "h12") : "h23" };
      hourCycles.set(base, c);
    }
    return c;
  };
  // The cycle `hour12` picks, as V8 does: the locale's own when it has the asked clock, else
  // h12 (h11 in Japan, where CLDR's time data allows `K` before `h`) or h23.
  const twelveHourCycle = (base, own) => {
    if (own === "h11" || own === "h12") return own;
    const region = base.split("-").slice(1).find((p) => /^([A-Za-z]{2}|\d{3})$/.test(p));
    return region !== undefined && region.toUpperCase() === "JP" ? "h11" : "h12";
  };
  const twentyFourHourCycle = (own) => (own === "h23" || own === "h24" ? own : "h23");
  const offsetZone = /^[+-]\d{2}(:?\d{2})?$/;
  const timeZoneOption = (v) => {
    if (v === undefined) return "UTC";
    const s = String(v);
    if (offsetZone.test(s)) {
      const sign = s[0], h = s.slice(1, 3), m = s.length > 3 ? s.slice(-2) : "00";
      if (Number(h) > 23 || Number(m) > 59) throw new RangeError(`Invalid time zone specified: ${s}`);
      // -00 and -00:00 are UTC's offset, written +00:00.
      return `${h === "00" && m === "00" ? "+" : sign}${h}:${m}`;
    }
    const z = N.timeZone(s);
    if (z === undefined || z === null) throw new RangeError(`Invalid time zone specified: ${s}`);
    return z;
  };
  function DateTimeFormat(locales, options_, required = "any", defaults = "date") {
    if (!new.target) return legacy(this, DateTimeFormat, new DateTimeFormat(locales, options_));
    const service = takeCaller(S_DTF);
    const o = options(options_);
    const { base, kept } = resolve(locales, { nu: isNu, ca: isCa, hc: (v) => ["h11", "h12", "h23", "h24"].includes(v) });
    opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", service);
    let caOption = opt(o, "calendar", null, undefined, service);
    if (caOption !== undefined && !typeToken.test(caOption)) throw new RangeError(`Invalid calendar : ${caOption}`);
    // A valid type token is ASCII, so lower-casing it is ASCII lower-casing (`ISO8601`).
    if (caOption !== undefined) caOption = caOption.toLowerCase();
    const nuOption = numberingOption(o, service);
    const hour12 = optionalBoolean(o.hour12);
    let hourCycle = opt(o, "hourCycle", ["h11", "h12", "h23", "h24"], undefined, service);
    if (hour12 !== undefined) hourCycle = undefined;
    const timeZone = timeZoneOption(o.timeZone);
    const f = Object.create(null);
    f.weekday = opt(o, "weekday", ["narrow", "short", "long"], undefined, service);
    f.era = opt(o, "era", ["narrow", "short", "long"], undefined, service);
    f.year = opt(o, "year", ["2-digit", "numeric"], undefined, service);
    f.month = opt(o, "month", ["2-digit", "numeric", "narrow", "short", "long"], undefined, service);
    f.day = opt(o, "day", ["2-digit", "numeric"], undefined, service);
    f.dayPeriod = opt(o, "dayPeriod", ["narrow", "short", "long"], undefined, service);
    f.hour = opt(o, "hour", ["2-digit", "numeric"], undefined, service);
    f.minute = opt(o, "minute", ["2-digit", "numeric"], undefined, service);
    f.second = opt(o, "second", ["2-digit", "numeric"], undefined, service);
    f.fractionalSecondDigits = num(o, "fractionalSecondDigits", 1, 3, undefined);
    f.timeZoneName = opt(o, "timeZoneName", ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"], undefined, service);
    opt(o, "formatMatcher", ["basic", "best fit"], "best fit", service);
    const dateStyle = opt(o, "dateStyle", ["full", "long", "medium", "short"], undefined, service);
    const timeStyle = opt(o, "timeStyle", ["full", "long", "medium", "short"], undefined, service);
    if (dateStyle !== undefined || timeStyle !== undefined) {
      for (const k of DATE_FIELDS) if (f[k] !== undefined) throw new TypeError("Invalid option : option");
      // toLocaleDateString takes no timeStyle, toLocaleTimeString no dateStyle (even beside
      // the other style).
      if (required === "date" && timeStyle !== undefined) throw new TypeError("Invalid option : timeStyle");
      if (required === "time" && dateStyle !== undefined) throw new TypeError("Invalid option : dateStyle");
    } else {
      const hasDate = ["weekday", "year", "month", "day"].some((k) => f[k] !== undefined);
      const hasTime = ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"].some((k) => f[k] !== undefined);
      let needDefaults = true;
      if ((required === "date" || required === "any") && hasDate) needDefaults = false;
      if ((required === "time" || required === "any") && hasTime) needDefaults = false;
      if (required === "any" && (hasDate || hasTime)) needDefaults = false;
      if (needDefaults && (defaults === "date" || defaults === "all")) { f.year = "numeric"; f.month = "numeric"; f.day = "numeric"; }
      if (needDefaults && (defaults === "time" || defaults === "all")) { f.hour = "numeric"; f.minute = "numeric"; f.second = "numeric"; }
    }
    const nu = nuOption !== undefined && isNu(nuOption) ? nuOption : kept.nu;
    const ca = caOption !== undefined && isCa(caOption) ? canonicalCa(caOption) : kept.ca !== undefined ? canonicalCa(kept.ca) : undefined;
    const cycles = localeCycles(base);
    const hasHour = f.hour !== undefined || timeStyle !== undefined;
    let hc;
    if (hour12 !== undefined) hc = hour12 ? twelveHourCycle(base, cycles.default) : twentyFourHourCycle(cycles.default);
    else if (hourCycle !== undefined) hc = hourCycle;
    else if (kept.hc !== undefined) hc = kept.hc;
    else hc = cycles.default;
    const localeKw = {};
    if (ca !== undefined && ca === kept.ca) localeKw.ca = ca;
    if (nu !== undefined && nu === kept.nu) localeKw.nu = nu;
    // An option equal to the extension keeps the extension in the locale (ECMA-402 ResolveLocale).
    if (hc === kept.hc && hour12 === undefined && (hourCycle === undefined || hourCycle === kept.hc)) localeKw.hc = hc;
    const r = record({ locale: withKeywords(base, localeKw), calendar: ca ?? N.calendar(base), numberingSystem: nu ?? N.numberingSystem(base), timeZone });
    if (hasHour) { r.hourCycle = hc; r.hour12 = hc === "h11" || hc === "h12"; }
    const shown = record(f);
    if (shown.hour !== undefined) {
      if (shown.minute !== undefined) shown.minute = "2-digit";
      if (shown.second !== undefined) shown.second = "2-digit";
    }
    for (const k of DATE_FIELDS) if (shown[k] !== undefined) r[k] = shown[k];
    if (dateStyle) r.dateStyle = dateStyle;
    if (timeStyle) r.timeStyle = timeStyle;
    const kw = { hc: hasHour ? (hc === "h24" ? "h23" : hc) : undefined, nu: r.numberingSystem, ca: r.calendar };
    // A numeric hour's digits where V8's patterns differ from ICU4X's (measured on the
    // reference over the probe's 48 locales): an explicit 24-hour clock pads where the
    // locale's own clock has 12 hours (`en`: `03:05`, `de`: `3:05`), a 12-hour one never
    // does, and Spanish and Gujarati (and Italian, Russian, Ukrainian for an hour alone)
    // write their default hour unpadded.
    const language = base.split("-")[0];
    let hourDigits;
    if (f.hour === "numeric") {
      if (hour12 === false) hourDigits = cycles.default !== "h23" && cycles.default !== "h24" && language !== "mr" && language !== "pa" ? 2 : 1;
      else if (hour12 === true) hourDigits = 1;
      else if (hourCycle === undefined && kept.hc === undefined && (language === "es" || language === "gu" || (f.minute === undefined && (language === "it" || language === "ru" || language === "uk")))) hourDigits = 1;
    }
    // Punjabi formats as the root locale on a 12-hour clock, whose styled hour V8 pads;
    // Spanish's long and full times do not pad (`2:00:00 EET`).
    if (language === "pa" && timeStyle !== undefined && (hc === "h12" || hc === "h11")) hourDigits = 2;
    if (language === "es" && (timeStyle === "long" || timeStyle === "full")) hourDigits = 1;
    // The hour cycle V8 writes into the skeleton: one the options or the locale name, else
    // the locale's own (`j`).
    const skeletonCycle = hasHour && (hour12 !== undefined || hourCycle !== undefined || kept.hc !== undefined) ? hc : undefined;
    const formatter = N.dateFormatter(withKeywords(base, kw), { ...f, dateStyle, timeStyle, timeZone, hourDigits, calendar: r.calendar, hourCycle: hasHour ? hc : undefined, skeletonCycle });
    // V8 resolves the component options from its pattern (`skeleton.rs`): the widths it
    // has (`month: "numeric"` for zh's `y年M月d日E`), in the spec's order.
    if (!dateStyle && !timeStyle) {
      const read = formatter.components();
      if (read !== "") {
        const got = Object.fromEntries(read.split(";").map((p) => p.split("=")));
        // A day period asked for beside a 12-hour clock stays resolved as asked (V8's pattern
        // has the flexible period, `B`, where the match here has `a`); a 24-hour clock has
        // none, as on the reference (`de` with `hour: "2-digit"`).
        if (got.dayPeriod === undefined && r.dayPeriod !== undefined && (r.hourCycle === "h12" || r.hourCycle === "h11")) got.dayPeriod = r.dayPeriod;
        for (const k of DATE_FIELDS) delete r[k];
        for (const k of DATE_FIELDS) if (got[k] !== undefined) r[k] = k === "fractionalSecondDigits" ? Number(got[k]) : got[k];
      }
    }
    dateFormats.set(this, { r, formatter, f, dateStyle, timeStyle, timeZone, hour12, hourCycle });
  }
  const dateState = (d, name) => {
    const s = unwrap(d, DateTimeFormat, dateFormats);
    if (s === undefined) throw new TypeError(`Method ${unwrapper(d, name, "DateTimeFormat")} called on incompatible receiver ${receiverText(d)}`);
    return s;
  };
  const instant = (date) => {
    let t = date === undefined ? Date.now() : Number(date);
    if (!Number.isFinite(t) || Math.abs(t) > 8.64e15) throw new RangeError("Invalid time value");
    return Math.trunc(t) + 0;
  };
  accessor(DateTimeFormat.prototype, "format", (self) => {
    const state = dateState(self, "format");
    if (state.bound === undefined) {
      const bound = (date) => state.formatter.format(instant(date));
      define(bound, "name", { value: "" });
      state.bound = bound;
    }
    return state.bound;
  });
  method(DateTimeFormat.prototype, "formatToParts", { formatToParts(date) { return dateState(this, "formatToParts").formatter.parts(instant(date)); } }.formatToParts);
  // The formatter of a range whose ends differ in a field the options leave out: ICU shows
  // it (a time on two days with its date, `yMd`; a date without its year in two years with
  // the year), or undefined when the options show every field that differs.
  const widerRange = (state, ta, tb) => {
    const [da] = state.formatter.localFields(ta).split(" "), [db] = state.formatter.localFields(tb).split(" ");
    if (da === db || state.dateStyle !== undefined) return undefined;
    const f = state.f;
    const hasDate = f.weekday !== undefined || f.year !== undefined || f.month !== undefined || f.day !== undefined;
    let extra;
    if (!hasDate) extra = { year: "numeric", month: "numeric", day: "numeric" };
    else if (f.year === undefined && da.split("-")[0] !== db.split("-")[0]) extra = { year: "numeric" };
    else return undefined;
    if (state.wider === undefined) {
      const time = { short: { hour: "numeric", minute: "2-digit" }, medium: { hour: "numeric", minute: "2-digit", second: "2-digit" }, long: { hour: "numeric", minute: "2-digit", second: "2-digit", timeZoneName: "short" }, full: { hour: "numeric", minute: "2-digit", second: "2-digit", timeZoneName: "long" } }[state.timeStyle];
      const options = { ...f, ...time, ...extra, timeZone: state.timeZone, calendar: state.r.calendar, numberingSystem: state.r.numberingSystem, hour12: state.hour12, hourCycle: state.hourCycle };
      state.wider = dateFormats.get(new DateTimeFormat(state.r.locale, options)).formatter;
    }
    return state.wider;
  };
  const dateRange = (state, a, b) => {
    if (a === undefined || b === undefined) throw new TypeError("startDate or endDate is undefined");
    const ta = instant(a), tb = instant(b);
    // The format's interval pattern, where one applies (CLDR 48 intervalFormats).
    const own = state.formatter.rangeParts(ta, tb);
    if (own !== undefined && own !== null) return own;
    const formatter = widerRange(state, ta, tb) ?? state.formatter;
    const x = formatter.endParts(ta), y = formatter.endParts(tb);
    if (join(x) === join(y)) return x.map((p) => ({ ...p, source: "shared" }));
    // The ends joined by the locale's interval fallback (`{0} – {1}`).
    const pattern = state.formatter.rangePattern();
    const i = pattern.indexOf("{0}"), j = pattern.indexOf("{1}");
    const out = [];
    const lit = (text) => { if (text !== "") out.push({ type: "literal", value: text, source: "shared" }); };
    const first = i < j ? [x, "startRange"] : [y, "endRange"], second = i < j ? [y, "endRange"] : [x, "startRange"];
    lit(pattern.slice(0, Math.min(i, j)));
    for (const p of first[0]) out.push({ ...p, source: first[1] });
    lit(pattern.slice(Math.min(i, j) + 3, Math.max(i, j)));
    for (const p of second[0]) out.push({ ...p, source: second[1] });
    lit(pattern.slice(Math.max(i, j) + 3));
    // ICU's spans of the two ends reach their last field: the text after it is `shared`,
    // one literal with the separator (`fa`'s `) تا ` after a zone name in parentheses, and
    // the closing `)`), as V8 reports it.
    const merged = [];
    for (const p of out) {
      const last = merged[merged.length - 1];
      if (p.type === "literal" && last !== undefined && last.type === "literal") {
        last.value += p.value;
        last.source = "shared";
      } else merged.push(p);
    }
    const end = merged[merged.length - 1];
    if (end !== undefined && end.type === "literal") end.source = "shared";
    return merged;
  };
  method(DateTimeFormat.prototype, "formatRange", { formatRange(a, b) { return join(dateRange(dateState(this, "formatRange"), a, b)); } }.formatRange);
  method(DateTimeFormat.prototype, "formatRangeToParts", { formatRangeToParts(a, b) { return dateRange(dateState(this, "formatRangeToParts"), a, b); } }.formatRangeToParts);
  method(DateTimeFormat.prototype, "resolvedOptions", { resolvedOptions() { return { ...dateState(this, "resolvedOptions").r }; } }.resolvedOptions);
  method(DateTimeFormat, "supportedLocalesOf", { supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); } }.supportedLocalesOf);
  tag(DateTimeFormat, "Intl.DateTimeFormat");

  // PluralRules.
  const S_PR = "Intl.PluralRules";
  const pluralRules = new WeakMap();
  class PluralRules {
    constructor(locales, options_) {
      const o = options(options_);
      const { base } = resolve(locales, {}, true);
      opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", S_PR);
      const type = opt(o, "type", ["cardinal", "ordinal"], "cardinal", S_PR);
      // notation and compactDisplay are read (and validated) as V8 reads them.
      const notation = opt(o, "notation", ["standard", "scientific", "engineering", "compact"], "standard", S_PR);
      const compactDisplay = opt(o, "compactDisplay", ["short", "long"], "short", S_PR);
      const r = record({ locale: base, type, notation });
      if (notation === "compact") r.compactDisplay = compactDisplay;
      const digits = digitOptions(o, r, 0, 3, notation, S_PR);
      // Compact notation's default rounding (two significant digits, more precision wins)
      // shows no fraction digits, as V8 resolves it.
      if (digits.compactDefault) { delete r.minimumFractionDigits; delete r.maximumFractionDigits; }
      const rules = N.pluralRules(base, type === "ordinal");
      const order = ["zero", "one", "two", "few", "many", "other"];
      r.pluralCategories = sorted(rules.categories().split(" "), (a, b) => order.findIndex((x) => x === a) < order.findIndex((x) => x === b));
      r.roundingIncrement = digits.increment;
      r.roundingMode = digits.roundingMode;
      r.roundingPriority = digits.compactDefault ? "morePrecision" : digits.priority;
      r.trailingZeroDisplay = digits.trailing;
      pluralRules.set(this, { r, rules, digits: { ...r, roundingType: digits.roundingType } });
    }
    select(n) {
      const s = pluralRules.get(this);
      if (s === undefined) throw new TypeError("Method Intl.PluralRules.prototype.select called on incompatible receiver");
      return s.rules.select(+n, s.digits);
    }
    selectRange(a, b) {
      const s = pluralRules.get(this);
      if (s === undefined) throw new TypeError("Method Intl.PluralRules.prototype.selectRange called on incompatible receiver");
      if (a === undefined || b === undefined) throw new TypeError("start or end is undefined");
      const x = Number(a), y = Number(b);
      if (Number.isNaN(x) || Number.isNaN(y)) throw new RangeError("Invalid number range");
      return s.rules.selectRange(x, y, s.digits);
    }
    resolvedOptions() {
      const s = pluralRules.get(this);
      if (s === undefined) throw new TypeError("Method Intl.PluralRules.prototype.resolvedOptions called on incompatible receiver");
      return { ...s.r, pluralCategories: [...s.r.pluralCategories] };
    }
    static supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); }
  }
  tag(PluralRules, "Intl.PluralRules");

  // Collator.
  const S_C = "Intl.Collator";
  const collators = new WeakMap();
  function Collator(locales, options_) {
    if (!new.target) return new Collator(locales, options_);
    const service = takeCaller(S_C);
    const o = options(options_);
    const usage = opt(o, "usage", ["sort", "search"], "sort", service);
    opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", service);
    const collation = opt(o, "collation", null, undefined, service);
    if (collation !== undefined && !typeToken.test(collation)) throw new RangeError(`Invalid collation : ${collation}`);
    const numericOpt = optionalBoolean(o.numeric);
    const caseFirstOpt = opt(o, "caseFirst", ["upper", "lower", "false"], undefined, service);
    const { base, kept } = resolve(locales, { kn: (v) => v === "true" || v === "false", kf: (v) => ["upper", "lower", "false"].includes(v), co: (v) => !["standard", "search"].includes(v) });
    const numericValue = numericOpt ?? (kept.kn !== undefined ? kept.kn === "true" : false);
    const caseFirst = caseFirstOpt ?? kept.kf ?? "false";
    const sensitivity = opt(o, "sensitivity", ["base", "accent", "case", "variant"], "variant", service);
    const ignorePunctuation = optionalBoolean(o.ignorePunctuation) ?? base.split("-")[0] === "th";
    const localeKw = {};
    // The collation: the -u-co- keyword where the language has it, then the option where
    // it has that one. As on V8 (measured on the reference), the locale names the collation
    // chosen (`de` with `collation: "phonebk"` resolves as `de-u-co-phonebk`) unless an
    // option overrode a keyword the language has (`de-u-co-eor` with `phonebk`: `de`).
    const collations = COLLATIONS_BY_LANGUAGE[base.split("-")[0]] ?? ["emoji", "eor"];
    const own = kept.co !== undefined && collations.includes(kept.co) ? kept.co : undefined;
    const chosen = collation !== undefined && collations.includes(collation) ? collation : undefined;
    const co = chosen ?? own ?? "default";
    if (co !== "default" && !(own !== undefined && chosen !== undefined && own !== chosen)) localeKw.co = co;
    if (kept.kn !== undefined && (numericOpt === undefined || numericOpt === (kept.kn === "true"))) localeKw.kn = kept.kn;
    if (kept.kf !== undefined && (caseFirstOpt === undefined || caseFirstOpt === kept.kf)) localeKw.kf = kept.kf;
    const r = { locale: withKeywords(base, localeKw), usage, sensitivity, ignorePunctuation, collation: co, numeric: numericValue, caseFirst };
    const kw = { co: co !== "default" ? co : undefined, kn: numericValue ? "true" : undefined, kf: caseFirst !== "false" ? caseFirst : undefined };
    collators.set(this, { r, comparer: N.collator(withKeywords(base, kw), sensitivity, ignorePunctuation) });
  }
  const collatorState = (c, name) => {
    const s = typeof c === "object" && c !== null ? collators.get(c) : undefined;
    if (s === undefined) throw new TypeError(`Method Intl.Collator.prototype.${name} called on incompatible receiver ${String(c)}`);
    return s;
  };
  accessor(Collator.prototype, "compare", (self) => {
    const s = collatorState(self, "compare");
    if (s.bound === undefined) {
      const bound = (a, b) => s.comparer.compare(String(a), String(b));
      define(bound, "name", { value: "" });
      s.bound = bound;
    }
    return s.bound;
  });
  method(Collator.prototype, "resolvedOptions", { resolvedOptions() { return { ...collatorState(this, "resolvedOptions").r }; } }.resolvedOptions);
  method(Collator, "supportedLocalesOf", { supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); } }.supportedLocalesOf);
  tag(Collator, "Intl.Collator");

  // RelativeTimeFormat.
  const S_RTF = "Intl.RelativeTimeFormat";
  const relativeFormats = new WeakMap();
  const UNITS = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];
  class RelativeTimeFormat {
    constructor(locales, options_) {
      const o = options(options_);
      opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", S_RTF);
      const nuOption = numberingOption(o, S_RTF);
      const { base, kept } = resolve(locales, { nu: isNu });
      const nu = nuOption !== undefined && isNu(nuOption) ? nuOption : kept.nu;
      const style = opt(o, "style", ["long", "short", "narrow"], "long", S_RTF);
      const numeric = opt(o, "numeric", ["always", "auto"], "always", S_RTF);
      const r = { locale: withKeywords(base, nu !== undefined && nu === kept.nu ? { nu } : {}), style, numeric, numberingSystem: nu ?? N.numberingSystem(base) };
      relativeFormats.set(this, { r, tag: withKeywords(base, { nu: r.numberingSystem }) });
    }
    format(value, unit) { return join(relativeParts(this, value, unit, "format")); }
    formatToParts(value, unit) { return relativeParts(this, value, unit, "formatToParts"); }
    resolvedOptions() {
      const s = relativeFormats.get(this);
      if (s === undefined) throw new TypeError("Method Intl.RelativeTimeFormat.prototype.resolvedOptions called on incompatible receiver");
      return { ...s.r };
    }
    static supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); }
  }
  const relativeParts = (rtf, value, unit, name) => {
    const s = relativeFormats.get(rtf);
    if (s === undefined) throw new TypeError(`Method Intl.RelativeTimeFormat.prototype.${name} called on incompatible receiver`);
    const v = Number(value);
    const u = toStr(unit);
    const singular = u.endsWith("s") ? u.slice(0, -1) : u;
    if (!UNITS.includes(singular)) throw new RangeError(`Invalid unit argument for Intl.RelativeTimeFormat.prototype.${name}() '${u}'`);
    if (!Number.isFinite(v)) throw new RangeError(`Invalid number value`);
    const parts = N.relative(s.tag, s.r.style, s.r.numeric, singular, v);
    return parts.map((p) => (p.type === "literal" ? p : { ...p, unit: singular }));
  };
  tag(RelativeTimeFormat, "Intl.RelativeTimeFormat");

  // ListFormat.
  const S_LF = "Intl.ListFormat";
  const listFormats = new WeakMap();
  const stringList = (list) => {
    if (list === undefined) return [];
    const out = [];
    for (const x of list) {
      if (typeof x !== "string") throw new TypeError(`Iterable yielded ${typeof x === "symbol" ? "Symbol()" : String(x)} which is not a string`);
      append(out, x);
    }
    return out;
  };
  class ListFormat {
    constructor(locales, options_) {
      const o = strictOptions(options_);
      const { base } = resolve(locales);
      opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", S_LF);
      const type = opt(o, "type", ["conjunction", "disjunction", "unit"], "conjunction", S_LF);
      const style = opt(o, "style", ["long", "short", "narrow"], "long", S_LF);
      listFormats.set(this, { locale: base, type, style });
    }
    format(list) { return join(listParts(this, list, "format")); }
    formatToParts(list) { return listParts(this, list, "formatToParts"); }
    resolvedOptions() {
      const s = listFormats.get(this);
      if (s === undefined) throw new TypeError("Method Intl.ListFormat.prototype.resolvedOptions called on incompatible receiver");
      return { ...s };
    }
    static supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); }
  }
  const listParts = (lf, list, name) => {
    const s = listFormats.get(lf);
    if (s === undefined) throw new TypeError(`Method Intl.ListFormat.prototype.${name} called on incompatible receiver`);
    return N.list(s.locale, s.type, s.style, stringList(list));
  };
  tag(ListFormat, "Intl.ListFormat");

  // Segmenter.
  const S_SEG = "Intl.Segmenter";
  const segmenters = new WeakMap();
  class Segmenter {
    constructor(locales, options_) {
      const o = strictOptions(options_);
      const { base } = resolve(locales);
      opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", S_SEG);
      const granularity = opt(o, "granularity", ["grapheme", "word", "sentence"], "grapheme", S_SEG);
      segmenters.set(this, { locale: base, granularity });
    }
    segment(input) {
      const s = segmenters.get(this);
      if (s === undefined) throw new TypeError("Method Intl.Segmenter.prototype.segment called on incompatible receiver");
      return new Segments(s.granularity, toStr(input));
    }
    resolvedOptions() {
      const s = segmenters.get(this);
      if (s === undefined) throw new TypeError("Method Intl.Segmenter.prototype.resolvedOptions called on incompatible receiver");
      return { ...s };
    }
    static supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); }
  }
  tag(Segmenter, "Intl.Segmenter");
  const segmentData = (g, input, starts, i) => {
    const start = starts[i][0], end = i + 1 < starts.length ? starts[i + 1][0] : input.length;
    const d = { segment: input.slice(start, end), index: start, input };
    if (g === "word") d.isWordLike = starts[i][1];
    return d;
  };
  class Segments {
    #g; #input; #starts;
    constructor(g, input) { this.#g = g; this.#input = input; this.#starts = N.segments(g, input); }
    containing(index) {
      const n = index === undefined ? 0 : Math.trunc(+index) || 0;
      if (n < 0 || n >= this.#input.length) return undefined;
      let i = this.#starts.length - 1;
      while (i > 0 && this.#starts[i][0] > n) i--;
      return segmentData(this.#g, this.#input, this.#starts, i);
    }
    [Symbol.iterator]() {
      const g = this.#g, input = this.#input, starts = this.#starts;
      let i = 0;
      const it = Object.create(SegmentIteratorProto);
      segmentIterators.set(it, () => (i < starts.length ? { value: segmentData(g, input, starts, i++), done: false } : { value: undefined, done: true }));
      return it;
    }
  }
  const segmentIterators = new WeakMap();
  const SegmentIteratorProto = Object.create(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
  method(SegmentIteratorProto, "next", { next() {
    const step = segmentIterators.get(this);
    if (step === undefined) throw new TypeError("Method %SegmentIterator.prototype%.next called on incompatible receiver");
    return step();
  } }.next);
  define(SegmentIteratorProto, Symbol.toStringTag, { value: "Segmenter String Iterator", configurable: true });

  // DisplayNames.
  const DATE_TIME_FIELDS = ["era", "year", "quarter", "month", "weekOfYear", "weekday", "day", "dayPeriod", "hour", "minute", "second", "timeZoneName"];
  const S_DN = "Intl.DisplayNames";
  const displayNames = new WeakMap();
  class DisplayNames {
    constructor(locales, options_) {
      // The locales are read before the options, as ECMA-402 orders it.
      const { base } = resolve(locales);
      if (options_ === undefined) throw new TypeError("Cannot convert undefined or null to object");
      const o = strictOptions(options_);
      opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", S_DN);
      const style = opt(o, "style", ["narrow", "short", "long"], "long", S_DN);
      const type = opt(o, "type", ["language", "region", "script", "currency", "calendar", "dateTimeField"], undefined, S_DN);
      if (type === undefined) throw new TypeError("Required option 'type' is missing");
      const fallback = opt(o, "fallback", ["code", "none"], "code", S_DN);
      const languageDisplay = opt(o, "languageDisplay", ["dialect", "standard"], "dialect", S_DN);
      const r = { locale: base, style, type, fallback };
      if (type === "language") r.languageDisplay = languageDisplay;
      displayNames.set(this, r);
    }
    of(code) {
      const s = displayNames.get(this);
      if (s === undefined) throw new TypeError("Method Intl.DisplayNames.prototype.of called on incompatible receiver");
      let c = String(code);
      if (s.type === "region") {
        if (!/^([A-Za-z]{2}|\d{3})$/.test(c)) throw new RangeError("invalid_argument");
        // V8 looks a region up as written: a lower-case code (`"ar"`) has no name there and
        // falls back to the code as given (measured on the reference).
        if (c !== c.toUpperCase()) return s.fallback === "code" ? c : undefined;
      } else if (s.type === "script") {
        if (!/^[A-Za-z]{4}$/.test(c)) throw new RangeError("invalid_argument");
        c = c[0].toUpperCase() + c.slice(1).toLowerCase();
      } else if (s.type === "language") {
        const canon = N.canonicalize(c);
        if (canon === undefined || canon === null || /-u-|-x-|-t-/.test(canon) || c.includes("_")) throw new RangeError("invalid_argument");
        c = canon;
      } else if (s.type === "currency") {
        if (!/^[A-Za-z]{3}$/.test(c)) throw new RangeError("invalid_argument");
        c = c.toUpperCase();
      } else if (s.type === "calendar") {
        if (!typeToken.test(c)) throw new RangeError("invalid_argument");
        c = canonicalCa(c.toLowerCase());
      } else if (s.type === "dateTimeField") {
        if (!DATE_TIME_FIELDS.includes(c)) throw new RangeError("invalid_argument");
      }
      // A currency is named only when it is one ICU lists (`XXX` has none on the reference).
      const unnamed = (s.type === "currency" && !CURRENCIES.includes(c)) || (s.type === "calendar" && !CALENDARS.includes(c));
      const name = unnamed ? undefined : N.displayName(s.locale, s.type, s.style, c, s.languageDisplay === "standard", s.fallback === "code");
      if (name !== undefined && name !== null) return name;
      return s.fallback === "code" ? c : undefined;
    }
    resolvedOptions() {
      const s = displayNames.get(this);
      if (s === undefined) throw new TypeError("Method Intl.DisplayNames.prototype.resolvedOptions called on incompatible receiver");
      return { ...s };
    }
    static supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); }
  }
  tag(DisplayNames, "Intl.DisplayNames");

  // Locale.
  const locales_ = new WeakMap();
  const localeState = (l, name) => {
    const s = typeof l === "object" && l !== null ? locales_.get(l) : undefined;
    if (s === undefined) throw new TypeError(`Method Intl.Locale.prototype.${name} called on incompatible receiver ${receiverText(l)}`);
    return s;
  };
  class Locale {
    constructor(tagArg, options_) {
      if (typeof tagArg !== "string" && (typeof tagArg !== "object" || tagArg === null)) throw new TypeError("First argument to Intl.Locale constructor can't be empty or missing");
      let t = locales_.has(tagArg) ? locales_.get(tagArg).tag : String(tagArg);
      const o = options(options_);
      let c = N.canonicalize(t);
      if (c === undefined || c === null) throw new RangeError("Incorrect locale information provided");
      const { base, keywords } = split(c);
      let baseParts = base.split("-");
      const get = (k, re) => {
        const v = o[k];
        if (v === undefined) return undefined;
        const s = toStr(v);
        if (re && !re.test(s)) throw new RangeError(`Incorrect locale information provided`);
        return s;
      };
      const language = get("language", /^([A-Za-z]{2,3}|[A-Za-z]{5,8})$/);
      const script = get("script", /^[A-Za-z]{4}$/);
      const region = get("region", /^([A-Za-z]{2}|\d{3})$/);
      const variants = get("variants", /^([0-9A-Za-z]{5,8}|\d[0-9A-Za-z]{3})(-([0-9A-Za-z]{5,8}|\d[0-9A-Za-z]{3}))*$/);
      if (variants !== undefined) {
        const list = variants.toLowerCase().split("-");
        if (new Set(list).size !== list.length) throw new RangeError("Incorrect locale information provided");
      }
      if (language !== undefined) baseParts[0] = language;
      if (script !== undefined) { const i = baseParts.findIndex((p, j) => j > 0 && p.length === 4 && /^[A-Za-z]/.test(p)); if (i > 0) baseParts[i] = script; else baseParts.splice(1, 0, script); }
      if (region !== undefined) { const i = baseParts.findIndex((p, j) => j > 0 && (p.length === 2 || /^\d{3}$/.test(p))); if (i > 0) baseParts[i] = region; else { const s = baseParts.findIndex((p, j) => j > 0 && p.length === 4 && /^[A-Za-z]/.test(p)); baseParts.splice(s > 0 ? s + 1 : 1, 0, region); } }
      if (variants !== undefined) {
        const isVariant = (p, j) => j > 0 && (p.length >= 5 || /^\d[0-9A-Za-z]{3}$/.test(p));
        const kept = baseParts.filter((p, j) => !isVariant(p, j));
        baseParts = [...kept, ...variants.split("-")];
      }
      const kw = { ...keywords };
      const calendar = get("calendar", typeToken); if (calendar !== undefined) kw.ca = calendar;
      const collation = get("collation", typeToken); if (collation !== undefined) kw.co = collation;
      // firstDayOfWeek: a weekday name, or its number (0 and 7 are Sunday), as the fw keyword.
      let fw = get("firstDayOfWeek");
      if (fw !== undefined) {
        fw = ["sun", "mon", "tue", "wed", "thu", "fri", "sat", "sun"][/^[0-7]$/.test(fw) ? Number(fw) : -1] ?? fw;
        if (!typeToken.test(fw)) throw new RangeError("Incorrect locale information provided");
        kw.fw = fw;
      }
      const hc = opt(o, "hourCycle", ["h11", "h12", "h23", "h24"], undefined, "Intl.Locale"); if (hc !== undefined) kw.hc = hc;
      const kf = opt(o, "caseFirst", ["upper", "lower", "false"], undefined, "Intl.Locale"); if (kf !== undefined) kw.kf = kf;
      const numeric = o.numeric; if (numeric !== undefined) kw.kn = String(Boolean(numeric));
      const nu = get("numberingSystem", typeToken); if (nu !== undefined) kw.nu = nu;
      // The attributes, other extensions and private use ride along ("en-x-u-foo").
      let full = withKeywords(joined(baseParts, "-"), kw);
      const { attributes, others } = split(c);
      if (attributes.length) full = full.includes("-u-") ? full.replace("-u-", `-u-${joined(attributes, "-")}-`) : `${full}-u-${joined(attributes, "-")}`;
      if (others.length) full = `${full}-${joined(others, "-")}`;
      c = N.canonicalize(full);
      if (c === undefined || c === null) throw new RangeError("Incorrect locale information provided");
      locales_.set(this, { tag: c });
    }
    toString() { return localeState(this, "toString").tag; }
    maximize() { return new Locale(N.maximize(localeState(this, "maximize").tag)); }
    minimize() { return new Locale(N.minimize(localeState(this, "minimize").tag)); }
  }
  // Accessors named as the specification's are ("get baseName").
  const localeGetter = (name, fn) => define(Locale.prototype, name, {
    get: Object.getOwnPropertyDescriptor({ get [name]() { return fn(split(localeState(this, name).tag)); } }, name).get,
    configurable: true, enumerable: false,
  });
  localeGetter("baseName", (s) => s.base);
  localeGetter("language", (s) => s.base.split("-")[0]);
  localeGetter("script", (s) => s.base.split("-").filter((_, j) => j > 0).find((p) => p.length === 4 && /^[A-Za-z]/.test(p)));
  localeGetter("region", (s) => s.base.split("-").filter((_, j) => j > 0).find((p) => p.length === 2 || /^\d{3}$/.test(p)));
  localeGetter("calendar", (s) => s.keywords.ca);
  localeGetter("collation", (s) => s.keywords.co);
  localeGetter("hourCycle", (s) => s.keywords.hc);
  localeGetter("caseFirst", (s) => (s.keywords.kf === "true" ? "" : s.keywords.kf));
  localeGetter("numeric", (s) => s.keywords.kn === "true");
  localeGetter("numberingSystem", (s) => s.keywords.nu);
  localeGetter("firstDayOfWeek", (s) => s.keywords.fw);
  // The variant subtags of the base name ("1996-fonipa"), or undefined.
  localeGetter("variants", (s) => {
    const v = s.base.split("-").filter((_, j) => j > 0).filter((p) => p.length >= 5 || /^\d[0-9A-Za-z]{3}$/.test(p));
    return v.length ? joined(v, "-") : undefined;
  });
  // The locale info methods (Intl Locale Info), from the locale's keywords when it names
  // them, else from the CLDR preferences of its likely region or language (measured on V8:
  // getCalendars by region, getCollations by language). getWeekInfo and getTimeZones are
  // in the DurationFormat section below (ICU4X's region data).
  const CALENDARS_BY_REGION = {
    JP: ["gregory", "japanese"], CN: ["gregory", "chinese"], HK: ["gregory", "chinese"], MO: ["gregory", "chinese"], SG: ["gregory", "chinese"],
    TW: ["gregory", "roc", "chinese"], KR: ["gregory", "dangi"], IN: ["gregory", "indian"], TH: ["buddhist", "gregory"],
    IL: ["gregory", "hebrew", "islamic", "islamic-civil", "islamic-tbla"], EG: ["gregory", "coptic", "islamic", "islamic-civil", "islamic-tbla"],
    IR: ["persian", "gregory", "islamic", "islamic-civil", "islamic-tbla"], AF: ["persian", "gregory", "islamic", "islamic-civil", "islamic-tbla"],
    ET: ["gregory", "ethiopic"],
  };
  const COLLATIONS_BY_LANGUAGE = {
    de: ["emoji", "eor", "phonebk"], es: ["emoji", "eor", "trad"], sv: ["emoji", "eor", "trad"], ja: ["emoji", "eor", "unihan"],
    ko: ["emoji", "eor", "searchjl", "unihan"], zh: ["emoji", "eor", "pinyin", "stroke", "zhuyin"], ar: ["compat", "emoji", "eor"],
  };
  const RTL_SCRIPTS = ["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr", "Mend", "Yezi", "Hung", "Phnx", "Avst"];
  const likely = (tag) => {
    const parts = split(N.maximize(tag)).base.split("-");
    return {
      language: parts[0],
      script: parts.filter((_, j) => j > 0).find((p) => p.length === 4 && /^[A-Za-z]/.test(p)),
      region: parts.filter((_, j) => j > 0).find((p) => p.length === 2 || /^\d{3}$/.test(p)),
    };
  };
  const localeInfo = (name, fn) => method(Locale.prototype, name, { [name]() {
    const t = localeState(this, name).tag;
    return fn(t, split(t));
  } }[name]);
  // ECMA-402's RegionPreference: the -u-rg- override ("thzzzz"), else the tag's region, else
  // the -u-sd- subdivision's region ("gbeng"), else the likely region; `override` says
  // whether a keyword chose it.
  const regionPreference = (t, s) => {
    const rg = s.keywords.rg, sd = s.keywords.sd;
    if (rg !== undefined && /^([a-z]{2}|\d{3})zzzz$/.test(rg)) return { region: rg.slice(0, -4).toUpperCase(), override: true };
    const own = s.base.split("-").filter((_, j) => j > 0).find((p) => p.length === 2 || /^\d{3}$/.test(p));
    if (own !== undefined) return { region: own, override: false };
    if (sd !== undefined && /^([a-z]{2}|\d{3})[a-z0-9]{1,4}$/.test(sd)) return { region: (/^\d/.test(sd) ? sd.slice(0, 3) : sd.slice(0, 2)).toUpperCase(), override: true };
    return { region: likely(t).region, override: false };
  };
  localeInfo("getCalendars", (t, s) => (s.keywords.ca ? [s.keywords.ca] : copy(CALENDARS_BY_REGION[regionPreference(t, s).region] ?? ["gregory"])));
  localeInfo("getCollations", (t, s) => (s.keywords.co ? [s.keywords.co] : copy(COLLATIONS_BY_LANGUAGE[likely(t).language] ?? ["emoji", "eor"])));
  localeInfo("getHourCycles", (t, s) => {
    if (s.keywords.hc) return [s.keywords.hc];
    // CLDR's time data for the region preference (the override, the tag's region, the
    // subdivision's, the likely one, else the world's), as ICU's pattern generator reads it.
    return [N.hourCycle(s.base.split("-")[0], regionPreference(t, s).region ?? "001")];
  });
  localeInfo("getNumberingSystems", (t, s) => [s.keywords.nu ?? N.numberingSystem(s.base)]);
  localeInfo("getTextInfo", (t) => ({ direction: RTL_SCRIPTS.includes(likely(t).script) ? "rtl" : "ltr" }));
  tag(Locale, "Intl.Locale");

  // The constructors' lengths as ECMA-402 gives them; the function-style constructors'
  // prototypes are not writable (a class's never is).
  for (const [C, n] of [[DateTimeFormat, 0], [NumberFormat, 0], [Collator, 0], [PluralRules, 0], [RelativeTimeFormat, 0], [ListFormat, 0], [Segmenter, 0], [DisplayNames, 2], [Locale, 1]]) {
    define(C, "length", { value: n, configurable: true });
  }
  for (const C of [DateTimeFormat, NumberFormat, Collator]) define(C, "prototype", { writable: false });

  const Intl = {};
  for (const [k, v] of Object.entries({ DateTimeFormat, NumberFormat, Collator, PluralRules, RelativeTimeFormat, ListFormat, Locale, DisplayNames, Segmenter })) {
    define(Intl, k, { value: v, writable: true, configurable: true });
  }
  method(Intl, "getCanonicalLocales", { getCanonicalLocales(l) { return canonicalList(l); } }.getCanonicalLocales);
  // The collations some language's Collator takes (`dict` and `phonetic` are not among them on
  // the reference: its ICU data has no `si` or `ln` tailorings of those names).
  const COLLATIONS = ["compat", "emoji", "eor", "phonebk", "pinyin", "searchjl", "stroke", "trad", "unihan", "zhuyin"];
  const CURRENCIES = "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL".split(" ");
  method(Intl, "supportedValuesOf", { supportedValuesOf(key) {
    const k = toStr(key);
    switch (k) {
      case "calendar": return copy(CALENDARS);
      case "collation": return copy(COLLATIONS);
      case "currency": return copy(CURRENCIES);
      case "numberingSystem": return copy(NUMBERING_SYSTEMS);
      case "timeZone": return N.timeZones().split(" ");
      case "unit": return copy(SANCTIONED_UNITS);
      default: throw new RangeError(`Invalid key : ${k}`);
    }
  } }.supportedValuesOf);
  define(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });

  // DurationFormat (ECMA-402 Intl.DurationFormat), and the Locale's week and time zone info.
  // Options are read and resolved here in V8's order and with its texts; the argument
  // becomes a duration record as V8's Temporal does it (its "Temporal error: …" texts); the
  // formatting is `web/intl/duration.rs` (ICU4X's duration unit names, lists and digits).
  const S_DF = "Intl.DurationFormat";
  const DURATION_UNITS = ["years", "months", "weeks", "days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"];
  const WORDED = ["long", "short", "narrow"];
  const CLOCK = ["long", "short", "narrow", "numeric", "2-digit"];
  const SUBSECOND = ["long", "short", "narrow", "numeric"];
  const durationFormats = new WeakMap();
  // GetDurationUnitOptions: a unit's style and display, given the base style and the
  // previous unit's style.
  const durationUnitOptions = (o, i, baseStyle, prevStyle) => {
    const unit = DURATION_UNITS[i];
    const stylesList = i < 4 ? WORDED : i < 7 ? CLOCK : SUBSECOND;
    const digitalBase = i < 4 ? "short" : "numeric";
    let style = opt(o, unit, stylesList, undefined, S_DF);
    let displayDefault = "always";
    const clock = unit === "hours" || unit === "minutes" || unit === "seconds";
    if (style === undefined) {
      if (baseStyle === "digital") {
        if (!clock) displayDefault = "auto";
        style = digitalBase;
      } else if (prevStyle === "fractional" || prevStyle === "numeric" || prevStyle === "2-digit") {
        if (unit !== "minutes" && unit !== "seconds") displayDefault = "auto";
        style = "numeric";
      } else {
        displayDefault = "auto";
        style = baseStyle;
      }
    }
    if (style === "numeric" && i >= 7) { style = "fractional"; displayDefault = "auto"; }
    const display = opt(o, `${unit}Display`, ["auto", "always"], displayDefault, S_DF);
    const invalid = () => new RangeError("Invalid object : #<Object>");
    if (display === "always" && style === "fractional") throw invalid();
    if (prevStyle === "fractional" && style !== "fractional") throw invalid();
    if (prevStyle === "numeric" || prevStyle === "2-digit") {
      if (style !== "fractional" && style !== "numeric" && style !== "2-digit") throw invalid();
      if (unit === "minutes" || unit === "seconds") style = "2-digit";
    }
    return { style, display };
  };
  function DurationFormat(locales, options_) {
    if (!new.target) throw new TypeError("Constructor Intl.DurationFormat requires 'new'");
    const requested = canonicalList(locales);
    if (options_ !== undefined && (options_ === null || (typeof options_ !== "object" && typeof options_ !== "function"))) throw new TypeError("invalid_argument");
    const o = options_ === undefined ? Object.create(null) : options_;
    opt(o, "localeMatcher", ["lookup", "best fit"], "best fit", S_DF);
    const nuOption = numberingOption(o, S_DF);
    const { base, kept } = resolve(requested, { nu: isNu });
    const nu = nuOption !== undefined && isNu(nuOption) ? nuOption : kept.nu;
    const style = opt(o, "style", ["long", "short", "narrow", "digital"], "short", S_DF);
    const styles = [], displays = [];
    let prev = "";
    for (let i = 0; i < 10; i++) {
      const u = durationUnitOptions(o, i, style, prev);
      append(styles, u.style); append(displays, u.display);
      prev = u.style;
    }
    const fractionalDigits = num(o, "fractionalDigits", 0, 9, undefined);
    const r = record({ locale: withKeywords(base, nu !== undefined && nu === kept.nu ? { nu } : {}), numberingSystem: nu ?? N.numberingSystem(base), style });
    for (let i = 0; i < 10; i++) {
      r[DURATION_UNITS[i]] = styles[i] === "fractional" ? "numeric" : styles[i];
      r[`${DURATION_UNITS[i]}Display`] = displays[i];
    }
    if (fractionalDigits !== undefined) r.fractionalDigits = fractionalDigits;
    const formatter = N.durationFormatter(withKeywords(base, { nu: r.numberingSystem }), style, styles, displays, fractionalDigits ?? -1);
    durationFormats.set(this, { r, formatter });
  }
  const durationState = (d, name) => {
    const s = typeof d === "object" && d !== null ? durationFormats.get(d) : undefined;
    if (s === undefined) throw new TypeError(`Method Intl.DurationFormat.prototype.${name} called on incompatible receiver ${receiverText(d)}`);
    return s;
  };
  // NumberFormat's unit style: the number's parts inside CLDR's pattern for the unit, its
  // width and the number's plural (`N.unitAffixes`, `web/intl/units.rs`), the words around
  // it cut into unit and spacing as ICU cuts them. The plural comes from the number as
  // rounded, in ASCII digits (a latn twin of the formatter).
  const wordParts = (text, out) => {
    const lead = /^[\s\u00a0\u202f]*/.exec(text)[0], trail = /[\s\u00a0\u202f]*$/.exec(text.slice(lead.length))[0];
    const name = text.slice(lead.length, text.length - trail.length);
    if (lead) append(out, { type: "literal", value: lead });
    if (name) append(out, { type: "unit", value: name });
    if (trail) append(out, { type: "literal", value: trail });
  };
  // The number's value as the plural rules read it: its digits as rounded, and for a
  // compact number the magnitude the compact symbol stands for (ICU's operands: `1 mln` is
  // a million, plural `many` in Polish).
  const pluralDigits = (u, v) => {
    if (u.latn === undefined) u.latn = N.numberFormatter(withKeywords(u.tag, { nu: "latn" }), u.options);
    let int = "", frac = "", compact = false;
    for (const p of u.latn.parts(v)) {
      if (p.type === "integer") int += p.value;
      else if (p.type === "fraction") frac += p.value;
      else if (p.type === "compact") compact = true;
    }
    if (int === "") int = "0";
    const n = Math.abs(Number(v));
    if (compact && Number.isFinite(n) && n >= 1) {
      const shift = Math.max(0, Math.floor(Math.log10(n)) - (int.replace(/^0+/, "").length - 1));
      int += frac.slice(0, shift).padEnd(shift, "0");
      frac = frac.slice(shift);
    }
    return frac === "" ? int : `${int}.${frac}`;
  };
  const unitWords = (u, v, parts) => {
    const digits = pluralDigits(u, v);
    const affixes = N.unitAffixes(u.tag, u.unit, u.unitDisplay, digits, undefined);
    if (affixes === undefined || affixes === null) return undefined;
    const out = [];
    if (affixes.length === 1) { wordParts(affixes[0], out); return out; }
    wordParts(affixes[0], out);
    for (const p of parts) append(out, p);
    wordParts(affixes[1], out);
    return out;
  };
  const temporal = (Kind, text) => new Kind(`Temporal error: ${text}`);
  // ToIntegerIfIntegral.
  const integral = (v) => {
    if (typeof v === "bigint") throw new TypeError("Cannot convert a BigInt value to a number");
    if (typeof v === "symbol") throw new TypeError("Cannot convert a Symbol value to a number");
    const n = Number(v);
    if (!Number.isFinite(n) || Math.trunc(n) !== n) throw temporal(RangeError, "Expected finite integer.");
    return n + 0;
  };
  // ParseTemporalDurationString: ISO 8601 durations, a fraction only on the last time unit.
  const durationText = /^([+-]|\u2212)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)(?:[.,](\d{1,9}))?H)?(?:(\d+)(?:[.,](\d{1,9}))?M)?(?:(\d+)(?:[.,](\d{1,9}))?S)?)?$/i;
  // V8's texts for the ways a duration string goes wrong.
  const durationTextError = (s) => {
    if (/^([+-]|\u2212)?P$/i.test(s)) return "Parsing ended abruptly.";
    if (/T$/i.test(s)) return "Invalid time duration designator.";
    if (/[.,]\d{10}/.test(s)) return "Fractional time exceeds nine digits.";
    if (/[.,]\d+[HM]./i.test(s)) return "Unexpected character found after parsing was completed.";
    return "Invalid duration designator.";
  };
  const parseDuration = (s) => {
    const m = durationText.exec(s);
    if (m === null || /T$/i.test(s) || /^([+-]|\u2212)?P$/i.test(s)) throw temporal(RangeError, durationTextError(s));
    const [, sign, y, mo, w, d, h, hf, mi, mif, sec, sf] = m;
    if ((hf !== undefined && (mi !== undefined || sec !== undefined)) || (mif !== undefined && sec !== undefined)) throw temporal(RangeError, "Unexpected character found after parsing was completed.");
    const n = (x) => (x === undefined ? 0 : Number(x));
    const f = [n(y), n(mo), n(w), n(d), n(h), n(mi), n(sec), 0, 0, 0];
    // A fraction of an hour or a minute, exactly, in nanoseconds spread over the smaller units.
    const frac = hf ?? mif ?? sf;
    if (frac !== undefined) {
      const per = hf !== undefined ? 3600000000000n : mif !== undefined ? 60000000000n : 1000000000n;
      let ns = (BigInt(frac.padEnd(9, "0")) * per) / 1000000000n;
      const spread = hf !== undefined ? 5 : mif !== undefined ? 6 : 7;
      const sizes = [0n, 0n, 0n, 0n, 0n, 60000000000n, 1000000000n, 1000000n, 1000n, 1n];
      for (let i = spread; i < 10; i++) { f[i] += Number(ns / sizes[i]); ns %= sizes[i]; }
    }
    return sign !== undefined && sign !== "+" ? f.map((x) => (x === 0 ? 0 : -x)) : f;
  };
  // ToTemporalDuration's record: the fields read in alphabetical order, then IsValidDuration.
  const toDuration = (x) => {
    let f;
    if (typeof x === "string") f = parseDuration(x);
    else if (typeof x !== "object" || x === null) {
      if (typeof x === "function") f = undefined;
      else throw temporal(TypeError, "Duration argument must be Duration or string.");
    }
    if (f === undefined) {
      f = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
      let any = false;
      for (const k of ["days", "hours", "microseconds", "milliseconds", "minutes", "months", "nanoseconds", "seconds", "weeks", "years"]) {
        const v = x[k];
        if (v === undefined) continue;
        any = true;
        f[DURATION_UNITS.indexOf(k)] = integral(v);
      }
      if (!any) throw temporal(TypeError, "Did not provide any valid Duration fields.");
    }
    // Years to seconds past what a signed 64-bit integer holds (V8's Temporal keeps them
    // so), then IsValidDuration: one sign, calendar units below 2^32, the time below 2^53 s.
    for (let i = 0; i < 7; i++) if (Math.abs(f[i]) >= 2 ** 63) throw temporal(RangeError, "Duration field out of range.");
    let sign = 0;
    for (const v of f) {
      if (v === 0) continue;
      const s = v < 0 ? -1 : 1;
      if (sign !== 0 && s !== sign) throw temporal(RangeError, "Duration was not valid.");
      sign = s;
    }
    if (f.slice(0, 3).some((v) => Math.abs(v) >= 2 ** 32)) throw temporal(RangeError, "Duration was not valid.");
    const ns = [86400000000000n, 3600000000000n, 60000000000n, 1000000000n, 1000000n, 1000n, 1n];
    let total = 0n;
    for (let i = 3; i < 10; i++) total += BigInt(f[i]) * ns[i - 3];
    if ((total < 0n ? -total : total) >= 2n ** 53n * 1000000000n) throw temporal(RangeError, "Duration was not valid.");
    return f;
  };
  method(DurationFormat.prototype, "resolvedOptions", { resolvedOptions() { return { ...durationState(this, "resolvedOptions").r }; } }.resolvedOptions);
  method(DurationFormat.prototype, "format", { format(duration) {
    const s = durationState(this, "format");
    return join(s.formatter.parts(toDuration(duration)));
  } }.format);
  method(DurationFormat.prototype, "formatToParts", { formatToParts(duration) {
    const s = durationState(this, "formatToParts");
    return s.formatter.parts(toDuration(duration));
  } }.formatToParts);
  method(DurationFormat, "supportedLocalesOf", { supportedLocalesOf(l) { return supportedLocalesOf(l, arguments[1]); } }.supportedLocalesOf);
  tag(DurationFormat, "Intl.DurationFormat");
  define(DurationFormat, "length", { value: 0, configurable: true });
  define(DurationFormat, "prototype", { writable: false });
  define(Intl, "DurationFormat", { value: DurationFormat, writable: true, configurable: true });
  // getWeekInfo: the fw keyword's day, else the region's (RegionPreference: -u-rg-, the
  // tag's region, -u-sd-, the likely one) first day; the region's weekend.
  const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
  localeInfo("getWeekInfo", (t, s) => {
    // "und" has no likely region in ICU4X's expander; CLDR's likely subtags make it en-Latn-US.
    const [first, ...weekend] = N.weekInfo(regionPreference(t, s).region ?? "US").split(" ").map(Number);
    const fw = WEEKDAYS.indexOf(s.keywords.fw);
    return { firstDay: fw >= 0 ? fw + 1 : first, weekend };
  });
  // getTimeZones: the canonical zones of the tag's own region (undefined without one).
  localeInfo("getTimeZones", (t, s) => {
    const region = s.base.split("-").filter((_, j) => j > 0).find((p) => p.length === 2 || /^\d{3}$/.test(p));
    if (region === undefined) return undefined;
    const zones = N.regionZones(region);
    return zones === "" ? [] : zones.split(" ");
  });

  // thisNumberValue / thisBigIntValue: a primitive or its wrapper, else a TypeError.
  const numberValueOf = Number.prototype.valueOf, bigintValueOf = BigInt.prototype.valueOf;
  // The receiver's value, refused in the words V8 uses for the method that asked.
  const thisValue = (valueOf, self, method, type) => {
    try {
      return valueOf.call(self);
    } catch {
      throw new TypeError(`${method} requires that 'this' be a ${type}`);
    }
  };
  const timeOf = (self, method) => {
    try {
      return Date.prototype.getTime.call(self);
    } catch {
      throw new TypeError(`Method ${method} called on incompatible receiver ${receiverText(self)}`);
    }
  };
  return {
    Intl,
    numberToLocaleString: (self, locales, options_) => {
      const x = thisValue(numberValueOf, self, "Number.prototype.toLocaleString", "Number");
      return madeFor("Number.prototype.toLocaleString", () => new NumberFormat(locales, options_)).format(x);
    },
    bigintToLocaleString: (self, locales, options_) => {
      const x = thisValue(bigintValueOf, self, "BigInt.prototype.toLocaleString", "BigInt");
      return madeFor("BigInt.prototype.toLocaleString", () => new NumberFormat(locales, options_)).format(x);
    },
    dateToLocaleString: (self, locales, options_) => {
      const t = timeOf(self, "Date.prototype.toLocaleString");
      return Number.isNaN(t) ? "Invalid Date" : madeFor("Date.prototype.toLocaleString", () => new DateTimeFormat(locales, options_, "any", "all")).format(t);
    },
    dateToLocaleDateString: (self, locales, options_) => {
      const t = timeOf(self, "Date.prototype.toLocaleDateString");
      return Number.isNaN(t) ? "Invalid Date" : madeFor("Date.prototype.toLocaleDateString", () => new DateTimeFormat(locales, options_, "date", "date")).format(t);
    },
    dateToLocaleTimeString: (self, locales, options_) => {
      const t = timeOf(self, "Date.prototype.toLocaleTimeString");
      return Number.isNaN(t) ? "Invalid Date" : madeFor("Date.prototype.toLocaleTimeString", () => new DateTimeFormat(locales, options_, "time", "time")).format(t);
    },
    localeCompare: (self, that, locales, options_) => {
      if (self === undefined || self === null) throw new TypeError("String.prototype.localeCompare called on null or undefined");
      return madeFor("String.prototype.localeCompare", () => new Collator(locales, options_)).compare(String(self), String(that));
    },
    caseMap: (self, locales, upper) => {
      const list = canonicalList(locales);
      const base = list.length ? split(list[0]).base : DEFAULT_LOCALE;
      return N.caseMap(String(self), base, upper);
    },
  };
})
