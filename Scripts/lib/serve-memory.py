#!/usr/bin/env python3
"""What `focal serve` keeps of a big session: its resident memory (VmRSS of /proc/PID/status) before,
during and after one session is posted MIB MiB of values and then DELETEd (issue 53).

  Scripts/lib/serve-memory.py FOCAL TASKS [MIB] [-- FLAG…]

Starts FOCAL serve on a free loopback port with TASKS and the FLAGs (a budget large enough for the
session: --max-session-bytes MIB + 64 MiB, unless given), posts the session in batches of 15 MiB
(nodes with 100 KB values), deletes it, and prints VmRSS at each step, then after the server has been
idle for 2 s (time for anything done off the request path)."""
import json, os, re, subprocess, sys, tempfile, time, urllib.request

focal, tasks = sys.argv[1], sys.argv[2]
rest = sys.argv[3:]
mib = int(rest[0]) if rest and rest[0] != "--" else 300
flags = rest[rest.index("--") + 1:] if "--" in rest else []
if not any(f.startswith("--max-session-bytes") for f in flags):
    flags += ["--max-session-bytes", str((mib + 64) << 20)]

with tempfile.TemporaryDirectory() as scratch:
    out = open(os.path.join(scratch, "serve.out"), "w+")
    server = subprocess.Popen([focal, "serve", "--tasks", tasks, "--port", "0", "--threads", "1",
                               "--log-level", "warning", *flags], stdout=out, stderr=subprocess.DEVNULL)
    try:
        url = None
        for _ in range(300):
            out.seek(0)
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", out.read())
            if found:
                url = found.group(1)
                break
            time.sleep(0.1)
        if url is None:
            sys.exit("focal serve did not start")

        def rss():
            with open(f"/proc/{server.pid}/status") as status:
                return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) / 1024

        def request(method, path, body=None):
            headers = {"Content-Type": "application/x-ndjson"} if body is not None else {}
            with urllib.request.urlopen(urllib.request.Request(url + path, data=body, method=method, headers=headers)) as answer:
                return answer.status, answer.read()

        def settle():
            # Whatever runs after an answer (a collection, a trim) has happened once the server has idled.
            time.sleep(2)
            request("GET", "/healthz")

        value = "v" * 100_000
        lines = [json.dumps({"op": "register", "node": 1, "parent": None, "name": "root"})]
        for node in range(2, 2 + (mib << 20) // 100_000):
            lines.append(json.dumps({"op": "register", "node": node, "parent": 1, "name": "row"}))
            lines.append(json.dumps({"op": "record", "node": node, "event": "ana-updated",
                                     "properties": {"key-path": "title", "value": value}}))
        settle()
        print(f"before       {rss():8.1f} MiB")
        batch, size, errors = [], 0, 0
        for line in lines + [None]:
            if line is None or size + len(line) + 1 > 15 << 20:
                status, body = request("POST", "/v1/sessions/big/ops", ("\n".join(batch) + "\n").encode())
                errors += len(json.loads(body)["errors"])
                batch, size = [], 0
            if line is not None:
                batch.append(line)
                size += len(line) + 1
        print(f"during       {rss():8.1f} MiB  ({len(lines)} lines, {mib} MiB of values, {errors} errors)")
        started = time.monotonic()
        request("DELETE", "/v1/sessions/big")
        took = (time.monotonic() - started) * 1000
        print(f"after DELETE {rss():8.1f} MiB  (the DELETE took {took:.0f} ms)")
        settle()
        print(f"idle 2 s     {rss():8.1f} MiB")
    finally:
        server.terminate()
        server.wait()
