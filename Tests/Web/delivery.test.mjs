// The web SDK's delivery logic (Sources/FocalWebSDK/focal.js) against an in-process fake of fetch:
// positions, batches, one request in flight, retries, 409 by code, 413 halving, keepalive pieces
// and the tail kept in storage. The real thing against `focal serve` in Chromium is Examples/web's test.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Delivery, keepalivePieces, limits, retryDelay, utf8Length } from "../../Sources/FocalWebSDK/focal.js";
import { FakeClock, FakeFetch, MemoryStorage, applied, settle } from "./fakes.mjs";

/** A delivery of session `s` to a fake server, with a fixed random and every report kept. */
function makeDelivery(options = {}) {
    const clock = new FakeClock();
    const server = new FakeFetch();
    const reports = [];
    const delivery = new Delivery({
        endpoint: "https://collector.example/",
        key: "k1",
        session: "s",
        fetch: server.fetch,
        setTimeout: clock.setTimeout,
        clearTimeout: clock.clearTimeout,
        random: () => 0.5,
        now: () => 1_000_000 + clock.time,
        report: (message) => reports.push(message),
        ...options,
    });
    return { delivery, clock, server, reports };
}

const record = (node, event = "click") => ({ op: "record", node, event, time: 1 });
const register = (node, parent, name = "n") => ({ op: "register", node, parent, name, time: 1 });

test("lines wait the batch delay, then go in order with ?position, one request in flight", async () => {
    const { delivery, clock, server } = makeDelivery();
    delivery.enqueue(register(1, null, "root"));
    delivery.enqueue(record(1, "a"));
    delivery.enqueue(record(1, "b"));
    await settle();
    await clock.advance(limits.batchDelayMilliseconds - 1);
    assert.equal(server.requests.length, 0, "nothing before the batch delay");
    await clock.advance(1);
    const first = server.one;
    assert.equal(first.url, "https://collector.example/v1/sessions/s/ops?position=0");
    assert.equal(first.init.method, "POST");
    assert.equal(first.init.headers.Authorization, "Bearer k1");
    assert.equal(first.init.headers["Content-Type"], "application/x-ndjson");
    assert.equal(first.init.keepalive, false);
    assert.deepEqual(first.lines.map((line) => line.event ?? line.op), ["register", "a", "b"]);
    assert.ok(first.init.body.endsWith("\n"));

    delivery.enqueue(record(1, "c"));
    delivery.enqueue(record(1, "d"));
    await settle();
    await clock.advance(5 * limits.batchDelayMilliseconds);
    assert.equal(server.open.length, 1, "a second batch waits for the first's answer");

    await first.answer(200, applied(3));
    assert.equal(delivery.acked, 3);
    await clock.advance(limits.batchDelayMilliseconds);
    const second = server.one;
    assert.equal(second.position, 3);
    assert.deepEqual(second.lines.map((line) => line.event), ["c", "d"]);
    await second.answer(200, applied(2));
    assert.equal(delivery.acked, 5);
    assert.equal(delivery.figures.sent, 5);
});

test("a batch holds at most batchLines lines and batchBytes bytes", async () => {
    const { delivery, server } = makeDelivery({ batchLines: 2, batchDelay: 0 });
    for (let i = 0; i < 5; i++) delivery.enqueue(record(1, `e${i}`));
    await settle();
    const sizes = [];
    while (server.open.length > 0) {
        const request = server.one;
        sizes.push([request.position, request.lines.length]);
        await request.answer(200, applied(request.lines.length));
    }
    assert.deepEqual(sizes, [[0, 2], [2, 2], [4, 1]]);

    const big = makeDelivery({ batchBytes: 100, batchDelay: 0 });
    const long = "x".repeat(60);
    for (let i = 0; i < 3; i++) big.delivery.enqueue({ op: "record", node: 1, event: "e", properties: { long } });
    await settle();
    const counts = [];
    while (big.server.open.length > 0) {
        const request = big.server.one;
        counts.push(request.lines.length);
        assert.ok(utf8Length(request.init.body) <= 100 || request.lines.length === 1);
        await request.answer(200, applied(request.lines.length));
    }
    assert.deepEqual(counts, [1, 1, 1]);
});

