#!/usr/bin/env python3
"""The driver of Deploy/test-faults: for each fault, a fresh deployment (Deploy/start), a load
through nginx and directly to the instances, the fault injected half-way, then the checks.

    faults.py --root DIR --focal PATH --state DIR [--faults a,b,c,d,e] [--sessions N] …

The faults (Deploy/README.md says what each does to a client):
    a  postgres-restart   PostgreSQL restarted (pg_ctl restart -m fast)
    b  postgres-stop      PostgreSQL stopped (-m fast), down for --postgres-down seconds, started
    c  pause              the instance delivering to the receiver paused (SIGSTOP) for longer
                          than nginx's proxy_read_timeout, then resumed (SIGCONT)
    d  kill               the instance delivering to the receiver killed (SIGKILL), started again
                          on the same port --down seconds later
    e  flap               no process fault: each direct session's batches go to the instances
                          in turn, and some sessions are read from every instance after each batch

Half the sessions go through nginx, half directly to an instance (each has a home instance;
a failed attempt goes to the next one, as a client-side balancer would). A client retries a
batch that got 502, 503, 504 or no answer, with the same ?position=N, a bounded number of
times within a bounded time. After each fault:
    - every request was answered within its deadline (direct: --request-timeout + 3 s; through
      nginx: nginx's tries x its proxy_read_timeout + 3 s), except a direct request to an instance
      that was paused or dead while it waited; no status other than 200, 502, 503, 504;
    - every instance's GET /readyz answers 200 again (bounded wait);
    - every session's snapshot from nginx and from each instance equals `focal snapshot` of
      its log (and, under flap, the instances agreed with each other after every batch);
    - Deploy/stop ended within its bound without killing anything;
    - every session's delivered results (distinct message ids, in order) equal `focal replay`.

Standard library only; loopback only; every loop is bounded.
"""
import argparse
import collections
import concurrent.futures
import http.client
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in Deploy/ or Scripts/lib/ from the imports below
import failover  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scripts", "lib"))
from free_port import free_port  # noqa: E402

FAULTS = collections.OrderedDict([
    ("a", "postgres-restart"),
    ("b", "postgres-stop"),
    ("c", "pause"),
    ("d", "kill"),
    ("e", "flap"),
])
# How much later than --request-timeout a direct request may be answered.
MARGIN = 3.0
# Statuses a client retries (the same batch, the same ?position=N).
RETRIED = {502, 503, 504}


# ---------------------------------------------------------------- HTTP

# headers: lower-case names.
Answer = collections.namedtuple("Answer", "status headers body seconds error")


def call(method, url, body=None, timeout=10.0):
    """One HTTP request on a new connection. An answer, or `error` naming why there was none
    ("timeout", "refused", "reset", …) with `status` None."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    path = parts.path + ("?" + parts.query if parts.query else "")
    headers = {"Content-Type": "application/x-ndjson"} if body is not None else {}
    start = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data, time.monotonic() - start, None)
    except socket.timeout:
        error = "timeout"
    except ConnectionRefusedError:
        error = "refused"
    except ConnectionResetError:
        error = "reset"
    except (OSError, http.client.HTTPException) as failure:
        error = type(failure).__name__
    finally:
        connection.close()
    return Answer(None, {}, b"", time.monotonic() - start, error)


def is_retry_later(answer):
    """Whether a 503 is the instances' own: `Retry-After` and {"status":503,"error":"…"}."""
    try:
        body = json.loads(answer.body)
    except ValueError:
        return False
    return ("retry-after" in answer.headers and isinstance(body, dict) and body.get("status") == 503
            and isinstance(body.get("error"), str))


def metric(urls, name):
    """The sum of a metric's samples over the instances that answer, or None when none has it."""
    total, seen = 0.0, False
    for url in urls:
        answer = call("GET", url + "/metrics", timeout=5)
        if answer.status != 200:
            continue
        for line in answer.body.decode().splitlines():
            key = line.split(" ", 1)[0]
            if key == name or key.startswith(name + "{"):
                total += float(line.rsplit(" ", 1)[1])
                seen = True
    return total if seen else None


