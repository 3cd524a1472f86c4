#!/usr/bin/env python3
"""The example shop (Examples/web) in real headless Chromium, against a real `focal serve`.

    shop_test.py [--focal .build/debug/focal] [--chromium chromium] [--sdk FILE]   (FOCAL_TEST_POSTGRES_URL set)

The page is served from one loopback origin, `focal serve` listens on another (--allowed-origin
names the page's), and the page loads focal.js from the server. A user journey of trusted input
(Chromium's DevTools protocol, cdp.py): the list appears, a row is clicked (its detail panel opens
under it), "Add to cart" in the panel, a row added at run time and another removed, the list
scrolled so rows leave and others come into view, the order form filled and sent, and the page
left at once (pagehide: what focal.js still held must arrive). Then:

    (a) the results the server delivered (--deliver file:…) are the ones written down below for
        that journey, in order, and nothing of the typed e-mail address reached the server;
    (b) `focal replay` of the op log the server journaled for the session (the PostgreSQL store's
        journal, copied by a trigger as the server writes it, read with psql) gives the same results,
        and `focal snapshot` of it holds the added row and not the removed one;
    (c) a page on another origin gets no CORS access: its preflight is refused and the browser
        blocks its POST, which never reaches the server.

The server's PostgreSQL store lives in a database of its own, made and dropped here. Standard
library only (and psql); every wait has a deadline; processes and files are removed however it ends.
"""
import argparse
import functools
import http.client
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
import uuid

sys.dont_write_bytecode = True
import cdp  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PAGE = os.path.join(ROOT, "Examples", "web")
TASKS = os.path.join(PAGE, "tasks")
EMAIL = "private-shopper-7f3a@example.com"


def product_exposed(product, title):
    return {"event": "product_exposed", "product": product, "title": title}


