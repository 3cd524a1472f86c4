#!/usr/bin/env python3
"""The driver of Deploy/test-senders: real producers against a real deployment, through faults.

    senders.py --root DIR --focal PATH --tasks DIR --state DIR [--sessions N] [--senders N] [--kills N] …

A deployment (Deploy/start: PostgreSQL, nginx, three `focal serve` instances delivering to a
loopback receiver) with Scripts/lib/fault-proxy.py in front of nginx, which answers some batches
503 or 429 with Retry-After and cuts some connections before and after the server applied a batch.
Several `focal send` processes, each with a queue of its own and a share of the sessions, send
through the proxy; each is SIGKILLed at random instants --kills times and started again on its
queue, then runs to its end. Meanwhile PostgreSQL is restarted, then the instance that delivers is
SIGKILLed and started again. The checks:
    - every sender's last run exits 0, and none continued a session under a new id (the journal
      is shared, so no instance ever lost one);
    - the proxy did each of its faults at least once;
    - every session's delivered results (distinct message ids, in order) equal `focal replay`.

Standard library only; loopback only; every wait is bounded.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in Deploy/ from the imports below
import failover  # noqa: E402
import faults  # noqa: E402

PROXY_FAULTS = ("503=0.08", "429=0.08", "cut-before=0.04", "cut-after=0.1")


def write_logs(options):
    """One input per sender, its sessions' lines interleaved (as an app's log of several
    sessions would be), and all.oplog for `focal replay`."""
    logs = os.path.join(options.state, "logs")
    failover.write_oplogs(argparse.Namespace(sessions=options.sessions, out=logs))
    inputs = []
    for sender in range(options.senders):
        numbers = range(sender, options.sessions, options.senders)
        tagged = []
        for number in numbers:
            with open(os.path.join(logs, f"s{number:05d}.oplog")) as log:
                lines = [json.loads(line) | {"session": f"s{number:05d}"} for line in log.read().splitlines()]
            tagged.append(lines)
        path = os.path.join(logs, f"sender-{sender + 1}.oplog")
        with open(path, "w") as out:
            for row in range(max(len(lines) for lines in tagged)):
                for lines in tagged:
                    if row < len(lines):
                        out.write(json.dumps(lines[row], separators=(",", ":")) + "\n")
        inputs.append(path)
    return os.path.join(logs, "all.oplog"), inputs


class Progress:
    """How many kills the senders have had, and how many are still killing; waited on."""

    def __init__(self, senders):
        self.condition = threading.Condition()
        self.kills = 0
        self.killing = senders

    def kill(self):
        with self.condition:
            self.kills += 1
            self.condition.notify_all()

    def end(self):
        with self.condition:
            self.killing -= 1
            self.condition.notify_all()

    def wait_for(self, kills, bound):
        """Waits until the senders were killed `kills` times (at most `bound` s); False when they
        stopped being killed first (they finished their work)."""
        with self.condition:
            self.condition.wait_for(lambda: self.kills >= kills or self.killing == 0, timeout=bound)
            return self.kills >= kills


class Sender:
    """One `focal send` on a queue of its own, killed at random instants, then run to its end."""

    def __init__(self, number, options, url, log, progress):
        self.number = number
        self.options = options
        self.command = [options.focal, "send", "--to", url, "--queue",
                        os.path.join(options.state, f"queue-{number}"), log]
        self.output = os.path.join(options.state, f"sender-{number}.log")
        self.random = random.Random(options.seed + number)
        self.kills = 0
        self.status = None
        self.progress = progress

    def run_once(self, deadline):
        """Runs the command until it ends or `deadline` seconds pass (then SIGKILL); its exit
        status, or None when it was killed."""
        with open(self.output, "a") as log:
            log.write(f"--- run {self.kills + 1}, deadline {deadline:.2f} s\n")
            log.flush()
            child = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT)
            try:
                return child.wait(timeout=deadline)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=30)
                return None

    def run(self):
        while self.kills < self.options.kills:
            status = self.run_once(self.random.uniform(0.2, 1.5))
            if status is not None:
                break  # it ended before its kill: nothing left to kill
            self.kills += 1
            self.progress.kill()
        self.progress.end()
        self.status = self.run_once(self.options.final_bound)

    def said(self, text):
        with open(self.output) as log:
            return text in log.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", required=True, help="the repository (Deploy/, Scripts/)")
    parser.add_argument("--focal", required=True)
    parser.add_argument("--tasks", required=True)
    parser.add_argument("--state", required=True, help="a directory for everything the suite makes")
    parser.add_argument("--sessions", type=int, default=480)
    parser.add_argument("--senders", type=int, default=3)
    parser.add_argument("--kills", type=int, default=12, help="SIGKILLs of each sender at random instants")
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--final-bound", type=float, default=300.0, help="seconds a sender's last run may take")
    options = parser.parse_args()
    for name, low, high in (("sessions", 1, 100_000), ("senders", 1, 64), ("kills", 0, 1000), ("final_bound", 10, 3600)):
        value = getattr(options, name)
        if not low <= value <= high:
            parser.error(f"--{name.replace('_', '-')} must be from {low} to {high}, not {value}")
    # What faults.Deployment reads of its options: the instances' timeouts.
    options.request_timeout, options.store_timeout, options.drain_timeout = 5.0, 2.0, 10.0
    options.state = os.path.abspath(options.state)
    os.makedirs(options.state, exist_ok=True)

    whole, inputs = write_logs(options)
    expected = os.path.join(options.state, "expected.jsonl")
    with open(expected, "w") as out:
        subprocess.run([options.focal, "replay", "--tasks", options.tasks, whole], stdout=out, check=True, timeout=600)

    received = os.path.join(options.state, "received.jsonl")
    receiver = failover.Receiver(0, received)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    directory = os.path.join(options.state, "deployment")
    deployment = faults.Deployment(options, directory, receiver.url)
    problems, events = [], []
    started = time.monotonic()
    proxy = None
    try:
        deployment.start()
        stats = os.path.join(options.state, "proxy-stats.json")
        proxy_log = open(os.path.join(options.state, "proxy.log"), "w")
        proxy = subprocess.Popen(
            [sys.executable, os.path.join(options.root, "Scripts", "lib", "fault-proxy.py"), "--upstream", deployment.url,
             "--seed", str(options.seed), "--stats", stats] + [part for fault in PROXY_FAULTS for part in ("--fault", fault)],
            stdout=subprocess.PIPE, stderr=proxy_log, text=True)
        url = proxy.stdout.readline().strip().removeprefix("listening on ")
        if not url.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"the fault proxy did not start: {url!r}")
        progress = Progress(len(inputs))
        senders = [Sender(number + 1, options, url, log, progress) for number, log in enumerate(inputs)]
        threads = [threading.Thread(target=sender.run) for sender in senders]
        for thread in threads:
            thread.start()
        # While the senders are being killed: PostgreSQL restarted after a quarter of the planned kills, the delivering
        # instance killed and started again after half. A fast machine may finish the work first: the fault is then
        # injected after the load (the results are checked all the same), and the run fails only when neither fault
        # came under load, since it would then prove nothing about them.
        planned = options.kills * len(senders)
        under_load = 0

        def restart_postgres():
            deployment.postgres_restart()
            return "PostgreSQL restarted"

        def kill_instance():
            victim = deployment.delivering()
            deployment.kill(victim)
            deployment.restart(victim)
            return f"instance {victim + 1} killed and started again"

        for share, inject in ((planned // 4, restart_postgres), (planned // 2, kill_instance)):
            loaded = progress.wait_for(share, 300)
            under_load += loaded
            events.append(f"{inject()} at {time.monotonic() - started:.0f} s" + ("" if loaded else ", after the load"))
        if not under_load:
            problems.append("the senders finished before both faults: too little work to prove anything (raise --sessions)")
        for thread in threads:
            thread.join(timeout=options.kills * 3.5 + options.final_bound + 60)
            if thread.is_alive():
                problems.append("a sender did not end within its bound")
        for sender in senders:
            if sender.status != 0:
                problems.append(f"sender {sender.number}'s last run exited {sender.status} (see {sender.output})")
            if sender.said("continuing as"):
                problems.append(f"sender {sender.number} continued a session under a new id: the journal lost it")
        with open(stats) as text:
            injected = json.load(text)
        for kind in ("503", "429", "cut-before", "cut-after"):
            if not injected.get(kind):
                problems.append(f"the proxy never did {kind}: {injected}")
        events.append(f"senders killed {sum(s.kills for s in senders)} times; proxy {injected}")
        problem = faults.wait_delivered(deployment, 60)
        if problem:
            problems.append(problem)
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=30)
        if hasattr(deployment, "url"):
            deployment.stop()
        receiver.shutdown()
        receiver.server_close()
    summary, result_problems = failover.compare_results(received, expected)
    problems += result_problems[:10]
    print(f"senders: {'PASS' if not problems else 'FAIL'} in {time.monotonic() - started:.0f} s; {'; '.join(events)}")
    print(f"  results: {summary}")
    for problem in problems:
        print(f"  error: {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