# ---------------------------------------------------------------- deployment

class Deployment:
    """A deployment made by Deploy/start in a state directory, and the faults done to it."""

    def __init__(self, options, directory, receiver_url):
        self.options = options
        self.directory = directory
        self.receiver_url = receiver_url
        self.lock = threading.Lock()
        # Per instance: [start, end] (monotonic; end None while it lasts) when it was paused or dead.
        self.disturbed = [[] for _ in range(3)]
        self.children = []

    def script(self, name):
        return os.path.join(self.options.root, "Deploy", name)

    def start(self):
        serve = ["--deliver", self.receiver_url, "--flush-interval", "0.2", "--idle-timeout", "3600",
                 "--drain-timeout", str(self.options.drain_timeout),
                 "--request-timeout", str(self.options.request_timeout),
                 "--store-timeout", str(self.options.store_timeout)]
        with open(os.path.join(self.directory + ".start.log"), "w") as log:
            subprocess.run([self.script("start"), "--state", self.directory, "--port", str(free_port()),
                            "--focal", self.options.focal, "--tasks", self.options.tasks, "--", *serve],
                           stdout=log, stderr=subprocess.STDOUT, check=True, timeout=300)
        env = {}
        with open(os.path.join(self.directory, "env")) as text:
            for line in text:
                key, _, value = line.strip().partition("=")
                env[key] = value.strip('"')
        self.url = env["FOCAL_DEPLOY_URL"]
        self.instances = env["FOCAL_DEPLOY_INSTANCE_URLS"].split()
        self.postgres = env["FOCAL_DEPLOY_POSTGRES"]
        self.stop_timeout = int(env["FOCAL_DEPLOY_STOP_TIMEOUT"])

    def stop(self):
        """Deploy/stop: (seconds it took, its exit status, what it printed)."""
        begin = time.monotonic()
        finished = subprocess.run([self.script("stop"), "--state", self.directory], capture_output=True, text=True,
                                  timeout=self.stop_timeout + 120)
        seconds = time.monotonic() - begin
        for child in self.children:
            child.wait(timeout=10)
        return seconds, finished.returncode, (finished.stdout + finished.stderr).strip()

    def pid(self, index):
        with open(os.path.join(self.directory, f"instance-{index + 1}.pid")) as text:
            return int(text.read())

    def log(self, index):
        return os.path.join(self.directory, f"instance-{index + 1}.log")

    def delivering(self):
        """The instance that took the receiver's delivery lock last in its current life (its log
        says "delivering to this destination" after its last "listening on"), else the second."""
        latest = {}
        for index in range(3):
            with open(self.log(index)) as text:
                life = text.read().rsplit("listening on ", 1)[-1]
            taken = [line for line in life.splitlines() if "delivering to this destination" in line]
            if taken:
                latest[index] = taken[-1].split(" ", 1)[0]  # its ISO 8601 time
        return max(latest, key=lambda index: latest[index]) if latest else 1

    def was_disturbed(self, index, begin, end):
        """Whether instance `index` was paused or dead at some time from `begin` to `end`."""
        with self.lock:
            return any(start <= end and (stop is None or stop >= begin) for start, stop in self.disturbed[index])

    def disturb(self, index):
        with self.lock:
            self.disturbed[index].append([time.monotonic(), None])

    def settle(self, index):
        with self.lock:
            self.disturbed[index][-1][1] = time.monotonic()

    def pause(self, index):
        self.disturb(index)
        os.kill(self.pid(index), signal.SIGSTOP)

    def resume(self, index):
        os.kill(self.pid(index), signal.SIGCONT)
        self.settle(index)

    def kill(self, index):
        pid = self.pid(index)
        self.disturb(index)
        os.kill(pid, signal.SIGKILL)
        for _ in range(100):  # at most 10 s for the kernel to end it
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                        break
            except FileNotFoundError:
                break
            time.sleep(0.1)

    def restart(self, index):
        """Starts instance `index` again with its command line (DIR/instance-N.args), on its port."""
        with open(os.path.join(self.directory, f"instance-{index + 1}.args"), "rb") as text:
            command = [part.decode() for part in text.read().split(b"\0")[:-1]]
        with open(self.log(index)) as text:
            listening = text.read().count("listening on ")
        log = open(self.log(index), "a")
        child = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.children.append(child)
        with open(os.path.join(self.directory, f"instance-{index + 1}.pid"), "w") as text:
            text.write(f"{child.pid}\n")
        for _ in range(600):  # at most 60 s to listen
            with open(self.log(index)) as text:
                if text.read().count("listening on ") > listening:
                    break
            if child.poll() is not None:
                raise RuntimeError(f"instance {index + 1} did not start again (exit status {child.returncode})")
            time.sleep(0.1)
        else:
            raise RuntimeError(f"instance {index + 1} did not listen within 60 s of starting again")
        self.settle(index)

    def pg_ctl(self, *arguments):
        script = ('source "$0/Scripts/lib/prerequisites.sh" && source "$0/Scripts/lib/postgres.sh" && '
                  'focal_postgres_as_owner "$(focal_postgres_bin)/pg_ctl" "$@"')
        subprocess.run(["bash", "-c", script, self.options.root, *arguments], check=True, timeout=120,
                       stdout=subprocess.DEVNULL)

    def postgres_activity(self, path):
        """Writes what the instances' PostgreSQL sessions are doing (pg_stat_activity) to `path`."""
        store = None
        with open(os.path.join(self.directory, "env")) as text:
            for line in text:
                if line.startswith("FOCAL_DEPLOY_STORE="):
                    store = line.strip().split("=", 1)[1]
        query = ("SELECT pid, state, wait_event_type, wait_event, now() - xact_start AS in_transaction, "
                 "left(query, 100) AS query FROM pg_stat_activity WHERE datname = 'focal' ORDER BY xact_start")
        script = ('source "$0/Scripts/lib/prerequisites.sh" && source "$0/Scripts/lib/postgres.sh" && '
                  'focal_postgres_as_owner "$(focal_postgres_bin)/psql" "$@"')
        with open(path, "w") as out:
            subprocess.run(["bash", "-c", script, self.options.root, "-d", store, "-c", query],
                           stdout=out, stderr=subprocess.STDOUT, timeout=60)

    def postgres_restart(self):
        data = os.path.join(self.postgres, "data")
        self.pg_ctl("-D", data, "-l", os.path.join(self.postgres, "server.log"), "-m", "fast", "-w", "-t", "60", "restart")

    def postgres_stop(self):
        """Stops the cluster; returns the server options to start it again with."""
        data = os.path.join(self.postgres, "data")
        with open(os.path.join(data, "postmaster.opts")) as text:
            words = shlex.split(text.read())[1:]
        options = []
        while words:
            word = words.pop(0)
            if word == "-D":
                words.pop(0)
            else:
                options.append(shlex.quote(word))
        self.pg_ctl("-D", data, "-m", "fast", "-w", "-t", "60", "stop")
        return " ".join(options)

    def postgres_start(self, options):
        data = os.path.join(self.postgres, "data")
        self.pg_ctl("-D", data, "-l", os.path.join(self.postgres, "server.log"), "-w", "-t", "60", "-o", options, "start")