# What the tasks give for the journey, worked out from the page and the tasks by hand. The list
# box shows five 40-pixel rows; a row counts as exposed when at least half of it is in view.
EXPECTED = (
    # The page is loaded: products 0–4 are in the list's box.
    [product_exposed(0, "Espresso cup"), product_exposed(1, "Tea pot"), product_exposed(2, "Stoneware mug"),
     product_exposed(3, "Milk jug"), product_exposed(4, "Sugar bowl")]
    # Row 2 clicked: the product opened, and its detail panel, a child of that row, in view.
    + [{"event": "product_opened", "product": 2, "title": "Stoneware mug"},
       {"event": "product_viewed", "product": 2, "title": "Stoneware mug", "path": "/master/tableView/cell/detail"}]
    # "Add to cart" in the panel: two levels under the row.
    + [{"event": "added_to_cart", "product": 2, "title": "Stoneware mug"}]
    # The new arrival (product 24) added on top of the list: in view, first shown.
    + [product_exposed(24, "Pour-over set")]
    # Row 1's "not interested": reported, then the row is removed (product 4 back in view: not new).
    + [{"event": "product_dismissed", "product": 1, "title": "Tea pot"}]
    # 400 pixels down the list [24, 0, 2, 3, 4, 5, …]: the rows at places 10–14 come into view.
    + [product_exposed(n, t) for n, t in
       [(10, "Cake stand"), (11, "Bread board"), (12, "Butter dish"), (13, "Egg cups"), (14, "Salad bowl")]]
    # Express shipping chosen, the e-mail typed, "Buy": one item, its price, the shipping.
    + [{"event": "purchase", "items": 1, "total": "12.50", "shipping": "express"}]
)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_until(condition, timeout, what):
    """Polls `condition` (a cheap read of a file or a process) until it is true, at most `timeout` seconds;
    `what` (text, or a function giving it when the wait failed) names what was awaited."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise Failure(f"{what() if callable(what) else what}: not within {timeout} s")
        time.sleep(0.05)


# ---------------------------------------------------------------- the page's origins

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_):
        pass


def serve_directory(directory):
    """A static file server for `directory` on a free loopback port, in a thread; returns it and its origin."""
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


# ---------------------------------------------------------------- PostgreSQL

def psql(url, sql, **variables):
    """Runs `sql` (with psql's :'name' for each of `variables`, quoted as SQL literals); returns its rows."""
    command = ["psql", url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"]
    for name, value in variables.items():
        command += ["-v", f"{name}={value}"]
    run = subprocess.run(command, input=sql + "\n", capture_output=True, text=True, timeout=60)
    check(run.returncode == 0, f"psql {sql!r}: {run.stderr.strip()}")
    return run.stdout.splitlines()


def database_url(url, name):
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


# The server removes a session's journal when the session ends (focal.js ends it when the page is
# unloaded for good), so a trigger keeps a copy of every line the server journals: a batch row's lines
# (joined by newlines, the first at `first`) one row each, and a line of the older one-row-a-line table.
KEEP_JOURNAL = """
CREATE TABLE web_test_journal (
    seq bigserial PRIMARY KEY, session text NOT NULL, position bigint NOT NULL, line text NOT NULL);
CREATE FUNCTION web_test_keep_batch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO web_test_journal (session, position, line)
    SELECT NEW.session, NEW.first + l.n - 1, l.line
    FROM unnest(string_to_array(NEW.lines, E'\\n')) WITH ORDINALITY AS l(line, n);
    RETURN NEW;
END $$;
CREATE TRIGGER web_test_keep_batch AFTER INSERT ON focal_journal_batch FOR EACH ROW EXECUTE FUNCTION web_test_keep_batch();
CREATE FUNCTION web_test_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO web_test_journal (session, position, line) VALUES (NEW.session, NEW.position, NEW.line);
    RETURN NEW;
END $$;
CREATE TRIGGER web_test_keep AFTER INSERT ON focal_journal_line FOR EACH ROW EXECUTE FUNCTION web_test_keep();
"""


def journal_lines(url, session):
    """The op-log lines the server journaled for the session (the default project keys a session by its
    bare id), checked to be positions 0, 1, 2, … each once. A JSON line holds no raw newline."""
    rows = psql(url, "SELECT position || ' ' || line FROM web_test_journal WHERE session = :'session'"
                     " ORDER BY position, seq;", session=session)
    positions = [int(row.split(" ", 1)[0]) for row in rows]
    check(positions == list(range(len(rows))), f"the journal's positions are not 0…{len(rows) - 1} once each: {positions}")
    return [row.split(" ", 1)[1] for row in rows]


# ---------------------------------------------------------------- focal serve

class Server:
    def __init__(self, focal, arguments, log_path):
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(
            [focal, "serve"] + arguments, stdout=subprocess.PIPE, stderr=self.log, text=True, start_new_session=True)
        self.url = None
        found = {}

        def read():
            for line in self.process.stdout:
                match = re.match(r"listening on (http://\S+)", line)
                if match and "url" not in found:
                    found["url"] = match.group(1)
        threading.Thread(target=read, daemon=True).start()
        wait_until(lambda: "url" in found or self.process.poll() is not None, 60, "focal serve listening")
        check("url" in found, f"focal serve exited with {self.process.returncode}: {open(log_path).read()}")
        self.url = found["url"]

    def stop(self):
        """SIGTERM (the outbox drains), then SIGKILL after 30 s; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()
        return self.process.returncode


def request(url, method, headers, body=None):
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


# ---------------------------------------------------------------- the test

def delivered(path):
    if not os.path.exists(path):
        return []
    with open(path) as file:
        return [json.loads(line) for line in file if line.endswith("\n")]


def journey(browser, page_url, out):
    """The user's journey on the shop; returns the session id the page's focal.js chose. Half-way it
    waits until focal.js's batches brought the first results to `out`; the rest it sends when the page
    is left, then or before."""
    browser.navigate(page_url)
    session = browser.evaluate(
        "document.documentElement.dataset.session ?? new Promise(ready =>"
        " addEventListener('shop-ready', event => ready(event.detail), {once: true}))")
    check(isinstance(session, str) and session, f"the page started no session: {session!r}")
    browser.settle()
    browser.click('#list li[data-focal-index="2"]')
    browser.settle()
    check(browser.evaluate("document.querySelector('#detail-slot h2')?.textContent") == "Stoneware mug",
          "the row's click opened its detail panel")
    browser.click("#add-to-cart")
    sent = 8  # the five exposures, opened, viewed, added to the cart
    wait_until(lambda: len(delivered(out)) >= sent, 30, f"the first {sent} results delivered while the page is open")
    browser.click("#new-arrivals")
    browser.settle()
    browser.click('#list li[data-focal-index="1"] button')
    browser.settle()
    check(browser.evaluate("document.querySelector('#list li[data-focal-index=\"1\"]')") is None, "row 1 removed")
    browser.wheel("#list", 400)
    browser.settle()
    check(browser.evaluate("document.getElementById('list').scrollTop") == 400, "the wheel scrolled the list 400 px")
    browser.click("#express")
    browser.click("#email")
    browser.type_text(EMAIL)
    browser.click("#buy")
    # The user leaves right after the last event: no wait for anything focal.js sends.
    browser.navigate("about:blank")
    return session


def foreign_origin_is_refused(browser, server_url, key, foreign_page, journal_url):
    """(c): a page on an origin not named by --allowed-origin gets no CORS access."""
    foreign_origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(foreign_page))
    status, headers, _ = request(server_url + "/v1/sessions/cors-probe/ops", "OPTIONS", {
        "Origin": foreign_origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"})
    check("access-control-allow-origin" not in headers,
          f"a preflight from {foreign_origin} got CORS headers: {status} {headers}")
    # In the browser: the page of that origin loads focal.js (served to any origin) and starts, but a POST
    # of its own is blocked before it is sent.
    browser.navigate(foreign_page)
    browser.evaluate("document.documentElement.dataset.session ?? new Promise(ready =>"
                     " addEventListener('shop-ready', event => ready(event.detail), {once: true}))")
    outcome = browser.evaluate(
        f"fetch({json.dumps(server_url + '/v1/sessions/cors-probe/ops?position=0')}, {{method: 'POST',"
        f" headers: {{'Authorization': 'Bearer ' + {json.dumps(key)}, 'Content-Type': 'application/x-ndjson'}},"
        " body: '{\"op\":\"register\",\"node\":1,\"parent\":null,\"name\":\"__root__\"}\\n'})"
        ".then(answer => 'answered ' + answer.status, error => 'blocked: ' + error.name)")
    check(outcome == "blocked: TypeError", f"the browser let a page of {foreign_origin} POST: {outcome}")
    check(journal_lines(journal_url, "cors-probe") == [], "the blocked POST reached the server")
    browser.navigate("about:blank")


def run(options, workspace):
    postgres = options.postgres
    database = "focal_web_" + uuid.uuid4().hex[:12]
    psql(postgres, f"CREATE DATABASE {database};")
    try:
        run_with_store(options, workspace, database_url(postgres, database))
    finally:
        psql(postgres, f"DROP DATABASE IF EXISTS {database} WITH (FORCE);")


def run_with_store(options, workspace, store):
    made = subprocess.run([options.focal, "keys", "new", "--name", "shop-web", "--scopes", "ingest", "--publishable"],
                          capture_output=True, text=True, timeout=60)
    check(made.returncode == 0, f"focal keys new: {made.stderr}")
    key, entry = made.stdout.splitlines()
    keys = os.path.join(workspace, "keys.json")
    with open(keys, "w") as file:
        json.dump({"keys": [json.loads(entry)]}, file)

    page_server, page_origin = serve_directory(PAGE)
    foreign_server, foreign_origin = serve_directory(PAGE)
    out = os.path.join(workspace, "delivered.jsonl")
    server = Server(options.focal, [
        "--tasks", TASKS, "--port", "0", "--deliver", "file:" + out, "--store", store, "--keys", keys,
        "--allowed-origin", page_origin, "--flush-at", "1", "--flush-interval", "0.2",
    ], os.path.join(workspace, "serve.log"))
    try:
        psql(store, KEEP_JOURNAL)  # the tables exist once the server listens
        # Without the back-forward cache a page left is unloaded for good (focal.js ends the session):
        # only requests made with keepalive outlive it.
        with cdp.Chromium(options.chromium, os.path.join(workspace, "chromium"),
                          arguments=["--disable-features=BackForwardCache"]) as browser:
            browser.open_page()
            if options.sdk:
                with open(options.sdk) as file:
                    browser.replace_script("*/v1/sdk/focal.js", file.read())
            query = urllib.parse.urlencode({"endpoint": server.url, "key": key})
            session = journey(browser, f"{page_origin}/shop.html?{query}", out)
            wait_until(lambda: len(delivered(out)) >= len(EXPECTED), 30,
                       lambda: f"{len(EXPECTED)} results delivered (so far {len(delivered(out))})")
            foreign_origin_is_refused(browser, server.url, key, f"{foreign_origin}/shop.html?{query}", store)
        lines = journal_lines(store, session)
    finally:
        status = server.stop()
        page_server.shutdown()
        foreign_server.shutdown()
    check(status == 0, f"focal serve stopped with {status}")

    # (a) what the server delivered for the session, in order, is what the tasks give for the journey.
    records = [record for record in delivered(out) if record.get("session") == session]
    results = [record["result"] for record in records]
    check(results == EXPECTED, "delivered results differ from the journey's:\n" + diff(EXPECTED, results))
    check(len({record["messageId"] for record in records}) == len(records), "a result was delivered twice")
    check(all(EMAIL not in line for line in lines), "the typed e-mail address left the page")

    # (b) `focal replay` of what the server journaled gives the same results. The page was unloaded, so
    # focal.js ended its session: the end is the last line. Each line is given the session's id, as the
    # server applied them (`focal replay` ends only a session it names).
    ops = [json.loads(line) for line in lines]
    check(ops and ops[-1].get("op") == "end", f"the journal does not end with the session's end: {lines[-1:]}")
    log = os.path.join(workspace, "session.oplog")
    with open(log, "w") as file:
        file.write("".join(json.dumps(dict(op, session=session)) + "\n" for op in ops))
    replay = subprocess.run([options.focal, "replay", "--tasks", TASKS, log], capture_output=True, text=True, timeout=120)
    check(replay.returncode == 0, f"focal replay: {replay.returncode} {replay.stderr}")
    replayed = [json.loads(line)["result"] for line in replay.stdout.splitlines()]
    check(replayed == results, "focal replay of the journal differs from the delivered results:\n" + diff(results, replayed))
    # The tree as the user left it (before the end): the added row is in it, the removed one is not.
    left = os.path.join(workspace, "left.oplog")
    with open(left, "w") as file:
        file.write("".join(line + "\n" for line in lines[:-1]))
    snapshot = subprocess.run([options.focal, "snapshot", "--format", "json", "--tasks", TASKS, left],
                              capture_output=True, text=True, timeout=120)
    check(snapshot.returncode == 0, f"focal snapshot: {snapshot.stderr}")
    indexes = cell_indexes(json.loads(snapshot.stdout))
    check(24 in indexes and 1 not in indexes and 2 in indexes,
          f"the journaled tree holds the added row 24 and not the removed row 1: cells {sorted(indexes)}")
    return len(lines)


def cell_indexes(tree):
    """The indexes of every node named `cell` in a `focal snapshot --format json` tree."""
    found = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("name") == "cell" and node.get("index") is not None:
                found.append(node["index"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def diff(expected, actual):
    rows = []
    for index in range(max(len(expected), len(actual))):
        want = json.dumps(expected[index]) if index < len(expected) else "—"
        got = json.dumps(actual[index]) if index < len(actual) else "—"
        rows.append(f"{'  ' if want == got else '≠ '}{index:2}  expected {want}\n      got      {got}")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--focal", default=os.path.join(ROOT, ".build", "debug", "focal"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--sdk", metavar="FILE", help="give the page this focal.js instead of the one the server"
                        " serves (the one compiled into focal): to try an edited or broken SDK without a rebuild")
    options = parser.parse_args()
    options.postgres = os.environ.get("FOCAL_TEST_POSTGRES_URL")
    if not options.postgres:
        sys.exit("shop_test.py: FOCAL_TEST_POSTGRES_URL is not set (CONTRIBUTING.md, \"Testing against PostgreSQL\")")
    workspace = tempfile.mkdtemp(prefix="focal-web-")
    try:
        run(options, workspace)
    except Exception as failure:  # a check, Chromium, or a command that could not run: all fail the test
        if not isinstance(failure, (Failure, cdp.ChromiumError)):
            traceback.print_exc()
        print(f"FAIL the example shop in Chromium: {failure}", file=sys.stderr)
        print("0 passed, 1 failed")
        sys.exit(1)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    print("PASS the example shop in Chromium: delivered = the journey's results = focal replay of the journal;"
          " another origin refused")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
