"""Headless Chromium driven over the DevTools protocol through a pipe (--remote-debugging-pipe).

Chromium reads commands from file descriptor 3 and writes answers and events to 4, each message
JSON ended by a NUL byte: no WebSocket, no driver, no package beyond Debian's `chromium`. Input
sent with Input.dispatchMouseEvent and Input.insertText is trusted (`event.isTrusted`), as a
user's. Standard library only; every wait has a deadline.
"""
import base64
import fcntl
import json
import os
import subprocess
import threading
import time


class ChromiumError(Exception):
    pass


def _above_nine(descriptor):
    """A copy of `descriptor` numbered 10 or more (closed on exec); the original is closed."""
    copy = fcntl.fcntl(descriptor, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(descriptor)
    return copy


class Chromium:
    """One headless Chromium with one page. Use as a context manager: it is closed at exit (killed if it
    does not close within 10 s)."""

    def __init__(self, binary, directory, width=1000, height=800, arguments=()):
        """Starts `binary` (with `arguments` added to its own) with its profile and temporary files in
        `directory` (made here if missing; the caller removes it)."""
        os.makedirs(directory, exist_ok=True)
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()
        # Moved above 9, so that the shell's redirections to 3 and 4 never overwrite one of them.
        commands_read, answers_write = _above_nine(commands_read), _above_nine(answers_write)
        # bash (dash takes one-digit descriptors only) puts the pipes on 3 and 4 in the child only.
        script = f'exec "$0" "$@" 3<&{commands_read} 4>&{answers_write}'
        flags = [
            "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--no-default-browser-check", "--disable-smooth-scrolling",
            "--disable-background-networking", f"--window-size={width},{height}", f"--user-data-dir={directory}/profile",
            *arguments, "about:blank",
        ]
        self.process = subprocess.Popen(
            ["bash", "-c", script, binary] + flags, pass_fds=(commands_read, answers_write),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            env=dict(os.environ, TMPDIR=directory))
        os.close(commands_read)
        os.close(answers_write)
        self._lock = threading.Condition()
        self._writing = threading.Lock()
        self._next_id = 0
        self._replies = {}
        self._events = []
        self._handlers = {}
        self._closed = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.session = None

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def close(self):
        """Asks Chromium to close, and kills its process group if it has not within 10 s."""
        try:
            if self.process.poll() is None:
                self.send("Browser.close", browser=True, timeout=10)
            self.process.wait(timeout=10)
        except (ChromiumError, OSError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self.process.pid, 9)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)
        os.close(self._commands)
        self._reader.join(timeout=10)
        os.close(self._answers)

    def _read(self):
        pending = b""
        while True:
            chunk = os.read(self._answers, 65536)
            if not chunk:
                break
            pending += chunk
            *messages, pending = pending.split(b"\0")
            with self._lock:
                for text in messages:
                    message = json.loads(text)
                    if "id" in message:
                        self._replies[message["id"]] = message
                    elif message.get("method") in self._handlers:
                        # On a thread of its own: a handler sends commands, whose answers this thread reads.
                        handler = self._handlers[message["method"]]
                        threading.Thread(target=handler, args=(message["params"],), daemon=True).start()
                    else:
                        self._events.append(message)
                self._lock.notify_all()
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    def _wait(self, ready, timeout, what):
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = ready()
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if self._closed or left <= 0:
                    raise ChromiumError(f"{what}: {'Chromium exited' if self._closed else f'no answer in {timeout} s'}")
                self._lock.wait(left)

    def send(self, method, params=None, timeout=30, browser=False):
        """Sends a command to the page (to the browser itself with browser=True) and returns its result."""
        with self._lock:
            self._next_id += 1
            number = self._next_id
        message = {"id": number, "method": method, "params": params or {}}
        if not browser:
            message["sessionId"] = self.session
        data = json.dumps(message).encode() + b"\0"
        with self._writing:  # one message at a time: a long one is written in several pieces
            written = 0
            while written < len(data):
                written += os.write(self._commands, data[written:])
        reply = self._wait(lambda: self._replies.pop(number, None), timeout, method)
        if "error" in reply:
            raise ChromiumError(f"{method}: {reply['error']}")
        return reply["result"]

    def wait_for_event(self, method, timeout=30):
        """Waits for the page's next event named `method` (events seen before are dropped)."""
        def take():
            for index, event in enumerate(self._events):
                if event.get("method") == method and event.get("sessionId") == self.session:
                    del self._events[:index + 1]
                    return event["params"]
            return None
        return self._wait(take, timeout, f"waiting for {method}")

    def forget_events(self):
        with self._lock:
            self._events.clear()

    # ------------------------------------------------------------ the page

    def open_page(self):
        """Makes the page target and attaches to it; Page and Runtime events are on."""
        target = self.send("Target.createTarget", {"url": "about:blank"}, browser=True)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, browser=True)["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")

    def replace_script(self, url_pattern, source):
        """Answers the page's requests for URLs matching `url_pattern` (`*` wildcards) with `source`, a
        JavaScript file, instead of the network's answer."""
        def fulfill(paused):
            self.send("Fetch.fulfillRequest", {
                "requestId": paused["requestId"], "responseCode": 200,
                "responseHeaders": [{"name": "Content-Type", "value": "text/javascript"},
                                    {"name": "Access-Control-Allow-Origin", "value": "*"}],
                "body": base64.b64encode(source.encode()).decode()})
        with self._lock:
            self._handlers["Fetch.requestPaused"] = fulfill
        self.send("Fetch.enable", {"patterns": [{"urlPattern": url_pattern}]})

    def navigate(self, url, timeout=30):
        """Loads `url` and waits for its load event."""
        self.forget_events()
        answer = self.send("Page.navigate", {"url": url}, timeout=timeout)
        if answer.get("errorText"):
            raise ChromiumError(f"loading {url}: {answer['errorText']}")
        self.wait_for_event("Page.loadEventFired", timeout=timeout)

    def evaluate(self, expression, timeout=30):
        """The value of `expression` in the page (a promise is awaited), as JSON."""
        answer = self.send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True, "timeout": timeout * 1000},
            timeout=timeout + 5)
        if "exceptionDetails" in answer:
            raise ChromiumError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def settle(self):
        """Waits two rendering frames: what the last input changed has been laid out, and the
        intersection observers' callbacks of that frame have run."""
        self.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")

    def center(self, selector):
        """The viewport coordinates of the middle of the element `selector` matches."""
        box = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        return box[0], box[1]

    def click(self, selector):
        """A trusted left click in the middle of the element."""
        x, y = self.center(selector)
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def wheel(self, selector, delta_y):
        """A trusted mouse-wheel scroll of `delta_y` pixels over the element."""
        x, y = self.center(selector)
        self.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": delta_y})

    def type_text(self, text):
        """Trusted text input into the focused element."""
        self.send("Input.insertText", {"text": text})
