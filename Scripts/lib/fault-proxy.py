#!/usr/bin/env python3
"""An HTTP fault proxy on loopback: it forwards requests to a real server and, for a chosen share
of them, does what networks and overloaded servers do to a sender.

    fault-proxy.py --upstream http://127.0.0.1:PORT [--port 0] [--seed N] [--retry-after S]
                   [--fault KIND=SHARE]… [--paths PREFIX] [--stats FILE]

The kinds (each request that matches --paths, a POST, draws one, or none and passes):
    503         answered by the proxy: 503 with `Retry-After: S` and a JSON error; never forwarded
    429         the same with 429 (rate-limited)
    cut-before  the connection is reset before anything is forwarded
    cut-after   forwarded; the server's answer is read whole, then the connection to the sender is
                reset without it: the server applied the batch, the sender never hears so
Other requests (GET, other paths) always pass.

It prints `listening on http://127.0.0.1:PORT` on standard output once it accepts connections, and
keeps --stats (JSON: how many requests of each kind, and "pass") up to date after every request, so
a test can check that every fault happened. SIGTERM or SIGINT ends it. One request per connection
(the answer says `Connection: close`); a request without Content-Length has no body. Standard
library only; every socket operation has a timeout (--timeout).
"""
import argparse
import json
import os
import random
import signal
import socket
import socketserver
import sys
import threading
import urllib.parse

# Bounds on what a sender may send through the proxy (a test's sender, not an attacker).
MAX_HEAD = 64 * 1024
MAX_BODY = 64 * 1024 * 1024
KINDS = ("503", "429", "cut-before", "cut-after")


class Faults:
    """The shares of each kind, a seeded draw, and the counts so far."""

    def __init__(self, shares, seed, stats_path):
        self.shares = shares
        self.random = random.Random(seed)
        self.counts = {kind: 0 for kind in ("pass",) + KINDS}
        self.lock = threading.Lock()
        self.stats_path = stats_path

    def draw(self):
        with self.lock:
            point = self.random.random()
        for kind, share in self.shares:
            if point < share:
                return kind
            point -= share
        return "pass"

    def count(self, kind):
        with self.lock:
            self.counts[kind] += 1
            if self.stats_path:
                temporary = self.stats_path + ".tmp"
                with open(temporary, "w") as out:
                    json.dump(self.counts, out)
                os.replace(temporary, self.stats_path)


def read_request(stream):
    """(head lines, body) of one request, or None when the connection ended first."""
    head = []
    size = 0
    while True:
        line = stream.readline(MAX_HEAD + 1)
        if not line:
            return None
        size += len(line)
        if size > MAX_HEAD:
            raise ValueError("request head over 64 KiB")
        if line in (b"\r\n", b"\n"):
            if head:
                break
            continue  # blank lines before a request line are allowed
        head.append(line.rstrip(b"\r\n"))
    length = 0
    for line in head[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        elif name.strip().lower() == b"transfer-encoding":
            raise ValueError("chunked request bodies are not supported")
    if not 0 <= length <= MAX_BODY:
        raise ValueError(f"Content-Length {length} out of range")
    body = stream.read(length)
    if len(body) != length:
        return None
    return head, body


def forward(upstream, timeout, head, body):
    """The server's whole answer to the request, sent on a connection of its own, with
    `Connection: close` (the proxy serves one request per connection)."""
    lines = [head[0]]
    for line in head[1:]:
        name = line.partition(b":")[0].strip().lower()
        if name not in (b"connection", b"keep-alive", b"proxy-connection"):
            lines.append(line)
    lines.append(b"Connection: close")
    with socket.create_connection(upstream, timeout=timeout) as connection:
        connection.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + body)
        answer = bytearray()
        while True:
            piece = connection.recv(65536)
            if not piece:
                break
            answer += piece
    status_and_headers, _, content = bytes(answer).partition(b"\r\n\r\n")
    kept = [line for line in status_and_headers.split(b"\r\n")
            if line.partition(b":")[0].strip().lower() not in (b"connection", b"keep-alive")]
    return b"\r\n".join(kept + [b"Connection: close"]) + b"\r\n\r\n" + content


def reset(connection):
    """Closes `connection` with a TCP reset (SO_LINGER 0), as a cut network does."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    connection.close()


def refusal(status, retry_after):
    reason = {503: "Service Unavailable", 429: "Too Many Requests"}[status]
    code = {503: "unavailable", 429: "rate-limited"}[status]
    body = json.dumps({"status": status, "error": f"injected by the fault proxy: {reason}", "code": code}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nRetry-After: {retry_after}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upstream", required=True, help="the server's base URL, http://host:port")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--retry-after", type=int, default=1, choices=range(0, 3601), metavar="SECONDS")
    parser.add_argument("--fault", action="append", default=[], metavar="KIND=SHARE",
                        help="e.g. 503=0.1; the shares together at most 1")
    parser.add_argument("--paths", default="/v1/sessions/", help="the path prefix whose POSTs draw faults")
    parser.add_argument("--stats", help="a JSON file of counts, rewritten after each request")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per socket operation")
    options = parser.parse_args()
    shares = []
    for fault in options.fault:
        kind, _, share = fault.partition("=")
        if kind not in KINDS:
            parser.error(f"--fault {fault}: the kind must be one of {', '.join(KINDS)}")
        shares.append((kind, float(share)))
    if any(not 0 <= share <= 1 for _, share in shares) or sum(share for _, share in shares) > 1:
        parser.error("--fault: each share from 0 to 1, and together at most 1")
    upstream = urllib.parse.urlsplit(options.upstream)
    if upstream.scheme != "http" or not upstream.hostname or not upstream.port:
        parser.error("--upstream must be http://host:port")
    target = (upstream.hostname, upstream.port)
    faults = Faults(shares, options.seed, options.stats)

    class Handler(socketserver.BaseRequestHandler):
        def handle(self):
            connection = self.request
            connection.settimeout(options.timeout)
            try:
                request = read_request(connection.makefile("rb"))
                if request is None:
                    return
                head, body = request
                method, _, rest = head[0].partition(b" ")
                path = rest.partition(b" ")[0].decode("latin-1")
                kind = faults.draw() if method == b"POST" and path.startswith(options.paths) else "pass"
                if kind == "cut-before":
                    faults.count(kind)
                    reset(connection)
                    return
                if kind in ("503", "429"):
                    faults.count(kind)
                    connection.sendall(refusal(int(kind), options.retry_after))
                    return
                answer = forward(target, options.timeout, head, body)
                faults.count(kind)
                if kind == "cut-after":
                    reset(connection)
                    return
                connection.sendall(answer)
            except (OSError, ValueError) as failure:
                print(f"fault-proxy: {failure}", file=sys.stderr, flush=True)

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", options.port), Handler)
    stop = lambda *_: threading.Thread(target=server.shutdown).start()  # noqa: E731
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
    server.server_close()


if __name__ == "__main__":
    main()
