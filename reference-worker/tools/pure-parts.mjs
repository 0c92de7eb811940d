// Runs upstream's own pure functions, `normalizeCode` and `sanitizeToolName`, under Node, for
// the differential test `harness/tests/dialect/pure_parts.rs`.
//
// stdin:  a JSON array of {"fn": "normalizeCode" | "sanitizeToolName", "input": string}
// stdout: a JSON array of the outputs, in the same order.
//
// `@cloudflare/codemode`'s root module imports `cloudflare:workers`, which Node cannot load;
// a resolve hook maps it to a stub exporting empty classes (none of them is used by the two
// functions under test).
import { register } from "node:module";

const stub =
  "export class RpcTarget {}\n" +
  "export class DurableObject {}\n" +
  "export class WorkerEntrypoint {}\n";
const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === "cloudflare:workers") {
    return { url: ${JSON.stringify("data:text/javascript," + encodeURIComponent(stub))}, shortCircuit: true };
  }
  return next(specifier, context);
}
`;
register("data:text/javascript," + encodeURIComponent(hooks));

const codemode = await import("@cloudflare/codemode");
const functions = {
  normalizeCode: codemode.normalizeCode,
  sanitizeToolName: codemode.sanitizeToolName,
};
for (const [name, fn] of Object.entries(functions)) {
  if (typeof fn !== "function") throw new Error(`@cloudflare/codemode exports no ${name}`);
}

let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const inputs = JSON.parse(text);
const outputs = inputs.map(({ fn, input }) => functions[fn](input));
process.stdout.write(JSON.stringify(outputs));