# ---------------------------------------------------------------- load

class Session:
    def __init__(self, number, lines, batch, route, home, watched):
        self.name = f"s{number:05d}"
        self.number = number
        self.batches = [(start, lines[start:start + batch]) for start in range(0, len(lines), batch)]
        self.route = route  # "nginx" or "direct"
        self.home = home  # a direct session's first instance
        self.watched = watched  # read from every instance after each batch


class Load:
    """Clients sending every session's batches, with what they saw."""

    def __init__(self, deployment, sessions, options, flap):
        self.deployment = deployment
        self.sessions = sessions
        self.options = options
        self.flap = flap
        timeout = options.request_timeout
        self.deadline = {"direct": timeout + MARGIN, "nginx": options.nginx_tries * (timeout + 2) + MARGIN}
        self.total = sum(len(s.batches) for s in sessions)
        self.condition = threading.Condition()
        self.done = 0
        self.finished = False
        self.requests = collections.Counter()  # route -> requests
        self.statuses = collections.defaultdict(collections.Counter)  # route -> status or error -> count
        self.slowest = collections.defaultdict(float)  # route -> seconds
        self.retries = 0
        self.skipped_lines = 0
        self.excused = 0  # direct requests unanswered while their instance was paused or dead
        self.late = []  # requests unanswered past their deadline
        self.unexpected = []  # statuses no request should get
        self.gave_up = []
        self.stale = []  # reads under flap that disagreed
        self.fresh_reads = 0

    def url(self, session, batch_index, attempt):
        """Where an attempt goes: nginx, or an instance (the home one, the next after each
        failed attempt; under flap the home moves on with every batch)."""
        if session.route == "nginx":
            return self.deployment.url, None
        index = (session.home + attempt + (batch_index if self.flap else 0)) % 3
        return self.deployment.instances[index], index

    def record(self, route, index, answer, what):
        """Counts an answer (or its absence) and checks it against the deadline."""
        end = time.monotonic()
        key = answer.status if answer.status is not None else answer.error
        deadline = self.deadline[route]
        excused = (index is not None and
                   self.deployment.was_disturbed(index, end - answer.seconds, end))
        with self.condition:
            self.requests[route] += 1
            self.statuses[route][key] += 1
            self.slowest[route] = max(self.slowest[route], answer.seconds)
            if answer.seconds > deadline or answer.error == "timeout":
                if excused:
                    self.excused += 1
                else:
                    self.late.append(f"{what} via {route}: {key} after {answer.seconds:.1f} s (deadline {deadline:.0f} s)")
            if answer.status is not None and answer.status not in RETRIED and answer.status != 200:
                self.unexpected.append(f"{what} via {route}: {answer.status} {answer.body[:200]!r}")
            elif answer.status == 503 and not is_retry_later(answer):
                self.unexpected.append(f"{what} via {route}: 503 without Retry-After or the JSON error shape "
                                       f"{answer.body[:200]!r}")

    def backoff(self, answer, attempt):
        """A client's wait before it tries again (not synchronisation): Retry-After, at most
        2 s in this suite, else a short growing pause."""
        try:
            wait = min(float(answer.headers.get("retry-after", "")), 2.0)
        except ValueError:
            wait = min(0.05 * attempt, 1.0)
        time.sleep(wait)

    def send(self, session, batch_index):
        start, lines = session.batches[batch_index]
        body = ("\n".join(lines) + "\n").encode()
        what = f"{session.name}@{start}"
        give_up_at = time.monotonic() + self.options.batch_bound
        for attempt in range(self.options.max_attempts):
            base, index = self.url(session, batch_index, attempt)
            answer = call("POST", f"{base}/v1/sessions/{session.name}/ops?position={start}", body,
                          timeout=self.deadline[session.route] + 1)
            self.record(session.route, index, answer, what)
            if answer.status == 200:
                with self.condition:
                    self.skipped_lines += json.loads(answer.body).get("skipped", 0)
                return True
            if answer.status is not None and answer.status not in RETRIED and answer.status != 500:
                break  # a 4xx: sending it again cannot help
            with self.condition:
                self.retries += 1
            if time.monotonic() > give_up_at:
                break
            self.backoff(answer, attempt + 1)
        with self.condition:
            self.gave_up.append(what)
        return False

    def read_everywhere(self, session, batch_index):
        """Under flap: the session's snapshot from every instance, which must all be the same."""
        snapshots = [read_snapshot(base, session.name, self.options) for base in self.deployment.instances]
        with self.condition:
            self.fresh_reads += len(snapshots)
            if any(s != snapshots[0] for s in snapshots) or snapshots[0] is None:
                self.stale.append(f"{session.name} after batch {batch_index}: "
                                  + ", ".join("unreadable" if s is None else f"{len(json.dumps(s))} bytes" for s in snapshots))

    def worker(self, mine):
        rounds = max((len(s.batches) for s in mine), default=0)
        failed = set()
        for round_ in range(rounds):
            for session in mine:
                if round_ >= len(session.batches) or session.name in failed:
                    continue
                if not self.send(session, round_):
                    failed.add(session.name)  # its later batches would only get 409
                elif self.flap and session.watched:
                    self.read_everywhere(session, round_)
                with self.condition:
                    self.done += 1
                    self.condition.notify_all()

    def run(self):
        threads = [threading.Thread(target=self.worker, args=(self.sessions[i::self.options.threads],))
                   for i in range(self.options.threads)]
        for thread in threads:
            thread.start()
        return threads

    def wait_for(self, done):
        """Waits until `done` batches were sent, or the load ended; True when they were."""
        with self.condition:
            self.condition.wait_for(lambda: self.done >= done or self.finished)
            return self.done >= done

    def end(self):
        with self.condition:
            self.finished = True
            self.condition.notify_all()


