// Intl for en-US: NumberFormat, DateTimeFormat (UTC and common zones), PluralRules, Collator,
// RelativeTimeFormat, ListFormat, and the locale methods of Number, BigInt, Date and String.
// Every locale formats as en-US. Time zones: UTC (the Workers default), Etc/GMT±h and a
// table of common zones with their current daylight saving rules (see ZONES).
(function (native, use) {
  "use strict";
  const define = Object.defineProperty;
  const tag = (C, name) => define(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const LOCALE = "en-US";
  const opt = (o, k, allowed, fallback) => {
    const v = o[k];
    if (v === undefined) return fallback;
    const s = String(v);
    if (allowed && !allowed.includes(s)) throw new RangeError(`Value ${s} out of range for Intl options property ${k}`);
    return s;
  };
  const int = (o, k, min, max, fallback) => {
    const v = o[k];
    if (v === undefined) return fallback;
    const n = Math.floor(Number(v));
    if (!(n >= min && n <= max)) throw new RangeError(`${k} value is out of range.`);
    return n;
  };
  const canonical = (locales) => {
    if (locales === undefined) return [];
    const list = typeof locales === "string" ? [locales] : [...locales];
    return list.map((l) => {
      const s = String(l);
      if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(s)) throw new RangeError(`Incorrect locale information provided`);
      return s.split("-").map((p, i) => i === 0 ? p.toLowerCase() : p.length === 2 ? p.toUpperCase() : p.length === 4 ? p[0].toUpperCase() + p.slice(1).toLowerCase() : p.toLowerCase()).join("-");
    });
  };

  // Decimal digits of |x| as [digits, pointPosition] (value 0.d1d2… × 10^point) from the
  // shortest round-trip form, as ICU reads a double; null for zero.
  const decimal = (x) => {
    if (x === 0) return null;
    const [m, e] = Math.abs(x).toExponential().split("e");
    return [m.replace(".", ""), Number(e) + 1];
  };
  // Rounds digits (value 0.d1d2... × 10^point) half away from zero at `keep` digits.
  const roundAt = (digits, point, keep) => {
    if (keep >= digits.length) return [digits, point];
    if (keep < 0) return ["0", 1];
    let head = digits.slice(0, keep);
    if (digits.charCodeAt(keep) >= 53) {
      let i = head.length - 1;
      const arr = head.split("");
      while (i >= 0 && arr[i] === "9") { arr[i] = "0"; i--; }
      if (i < 0) { arr.unshift("1"); point++; } else arr[i] = String(Number(arr[i]) + 1);
      head = arr.join("");
    }
    return [head === "" ? "0" : head, head === "" ? 1 : point];
  };
  // A non-negative finite number as integer and fraction strings under the digit options.
  const digitsOf = (dec, o) => {
    if (dec === null) {
      const frac = o.sig ? "0".repeat(Math.max(0, o.minSig - 1)) : "0".repeat(o.minFrac);
      return ["0", frac];
    }
    let [digits, point] = dec;
    let minFrac = o.minFrac;
    if (o.sig) {
      [digits, point] = roundAt(digits, point, o.maxSig);
      minFrac = Math.max(0, o.minSig - point);
    } else {
      [digits, point] = roundAt(digits, point, point + o.maxFrac);
    }
    let intPart, fracPart;
    if (point <= 0) { intPart = "0"; fracPart = "0".repeat(-point) + digits; }
    else if (point >= digits.length) { intPart = digits + "0".repeat(point - digits.length); fracPart = ""; }
    else { intPart = digits.slice(0, point); fracPart = digits.slice(point); }
    fracPart = fracPart.replace(/0+$/, "");
    if (fracPart.length < minFrac) fracPart = fracPart + "0".repeat(minFrac - fracPart.length);
    if (/^0*$/.test(intPart + fracPart)) intPart = "0";
    return [intPart, fracPart];
  };
  const group = (s) => s.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const CURRENCY_DIGITS = { JPY: 0, KRW: 0, VND: 0, CLP: 0, ISK: 0, HUF: 2, TWD: 2, BHD: 3, KWD: 3, JOD: 3, OMR: 3, TND: 3 };
  const SYMBOLS = { USD: "$", EUR: "€", GBP: "£", JPY: "¥", CNY: "CN¥", INR: "₹", CAD: "CA$", AUD: "A$", KRW: "₩", BRL: "R$", MXN: "MX$", HKD: "HK$", NZD: "NZ$", ILS: "₪", VND: "₫", TWD: "NT$", XAF: "FCFA", PHP: "₱" };
  const NARROW = { CAD: "$", AUD: "$", MXN: "$", HKD: "$", NZD: "$", TWD: "$", CNY: "¥", BRL: "R$" };
  const NAMES = { USD: ["US dollar", "US dollars"], EUR: ["euro", "euros"], GBP: ["British pound", "British pounds"], JPY: ["Japanese yen", "Japanese yen"], CAD: ["Canadian dollar", "Canadian dollars"], AUD: ["Australian dollar", "Australian dollars"], INR: ["Indian rupee", "Indian rupees"], CNY: ["Chinese yuan", "Chinese yuan"] };
  const UNITS = {
    byte: ["byte", "byte", "bytes"], kilobyte: ["kB", "kilobyte", "kilobytes"], megabyte: ["MB", "megabyte", "megabytes"], gigabyte: ["GB", "gigabyte", "gigabytes"], terabyte: ["TB", "terabyte", "terabytes"],
    bit: ["bit", "bit", "bits"], kilobit: ["kb", "kilobit", "kilobits"], megabit: ["Mb", "megabit", "megabits"],
    millisecond: ["ms", "millisecond", "milliseconds"], second: ["sec", "second", "seconds"], minute: ["min", "minute", "minutes"], hour: ["hr", "hour", "hours"],
    day: ["day", "day", "days"], week: ["wk", "week", "weeks"], month: ["mth", "month", "months"], year: ["yr", "year", "years"],
    meter: ["m", "meter", "meters"], kilometer: ["km", "kilometer", "kilometers"], centimeter: ["cm", "centimeter", "centimeters"], millimeter: ["mm", "millimeter", "millimeters"],
    mile: ["mi", "mile", "miles"], foot: ["ft", "foot", "feet"], inch: ["in", "inch", "inches"], kilogram: ["kg", "kilogram", "kilograms"], gram: ["g", "gram", "grams"], pound: ["lb", "pound", "pounds"],
    liter: ["L", "liter", "liters"], percent: ["%", "percent", "percent"], celsius: ["°C", "degree Celsius", "degrees Celsius"], fahrenheit: ["°F", "degree Fahrenheit", "degrees Fahrenheit"],
    "kilometer-per-hour": ["km/h", "kilometer per hour", "kilometers per hour"], "mile-per-hour": ["mph", "mile per hour", "miles per hour"],
  };
  const UNIT_SPACE = { percent: "", celsius: "", fahrenheit: "" };

  const numberFormats = new WeakMap();
  class NumberFormat {
    constructor(locales, options) {
      canonical(locales);
      const o = options === undefined ? {} : Object(options);
      const style = opt(o, "style", ["decimal", "percent", "currency", "unit"], "decimal");
      let currency = opt(o, "currency", null, undefined);
      if (currency !== undefined) currency = currency.toUpperCase();
      if (style === "currency" && currency === undefined) throw new TypeError("Currency code is required with currency style.");
      const unit = opt(o, "unit", null, undefined);
      if (style === "unit" && unit === undefined) throw new TypeError("Unit is required with unit style.");
      const notation = opt(o, "notation", ["standard", "scientific", "engineering", "compact"], "standard");
      const cd = style === "currency" ? (CURRENCY_DIGITS[currency] ?? 2) : 0;
      const defMin = style === "currency" && notation !== "compact" ? cd : 0;
      const defMax = style === "currency" && notation !== "compact" ? cd : style === "percent" ? 0 : notation === "compact" ? 0 : 3;
      const minimumIntegerDigits = int(o, "minimumIntegerDigits", 1, 21, 1);
      const hasSig = o.minimumSignificantDigits !== undefined || o.maximumSignificantDigits !== undefined;
      const r = {
        locale: LOCALE, numberingSystem: "latn", style,
        ...(style === "currency" ? { currency, currencyDisplay: opt(o, "currencyDisplay", ["symbol", "narrowSymbol", "code", "name"], "symbol"), currencySign: opt(o, "currencySign", ["standard", "accounting"], "standard") } : {}),
        ...(style === "unit" ? { unit, unitDisplay: opt(o, "unitDisplay", ["short", "narrow", "long"], "short") } : {}),
        minimumIntegerDigits,
      };
      if (hasSig) {
        r.minimumSignificantDigits = int(o, "minimumSignificantDigits", 1, 21, 1);
        r.maximumSignificantDigits = int(o, "maximumSignificantDigits", r.minimumSignificantDigits, 21, 21);
      } else {
        const minF = int(o, "minimumFractionDigits", 0, 100, undefined);
        const maxF = int(o, "maximumFractionDigits", 0, 100, undefined);
        r.minimumFractionDigits = minF ?? Math.min(defMin, maxF ?? defMin);
        r.maximumFractionDigits = maxF ?? Math.max(defMax, r.minimumFractionDigits);
        if (r.minimumFractionDigits > r.maximumFractionDigits) throw new RangeError("maximumFractionDigits value is out of range.");
      }
      const grouping = o.useGrouping;
      r.useGrouping = grouping === undefined ? (notation === "compact" ? "min2" : "auto") : grouping === false || grouping === "false" ? false : typeof grouping === "string" ? grouping : grouping ? "always" : false;
      r.notation = notation;
      if (notation === "compact") r.compactDisplay = opt(o, "compactDisplay", ["short", "long"], "short");
      r.signDisplay = opt(o, "signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto");
      r.roundingIncrement = 1; r.roundingMode = "halfExpand"; r.roundingPriority = "auto"; r.trailingZeroDisplay = "auto";
      numberFormats.set(this, { r, compactDefault: notation === "compact" && !hasSig && o.minimumFractionDigits === undefined && o.maximumFractionDigits === undefined });
    }
    get format() {
      const bound = (x) => this.formatToParts(x).map((p) => p.value).join("");
      define(this, "format", { value: bound, configurable: true });
      return bound;
    }
    formatToParts(value) {
      const { r, compactDefault } = numberFormats.get(this);
      const parts = [];
      const isBig = typeof value === "bigint";
      const x = Number(value);
      const negative = isBig ? value < 0n : (x < 0 || Object.is(x, -0));
      const abs = Math.abs(x);
      let number = [];
      let exponent = null, compact = null, zero = true;
      if (Number.isNaN(x)) { number.push({ type: "nan", value: "NaN" }); zero = false; }
      else if (!Number.isFinite(x)) { number.push({ type: "infinity", value: "∞" }); zero = false; }
      else {
        let dec = decimal(abs);
        if (dec !== null && r.style === "percent") dec = [dec[0], dec[1] + 2];
        const digitOpts = r.minimumSignificantDigits !== undefined
          ? { sig: true, minSig: r.minimumSignificantDigits, maxSig: r.maximumSignificantDigits }
          : { minFrac: r.minimumFractionDigits, maxFrac: r.maximumFractionDigits };
        let ip, fp;
        if (r.notation === "scientific" || r.notation === "engineering") {
          const step = r.notation === "engineering" ? 3 : 1;
          let e = dec === null ? 0 : Math.floor((dec[1] - 1) / step) * step;
          const at = (e) => digitsOf(dec === null ? null : [dec[0], dec[1] - e], digitOpts);
          [ip, fp] = at(e);
          if (ip.length > step) { e += step; [ip, fp] = at(e); }
          exponent = e;
        } else if (r.notation === "compact") {
          const fit = (dec) => {
            const k = dec === null || dec[1] <= 3 ? 0 : Math.min(4, Math.floor((dec[1] - 1) / 3));
            const scaled = dec === null ? null : [dec[0], dec[1] - 3 * k];
            const integer = scaled === null || scaled[0].length <= scaled[1];
            const small = scaled !== null && scaled[1] <= 2;
            const d = compactDefault ? (small && !(k === 0 && integer) ? { sig: true, minSig: 1, maxSig: 2 } : { minFrac: 0, maxFrac: 0 }) : digitOpts;
            return [k, digitsOf(scaled, d)];
          };
          let [k, d] = fit(dec);
          if (d[0].length > 3 && k < 4) [k, d] = fit([d[0].replace(/^0+/, "") + d[1], d[0].length + 3 * k]);
          [ip, fp] = d;
          if (k > 0) compact = r.compactDisplay === "long" ? [" thousand", " million", " billion", " trillion"][k - 1] : ["K", "M", "B", "T"][k - 1];
        } else {
          [ip, fp] = isBig ? [(negative ? -value : value).toString(), "0".repeat(r.minimumFractionDigits ?? 0)] : digitsOf(dec, digitOpts);
        }
        zero = /^0*$/.test(ip + fp);
        if (ip.length < r.minimumIntegerDigits) ip = "0".repeat(r.minimumIntegerDigits - ip.length) + ip;
        const grouped = r.useGrouping === false ? ip : r.useGrouping === "min2" && ip.length < 5 ? ip : group(ip);
        grouped.split(",").forEach((g, i) => {
          if (i > 0) number.push({ type: "group", value: "," });
          number.push({ type: "integer", value: g });
        });
        if (fp) { number.push({ type: "decimal", value: "." }); number.push({ type: "fraction", value: fp }); }
        if (exponent !== null) { number.push({ type: "exponentSeparator", value: "E" }); number.push({ type: "exponentInteger", value: String(exponent) }); }
        if (compact !== null) {
          if (compact.startsWith(" ")) { number.push({ type: "literal", value: " " }); number.push({ type: "compact", value: compact.slice(1) }); }
          else number.push({ type: "compact", value: compact });
        }
      }
      const sign = () => {
        switch (r.signDisplay) {
          case "never": return "";
          case "always": return negative ? "-" : "+";
          case "exceptZero": return zero ? "" : negative ? "-" : "+";
          case "negative": return negative && !zero ? "-" : "";
          default: return negative ? "-" : "";
        }
      };
      const s = sign();
      const accounting = r.style === "currency" && r.currencySign === "accounting" && s === "-";
      if (accounting) parts.push({ type: "literal", value: "(" });
      else if (s) parts.push({ type: s === "-" ? "minusSign" : "plusSign", value: s });
      if (r.style === "currency") {
        const c = r.currency;
        if (r.currencyDisplay === "name") {
          parts.push(...number, { type: "literal", value: " " }, { type: "currency", value: (NAMES[c] ?? [c, c])[abs === 1 ? 0 : 1] });
        } else {
          const sym = r.currencyDisplay === "code" ? c : r.currencyDisplay === "narrowSymbol" ? (NARROW[c] ?? SYMBOLS[c] ?? c) : (SYMBOLS[c] ?? c);
          parts.push({ type: "currency", value: sym });
          if (/[A-Za-z]$/.test(sym)) parts.push({ type: "literal", value: "\u00a0" });
          parts.push(...number);
        }
      } else {
        parts.push(...number);
      }
      if (r.style === "percent") parts.push({ type: "percentSign", value: "%" });
      if (r.style === "unit") {
        const names = UNITS[r.unit];
        const plural = !(abs === 1);
        const label = names ? (r.unitDisplay === "long" ? names[plural ? 2 : 1] : names[0]) : r.unit;
        const space = names && r.unit in UNIT_SPACE && r.unitDisplay !== "long" ? "" : r.unitDisplay === "narrow" && names && names[0].length <= 2 ? "" : " ";
        if (space) parts.push({ type: "literal", value: space });
        parts.push({ type: "unit", value: label });
      }
      if (accounting) parts.push({ type: "literal", value: ")" });
      return parts;
    }
    resolvedOptions() { return { ...numberFormats.get(this).r }; }
    static supportedLocalesOf(locales) { return canonical(locales); }
  }
  tag(NumberFormat, "Intl.NumberFormat");

  // Dates, in UTC.
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const UTC_ZONES = ["UTC", "ETC/UTC", "GMT", "ETC/GMT", "ETC/UCT", "UCT", "ETC/ZULU", "ZULU", "ETC/UNIVERSAL", "UNIVERSAL"];
  // Time zones beyond UTC: [canonical name, standard offset in minutes, DST rule, first year
  // the rule holds, short names, long names]. The rules are the current ones (US since 2007,
  // EU since 1996, Australia and New Zealand since 2008); an instant before a zone's first
  // year is refused rather than printed with the wrong offset. A short name of null prints
  // as GMT±h[:mm].
  const US = (std, dst, long) => [[std, dst], [`${long} Standard Time`, `${long} Daylight Time`]];
  const CET = [null, ["Central European Standard Time", "Central European Summer Time"]];
  const EET = [null, ["Eastern European Standard Time", "Eastern European Summer Time"]];
  const fixed = (long) => [null, [long, long]];
  const ZONES = {};
  for (const [names, offset, rule, since, [short, long]] of [
    [["America/New_York", "US/Eastern", "America/Toronto"], -300, "us", 2007, US("EST", "EDT", "Eastern")],
    [["America/Chicago", "US/Central"], -360, "us", 2007, US("CST", "CDT", "Central")],
    [["America/Denver", "US/Mountain"], -420, "us", 2007, US("MST", "MDT", "Mountain")],
    [["America/Phoenix", "US/Arizona"], -420, null, 1968, US("MST", "MST", "Mountain")],
    [["America/Los_Angeles", "US/Pacific", "America/Vancouver"], -480, "us", 2007, US("PST", "PDT", "Pacific")],
    [["America/Anchorage", "US/Alaska"], -540, "us", 2007, US("AKST", "AKDT", "Alaska")],
    [["Pacific/Honolulu", "US/Hawaii"], -600, null, 1947, [["HST", "HST"], ["Hawaii-Aleutian Standard Time", "Hawaii-Aleutian Standard Time"]]],
    [["America/Mexico_City"], -360, null, 2023, US("CST", "CST", "Central")],
    [["America/Sao_Paulo"], -180, null, 2020, fixed("Brasilia Standard Time")],
    [["America/Buenos_Aires", "America/Argentina/Buenos_Aires"], -180, null, 2010, fixed("Argentina Standard Time")],
    [["America/Bogota"], -300, null, 1994, fixed("Colombia Standard Time")],
    [["Europe/London"], 0, "eu", 1996, [["GMT", null], ["Greenwich Mean Time", "British Summer Time"]]],
    [["Europe/Dublin"], 0, "eu", 1996, [["GMT", null], ["Greenwich Mean Time", "Irish Standard Time"]]],
    [["Europe/Lisbon"], 0, "eu", 1996, [null, ["Western European Standard Time", "Western European Summer Time"]]],
    [["Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam", "Europe/Zurich", "Europe/Stockholm", "Europe/Warsaw", "Europe/Brussels", "Europe/Vienna", "Europe/Oslo", "Europe/Copenhagen", "Europe/Prague", "Europe/Budapest"], 60, "eu", 1996, CET],
    [["Europe/Athens", "Europe/Helsinki", "Europe/Kiev", "Europe/Kyiv", "Europe/Bucharest", "Europe/Sofia"], 120, "eu", 1996, EET],
    [["Europe/Istanbul"], 180, null, 2017, fixed("Türkiye Standard Time")],
    [["Europe/Moscow"], 180, null, 2015, fixed("Moscow Standard Time")],
    [["Asia/Dubai"], 240, null, 1970, fixed("Gulf Standard Time")],
    [["Asia/Karachi"], 300, null, 2010, fixed("Pakistan Standard Time")],
    [["Asia/Calcutta", "Asia/Kolkata"], 330, null, 1946, fixed("India Standard Time")],
    [["Asia/Bangkok"], 420, null, 1920, fixed("Indochina Time")],
    [["Asia/Jakarta"], 420, null, 1964, fixed("Western Indonesia Time")],
    [["Asia/Shanghai"], 480, null, 1992, fixed("China Standard Time")],
    [["Asia/Hong_Kong"], 480, null, 1980, fixed("Hong Kong Standard Time")],
    [["Asia/Singapore"], 480, null, 1982, fixed("Singapore Standard Time")],
    [["Asia/Taipei"], 480, null, 1980, fixed("Taiwan Standard Time")],
    [["Asia/Tokyo"], 540, null, 1952, fixed("Japan Standard Time")],
    [["Asia/Seoul"], 540, null, 1989, fixed("Korean Standard Time")],
    [["Australia/Perth"], 480, null, 2010, fixed("Australian Western Standard Time")],
    [["Australia/Brisbane"], 600, null, 1993, fixed("Australian Eastern Standard Time")],
    [["Australia/Sydney", "Australia/Melbourne"], 600, "au", 2008, [null, ["Australian Eastern Standard Time", "Australian Eastern Daylight Time"]]],
    [["Pacific/Auckland"], 720, "nz", 2008, [null, ["New Zealand Standard Time", "New Zealand Daylight Time"]]],
    [["Africa/Johannesburg"], 120, null, 1944, fixed("South Africa Standard Time")],
    [["Africa/Lagos"], 60, null, 1920, fixed("West Africa Time")],
  ]) {
    // ICU's canonical names: US/* aliases resolve to the first name; these renames keep the
    // old name.
    const RENAMED = { "Asia/Kolkata": "Asia/Calcutta", "Europe/Kyiv": "Europe/Kiev", "America/Argentina/Buenos_Aires": "America/Buenos_Aires" };
    for (const name of names) {
      const canonical = name.startsWith("US/") ? names[0] : RENAMED[name] ?? name;
      ZONES[name.toUpperCase()] = { name: canonical, offset, rule, since, short, long };
    }
  }
  const sunday = (year, month, n) => {
    const first = (7 - new Date(Date.UTC(year, month, 1)).getUTCDay()) % 7 + 1;
    if (n > 0) return first + 7 * (n - 1);
    const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return first + 7 * Math.floor((days - first) / 7);
  };
  const isDst = (zone, t) => {
    const year = new Date(t).getUTCFullYear();
    const at = (month, day, hour, offset) => Date.UTC(year, month, day, hour) - offset * 60000;
    const std = zone.offset, dst = zone.offset + 60;
    switch (zone.rule) {
      case "us": return t >= at(2, sunday(year, 2, 2), 2, std) && t < at(10, sunday(year, 10, 1), 2, dst);
      case "eu": return t >= at(2, sunday(year, 2, -1), 1, 0) && t < at(9, sunday(year, 9, -1), 1, 0);
      case "au": return t >= at(9, sunday(year, 9, 1), 2, std) || t < at(3, sunday(year, 3, 1), 3, dst);
      case "nz": return t >= at(8, sunday(year, 8, -1), 2, std) || t < at(3, sunday(year, 3, 1), 3, dst);
      default: return false;
    }
  };
  const gmt = (minutes, long) => {
    const sign = minutes < 0 ? "-" : "+", a = Math.abs(minutes), h = Math.floor(a / 60), m = a % 60;
    if (long) return minutes === 0 ? "GMT" : `GMT${sign}${two(h)}:${two(m)}`;
    return minutes === 0 ? "GMT" : `GMT${sign}${h}${m ? ":" + two(m) : ""}`;
  };
  // The zone a timeZone option names: UTC (null), a fixed Etc/GMT±h, or a ZONES entry.
  const zoneOf = (text) => {
    const upper = text.toUpperCase();
    if (UTC_ZONES.includes(upper)) return null;
    const etc = /^ETC\/GMT([+-])(\d{1,2})$/.exec(upper);
    if (etc && Number(etc[2]) <= 14) {
      const offset = (etc[1] === "+" ? -60 : 60) * Number(etc[2]);
      return { name: `Etc/GMT${etc[1]}${Number(etc[2])}`, offset, rule: null, since: -271821, short: [null, null], long: [gmt(offset, true), gmt(offset, true)] };
    }
    const zone = ZONES[upper];
    if (zone === undefined) throw new RangeError(`Time zone ${text} is not known in this sandbox (it knows UTC, Etc/GMT±h and ${Object.keys(ZONES).length} common zones).`);
    return zone;
  };
  const FIELDS = ["weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName"];
  const dateFormats = new WeakMap();
  const two = (n) => String(n).padStart(2, "0");
  class DateTimeFormat {
    constructor(locales, options, defaults = "date") {
      canonical(locales);
      const o = options === undefined ? {} : Object(options);
      const zone = zoneOf(o.timeZone === undefined ? "UTC" : String(o.timeZone));
      const r = { locale: LOCALE, calendar: "gregory", numberingSystem: "latn", timeZone: zone === null ? "UTC" : zone.name };
      const dateStyle = opt(o, "dateStyle", ["full", "long", "medium", "short"], undefined);
      const timeStyle = opt(o, "timeStyle", ["full", "long", "medium", "short"], undefined);
      const f = {};
      f.weekday = opt(o, "weekday", ["long", "short", "narrow"], undefined);
      f.era = opt(o, "era", ["long", "short", "narrow"], undefined);
      f.year = opt(o, "year", ["numeric", "2-digit"], undefined);
      f.month = opt(o, "month", ["numeric", "2-digit", "long", "short", "narrow"], undefined);
      f.day = opt(o, "day", ["numeric", "2-digit"], undefined);
      f.hour = opt(o, "hour", ["numeric", "2-digit"], undefined);
      f.minute = opt(o, "minute", ["numeric", "2-digit"], undefined);
      f.second = opt(o, "second", ["numeric", "2-digit"], undefined);
      f.fractionalSecondDigits = o.fractionalSecondDigits === undefined ? undefined : int(o, "fractionalSecondDigits", 1, 3, undefined);
      f.timeZoneName = opt(o, "timeZoneName", ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"], undefined);
      const any = (keys) => keys.some((k) => f[k] !== undefined);
      if (dateStyle === undefined && timeStyle === undefined) {
        const needDate = defaults === "date" || defaults === "all";
        const needTime = defaults === "time" || defaults === "all";
        const hasDate = any(["weekday", "year", "month", "day"]);
        if (f.era !== undefined && !hasDate && !any(["hour", "minute", "second", "fractionalSecondDigits"])) {
          f.year = "numeric"; f.month = "numeric"; f.day = "numeric";
        }
        const hasTime = any(["hour", "minute", "second", "fractionalSecondDigits"]);
        if (!hasDate && !hasTime) {
          if (needDate) { f.year = "numeric"; f.month = "numeric"; f.day = "numeric"; }
          if (needTime) { f.hour = "numeric"; f.minute = "numeric"; f.second = "numeric"; }
        }
      }
      let hour12 = o.hour12 === undefined ? undefined : !!o.hour12;
      const hourCycle = opt(o, "hourCycle", ["h11", "h12", "h23", "h24"], undefined);
      if (hour12 === undefined) hour12 = hourCycle === undefined ? true : hourCycle === "h11" || hourCycle === "h12";
      dateFormats.set(this, { r, f, dateStyle, timeStyle, hour12, zone });
      if (f.hour !== undefined || timeStyle !== undefined) { r.hourCycle = hour12 ? "h12" : "h23"; r.hour12 = hour12; }
      for (const k of FIELDS) if (f[k] !== undefined) r[k] = f[k];
      if (dateStyle) r.dateStyle = dateStyle;
      if (timeStyle) r.timeStyle = timeStyle;
    }
    get format() {
      const bound = (date) => this.formatToParts(date).map((p) => p.value).join("");
      define(this, "format", { value: bound, configurable: true });
      return bound;
    }
    formatToParts(date) {
      const t = date === undefined ? Date.now() : Number(date instanceof Date ? date.getTime() : date);
      if (!Number.isFinite(t)) throw new RangeError("Invalid time value");
      const { f: given, dateStyle, timeStyle, hour12, zone } = dateFormats.get(this);
      const dst = zone !== null && isDst(zone, t);
      const offset = zone === null ? 0 : zone.offset + (dst ? 60 : 0);
      const d = new Date(t + offset * 60000);
      if (zone !== null && d.getUTCFullYear() < zone.since) {
        throw new RangeError(`Time zone ${zone.name} is only known from ${zone.since} on in this sandbox.`);
      }
      let f = given;
      if (dateStyle || timeStyle) {
        f = {};
        if (dateStyle === "full") Object.assign(f, { weekday: "long", month: "long", day: "numeric", year: "numeric" });
        if (dateStyle === "long") Object.assign(f, { month: "long", day: "numeric", year: "numeric" });
        if (dateStyle === "medium") Object.assign(f, { month: "short", day: "numeric", year: "numeric" });
        if (dateStyle === "short") Object.assign(f, { month: "numeric", day: "numeric", year: "2-digit" });
        if (timeStyle) Object.assign(f, { hour: "numeric", minute: "2-digit" });
        if (timeStyle && timeStyle !== "short") f.second = "2-digit";
        if (timeStyle === "full") f.timeZoneName = "long";
        if (timeStyle === "long") f.timeZoneName = "short";
      }
      const P = [];
      const lit = (v) => P.push({ type: "literal", value: v });
      const Y = d.getUTCFullYear(), M = d.getUTCMonth(), D = d.getUTCDate(), W = d.getUTCDay();
      // Without an era, years before 1 count back from 1 BC, as ICU prints them.
      const shownYear = Y > 0 ? Y : 1 - Y;
      const year = f.year === "2-digit" ? two(shownYear % 100) : String(shownYear);
      const day = f.day === "2-digit" ? two(D) : String(D);
      const monthText = f.month === "long" ? MONTHS[M] : f.month === "short" ? MONTHS[M].slice(0, 3) : f.month === "narrow" ? MONTHS[M][0] : null;
      const weekday = f.weekday === "long" ? DAYS[W] : f.weekday === "short" ? DAYS[W].slice(0, 3) : f.weekday === "narrow" ? DAYS[W][0] : null;
      const hasDate = f.year || f.month || f.day || f.weekday;
      if (hasDate) {
        if (weekday) { P.push({ type: "weekday", value: weekday }); if (f.year || f.month || f.day) lit(", "); }
        if (monthText) {
          if (f.month) P.push({ type: "month", value: monthText });
          if (f.day) { lit(" "); P.push({ type: "day", value: day }); }
          if (f.year) { lit(f.day ? ", " : " "); P.push({ type: "year", value: year }); }
        } else if (f.year && f.day && !f.month) {
          P.push({ type: "year", value: year });
          lit(" (day: ");
          P.push({ type: "day", value: day });
          lit(")");
        } else {
          const seq = [];
          if (f.month) seq.push({ type: "month", value: f.month === "2-digit" ? two(M + 1) : String(M + 1) });
          if (f.day) seq.push({ type: "day", value: day });
          if (f.year) seq.push({ type: "year", value: year });
          seq.forEach((p, i) => { if (i > 0) lit("/"); P.push(p); });
        }
      }
      const hasTime = f.hour || f.minute || f.second;
      if (hasTime) {
        const onlyWeekday = f.weekday && !f.year && !f.month && !f.day;
        if (hasDate) lit(dateStyle === "full" || dateStyle === "long" || f.month === "long" ? " at " : onlyWeekday && f.hour ? " " : ", ");
        const H = d.getUTCHours();
        const h = hour12 ? (H % 12 === 0 ? 12 : H % 12) : H;
        const seq = [];
        if (f.hour) seq.push({ type: "hour", value: f.hour === "2-digit" || !hour12 ? two(h) : String(h) });
        if (f.minute) seq.push({ type: "minute", value: f.hour || f.second ? two(d.getUTCMinutes()) : String(d.getUTCMinutes()) });
        if (f.second) seq.push({ type: "second", value: f.minute ? two(d.getUTCSeconds()) : String(d.getUTCSeconds()) });
        seq.forEach((p, i) => { if (i > 0) lit(":"); P.push(p); });
        if (f.fractionalSecondDigits) { lit("."); P.push({ type: "fractionalSecond", value: String(d.getUTCMilliseconds()).padStart(3, "0").slice(0, f.fractionalSecondDigits) }); }
        if (hour12 && f.hour) { lit(" "); P.push({ type: "dayPeriod", value: H < 12 ? "AM" : "PM" }); }
      }
      if (f.era) { lit(" "); P.push({ type: "era", value: f.era === "long" ? (Y > 0 ? "Anno Domini" : "Before Christ") : f.era === "narrow" ? (Y > 0 ? "A" : "B") : (Y > 0 ? "AD" : "BC") }); }
      if (f.timeZoneName) {
        let name;
        const kind = f.timeZoneName;
        if (zone === null) name = kind === "long" ? "Coordinated Universal Time" : kind === "longOffset" ? "GMT" : kind === "shortOffset" ? "GMT" : "UTC";
        else if (kind === "long") name = zone.long[dst ? 1 : 0];
        else if (kind === "short") name = (zone.short && zone.short[dst ? 1 : 0]) ?? (zone.name === "Europe/Lisbon" && offset === 0 ? "GMT+0" : gmt(offset, false));
        else if (kind === "shortOffset") name = gmt(offset, false);
        else if (kind === "longOffset") name = gmt(offset, true);
        else throw new RangeError(`timeZoneName "${kind}" is not supported in this sandbox for ${zone.name}.`);
        lit(" ");
        P.push({ type: "timeZoneName", value: name });
      }
      return P;
    }
    resolvedOptions() { return { ...dateFormats.get(this).r }; }
    static supportedLocalesOf(locales) { return canonical(locales); }
  }
  tag(DateTimeFormat, "Intl.DateTimeFormat");

  class PluralRules {
    #type;
    constructor(locales, options = {}) { canonical(locales); this.#type = opt(Object(options ?? {}), "type", ["cardinal", "ordinal"], "cardinal"); }
    select(n) {
      n = Number(n);
      if (this.#type === "ordinal") {
        const a = n % 10, b = n % 100;
        return a === 1 && b !== 11 ? "one" : a === 2 && b !== 12 ? "two" : a === 3 && b !== 13 ? "few" : "other";
      }
      return n === 1 ? "one" : "other";
    }
    resolvedOptions() { return { locale: LOCALE, type: this.#type }; }
    static supportedLocalesOf(locales) { return canonical(locales); }
  }
  tag(PluralRules, "Intl.PluralRules");

  const fold = (s) => String(s).normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  class Collator {
    #numeric; #sensitivity;
    constructor(locales, options = {}) {
      canonical(locales);
      const o = Object(options ?? {});
      this.#numeric = !!o.numeric;
      this.#sensitivity = opt(o, "sensitivity", ["base", "accent", "case", "variant"], "variant");
    }
    get compare() {
      const bound = (a, b) => collate(String(a), String(b), this.#numeric, this.#sensitivity);
      define(this, "compare", { value: bound, configurable: true });
      return bound;
    }
    resolvedOptions() { return { locale: LOCALE, usage: "sort", sensitivity: this.#sensitivity, ignorePunctuation: false, collation: "default", numeric: this.#numeric, caseFirst: "false" }; }
    static supportedLocalesOf(locales) { return canonical(locales); }
  }
  tag(Collator, "Intl.Collator");
  const chunks = (s, numeric) => numeric ? s.match(/\d+|\D+/g) ?? [] : [s];
  // Root collation puts spaces and punctuation first, in this order, then symbols, digits and
  // letters.
  const PUNCTUATION = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
  const weights = (s) => Array.from(s, (c) => {
    const i = PUNCTUATION.indexOf(c);
    if (i >= 0) return String.fromCharCode(0x01 + i);
    const code = c.codePointAt(0);
    return code >= 0x30 && code <= 0x39 ? c : String.fromCodePoint(code < 0x80 ? 0x100 + code : code + 0x200);
  }).join("");
  // ICU's levels, simplified: letters first (accents and case ignored), then accents, then
  // case (lower before upper).
  const collate = (a, b, numeric, sensitivity) => {
    const level = (x, y) => {
      const p = chunks(x, numeric), q = chunks(y, numeric);
      for (let i = 0; i < Math.min(p.length, q.length); i++) {
        if (numeric && /^\d/.test(p[i]) && /^\d/.test(q[i])) {
          const d = Number(p[i]) - Number(q[i]);
          if (d !== 0) return d < 0 ? -1 : 1;
        } else if (p[i] !== q[i]) return p[i] < q[i] ? -1 : 1;
      }
      return p.length === q.length ? 0 : p.length < q.length ? -1 : 1;
    };
    const primary = level(weights(fold(a).toLowerCase()), weights(fold(b).toLowerCase()));
    if (primary !== 0 || sensitivity === "base") return primary;
    if (sensitivity !== "case") {
      const secondary = level(a.toLowerCase().normalize("NFD"), b.toLowerCase().normalize("NFD"));
      if (secondary !== 0 || sensitivity === "accent") return secondary;
    }
    const x = fold(a), y = fold(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) {
        const lowX = x[i] === x[i].toLowerCase(), lowY = y[i] === y[i].toLowerCase();
        if (lowX !== lowY) return lowX ? -1 : 1;
      }
    }
    return 0;
  };

  class RelativeTimeFormat {
    #numeric; #style;
    constructor(locales, options = {}) {
      canonical(locales);
      const o = Object(options ?? {});
      this.#numeric = opt(o, "numeric", ["always", "auto"], "always");
      this.#style = opt(o, "style", ["long", "short", "narrow"], "long");
    }
    format(value, unit) {
      const u = String(unit).replace(/s$/, "");
      if (!["second", "minute", "hour", "day", "week", "month", "quarter", "year"].includes(u)) throw new RangeError(`Invalid unit argument for format() '${unit}'`);
      const v = Number(value);
      if (this.#numeric === "auto") {
        const words = { day: ["yesterday", "today", "tomorrow"], week: ["last week", "this week", "next week"], month: ["last month", "this month", "next month"], year: ["last year", "this year", "next year"], quarter: ["last quarter", "this quarter", "next quarter"] };
        if (words[u] && (v === -1 || v === 0 || v === 1)) return words[u][v + 1];
        if (u === "second" && v === 0) return "now";
        if ((u === "minute" || u === "hour") && v === 0) return `this ${u}`;
      }
      const n = new NumberFormat().format(Math.abs(v));
      const label = Math.abs(v) === 1 ? u : u + "s";
      return v < 0 || Object.is(v, -0) ? `${n} ${label} ago` : `in ${n} ${label}`;
    }
    resolvedOptions() { return { locale: LOCALE, style: this.#style, numeric: this.#numeric, numberingSystem: "latn" }; }
    static supportedLocalesOf(locales) { return canonical(locales); }
  }
  tag(RelativeTimeFormat, "Intl.RelativeTimeFormat");

  class ListFormat {
    #type; #style;
    constructor(locales, options = {}) {
      canonical(locales);
      const o = Object(options ?? {});
      this.#type = opt(o, "type", ["conjunction", "disjunction", "unit"], "conjunction");
      this.#style = opt(o, "style", ["long", "short", "narrow"], "long");
    }
    format(list) {
      const items = [...list].map(String);
      const word = this.#type === "disjunction" ? "or" : this.#type === "unit" ? null : this.#style === "long" ? "and" : "&";
      if (items.length <= 1) return items.join("");
      if (word === null) return items.join(this.#style === "narrow" ? " " : ", ");
      if (items.length === 2) return `${items[0]} ${word} ${items[1]}`;
      return `${items.slice(0, -1).join(", ")}, ${word} ${items[items.length - 1]}`;
    }
    resolvedOptions() { return { locale: LOCALE, type: this.#type, style: this.#style }; }
    static supportedLocalesOf(locales) { return canonical(locales); }
  }
  tag(ListFormat, "Intl.ListFormat");

  const Intl = {};
  for (const [k, v] of Object.entries({ NumberFormat, DateTimeFormat, PluralRules, Collator, RelativeTimeFormat, ListFormat })) {
    define(Intl, k, { value: v, writable: true, configurable: true });
  }
  define(Intl, "getCanonicalLocales", { value: function getCanonicalLocales(l) { return canonical(l); }, writable: true, configurable: true });
  define(Intl, "supportedValuesOf", { value: function supportedValuesOf(k) { return k === "timeZone" ? [...new Set(Object.values(ZONES).map((z) => z.name))].concat("UTC").sort() : k === "calendar" ? ["gregory"] : k === "numberingSystem" ? ["latn"] : []; }, writable: true, configurable: true });
  define(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });

  const thisNumber = (v) => typeof v === "bigint" ? v : typeof v === "object" && v !== null ? v.valueOf() : v;
  return {
    Intl,
    numberToLocaleString: (self, locales, options) => new NumberFormat(locales, options).format(thisNumber(self)),
    dateToLocaleString: (self, locales, options) => {
      const t = Date.prototype.getTime.call(self);
      if (Number.isNaN(t)) return "Invalid Date";
      return new DateTimeFormat(locales, options, "all").format(t);
    },
    dateToLocaleDateString: (self, locales, options) => {
      const t = Date.prototype.getTime.call(self);
      if (Number.isNaN(t)) return "Invalid Date";
      return new DateTimeFormat(locales, options, "date").format(t);
    },
    dateToLocaleTimeString: (self, locales, options) => {
      const t = Date.prototype.getTime.call(self);
      if (Number.isNaN(t)) return "Invalid Date";
      return new DateTimeFormat(locales, options, "time").format(t);
    },
    localeCompare: (self, that, locales, options) => new Collator(locales, options).compare(String(self), String(that)),
  };
})