test("an end goes alone, and the lines after it start the session again at position 0", async () => {
    const { delivery, server } = makeDelivery({ batchDelay: 0 });
    delivery.enqueue(register(1, null));
    delivery.enqueue(record(1));
    delivery.enqueue({ op: "end", time: 2 });
    delivery.enqueue(register(1, null));
    await settle();
    const seen = [];
    while (server.open.length > 0) {
        const request = server.one;
        seen.push([request.position, request.lines.map((line) => line.op)]);
        await request.answer(200, applied(request.lines.length));
    }
    assert.deepEqual(seen, [[0, ["register", "record"]], [2, ["end"]], [0, ["register"]]]);
});

test("a 409 to a lone end acknowledges it: the server ended the session already", async () => {
    const { delivery, server } = makeDelivery({ batchDelay: 0 });
    delivery.enqueue({ op: "end" });
    await settle();
    await server.one.answer(409, { status: 409, error: "no such session", code: "session-lost", length: 0 });
    assert.equal(server.open.length, 0);
    assert.equal(delivery.figures.sent, 1);
    assert.equal(delivery.wire, "s", "an end's 409 continues nothing");
});

test("a 413 halves the batch down to one line; a single line still refused is set aside, not resent", async () => {
    const { delivery, server, reports } = makeDelivery({ batchDelay: 0 });
    for (let i = 0; i < 4; i++) delivery.enqueue(record(1, `e${i}`));
    await settle();
    await server.one.answer(413, { status: 413, error: "too large", code: "body-too-large" });
    assert.equal(delivery.maxLines, 2);
    let request = server.one;
    assert.deepEqual([request.position, request.lines.length], [0, 2]);
    await request.answer(413, { code: "body-too-large" });
    request = server.one;
    assert.deepEqual([request.position, request.lines.length], [0, 1]);
    await request.answer(413, { code: "body-too-large" });
    request = server.one;
    assert.equal(request.position, 0, "the set-aside line took no position");
    assert.deepEqual(request.lines.map((line) => line.event), ["e1"]);
    assert.equal(delivery.figures.refused, 1);
    assert.ok(reports.some((report) => report.includes("line 1: set aside")));
});

test("429 and 503 wait Retry-After plus jitter, then send the same lines at the same position", async () => {
    const { delivery, clock, server } = makeDelivery({ batchDelay: 0 });
    delivery.enqueue(record(1, "a"));
    await settle();
    await server.one.answer(503, { status: 503, error: "busy", code: "session-limit" }, { "Retry-After": "2" });
    await clock.advance(2499);
    assert.equal(server.open.length, 0, "Retry-After 2 s plus half of the 1 s jitter");
    await clock.advance(1);
    assert.deepEqual([server.one.position, server.one.lines[0].event], [0, "a"]);
    await server.one.answer(429, { code: "rate-limited" }, { "Retry-After": "1" });
    await clock.advance(1500);
    await server.one.answer(200, applied(1));
    assert.equal(delivery.acked, 1);
    assert.equal(delivery.figures.retried, 2);
});

test("without Retry-After the waits double from 0.5 s to a 60 s cap, with jitter", async () => {
    assert.equal(retryDelay(1, null, () => 0), 250);
    assert.equal(retryDelay(1, null, () => 0.999999) < 500, true);
    assert.equal(retryDelay(2, null, () => 0), 500);
    assert.equal(retryDelay(3, null, () => 0), 1000);
    assert.equal(retryDelay(40, null, () => 0), 30000);
    assert.ok(retryDelay(40, null, () => 0.999999) <= 60000);
    assert.equal(retryDelay(1, "7", () => 0), 7000);
    assert.equal(retryDelay(1, "3601", () => 0), 250, "past an hour Retry-After is not honoured");
    assert.equal(retryDelay(1, "Wed, 21 Oct 2026 07:28:00 GMT", () => 0), 250);

    const { delivery, clock, server } = makeDelivery({ batchDelay: 0 });
    delivery.enqueue(record(1));
    await settle();
    await server.one.fail(new TypeError("Failed to fetch"));
    await clock.advance(374);
    assert.equal(server.open.length, 0);
    await clock.advance(1);
    await server.one.answer(500, "not json");
    await clock.advance(749);
    assert.equal(server.open.length, 0);
    await clock.advance(1);
    assert.equal(server.one.position, 0);
});