def read_snapshot(base, session, options):
    """A session's JSON snapshot from one URL, retrying 502/503/504 and no answer for at most
    --read-bound seconds; None when it never came."""
    give_up_at = time.monotonic() + options.read_bound
    for attempt in range(1, 101):
        answer = call("GET", f"{base}/v1/sessions/{session}/snapshot?format=json",
                      timeout=options.request_timeout + MARGIN)
        if answer.status == 200:
            return json.loads(answer.body)
        if answer.status is not None and answer.status not in RETRIED:
            return {"unexpected status": answer.status, "body": answer.body.decode(errors="replace")[:200]}
        if time.monotonic() > give_up_at:
            break
        time.sleep(min(0.1 * attempt, 1.0))  # a reader's backoff, not synchronisation
    return None


# ---------------------------------------------------------------- faults

def inject(fault, deployment, load, options, events, problems):
    """Injects the fault `options.repeat` times, evenly through the load, and waits after each
    until every instance is ready; `events` gets what was done, `problems` what went wrong."""
    try:
        inject_rounds(fault, deployment, load, options, events)
    except (OSError, RuntimeError, subprocess.SubprocessError) as failure:
        problems.append(f"the fault could not be injected: {failure}")


def inject_rounds(fault, deployment, load, options, events):
    for round_ in range(options.repeat):
        if not load.wait_for(load.total * (round_ + 1) // (options.repeat + 2)):
            events.append("the load ended before the fault")
            return
        begin = time.monotonic()
        if fault == "a":
            deployment.postgres_restart()
            events.append(f"PostgreSQL restarted in {time.monotonic() - begin:.1f} s")
        elif fault == "b":
            server_options = deployment.postgres_stop()
            time.sleep(options.postgres_down)  # the fault's length: PostgreSQL stays down
            deployment.postgres_start(server_options)
            events.append(f"PostgreSQL down {time.monotonic() - begin:.1f} s")
        elif fault == "c":
            victim = deployment.delivering()
            deployment.pause(victim)
            time.sleep(options.pause)  # the fault's length: the instance stays paused
            deployment.resume(victim)
            events.append(f"instance {victim + 1} paused {time.monotonic() - begin:.1f} s")
        elif fault == "d":
            victim = deployment.delivering()
            deployment.kill(victim)
            time.sleep(options.down)  # the fault's length: the instance stays dead
            deployment.restart(victim)
            events.append(f"instance {victim + 1} killed, listening again after {time.monotonic() - begin:.1f} s")
        elif fault == "e":
            events.append("direct sessions sent to the instances in turn")
            continue
        ready, problem = wait_ready(deployment, options.ready_bound)
        if problem:
            raise RuntimeError(problem + " after the fault ended")
        events.append(f"every /readyz 200 {ready:.1f} s after")


def wait_ready(deployment, bound):
    """Seconds until every instance's /readyz answered 200 (at most `bound`), or a problem."""
    begin = time.monotonic()
    for index, base in enumerate(deployment.instances):
        while True:
            answer = call("GET", base + "/readyz", timeout=5)
            if answer.status == 200:
                break
            if answer.status == 404:
                return None, f"instance {index + 1} has no GET /readyz (404)"
            if time.monotonic() - begin > bound:
                return None, f"instance {index + 1} not ready within {bound:.0f} s: {answer.status or answer.error}"
            time.sleep(0.2)  # polling a state the suite waits for, bounded above
    return time.monotonic() - begin, None


def wait_delivered(deployment, bound):
    """Waits (at most `bound` s) until the shared outbox is empty; a problem or None."""
    begin = time.monotonic()
    while time.monotonic() - begin < bound:
        depth = metric(deployment.instances, "focal_outbox_depth")
        if depth is None or depth == 0:
            return None
        time.sleep(0.2)  # polling a state the suite waits for, bounded above
    return f"the outbox still held results {bound:.0f} s after the load"


def without_undefined_outcomes(value):
    """`value` (a snapshot) without the `undefined` outcomes of its events' task results: `focal snapshot` keeps them
    and the server's snapshots leave them out, as documented ("The focal command", snapshot outcomes), so that a
    task call that gives nothing costs the server nothing more. Everything else must be equal."""
    if isinstance(value, dict):
        return {key: ([without_undefined_outcomes(item) for item in member
                       if not (isinstance(item, dict) and item.get("outcome") == "undefined")]
                      if key == "results" and isinstance(member, list) else without_undefined_outcomes(member))
                for key, member in value.items()}
    if isinstance(value, list):
        return [without_undefined_outcomes(item) for item in value]
    return value


def run_fault(fault, options, sessions, expected_snapshots, expected_results):
    name = FAULTS[fault]
    directory = os.path.join(options.state, f"{fault}-{name}")
    received = directory + ".received.jsonl"
    if os.path.exists(received):
        os.remove(received)
    problems, events = [], []
    receiver = failover.Receiver(0, received)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    deployment = Deployment(options, directory, receiver.url)
    started = time.monotonic()
    try:
        deployment.start()
    except subprocess.CalledProcessError:
        receiver.shutdown()
        with open(directory + ".start.log") as log:
            return False, f"fault {fault} ({name}): Deploy/start failed:\n{log.read()[-2000:]}"
    stop_result = None
    try:
        load = Load(deployment, sessions, options, flap=(fault == "e"))
        threads = load.run()
        injector = threading.Thread(target=lambda: inject(fault, deployment, load, options, events, problems))
        injector.start()
        for thread in threads:
            thread.join()
        load.end()
        injector.join()

        ready, problem = wait_ready(deployment, options.ready_bound)
        if problem:
            problems.append(problem + " after the load")
        rebuilt = metric(deployment.instances, "focal_sessions_rebuilt_total")
        deadlines = metric(deployment.instances, "focal_request_deadline_exceeded_total")
        store_errors = metric(deployment.instances, "focal_store_errors_total")

        # Snapshots: nginx and each instance, against `focal snapshot` of the session's log.
        sources = [("nginx", deployment.url)] + [(f"instance {i + 1}", u) for i, u in enumerate(deployment.instances)]
        jobs = [(s, label, url) for s in sessions for label, url in sources]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            snapshots = list(pool.map(lambda job: read_snapshot(job[2], job[0].name, options), jobs))
        wrong = []
        for (session, label, _), got in zip(jobs, snapshots):
            if got != expected_snapshots[session.number]:
                wrong.append(f"{session.name} from {label}")
                # What differed, for whoever looks into it (next to `focal snapshot`'s).
                os.makedirs(directory + ".snapshots", exist_ok=True)
                with open(os.path.join(directory + ".snapshots", f"{session.name}.{label.replace(' ', '-')}.json"), "w") as out:
                    json.dump(got, out, indent=1)
                with open(os.path.join(directory + ".snapshots", f"{session.name}.expected.json"), "w") as out:
                    json.dump(expected_snapshots[session.number], out, indent=1)
        unreadable = [w for w, got in zip(jobs, snapshots) if got is None]
        if wrong:
            problems.append(f"{len(wrong)} of {len(jobs)} snapshots differ from focal snapshot ({len(unreadable)} of them "
                            f"unreadable: no 200 within {options.read_bound:g} s): {', '.join(wrong[:6])}")
        problem = wait_delivered(deployment, options.ready_bound)
        if problem:
            problems.append(problem)
        if problems or load.gave_up:
            # For whoever looks into it: what the instances' database sessions were doing.
            deployment.postgres_activity(directory + ".pg_stat_activity.txt")
    finally:
        stop_result = deployment.stop()
        receiver.shutdown()
        receiver.server_close()

    stop_seconds, stop_status, stop_output = stop_result
    # An instance that had to cut its drain short: informative (something was stuck), the
    # checks below say whether anything was lost.
    cut_short = 0
    for index in range(3):
        with open(deployment.log(index)) as log:
            cut_short += log.read().count("did not stop within")
    stop_bound = deployment.stop_timeout + 10
    if stop_status != 0 or stop_seconds > stop_bound:
        problems.append(f"Deploy/stop took {stop_seconds:.1f} s (bound {stop_bound} s), exit status {stop_status}: {stop_output}")
    summary, result_problems = failover.compare_results(received, expected_results)
    problems += result_problems[:10]
    if load.late:
        problems.append(f"{len(load.late)} requests unanswered past their deadline: {'; '.join(load.late[:4])}")
    if load.unexpected:
        problems.append(f"{len(load.unexpected)} unexpected answers: {'; '.join(load.unexpected[:4])}")
    if load.gave_up:
        problems.append(f"gave up on {len(load.gave_up)} batches: {', '.join(load.gave_up[:6])}")
    if load.stale:
        problems.append(f"{len(load.stale)} reads disagreed between instances: {'; '.join(load.stale[:3])}")
    if fault in ("d", "e") and not rebuilt:
        problems.append("no session was rebuilt from the journal: the fault moved no session")

    def statuses(route):
        seen = load.statuses[route]
        return " ".join(f"{key}x{count}" for key, count in sorted(seen.items(), key=lambda kv: str(kv[0])))

    def number(value):
        return "n/a" if value is None else f"{value:.0f}"

    lines = [
        f"fault {fault} ({name}): {'PASS' if not problems else 'FAIL'} in {time.monotonic() - started:.0f} s; "
        + "; ".join(events),
        f"  load: {len(sessions)} sessions, {load.total} batches, {sum(load.requests.values())} requests, "
        f"{load.retries} retried, {load.skipped_lines} lines skipped as already journaled",
        f"  nginx : {load.requests['nginx']} requests [{statuses('nginx')}], slowest {load.slowest['nginx']:.1f} s "
        f"(deadline {load.deadline['nginx']:.0f} s)",
        f"  direct: {load.requests['direct']} requests [{statuses('direct')}], slowest {load.slowest['direct']:.1f} s "
        f"(deadline {load.deadline['direct']:.0f} s; {load.excused} unanswered by a paused or dead instance)",
        f"  after : ready {'n/a' if ready is None else f'{ready:.1f} s'} after the load"
        + f"; {len(jobs)} snapshots read; {load.fresh_reads} reads during the load; rebuilt {number(rebuilt)}; "
        f"deadlines exceeded {number(deadlines)}; store errors {number(store_errors)}",
        f"  stop  : Deploy/stop {stop_seconds:.1f} s (bound {stop_bound} s), {cut_short} instances stopped by their exit "
        f"deadline; results: {summary}",
    ]
    lines += [f"  error: {p}" for p in problems]
    return not problems, "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", required=True, help="the repository (Deploy/, Scripts/)")
    parser.add_argument("--focal", required=True)
    parser.add_argument("--tasks", required=True)
    parser.add_argument("--state", required=True, help="a directory for everything the suite makes")
    parser.add_argument("--faults", default="abcde", help="which faults, e.g. 'ac' (default: all)")
    parser.add_argument("--sessions", type=int, default=48)
    parser.add_argument("--batch", type=int, default=6, help="op lines per request")
    parser.add_argument("--threads", type=int, default=12, help="clients sending at once")
    parser.add_argument("--repeat", type=int, default=1, help="how often each fault is injected during its load")
    parser.add_argument("--request-timeout", type=float, default=5.0, help="the instances' --request-timeout")
    parser.add_argument("--store-timeout", type=float, default=2.0, help="the instances' --store-timeout")
    parser.add_argument("--drain-timeout", type=float, default=10.0, help="the instances' --drain-timeout")
    parser.add_argument("--postgres-down", type=float, default=10.0, help="seconds PostgreSQL stays stopped (b)")
    parser.add_argument("--down", type=float, default=2.0, help="seconds a killed instance stays dead (d)")
    parser.add_argument("--max-attempts", type=int, default=100, help="tries of one batch")
    parser.add_argument("--batch-bound", type=float, default=45.0, help="seconds a client tries one batch")
    parser.add_argument("--read-bound", type=float, default=15.0, help="seconds a reader tries one snapshot")
    parser.add_argument("--ready-bound", type=float, default=30.0, help="seconds to wait for /readyz and delivery")
    options = parser.parse_args()
    for name, low, high in (("sessions", 1, 100_000), ("batch", 1, 10_000), ("threads", 1, 256), ("repeat", 1, 100),
                            ("request_timeout", 0.5, 600), ("store_timeout", 0.1, 600), ("drain_timeout", 0, 600), ("postgres_down", 0, 600),
                            ("down", 0, 600), ("max_attempts", 1, 10_000), ("batch_bound", 1, 3600), ("read_bound", 1, 3600), ("ready_bound", 1, 3600)):
        value = getattr(options, name)
        if not low <= value <= high:
            parser.error(f"--{name.replace('_', '-')} must be from {low} to {high}, not {value}")
    unknown = set(options.faults) - set(FAULTS)
    if unknown or not options.faults:
        parser.error(f"--faults takes letters among {''.join(FAULTS)}, not '{options.faults}'")
    # nginx: proxy_next_upstream_tries (Deploy/nginx.conf); c pauses longer than its read timeout.
    options.nginx_tries = 3
    options.pause = options.request_timeout + 2 + 3
    options.state = os.path.abspath(options.state)
    os.makedirs(options.state, exist_ok=True)

    # The sessions' logs, what `focal replay` delivers and what `focal snapshot` shows: the same
    # for every fault (each fault has a deployment of its own).
    logs = os.path.join(options.state, "logs")
    failover.write_oplogs(argparse.Namespace(sessions=options.sessions, out=logs))
    expected_results = os.path.join(options.state, "expected.jsonl")
    with open(expected_results, "w") as out:
        subprocess.run([options.focal, "replay", "--tasks", options.tasks, os.path.join(logs, "all.oplog")],
                       stdout=out, check=True, timeout=600)

    def snapshot(number):
        path = os.path.join(logs, f"s{number:05d}.oplog")
        text = subprocess.run([options.focal, "snapshot", "--tasks", options.tasks, "--format", "json", path],
                              capture_output=True, check=True, timeout=120).stdout
        return without_undefined_outcomes(json.loads(text))

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        expected_snapshots = list(pool.map(snapshot, range(options.sessions)))
    sessions = []
    for number in range(options.sessions):
        with open(os.path.join(logs, f"s{number:05d}.oplog")) as log:
            lines = log.read().splitlines()
        route = "nginx" if number % 2 == 0 else "direct"
        sessions.append(Session(number, lines, options.batch, route, home=(number // 2) % 3,
                                watched=(route == "direct" and number % 8 == 1)))

    print(f"faults: {options.sessions} sessions per fault (half through nginx, half direct), batches of "
          f"{options.batch} lines, {options.threads} clients, --request-timeout {options.request_timeout:g}, "
          f"--drain-timeout {options.drain_timeout:g}", flush=True)
    outcomes = []
    for fault in options.faults:
        passed, report = run_fault(fault, options, sessions, expected_snapshots, expected_results)
        print(report, flush=True)
        outcomes.append((fault, passed))
    failed = [f"{fault} ({FAULTS[fault]})" for fault, passed in outcomes if not passed]
    if failed:
        print(f"error: faults failed: {', '.join(failed)}", file=sys.stderr)
        sys.exit(1)
    print(f"faults: all {len(outcomes)} passed")


if __name__ == "__main__":
    main()
