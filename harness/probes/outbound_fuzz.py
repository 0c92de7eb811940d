#!/usr/bin/env python3
"""Randomized differential probe for outbound fetch.

Writes N random outbound cases (methods, request headers, body kinds, handler statuses,
status texts, response headers, body kinds) into a scratch catalogue, runs them with
`codemode-compat matrix` on ours and one reference column, and prints every case whose
outcomes differ. Expectations are placeholders: the matrix's own comparison is ignored,
only ours-versus-reference counts.

    python3 harness/probes/outbound_fuzz.py [N] [SEED] [COLUMN]
"""
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

N = int(sys.argv[1]) if len(sys.argv) > 1 else 60
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 1
COLUMN = sys.argv[3] if len(sys.argv) > 3 else "reference@0.5.6"
rng = random.Random(SEED)

TOKEN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_!#$%&'*+.^`|~"
REDIRECT_MODES = ["manual", "follow"]
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "post", "put", "patch", "delete", "get"]


def name():
    return "x-" + "".join(rng.choice(TOKEN) for _ in range(rng.randint(1, 8)))


def value():
    chars = "abc XYZ 0123;=,/\t\"é"
    v = "".join(rng.choice(chars) for _ in range(rng.randint(0, 10)))
    return (" " if rng.random() < 0.2 else "") + v


def body_expr(method):
    if method.upper() in ("GET", "HEAD"):
        return "undefined"
    kind = rng.choice(["none", "string", "bytes", "buffer", "view", "blob", "params", "stream", "empty"])
    if kind == "none":
        return "undefined"
    if kind == "string":
        return json.dumps("".join(rng.choice("ab\u00e9\u4e2d{}\" \n") for _ in range(rng.randint(1, 12))))
    if kind == "empty":
        return '""'
    data = [rng.randint(0, 255) for _ in range(rng.randint(0, 8))]
    if kind == "bytes":
        return f"new Uint8Array({data})"
    if kind == "buffer":
        return f"new Uint8Array({data}).buffer"
    if kind == "view":
        return f"new DataView(new Uint8Array({data}).buffer)"
    if kind == "blob":
        t = rng.choice(["", "text/x-a", "Application/JSON", "image/png"])
        return f"new Blob([new Uint8Array({data})], {{type: {json.dumps(t)}}})"
    if kind == "params":
        return f"new URLSearchParams({json.dumps({name(): value() for _ in range(rng.randint(0, 3))})})"
    chunks = [[rng.randint(0, 255) for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(1, 3))]
    enq = "".join(f"c.enqueue(new Uint8Array({c}));" for c in chunks)
    return f"new ReadableStream({{start(c) {{ {enq} c.close(); }}}})"


def handler():
    if rng.random() < 0.4:
        return {"echo": True}
    status = rng.choice([200, 201, 204, 206, 299, 301, 302, 304, 307, 400, 404, 418, 425, 429, 451, 499, 500, 503, 599,
                         rng.randint(200, 599)])
    r = {"status": status}
    if rng.random() < 0.4:
        r["status_text"] = rng.choice(["", "Fine", "Custom Text", "ok"])
    r["headers"] = {}
    if rng.random() < 0.6:
        r["headers"] = {name(): value().strip() for _ in range(rng.randint(1, 3))}
    if 300 <= status < 400 and rng.random() < 0.5:
        r["headers"]["location"] = rng.choice(["/next", "http://other.test/x?y=1", "../up", "https://probe.test/"])
        if rng.random() < 0.3:
            r["headers"]["content-type"] = rng.choice(["application/json", "text/csv", "x/y"])
    # A null-body status with a body is refused when the catalogue loads.
    kind = "none" if status in (204, 205, 304) else rng.choice(["none", "string", "binary"])
    if kind == "string":
        r["body"] = "".join(rng.choice("ab\u00e9{}\" \n") for _ in range(rng.randint(0, 12)))
    elif kind == "binary":
        r["body"] = {rng.choice(["$Uint8Array", "$ArrayBuffer"]): [rng.randint(0, 255) for _ in range(rng.randint(0, 6))]}
    return {"respond": r}


def case(i):
    method = rng.choice(METHODS)
    headers = {name(): value() for _ in range(rng.randint(0, 3))}
    init = f"{{method: {json.dumps(method)}, headers: {json.dumps(headers)}, body: {body_expr(method)}, redirect: {json.dumps(rng.choice(REDIRECT_MODES))}}}"
    read = rng.choice(["text", "bytes", "none", "blob"])
    reading = {
        "text": "await r.text()",
        "bytes": "[...new Uint8Array(await r.arrayBuffer())]",
        "none": "null",
        "blob": "await r.blob().then(async (b) => [b.type, b.size, await b.text()])",
    }[read]
    code = (
        "async () => { try { const r = await fetch(\"http://probe.test/p?i=" + str(i) + "\", " + init + "); "
        "return {status: r.status, statusText: r.statusText, ok: r.ok, url: r.url, redirected: r.redirected, "
        "nullBody: r.body === null, headers: [...r.headers], body: " + reading + "}; } "
        "catch (e) { return {threw: String(e)}; } }"
    )
    return {"id": f"probe/outbound-{i}", "code": code, "options": {"outbound": handler()}, "expect": {"result": None}}


def main():
    root = Path(__file__).resolve().parents[2]
    scratch = Path(tempfile.mkdtemp(prefix="outbound-fuzz-"))
    cases = scratch / "cases"
    cases.mkdir()
    (cases / "probe.yaml").write_text(json.dumps([case(i) for i in range(N)], ensure_ascii=False, indent=1))
    out = scratch / "out"
    subprocess.run(
        ["cargo", "run", "-q", "-p", "codemode-compat", "--", "matrix", "--cases", str(cases),
         "--columns", f"ours,{COLUMN}", "--out", str(out), "--baseline", str(scratch / "none.json")],
        cwd=root, check=False)
    matrix = json.loads((out / "matrix.json").read_text())
    differing = 0
    for row in matrix_rows(matrix):
        ours, ref = row["ours"], row[COLUMN]
        if ours != ref:
            differing += 1
            print(f"== {row['id']}\n  ours: {json.dumps(ours, ensure_ascii=False)}\n  ref:  {json.dumps(ref, ensure_ascii=False)}")
    print(f"{N} probes (seed {SEED}), {differing} differ; scratch {scratch}")


def matrix_rows(matrix):
    """(id, {column: outcome}) from matrix.json, whatever its exact nesting."""
    for c in matrix["cases"]:
        outcomes = {}
        for column, cell in c["cells"].items():
            outcomes[column] = cell.get("outcome")
        yield {"id": c["id"], **outcomes}


if __name__ == "__main__":
    main()
