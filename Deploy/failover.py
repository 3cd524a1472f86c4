#!/usr/bin/env python3
"""The pieces of Deploy/test-failover: op logs for many sessions, a loopback receiver for
delivered results, a load driver that kills an instance half-way, and the final check.

    failover.py oplogs   --sessions N --out DIR          one op log per session, and all.oplog
                                                          (every line tagged with its session)
    failover.py receive  --port P --out FILE              store each delivered message as a line
    failover.py load     --url URL --logs DIR --batch N --threads N --instances PID:LOG,… --report FILE
    failover.py check    --received FILE --expected FILE  compare per session with `focal replay`

Standard library only. Every loop is bounded: the load gives up on a batch after
--max-attempts tries, and the receiver stops when its parent kills it.
"""
import argparse
import collections
import http.server
import json
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.request


# ---------------------------------------------------------------- op logs

def session_log(number):
    """A master/detail session: a list of rows that appear and get titles, some selected
    (opening a detail screen), some retitled. Sizes vary with the session number."""
    t = 1_732_200_000_000 + number * 100_000
    lines = []

    def op(**fields):
        nonlocal t
        t += 1
        fields["time"] = t
        lines.append(json.dumps(fields, separators=(",", ":")))

    op(op="register", node=1, parent=None, name="__root__")
    op(op="register", node=2, parent=1, name="master", namespace="Master.ViewController")
    op(op="register", node=3, parent=2, name="tableView")
    op(op="record", node=2, event="ana-appeared")
    op(op="record", node=3, event="ana-appeared")
    rows = 4 + number % 9
    for row in range(rows):
        cell = [4, 0, row]
        op(op="register", node=cell, parent=3, name="cell", index=row)
        op(op="record", node=cell, event="ana-updated",
           properties={"key-path": "title", "value": f"item {number}-{row}"})
        op(op="record", node=cell, event="ana-appeared")
    for selection in range(1 + number % 4):
        row = (selection * 3 + number) % rows
        cell = [4, 0, row]
        detail = 100 + selection
        op(op="record", node=cell, event="did-select", properties={"section": 0})
        op(op="register", node=detail, parent=cell, name="detail", namespace="Detail.ViewController")
        op(op="register", node=detail * 10, parent=detail, name="button")
        op(op="record", node=2, event="ana-disappeared")
        op(op="record", node=detail, event="ana-appeared")
        op(op="record", node=detail * 10, event="touch-up-inside")
        op(op="record", node=detail, event="ana-disappeared")
        op(op="deregister", node=detail)
        op(op="record", node=2, event="ana-appeared")
        op(op="record", node=cell, event="ana-updated",
           properties={"key-path": "title", "value": f"item {number}-{row} (seen {selection})"})
    return lines


def write_oplogs(args):
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "all.oplog"), "w") as combined:
        for number in range(args.sessions):
            session = f"s{number:05d}"
            lines = session_log(number)
            with open(os.path.join(args.out, session + ".oplog"), "w") as log:
                log.write("\n".join(lines) + "\n")
            for line in lines:
                tagged = json.loads(line)
                tagged["session"] = session
                combined.write(json.dumps(tagged, separators=(",", ":")) + "\n")


# ---------------------------------------------------------------- receiver

class Receiver(http.server.ThreadingHTTPServer):
    """A loopback destination: stores every delivered message as a line of `path`. Call
    serve_forever (on a thread of its own) and shutdown."""

    daemon_threads = True

    def __init__(self, port, path):
        self.lock = threading.Lock()
        self.out = open(path, "a")
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                with receiver.lock:
                    for message in body["batch"]:
                        receiver.out.write(json.dumps(message, separators=(",", ":")) + "\n")
                    receiver.out.flush()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_):
                pass

        super().__init__(("127.0.0.1", port), Handler)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/collect"

    def server_close(self):
        super().server_close()
        self.out.close()


def receive(args):
    server = Receiver(args.port, args.out)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"receiving on http://127.0.0.1:{args.port}", flush=True)
    server.serve_forever()
    server.server_close()


# ---------------------------------------------------------------- load

def choose_victim(instances):
    """The instance to kill: the one that holds the delivery lock (its log says it delivers),
    so that another instance must take delivery over; else the second one."""
    pairs = [(int(pid), log) for pid, log in (item.split(":", 1) for item in instances.split(","))]
    for pid, log in pairs:
        with open(log) as text:
            if "delivering to this destination" in text.read():
                return pid, True
    return pairs[min(1, len(pairs) - 1)][0], False


