// The case's outbound behaviour (`options.outbound`), served to the sandbox's fetch() as the
// executor's `globalOutbound`. Never the network: every request the sandbox makes lands here.
//
// Described handlers (see docs/case-format.md, "Extensions"):
//   "blocked"                                        no globalOutbound (upstream's default)
//   {respond: {status, status_text?, headers?, body?}}  answers that response; body a string or
//                                                    a `$<Type>` binary value (tools.js)
//   {respond_seq: [answer, ...]}                     the n-th request of the run gets the n-th
//                                                    answer, the last repeats; an answer is a
//                                                    response or {echo: true}
//   {echo: true}                                     answers 200, content-type application/json,
//                                                    {method, url, headers, body} of the request
//   {throws: "text"}                                 the handler throws new Error(text)
//   delay_ms: N                                      beside any of them: waits N ms first
//
// The echo's `headers` is an object of the request's headers (lower-cased names, sorted, as
// Headers iterates them); its `body` is the request body decoded as UTF-8 (replacement
// characters for bad bytes), or null when the request has none.

import { decodeValue } from "./tools.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function describe(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Checks a described handler; throws a sentence naming what is wrong. */
export function checkOutbound(outbound) {
  if (outbound === undefined || outbound === null || outbound === "blocked") return;
  if (typeof outbound !== "object" || Array.isArray(outbound)) {
    throw new Error(`invalid outbound: ${describe(outbound)}`);
  }
  const kinds = ["respond", "respond_seq", "echo", "throws"].filter((k) => k in outbound);
  if (kinds.length !== 1) {
    throw new Error(`outbound needs exactly one of respond, respond_seq, echo, throws: ${describe(outbound)}`);
  }
}

// Requests answered so far, per run (`respond_seq`); the run's entry goes when it ends.
const served = new Map();
let runs = 0;

/** The props of one run's outbound Fetcher. */
export function outboundProps(outbound) {
  runs += 1;
  const run = runs;
  served.set(run, 0);
  return { props: { outbound, run }, done: () => served.delete(run) };
}

/** Whether the case declares a handler (rather than blocked or nothing). */
export const declaresHandler = (outbound) =>
  outbound !== undefined && outbound !== null && typeof outbound === "object";

/** Answers one request the sandbox made, as the described handler says. */
export async function serveOutbound({ outbound, run }, request) {
  const n = served.get(run) ?? 0;
  if (served.has(run)) served.set(run, n + 1);
  const delay = outbound.delay_ms;
  if (typeof delay === "number" && delay > 0) await sleep(delay);
  if ("throws" in outbound) throw new Error(outbound.throws);
  const seq = outbound.respond_seq;
  const answer = Array.isArray(seq) ? seq[Math.min(n, seq.length - 1)] : outbound;
  if (answer.echo === true) {
    const headers = {};
    for (const [name, value] of request.headers) headers[name] = value;
    const body =
      request.body === null
        ? null
        : new TextDecoder().decode(await request.arrayBuffer());
    return Response.json({ method: request.method, url: request.url, headers, body });
  }
  const r = (Array.isArray(seq) ? answer : outbound.respond) ?? {};
  const init = { status: r.status ?? 200 };
  if (r.status_text !== undefined) init.statusText = r.status_text;
  if (r.headers !== undefined) init.headers = r.headers;
  const body = r.body === undefined || r.body === null ? null : decodeValue(r.body);
  return new Response(body, init);
}