test("a request unanswered for the request timeout is abandoned and sent again", async () => {
    const { clock, server, delivery } = makeDelivery({ batchDelay: 0 });
    delivery.enqueue(record(1));
    await settle();
    const first = server.one;
    await clock.advance(limits.requestTimeoutMilliseconds);
    assert.ok(first.init.signal.aborted);
    await clock.advance(375);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1].position, 0);
});

test("a 409 session-lost continues under ID~2 at position 0, registering the live nodes first", async () => {
    const { delivery, server, reports } = makeDelivery({ batchDelay: 0 });
    delivery.enqueue(register(1, null, "root"));
    delivery.enqueue(register(2, 1, "list"));
    delivery.enqueue(register(3, 2, "row"));
    delivery.enqueue(register(4, 1, "form"));
    delivery.enqueue({ op: "deregister", node: 2 });
    await settle();
    await server.one.answer(200, applied(5));
    delivery.enqueue(record(4, "submit"));
    await settle();
    await server.one.answer(409, { status: 409, error: "the session ended", code: "session-lost", length: 0 });
    const request = server.one;
    assert.equal(request.session, "s~2");
    assert.equal(request.position, 0);
    assert.deepEqual(request.lines.map((line) => [line.op, line.node]), [["register", 1], ["register", 4], ["record", 4]]);
    assert.equal(delivery.figures.continued, 1);
    assert.ok(reports.some((report) => report.includes("continuing as 's~2'")));
    await request.answer(409, { code: "position-ahead", length: 0 });
    assert.equal(server.one.session, "s~3");
});

test("a 409 session-sealed is waited out and sent again under the same id", async () => {
    const { delivery, clock, server } = makeDelivery({ batchDelay: 0 });
    delivery.enqueue(record(1));
    await settle();
    await server.one.answer(409, { code: "session-sealed", error: "ending" }, { "Retry-After": "1" });
    await clock.advance(1500);
    assert.equal(server.one.session, "s");
    assert.equal(delivery.figures.continued, 0);
});

test("401 and 403 stop delivery: reported once, flush resolves false, nothing more is sent", async () => {
    for (const status of [401, 403]) {
        const { delivery, clock, server, reports } = makeDelivery({ batchDelay: 0 });
        delivery.enqueue(record(1));
        await settle();
        const flushed = delivery.flush();
        await server.one.answer(status, { status, error: "no", code: status === 401 ? "unauthorized" : "forbidden" });
        assert.equal(await flushed, false);
        assert.equal(delivery.enqueue(record(1)), false);
        await clock.advance(3_600_000);
        assert.equal(server.requests.length, 1);
        assert.equal(reports.length, 1);
        assert.match(reports[0], new RegExp(`HTTP ${status}`));
        assert.deepEqual(delivery.leave(), [], "a refused key sends nothing when leaving either");
    }
});

test("per-line errors are reported with their session line and never sent again", async () => {
    const { delivery, clock, server, reports } = makeDelivery({ batchDelay: 0 });
    delivery.enqueue(record(1, "a"));
    await settle();
    await server.one.answer(200, applied(1));
    for (const event of ["b", "c", "d"]) delivery.enqueue(record(1, event));
    await settle();
    await clock.advance(limits.batchDelayMilliseconds);
    await server.one.answer(200, applied(3, 0, [{ line: 2, code: "invalid-op", message: "no node 1" }]));
    assert.equal(delivery.figures.refused, 1);
    assert.ok(reports.some((report) => report.includes("line 3: refused: invalid-op: no node 1")));
    await clock.advance(60_000);
    assert.equal(server.open.length, 0);
});

test("flush sends at once and resolves once the lines queued before it are acknowledged", async () => {
    const { delivery, server } = makeDelivery();
    delivery.enqueue(record(1, "a"));
    await settle();
    let done = null;
    delivery.flush().then((value) => (done = value));
    await settle();
    assert.equal(server.open.length, 1, "flush does not wait the batch delay");
    delivery.enqueue(record(1, "b"));
    await settle();
    await server.one.answer(200, applied(1));
    assert.equal(done, true, "the line queued after flush() is not waited for");
    const second = delivery.flush();
    await settle();
    await server.one.answer(200, applied(1));
    assert.equal(await second, true);
    assert.equal(await delivery.flush(), true, "nothing queued: at once");
});

