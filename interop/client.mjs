// A Cap'n Web client of the executor daemon, written with the real npm `capnweb`, as a third
// party would write one from docs/remote-protocol.md. Driven by the harness's interop tests:
//
//   node client.mjs ws://HOST:PORT TOKEN_FILE SCENARIO
//
// prints one JSON line: what the scenario observed (the daemon's answers, and what the JS
// dispatch function was called with). Values JSON cannot show are tagged: {"$undefined": true},
// {"$date": ms}. The Rust test asserts on it.
import { readFileSync } from "node:fs";
import { newWebSocketRpcSession } from "capnweb";
import WebSocket from "ws";

const [url, tokenFile, scenario] = process.argv.slice(2);
const token = tokenFile && tokenFile !== "-" ? readFileSync(tokenFile, "utf8").trim() : null;
const headers = token ? { Authorization: `Bearer ${token}` } : {};

function open() {
  // The `ws` socket carries the bearer token; capnweb drives it like a standard WebSocket.
  return newWebSocketRpcSession(new WebSocket(url, { headers }));
}

function show(value) {
  if (value === undefined) return { $undefined: true };
  if (value instanceof Date) return { $date: value.getTime() };
  if (Array.isArray(value)) return value.map(show);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, show(v)]));
  }
  return value;
}

/** A dispatch function that answers `add`, `id` and `fail`, recording every call. */
function dispatcher(calls, delayMs = 0) {
  return async (provider, tool, argsJson) => {
    const args = JSON.parse(argsJson);
    calls.push({ provider, tool, args });
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (tool === "add") return JSON.stringify({ result: args[0].a + args[0].b });
    if (tool === "id") return JSON.stringify({ result: args[0] });
    return JSON.stringify({ error: `no tool ${provider}.${tool} here` });
  };
}

const codemode = (tools) => [{ name: "codemode", tools }];

const scenarios = {
  async version(api) {
    return { version: await api.protocolVersion() };
  },
  async "tool-call"(api) {
    const calls = [];
    const answer = await api.execute(
      {
        code: `async () => { const sum = await codemode.add({ a: 2, b: 3 }); console.log("sum", sum); console.warn("careful"); return { sum, list: [1, "two", null] }; }`,
        providers: codemode(["add"]),
      },
      dispatcher(calls),
      null,
    );
    return { answer: show(answer), calls };
  },
  async "tool-error"(api) {
    const calls = [];
    const answer = await api.execute(
      {
        code: `async () => { try { await codemode.missing(1); return "no error"; } catch (e) { return e.message; } }`,
        providers: codemode(["missing"]),
      },
      dispatcher(calls),
      null,
    );
    return { answer: show(answer), calls };
  },
  async "program-error"(api) {
    const answer = await api.execute({ code: `async () => { throw new Error("boom"); }`, providers: [] }, null, null);
    return { answer: show(answer) };
  },
  async timeout(api) {
    const answer = await api.execute({ code: `async () => { while (true) {} }`, providers: [], timeout: 200 }, null, null);
    return { answer: show(answer) };
  },
  async values(api) {
    const answer = await api.execute({ code: `async () => [undefined, new Date(0)]`, providers: [] }, null, null);
    return { answer: show(answer) };
  },
  async concurrent(api) {
    const calls = [];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.execute(
          { code: `async () => await codemode.id(${i})`, providers: codemode(["id"]) },
          dispatcher(calls, 20 * (8 - i)),
          null,
        ),
      ),
    );
    return { results: answers.map((a) => a.result), errors: answers.map((a) => a.error ?? null), calls: calls.length };
  },
  // Host-routed outbound: the sandbox's fetch reaches a JS function passed as execute's third
  // argument, with the mode "stub".
  async outbound(api) {
    const requests = [];
    const outbound = async (request) => {
      requests.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body === null ? null : new TextDecoder().decode(request.body),
      });
      if (request.url.endsWith("/refused")) throw new Error("not on the allow-list");
      return {
        status: 201,
        headers: [["content-type", "application/json"]],
        body: new TextEncoder().encode(JSON.stringify({ got: request.method })),
      };
    };
    const answer = await api.execute(
      {
        code: `async () => { const r = await fetch("https://api.example/items", { method: "POST", body: "x=1" }); const j = await r.json(); let refused; try { await fetch("https://api.example/refused"); } catch (e) { refused = e.message; } return [r.status, r.statusText, r.headers.get("content-type"), j, refused]; }`,
        providers: [],
        outbound: "stub",
      },
      null,
      outbound,
    );
    return { answer: show(answer), requests };
  },
  // A peer that sends the daemon something that is not Cap'n Web: what the socket answers.
  async garbage() {
    const socket = new WebSocket(url, { headers });
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    const closed = new Promise((resolve) => socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
    const received = [];
    socket.on("message", (data) => received.push(data.toString()));
    socket.send("this is not JSON");
    const timer = setTimeout(() => socket.terminate(), 5000);
    const close = await closed;
    clearTimeout(timer);
    return { close, received };
  },
};

async function main() {
  const run = scenarios[scenario];
  if (!run) throw new Error(`no scenario ${scenario}; known: ${Object.keys(scenarios).join(", ")}`);
  if (scenario === "garbage") return run();
  const api = open();
  try {
    return await run(api);
  } finally {
    api[Symbol.dispose]();
  }
}

main().then(
  (observed) => {
    process.stdout.write(JSON.stringify(observed) + "\n");
    process.exit(0);
  },
  (error) => {
    process.stdout.write(JSON.stringify({ thrown: String(error?.message ?? error) }) + "\n");
    process.exit(1);
  },
);