def load(args):
    sessions = sorted(name[:-len(".oplog")] for name in os.listdir(args.logs)
                      if name.endswith(".oplog") and name != "all.oplog")
    batches = {}
    for session in sessions:
        with open(os.path.join(args.logs, session + ".oplog")) as log:
            lines = log.read().splitlines()
        batches[session] = [(start, lines[start:start + args.batch]) for start in range(0, len(lines), args.batch)]
    total = sum(len(b) for b in batches.values())
    state = {"done": 0, "attempts": 0, "failures": 0, "killed_at": None, "skipped_lines": 0, "gave_up": []}
    lock = threading.Lock()

    def post(session, start, lines):
        url = f"{args.url}/v1/sessions/{session}/ops?position={start}"
        body = ("\n".join(lines) + "\n").encode()
        for attempt in range(1, args.max_attempts + 1):
            with lock:
                state["attempts"] += 1
            request = urllib.request.Request(url, data=body, method="POST",
                                             headers={"Content-Type": "application/x-ndjson"})
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    answer = json.loads(response.read())
                    with lock:
                        state["skipped_lines"] += answer.get("skipped", 0)
                    return True
            except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError) as error:
                with lock:
                    state["failures"] += 1
                # A client's backoff before it sends the batch again (not synchronisation).
                time.sleep(min(0.05 * attempt, 1.0))
        with lock:
            state["gave_up"].append(f"{session}@{start}")
        return False

    def worker(index):
        mine = sessions[index::args.threads]
        for round_ in range(max(len(batches[s]) for s in mine) if mine else 0):
            for session in mine:
                if round_ >= len(batches[session]):
                    continue
                start, lines = batches[session][round_]
                post(session, start, lines)
                with lock:
                    state["done"] += 1
                    kill = state["killed_at"] is None and state["done"] >= total // 2
                    if kill:
                        state["killed_at"] = state["done"]
                if kill:
                    victim, delivering = choose_victim(args.instances)
                    os.kill(victim, signal.SIGKILL)
                    print(f"killed instance pid {victim} (SIGKILL) after {state['killed_at']} of {total} batches"
                          + (", the one delivering to the receiver" if delivering else ""), flush=True)

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    state.update(sessions=len(sessions), batches=total)
    with open(args.report, "w") as report:
        json.dump(state, report)
    print(f"load: {len(sessions)} sessions, {total} batches, {state['attempts']} requests, "
          f"{state['failures']} failed and retried, {state['skipped_lines']} lines skipped as already applied", flush=True)
    if state["gave_up"]:
        print(f"error: gave up on {len(state['gave_up'])} batches: {state['gave_up'][:5]}", file=sys.stderr)
        sys.exit(1)
    if state["killed_at"] is None:
        print("error: the load ended before the instance was killed", file=sys.stderr)
        sys.exit(1)


# ---------------------------------------------------------------- check

def compare_results(received_path, expected_path):
    """Every session's distinct delivered results, ordered by message id, against `focal
    replay`'s output. Returns (a summary line, the problems: one line per session that differs)."""
    expected = collections.defaultdict(list)
    with open(expected_path) as replay:
        for line in replay:
            value = json.loads(line)
            expected[value["session"]].append(value["result"])
    received = collections.defaultdict(dict)
    duplicates = 0
    with open(received_path) as messages:
        for line in messages:
            message = json.loads(line)
            session = message.get("session")
            sequence = int(message["messageId"].rsplit("-", 1)[1])
            if message["messageId"] in received[session]:
                duplicates += 1  # the same message again: allowed (at least once), dropped by id
                continue
            received[session][message["messageId"]] = (sequence, message["result"])
    problems = []
    for session in sorted(set(expected) | set(received)):
        got = [result for _, result in sorted(received[session].values(), key=lambda pair: pair[0])]
        want = expected.get(session, [])
        if got != want:
            problems.append(f"session {session}: expected {len(want)} results, received {len(got)} distinct "
                            f"(first difference at {next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))})")
    total = sum(len(v) for v in expected.values())
    if total == 0:
        problems.append("focal replay produced no results: the check would prove nothing")
    summary = (f"{len(expected)} sessions, {total} results expected, "
               f"{sum(len(v) for v in received.values())} distinct received, {duplicates} re-sent under the same message id")
    return summary, problems


def check(args):
    summary, problems = compare_results(args.received, args.expected)
    print("check: " + summary)
    if problems:
        for problem in problems[:20]:
            print("error: " + problem, file=sys.stderr)
        print(f"error: {len(problems)} sessions differ from focal replay", file=sys.stderr)
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("oplogs")
    p.add_argument("--sessions", type=int, required=True)
    p.add_argument("--out", required=True)
    p = commands.add_parser("receive")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--out", required=True)
    p = commands.add_parser("load")
    p.add_argument("--url", required=True)
    p.add_argument("--logs", required=True)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--instances", required=True, help="PID:LOG of each instance, comma-separated")
    p.add_argument("--max-attempts", type=int, default=60)
    p.add_argument("--report", required=True)
    p = commands.add_parser("check")
    p.add_argument("--received", required=True)
    p.add_argument("--expected", required=True)
    args = parser.parse_args()
    {"oplogs": write_oplogs, "receive": receive, "load": load, "check": check}[args.command](args)


if __name__ == "__main__":
    main()