test("past its byte limit the queue takes nothing more, and says so once", () => {
    const { delivery, reports } = makeDelivery({ queueBytes: 200 });
    let taken = 0;
    for (let i = 0; i < 10; i++) if (delivery.enqueue(record(1, "e".repeat(40)))) taken++;
    assert.ok(taken >= 1 && taken < 10);
    assert.equal(reports.length, 1);
    assert.match(reports[0], /nothing more is recorded/);
});

test("keepalive pieces: within the budget, at most maxLines lines each, an end with the lines before it, ending its piece", () => {
    const entry = (text, end = false) => ({ text, bytes: utf8Length(text) + 1, end });
    const lines = [entry("a".repeat(99)), entry("b".repeat(99)), entry("c".repeat(99)), entry('{"op":"end"}', true), entry("d".repeat(99))];
    const pieces = keepalivePieces(lines, 7, { budget: 1000, maxLines: 2 });
    // The end rides with "c": sent alone, it could overtake the piece before it and be refused (position-ahead).
    assert.deepEqual(pieces.map((piece) => [piece.position, piece.lines]), [[7, 2], [9, 2], [11, 1]]);
    assert.equal(pieces[1].body, "c".repeat(99) + '\n{"op":"end"}\n');
    assert.equal(pieces.reduce((sum, piece) => sum + piece.bytes, 0), 4 * 100 + 13);

    const tight = keepalivePieces(lines, 0, { budget: 250, maxLines: 500 });
    assert.deepEqual(tight.map((piece) => [piece.position, piece.lines]), [[0, 2]], "the budget stops at a whole line");
    assert.deepEqual(keepalivePieces(lines, 0, { budget: 99, maxLines: 500 }), [], "a first line over the budget sends nothing");
});

test("leaving sends the unacknowledged lines from the acknowledged position in keepalive pieces, and keeps them in storage", async () => {
    const storage = new MemoryStorage();
    const { delivery, server } = makeDelivery({ storage, batchDelay: 0, keepaliveBytes: 1024, batchLines: 3 });
    delivery.enqueue(register(1, null));
    await settle();
    await server.one.answer(200, applied(1));
    for (let i = 0; i < 5; i++) delivery.enqueue(record(1, `e${i}`));
    await settle();
    const inFlight = server.one;
    assert.equal(inFlight.lines.length, 3);
    delivery.enqueue({ op: "end" });
    await settle();

    const pieces = delivery.leave();
    const sent = server.requests.filter((request) => request.init.keepalive);
    assert.deepEqual(sent.map((request) => [request.position, request.lines.length]), [[1, 3], [4, 3]],
        "the lines of the normal request in flight go again (it is cancelled when the page unloads); the end rides with the last");
    assert.deepEqual(sent[1].lines.map((line) => line.op), ["record", "record", "end"]);
    assert.ok(pieces.reduce((sum, piece) => sum + piece.bytes, 0) <= 1024);
    const kept = JSON.parse(storage.getItem("focal:tail:s"));
    assert.deepEqual([kept.wire, kept.position, kept.lines.length, kept.endpoint], ["s", 1, 6, "https://collector.example"]);

    // The page lives on (hidden): the keepalive answers acknowledge, and storage follows.
    await sent[0].answer(200, applied(3));
    assert.equal(delivery.acked, 4);
    assert.equal(JSON.parse(storage.getItem("focal:tail:s")).position, 4);
    await inFlight.answer(200, applied(0, 3));
    assert.equal(delivery.acked, 4, "the normal request's skipped lines count once");
    await sent[1].answer(200, applied(3));
    assert.equal(storage.getItem("focal:tail:s"), null, "every line acknowledged, the end too: nothing is kept");
    delivery.resume();
    await settle();
    // The normal request the page sent while hidden, with lines the last piece carried, comes back after the end
    // was applied: the server has forgotten the session. Nothing is continued, nothing is sent again.
    const stale = server.one;
    assert.deepEqual([stale.position, stale.lines.map((line) => line.op), stale.init.keepalive], [4, ["record", "record"], false]);
    await stale.answer(409, { code: "session-lost", length: 0 });
    await settle();
    assert.equal(server.requests.filter((request) => !request.answered).length, 0, "nothing is left to send");
});

