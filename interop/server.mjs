// A Cap'n Web executor server written with the real npm `capnweb`: the daemon's main object
// (`protocolVersion()`, `execute(request, dispatch, outbound)`) as a third party would serve it
// from docs/remote-protocol.md, so that the Rust `RemoteExecutor` is tested against a peer it
// was not written with. Programs run in a `node:vm` context whose provider objects call the
// dispatch stub back over the socket. Driven by the harness's tests:
//
//   node server.mjs [--version N] [--garbage] [--token TOKEN]
//
// prints `listening on ws://127.0.0.1:PORT` once ready, then one line per connection. With
// --version N, `protocolVersion()` answers N (a mismatching server); with --garbage, every
// connection is sent text that is not Cap'n Web; with --token, an upgrade without
// `Authorization: Bearer TOKEN` is answered 401.
import { createServer } from "node:http";
import vm from "node:vm";
import { RpcTarget, newWebSocketRpcSession } from "capnweb";
import { WebSocketServer } from "ws";

const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1] ?? true;
};
const version = Number(flag("--version") ?? 1);
const garbage = flag("--garbage") !== undefined;
const token = flag("--token");

const format = (args) => args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");

class Executor extends RpcTarget {
  protocolVersion() {
    return version;
  }

  async execute(request, dispatch, outbound) {
    const logs = [];
    const globals = {
      console: {
        log: (...a) => logs.push({ level: "log", text: format(a) }),
        warn: (...a) => logs.push({ level: "warn", text: format(a) }),
        error: (...a) => logs.push({ level: "error", text: format(a) }),
      },
      // What the server was sent, so a test can check which fields crossed.
      __request: JSON.parse(JSON.stringify({ ...request, outbound: outbound ?? null })),
      __keys: Object.keys(request),
    };
    for (const provider of request.providers ?? []) {
      globals[provider.name] = Object.fromEntries(
        provider.tools.map((tool) => [
          tool,
          async (...args) => {
            if (!dispatch) throw new Error(`Tool "${provider.name}.${tool}" not found`);
            const envelope = JSON.parse(await dispatch(provider.name, tool, JSON.stringify(args)));
            if ("error" in envelope) throw new Error(envelope.error);
            return envelope.result;
          },
        ]),
      );
    }
    try {
      const program = vm.runInNewContext(`(${request.code})`, globals);
      let timer;
      const bound = request.timeout ?? 30000;
      const timedOut = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Execution timed out at its ${bound} ms bound.`)), bound);
      });
      try {
        // The program's values belong to the vm's realm; a clone brings them into this one,
        // where capnweb serializes them.
        return { result: structuredClone(await Promise.race([program(), timedOut])), logs };
      } finally {
        clearTimeout(timer);
      }
    } catch (error) {
      return { result: undefined, error: String(error?.message ?? error), logs };
    }
  }
}

const http = createServer((_, response) => {
  response.writeHead(426).end("WebSocket only");
});
const wss = new WebSocketServer({ noServer: true });
let connections = 0;
http.on("upgrade", (request, socket, head) => {
  if (token && request.headers.authorization !== `Bearer ${token}`) {
    socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    return;
  }
  wss.handleUpgrade(request, socket, head, (ws) => {
    connections += 1;
    console.log(`connection ${connections}`);
    if (garbage) {
      ws.send("this is not capnweb");
      ws.send(JSON.stringify(["bogus", 1, 2]));
      return;
    }
    newWebSocketRpcSession(ws, new Executor());
  });
});
http.listen(0, "127.0.0.1", () => {
  console.log(`listening on ws://127.0.0.1:${http.address().port}`);
});
