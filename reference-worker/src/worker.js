// Reference worker for the differential harness: runs one case per request on
// the upstream DynamicWorkerExecutor (@cloudflare/codemode) through the
// Worker Loader binding `LOADER`. See ../README.md for the wire format.
//
// Keep this import plain: older columns rewrite it with wrangler `[alias]`.
import { DynamicWorkerExecutor } from "@cloudflare/codemode";
import { WorkerEntrypoint } from "cloudflare:workers";
import { materializeConnector, materializeTools } from "./tools.js";
import { checkOutbound, declaresHandler, outboundProps, serveOutbound } from "./outbound.js";
import { projectSafe } from "./project.js";

const json = (body, status = 200) => Response.json(body, { status });

const messageOf = (err) => {
  if (err instanceof Error) return err.message;
  try {
    return String(err);
  } catch {
    return Object.prototype.toString.call(err);
  }
};

/** Build the executor's arguments from one case; every tool call lands in `calls`. */
function prepare(kase, env, ctx, calls) {
  const record = (tool, args) => calls.push({ tool, args: projectSafe(args) });

  let providersOrFns;
  if (kase.providers !== undefined && kase.providers !== null) {
    providersOrFns = kase.providers.map((p) => {
      const provider = { name: p.name, fns: materializeTools(p.name, p.tools, record) };
      if (p.prelude !== undefined) provider.prelude = p.prelude;
      if (p.positional_args !== undefined) provider.positionalArgs = p.positional_args;
      if (p.proxy_source !== undefined) provider.proxySource = p.proxy_source;
      return provider;
    });
  } else if (kase.fns !== undefined && kase.fns !== null) {
    // The bare record: upstream warns on the host console and wraps it as `codemode`.
    providersOrFns = materializeTools("codemode", kase.fns, record);
  } else {
    providersOrFns = [];
  }

  const executeOptions = {};
  if (Array.isArray(kase.connectors)) {
    executeOptions.connectors = kase.connectors.map((c) => materializeConnector(c, record));
  }

  const options = kase.options ?? {};
  let finish = () => {};
  const ctor = { loader: env.LOADER };
  if (options.timeout_ms !== undefined && options.timeout_ms !== null) ctor.timeout = options.timeout_ms;
  if (options.modules !== undefined && options.modules !== null) ctor.modules = options.modules;
  checkOutbound(options.outbound);
  if (declaresHandler(options.outbound)) {
    // A loopback Fetcher onto this worker's `Outbound` entrypoint, carrying the case's
    // described handler as props: the sandbox's fetch() never reaches the network.
    const { props, done } = outboundProps(options.outbound);
    ctor.globalOutbound = ctx.exports.Outbound({ props });
    finish = done;
  }

  return { providersOrFns, executeOptions, ctor, finish };
}

async function execute(request, env, ctx) {
  let kase;
  try {
    kase = await request.json();
  } catch (err) {
    return json({ error: `request body is not JSON: ${messageOf(err)}` }, 400);
  }
  if (kase === null || typeof kase !== "object" || typeof kase.code !== "string") {
    return json({ error: "request body must be an object with a string `code`" }, 400);
  }

  const calls = [];
  let prepared;
  try {
    prepared = prepare(kase, env, ctx, calls);
  } catch (err) {
    return json({ error: `invalid case ${kase.id ?? "?"}: ${messageOf(err)}` }, 400);
  }

  const started = performance.now();
  let res;
  let threw;
  try {
    const executor = new DynamicWorkerExecutor(prepared.ctor);
    res = await executor.execute(kase.code, prepared.providersOrFns, prepared.executeOptions);
  } catch (err) {
    threw = messageOf(err);
  }
  prepared.finish();
  const elapsed_ms = performance.now() - started;

  const outcome = {};
  if (threw === undefined && res !== null && typeof res === "object") {
    const result = projectSafe(res.result);
    if (result !== undefined) outcome.result = result;
    if (res.error !== undefined) outcome.error = projectSafe(res.error);
    outcome.logs = Array.isArray(res.logs) ? res.logs : [];
  } else {
    outcome.logs = [];
  }
  // Snapshot: a late call must not change what was already reported.
  outcome.calls = calls.slice();

  const body = { outcome };
  if (threw !== undefined) body.threw = threw;
  body.elapsed_ms = elapsed_ms;
  return json(body);
}

/** The case's outbound handler: every fetch() a sandbox makes when the case declares one. */
export class Outbound extends WorkerEntrypoint {
  async fetch(request) {
    return serveOutbound(this.ctx.props, request);
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/health" && request.method === "GET") {
      return json({ ok: true, column: env.COLUMN ?? null });
    }
    if (url.pathname === "/execute") {
      if (request.method !== "POST") return json({ error: "POST only" }, 405);
      try {
        return await execute(request, env, ctx);
      } catch (err) {
        // Only a bug in this worker gets here; upstream rejections travel as `threw`.
        return json({ error: `reference worker failure: ${messageOf(err)}` }, 500);
      }
    }
    return json({ error: "not found" }, 404);
  },
};