test("leaving twice sends only what the first pieces did not cover, within what is left of the budget", async () => {
    const { delivery, server } = makeDelivery({ batchDelay: 60_000, keepaliveBytes: 1024 });
    for (let i = 0; i < 3; i++) delivery.enqueue(record(1, `e${i}`));
    await settle();
    delivery.leave();
    delivery.enqueue(record(1, "late"));
    await settle();
    delivery.leave();
    assert.deepEqual(server.requests.map((request) => [request.position, request.lines.length]), [[0, 3], [3, 1]]);
    const used = server.requests.reduce((sum, request) => sum + utf8Length(request.init.body), 0);
    assert.ok(used <= 1024);
    await server.requests[0].fail(new TypeError("Failed to fetch"));
    delivery.leave();
    assert.deepEqual(server.requests.at(-1).position, 0, "a failed piece is covered again by the next leave");
});

test("the next page load resends a kept tail to its old session; lines the server holds are skipped", async () => {
    const storage = new MemoryStorage();
    const first = makeDelivery({ storage, batchDelay: 60_000 });
    first.delivery.enqueue(register(1, null));
    first.delivery.enqueue(record(1, "a"));
    first.delivery.enqueue(record(1, "b"));
    await settle();
    const pieces = first.delivery.leave();
    assert.equal(pieces.length, 1);
    // The page is gone before any answer: the piece may or may not have arrived.

    const next = makeDelivery({ storage });
    const [resent, ...more] = Delivery.resumeTails({ endpoint: "https://collector.example", fetch: next.server.fetch,
        setTimeout: next.clock.setTimeout, clearTimeout: next.clock.clearTimeout, storage, now: () => 1_000_000, report: () => {} });
    assert.equal(more.length, 0);
    assert.equal(storage.getItem("focal:tail:s"), null, "a tail is taken out of storage by the page that resends it");
    assert.equal(await Promise.race([resent.flush(), settle().then(() => "pending")]), "pending");
    const request = next.server.one;
    assert.deepEqual([request.session, request.position, request.lines.length], ["s", 0, 3]);
    assert.equal(request.init.headers.Authorization, undefined, "the key is the new page's, none here");
    await request.answer(200, applied(0, 3));
    assert.equal(resent.acked, 3);
    assert.equal(next.server.open.length, 0);
});

test("a kept tail whose session the server no longer holds is dropped and reported, never continued", async () => {
    const storage = new MemoryStorage();
    storage.setItem("focal:tail:old", JSON.stringify({ v: 1, endpoint: "https://collector.example", session: "old", wire: "old", position: 5,
        savedAt: 999_000, lines: [JSON.stringify(record(1))] }));
    storage.setItem("focal:tail:stale", JSON.stringify({ v: 1, endpoint: "https://collector.example", session: "stale", wire: "stale", position: 0,
        savedAt: 1_000_000 - limits.tailAgeMilliseconds - 1, lines: ["{}"] }));
    storage.setItem("focal:tail:elsewhere", JSON.stringify({ v: 1, endpoint: "https://other.example", session: "x", wire: "x", position: 0,
        savedAt: 999_000, lines: ["{}"] }));
    storage.setItem("focal:tail:broken", "{not json");
    const { clock, server } = makeDelivery();
    const reports = [];
    const tails = Delivery.resumeTails({ endpoint: "https://collector.example", fetch: server.fetch, setTimeout: clock.setTimeout,
        clearTimeout: clock.clearTimeout, storage, now: () => 1_000_000, report: (message) => reports.push(message) });
    assert.deepEqual(tails.map((tail) => tail.session), ["old"]);
    assert.deepEqual([...storage.map.keys()], ["focal:tail:elsewhere"], "stale and broken tails are removed, another endpoint's left");
    assert.match(reports.shift(), /^2 sessions' lines kept by earlier page loads are dropped/);
    tails[0].flush();
    await settle();
    await server.one.answer(409, { code: "session-lost", length: 0 });
    assert.equal(server.open.length, 0);
    assert.equal(tails[0].figures.dropped, 1);
    assert.match(reports[0], /dropped/);
});

test("focal.d.ts declares what focal.js exports, and nothing else", async () => {
    const module = await import("../../Sources/FocalWebSDK/focal.js");
    const declarations = readFileSync(new URL("../../Sources/FocalWebSDK/focal.d.ts", import.meta.url), "utf8");
    const declared = [...declarations.matchAll(/^export (?:function|class|const) (\w+)/gm)].map((match) => match[1]).sort();
    assert.deepEqual(declared, Object.keys(module).sort());
});
