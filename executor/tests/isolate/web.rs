//! The sandbox's Web globals, through the executor's public API. Every expected value here
//! was measured on the live reference (workerd under wrangler dev).

use codemode_executor::protocol::{ExecuteRequest, Executor, JsValue, Outcome};

use crate::support::one_worker;

async fn run(code: &str) -> Outcome {
    one_worker()
        .execute(ExecuteRequest {
            code: code.into(),
            ..ExecuteRequest::default()
        })
        .await
        .expect("the run starts")
}

/// Runs a program returning a string and gives that string.
async fn text(code: &str) -> String {
    let outcome = run(code).await;
    match outcome.result {
        JsValue::String(s) => s.to_text().into_owned(),
        other => panic!(
            "{code}: expected a string, got {other:?} ({:?})",
            outcome.error
        ),
    }
}

#[tokio::test]
async fn url_and_search_params() {
    assert_eq!(
        text(r#"async () => { const u = new URL("https://user:pw@Example.com:8080/a/../b c?x=1&y=2#h"); return [u.href, u.origin, u.host, u.pathname, u.search, u.hash, u.searchParams.get("y")].join("|") }"#).await,
        "https://user:pw@example.com:8080/b%20c?x=1&y=2#h|https://example.com:8080|example.com:8080|/b%20c|?x=1&y=2|#h|2"
    );
    assert_eq!(
        text(r#"async () => { const u = new URL("https://a.com/?x=1"); u.searchParams.set("y", "a b"); u.pathname = "/p q"; u.hash = "z"; return u.toString() }"#).await,
        "https://a.com/p%20q?x=1&y=a+b#z"
    );
    assert_eq!(
        text(r#"async () => { const p = new URLSearchParams({a: "1 2", b: "é&"}); p.append("a", "3"); p.sort(); return p.toString() }"#).await,
        "a=1+2&a=3&b=%C3%A9%26"
    );
    assert_eq!(
        text(r#"async () => { try { new URL("nope") } catch (e) { return e.name + ": " + e.message } }"#).await,
        "TypeError: Invalid URL string."
    );
}

#[tokio::test]
async fn url_parses_and_sets_as_ada_does() {
    // Drive letters, a space ending an opaque path, Punycode labels, IDNA.
    assert_eq!(
        text(r#"async () => ["file:///w|/m", "non-special:opaque  ?hi", "http://a.b.c.xn--pokxncvks/", "https://faß.example/"].map((s) => new URL(s).href).join(" ")"#).await,
        "file:///w:/m non-special:opaque %20?hi http://a.b.c.xn--pokxncvks/ https://xn--fa-hia.example/"
    );
    // Setters: a whitespace port, `^` in a path, an `xn--` host, a new `href`, a refused one.
    assert_eq!(
        text(r#"async () => { const set = (href, field, value) => { const u = new URL(href); try { u[field] = value } catch (e) { return e.message } return u.href; }; return [set("https://domain.com:3000", "port", "\n\t"), set("a:/", "pathname", "^"), set("https://example.com/", "host", "xn--"), set("file:///var/log/system.log", "href", "http://0300.168.0xF0"), set("https://a.b/", "href", "nope")].join(" ") }"#).await,
        "https://domain.com:3000/ a:/%5E https://xn--/ http://192.168.0.240/ Failed to set the 'href' property on 'URL': the provided value is not of type 'valid URL string'."
    );
    // A form body's bad UTF-8 is U+FFFD; serializing is the standard's.
    assert_eq!(
        text(r#"async () => JSON.stringify([[...new URLSearchParams("%FF=%41&a+b=%C2x")], new URLSearchParams([["a b", "é&=+"]]).toString()])"#).await,
        r#"[[["�","A"],["a b","�x"]],"a+b=%C3%A9%26%3D%2B"]"#
    );
}

#[tokio::test]
async fn url_pattern_runs_its_regexps_on_the_engine() {
    assert_eq!(
        text(r#"async () => { const m = (f) => { try { return f() } catch (e) { return e.message } }; return JSON.stringify([
            m(() => new URLPattern({pathname: "\uD83D \uDEB2"}).pathname),
            m(() => new URLPattern("((?R)):")),
            m(() => new URLPattern({pathname: "*{}**?"}).exec({pathname: "foobar"}).pathname.groups[1]),
            m(() => new URLPattern({pathname: "/foo/([^\\/]+?)"}).hasRegExpGroups),
            m(() => [new URLPattern({pathname: "/([[a-z]--a])"}).test({pathname: "/a"}), new URLPattern({pathname: "/([[a-z]--a])"}).test({pathname: "/z"})]),
            m(() => new URLPattern({protocol: "foo-bar"}).test({protocol: "foo-bar"})),
            m(() => new URLPattern({pathname: "/:a"}).test({}, "https://x")),
        ]) }"#).await,
        r#"["%EF%BF%BD%20%EF%BF%BD","Failed to construct URLPattern",null,false,[false,true],true,"Failed to test URLPattern"]"#
    );
}

#[tokio::test]
async fn url_pattern() {
    assert_eq!(
        text(r#"async () => { const p = new URLPattern({pathname: "/users/:id"}); return JSON.stringify([p.test("https://a.com/users/1"), p.exec("https://a.com/users/42").pathname.groups, p.pathname, p.protocol]) }"#).await,
        r#"[true,{"id":"42"},"/users/:id","*"]"#
    );
}

#[tokio::test]
async fn encoding_and_base64() {
    assert_eq!(
        text(r#"async () => { const b = new TextEncoder().encode("hé€😀"); return Array.from(b).join() + "|" + new TextDecoder().decode(b) }"#).await,
        "104,195,169,226,130,172,240,159,152,128|hé€😀"
    );
    assert_eq!(
        text(r#"async () => [btoa("hello"), atob(" aGVs bG8 "), btoa(String.fromCharCode(255))].join()"#).await,
        "aGVsbG8=,hello,/w=="
    );
    assert_eq!(
        text(r#"async () => { try { atob("a") } catch (e) { return e.name } }"#).await,
        "InvalidCharacterError"
    );
}

#[tokio::test]
async fn crypto_digest_random_uuid() {
    assert_eq!(
        text(r#"async () => { const out = []; for (const alg of ["SHA-1", "SHA-256", "sha-384", "SHA-512"]) { const d = await crypto.subtle.digest(alg, new TextEncoder().encode("abc")); out.push(Array.from(new Uint8Array(d)).map(b => b.toString(16).padStart(2, "0")).join("").slice(0, 16) + ":" + d.byteLength) } return out.join() }"#).await,
        "a9993e364706816a:20,ba7816bf8f01cfea:32,cb00753f45a35e8b:48,ddaf35a193617aba:64"
    );
    assert_eq!(
        text(r#"async () => { const u = crypto.randomUUID(); const a = crypto.getRandomValues(new Uint32Array(4)); return String(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u) && u !== crypto.randomUUID() && a.some(x => x !== 0)) }"#).await,
        "true"
    );
}

#[tokio::test]
async fn crypto_hmac_sign_and_verify() {
    assert_eq!(
        text(r#"async () => { const enc = new TextEncoder(); const key = await crypto.subtle.importKey("raw", enc.encode("secret"), {name: "HMAC", hash: "SHA-256"}, false, ["sign", "verify"]); const sig = await crypto.subtle.sign("HMAC", key, enc.encode("hello")); return Array.from(new Uint8Array(sig), b => b.toString(16).padStart(2, "0")).join("") + ":" + await crypto.subtle.verify("HMAC", key, sig, enc.encode("hello")) + ":" + await crypto.subtle.verify("HMAC", key, sig, enc.encode("x")) }"#).await,
        "88aab3ede8d3adf94d26ab90d3bafd4a2083070c3bcce9c014ee04a443847c0b:true:false"
    );
}

#[tokio::test]
async fn abort_events_and_clone() {
    assert_eq!(
        text(r#"async () => { const s = AbortSignal.timeout(5); await new Promise(r => setTimeout(r, 30)); const c = new AbortController(); let n = 0; c.signal.addEventListener("abort", () => n++); c.signal.onabort = () => n++; c.abort("why"); return [s.aborted, String(s.reason), n, c.signal.reason, AbortSignal.any([c.signal]).aborted].join() }"#).await,
        "true,TimeoutError: The operation was aborted due to timeout,2,why,true"
    );
    assert_eq!(
        text(r#"async () => { const o = structuredClone({a: new Map([[1, {b: 2}]]), d: new Date(0)}); let e; try { structuredClone(() => 1) } catch (x) { e = x.name } return [o.a.get(1).b, o.d.getTime(), e].join() }"#).await,
        "2,0,DataCloneError"
    );
}

#[tokio::test]
async fn fetch_classes_and_blocked_fetch() {
    assert_eq!(
        text(r#"async () => { const r = Response.json({a: 1}, {status: 201}); const h = new Headers({"X-A": "1"}); h.append("x-a", "2"); return [r.status, r.headers.get("content-type"), JSON.stringify(await r.json()), h.get("x-a"), await new Blob(["ab", new Uint8Array([99])]).text()].join("|") }"#).await,
        "201|application/json|{\"a\":1}|1, 2|abc"
    );
    assert_eq!(
        text(r#"async () => { try { await fetch("https://example.com") } catch (e) { return String(e) } }"#).await,
        "Error: This worker is not permitted to access the internet via global functions like fetch(). It must use capabilities (such as bindings in 'env') to talk to the outside world."
    );
    assert_eq!(
        text(r#"async () => { const s = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("hi")); c.close() } }); return await new Response(s).text() }"#).await,
        "hi"
    );
}

#[tokio::test]
async fn intl_en_us() {
    assert_eq!(
        text(r#"async () => [(1234567.891).toLocaleString(), new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"}).format(1234.5), new Intl.NumberFormat("en-US", {style: "percent"}).format(0.256), new Intl.NumberFormat("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2}).format(1.005), new Intl.NumberFormat("en-US", {notation: "compact"}).format(1234567)].join("|")"#).await,
        "1,234,567.891|$1,234.50|26%|1.01|1.2M"
    );
    assert_eq!(
        text(r#"async () => { const d = new Date(Date.UTC(2024, 2, 5, 14, 7, 9)); return [d.toLocaleString("en-US", {timeZone: "UTC"}), d.toLocaleDateString("en-US", {timeZone: "UTC", weekday: "long", year: "numeric", month: "short", day: "numeric"}), new Intl.DateTimeFormat("en-US", {timeZone: "UTC", dateStyle: "full", timeStyle: "short"}).format(d)].join("|") }"#).await,
        "3/5/2024, 2:07:09 PM|Tuesday, Mar 5, 2024|Tuesday, March 5, 2024 at 2:07 PM"
    );
}

#[tokio::test]
async fn web_globals_do_not_leak_between_runs() {
    let executor = one_worker();
    let first = executor
        .execute(ExecuteRequest {
            code: "async () => { URL.prototype.leak = 1; globalThis.Headers = 5; return typeof Headers }".into(),
            ..ExecuteRequest::default()
        })
        .await
        .expect("run");
    assert_eq!(first.result, JsValue::String("number".into()));
    let second = executor
        .execute(ExecuteRequest {
            code: "async () => [typeof URL.prototype.leak, typeof Headers].join()".into(),
            ..ExecuteRequest::default()
        })
        .await
        .expect("run");
    assert_eq!(second.result, JsValue::String("undefined,function".into()));
}
