// focal.js — Focal's web SDK: a page's focus paths as an op log, sent to `focal serve`.
//
// A plain ES module: no build step, no dependency. The contract is web.md; the reference is the
// FocalServer article "Web pages as producers" (WebSDK.md); the types are focal.d.ts.
//
//   import { start } from "https://collector.example/v1/sdk/focal.js";
//   const focal = start({ endpoint: "https://collector.example", key: "<a publishable ingest key>" });
//
// Two parts: `start` watches the page (data-focal attributes, clicks, visibility) and turns it into op
// lines; `Delivery` sends one session's lines to the server in order, exactly once as far as a browser
// allows. `Delivery` touches no DOM: its fetch, timers and storage are injected, so node tests drive it.

/** @typedef {import("./focal.js").StartOptions} StartOptions */
/** @typedef {import("./focal.js").Focal} Focal */
/** @typedef {import("./focal.js").DeliveryOptions} DeliveryOptions */
/** @typedef {import("./focal.js").Op} Op */
/** @typedef {import("./focal.js").KeepalivePiece} KeepalivePiece */
/** @typedef {import("./focal.js").FetchLike} FetchLike */

/** Every size the SDK bounds, and its defaults (the reference lists what happens past each). */
export const limits = Object.freeze({
    /** Bytes (UTF-8) of a node name, an event name or a namespace: the op log's limit. */
    nameBytes: 1024,
    /** Bytes of a value's key (the KEY of data-focal-value-KEY): the op log's key-path limit. */
    keyBytes: 1024,
    /** Bytes of one value (a data-focal-value-* attribute); a longer value is not sent. */
    valueBytes: 4096,
    /** Values one node sends (data-focal-value-* attributes); the others are not sent. */
    valuesPerNode: 64,
    /** Bytes of the JSON of record()'s properties. */
    propertiesBytes: 65536,
    /** Members of record()'s properties: the op log's limit. */
    propertiesMembers: 1024,
    /** Live nodes of a page, the root's included; elements past it are not tracked. */
    nodes: 10000,
    /** Levels of the tree, the root's included: the op log's limit. */
    depth: 250,
    /** Bytes of lines waiting to be sent; past it the page stops recording. */
    queueBytes: 4 << 20,
    /** Lines of one request (halved on a 413), and bytes of one request's body. */
    batchLines: 500,
    batchBytes: 1 << 20,
    /** The browser's budget for the bodies of a document's keepalive requests in flight together (Chrome). */
    keepaliveBrowserBytes: 65536,
    /** The part of it the SDK uses by default, leaving the rest to the page's own beacons. */
    keepaliveBytes: 49152,
    /** Bytes of the unacknowledged lines kept in localStorage per session, and how many sessions, and how long. */
    tailBytes: 1 << 20,
    tails: 8,
    tailAgeMilliseconds: 24 * 3600 * 1000,
    /** Milliseconds a request may take. */
    requestTimeoutMilliseconds: 60000,
    /** Waits: Retry-After honoured up to an hour plus up to 1 s of jitter; else 0.5 s doubling to 60 s. */
    retryAfterSeconds: 3600,
    retryAfterJitterMilliseconds: 1000,
    backoffBaseMilliseconds: 500,
    backoffCapMilliseconds: 60000,
    /** How long a line waits for others to share its request (flush() and leaving do not wait). */
    batchDelayMilliseconds: 1000,
});

const tailPrefix = "focal:tail:";
const valuePrefix = "data-focal-value-";

/**
 * The UTF-8 length of `text`, without encoding it.
 * @param {string} text
 */
export function utf8Length(text) {
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        if (unit < 0x80) bytes += 1;
        else if (unit < 0x800) bytes += 2;
        else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
            const next = text.charCodeAt(i + 1);
            if (next >= 0xdc00 && next <= 0xdfff) {
                bytes += 4;
                i++;
            } else bytes += 3;
        } else bytes += 3;
    }
    return bytes;
}

/**
 * One queued line: its text, its UTF-8 bytes, whether it is an `end`, and the op it carries (for the
 * live tree a continued session registers again).
 * @typedef {{text: string, bytes: number, end: boolean, op: Op, seq: number}} Entry
 */

/**
 * A request's lines: the position of the first, how many, the delivery's epoch, the body, whether it is a lone `end`.
 * @typedef {{position: number, lines: number, epoch: number, body: string, end: boolean}} Batch
 */

/**
 * A 200's body: lines applied and skipped, and the per-line errors.
 * @typedef {{applied: number, skipped: number, errors: {line: number | null, code: string, message: string}[], errorsOmitted: number}} Outcome
 */

/**
 * @param {Op} op
 * @param {number} seq the entry's number for flush(), -1 for a line the delivery added itself
 * @returns {Entry}
 */
function entryOf(op, seq) {
    const text = JSON.stringify(op);
    return { text, bytes: utf8Length(text) + 1, end: op.op === "end", op, seq };
}

/**
 * Cuts `entries` (the session's lines from `position` on) into keepalive pieces: each at most
 * `maxLines` lines, ending at an `end`, and all of them together at most `budget` bytes of body.
 * An `end` rides with the lines before it, unlike a normal request's: the pieces go out at once and
 * may arrive in any order, and an `end` sent alone could reach the server before them and be refused
 * (409 position-ahead), leaving the session open. The ambiguity a lone `end` avoids (a 409 to an
 * applied `end` whose answer was lost) cannot arise: nothing reads these answers, and a kept tail
 * that comes back to a session the server no longer holds is dropped.
 * @param {{text: string, bytes: number, end: boolean}[]} entries
 * @param {number} position
 * @param {{budget: number, maxLines: number}} limit
 * @returns {KeepalivePiece[]}
 */
export function keepalivePieces(entries, position, limit) {
    /** @type {KeepalivePiece[]} */
    const pieces = [];
    let spent = 0;
    let at = 0;
    while (at < entries.length) {
        const lines = [];
        let bytes = 0;
        while (at < entries.length && lines.length < limit.maxLines) {
            const entry = entries[at];
            if (spent + bytes + entry.bytes > limit.budget) break;
            lines.push(entry.text);
            bytes += entry.bytes;
            at++;
            if (entry.end) break;
        }
        if (lines.length === 0) break;
        pieces.push({ position: position + at - lines.length, lines: lines.length, body: lines.join("\n") + "\n", bytes });
        spent += bytes;
    }
    return pieces;
}

/**
 * How long to wait before sending again after the `failures`-th failure in a row: `Retry-After`
 * (whole seconds, at most an hour) plus up to a second of jitter; else a random wait between half
 * and all of 0.5 s × 2^(failures − 1), capped at 60 s. As FocalClient's `Backoff`.
 * @param {number} failures
 * @param {string | null} retryAfter the header, if any
 * @param {() => number} random in [0, 1)
 * @returns {number} milliseconds
 */
export function retryDelay(failures, retryAfter, random) {
    if (retryAfter !== null && /^[0-9]{1,5}$/.test(retryAfter) && Number(retryAfter) <= limits.retryAfterSeconds) {
        return Number(retryAfter) * 1000 + random() * limits.retryAfterJitterMilliseconds;
    }
    const doublings = Math.min(Math.max(0, failures - 1), 30);
    const ceiling = Math.min(limits.backoffCapMilliseconds, limits.backoffBaseMilliseconds * 2 ** doublings);
    return ceiling * (0.5 + random() / 2);
}

/**
 * A node id's key in the live tree: its JSON, a keyed id's keys as strings (3 and "3" are the same key).
 * @param {unknown} id
 */
function nodeKey(id) {
    return Array.isArray(id) ? JSON.stringify(id.map((part, i) => (i === 0 ? part : String(part)))) : JSON.stringify(id);
}

/**
 * Whether `id` is `prefix` or starts with it (a keyed id whose owner and first keys are prefix's).
 * @param {unknown} id
 * @param {unknown} prefix
 */
function startsWith(id, prefix) {
    const a = Array.isArray(id) ? id.map(String) : [String(id)];
    const b = Array.isArray(prefix) ? prefix.map(String) : [String(prefix)];
    return b.length <= a.length && b.every((part, i) => part === a[i]);
}

/**
 * The nodes a session's acknowledged lines left registered, so that a session the server lost can
 * go on under a new id that first registers them again (as FocalClient's LiveTree).
 */
class LiveTree {
    constructor() {
        /** @type {Map<string, {id: unknown, parent: string | null, entry: Entry}>} */
        this.nodes = new Map();
    }

    /**
     * @param {Entry} entry
     */
    fold(entry) {
        const op = entry.op;
        if (op.op === "register") {
            const key = nodeKey(op.node);
            if (this.nodes.has(key)) return; // a keyed id registered again reuses its node
            const register = { ...op };
            delete register.session;
            this.nodes.set(key, { id: op.node, parent: op.parent === null || op.parent === undefined ? null : nodeKey(op.parent), entry: entryOf(register, -1) });
        } else if (op.op === "deregister") {
            const removed = new Set();
            for (const [key, node] of this.nodes) if (startsWith(node.id, op.node)) removed.add(key);
            let grew = removed.size > 0;
            while (grew) {
                grew = false;
                for (const [key, node] of this.nodes) {
                    if (!removed.has(key) && node.parent !== null && removed.has(node.parent)) {
                        removed.add(key);
                        grew = true;
                    }
                }
            }
            for (const key of removed) this.nodes.delete(key);
        } else if (op.op === "end") {
            this.nodes.clear();
        }
    }

    /** The register lines of the live nodes, in the order they were registered (parents first). */
    registrations() {
        return [...this.nodes.values()].map((node) => node.entry);
    }
}

/** The default session id: 22 random URL-safe characters (132 bits). */
export function newSessionID() {
    const bytes = new Uint8Array(16);
    globalThis.crypto.getRandomValues(bytes);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let id = "";
    for (let i = 0; i < 22; i++) {
        const bit = i * 6;
        const byte = bit >> 3;
        const value = ((bytes[byte] << 8) | (bytes[byte + 1] ?? 0)) >> (10 - (bit & 7));
        id += alphabet[value & 63];
    }
    return id;
}

/**
 * Sends one session's op lines to `focal serve`, in order, with `?position=N`, one request in
 * flight (pieces sent when the page is left excepted), batched, retried, exactly once as far as the
 * browser allows. What each answer makes it do is FocalClient's Sender's table (the reference
 * lists it); it touches no DOM.
 */
export class Delivery {
    /**
     * @param {DeliveryOptions} options
     */
    constructor(options) {
        this.endpoint = options.endpoint.replace(/\/+$/, "");
        this.key = options.key ?? null;
        this.session = options.session;
        this.wire = options.wire ?? options.session;
        this.generation = 1;
        /** Whether a session the server lost goes on under a new id (false for a tail resent from storage). */
        this.continues = options.continues ?? true;
        this.fetch = options.fetch;
        this.setTimeout = options.setTimeout;
        this.clearTimeout = options.clearTimeout;
        this.random = options.random ?? Math.random;
        this.now = options.now ?? Date.now;
        this.storage = options.storage ?? null;
        this.report = options.report ?? ((message) => console.warn("focal: " + message));
        this.maxLines = options.batchLines ?? limits.batchLines;
        this.maxBytes = options.batchBytes ?? limits.batchBytes;
        this.batchDelay = options.batchDelay ?? limits.batchDelayMilliseconds;
        this.keepaliveBudget = options.keepaliveBytes ?? limits.keepaliveBytes;
        this.queueLimit = options.queueBytes ?? limits.queueBytes;
        /** @type {Entry[]} the lines the server has not acknowledged, from position `acked` on */
        this.entries = [];
        this.queuedBytes = 0;
        /** Lines of the current wire session the server holds. */
        this.acked = options.position ?? 0;
        /** Changes at every end acknowledged and every continuation: answers of an older epoch are ignored. */
        this.epoch = 0;
        this.live = new LiveTree();
        this.seq = 0;
        /** @type {Batch | null} */
        this.inFlight = null;
        /** @type {unknown} */
        this.timer = null;
        this.timerIsBatchDelay = false;
        /** Whether a send waits for the current task to end. */
        this.sendPending = false;
        this.failures = 0;
        /** Why delivery stopped for good (401, 403, another refusal), or null. */
        this.stopped = null;
        /** Whether the queue overflowed: nothing more is accepted. */
        this.full = false;
        /** Keepalive bytes of this delivery still in flight, and the position they cover up to. */
        this.keepaliveInFlight = 0;
        this.keepaliveCovered = 0;
        /** Whether the unacknowledged lines are kept in storage (from leaving until the page shows again). */
        this.storing = false;
        /** @type {{seq: number, resolve: (delivered: boolean) => void}[]} */
        this.waiters = [];
        /** Figures, for tests and the curious. */
        this.figures = { queued: 0, sent: 0, refused: 0, retried: 0, continued: 0, dropped: 0 };
        for (const text of options.lines ?? []) this.enqueueText(text);
    }

    /**
     * Queues `op` for sending. Returns false when it is not queued: delivery stopped, or the queue is
     * over its byte limit (then nothing more is, and it is reported once).
     * @param {Op} op
     */
    enqueue(op) {
        if (this.stopped !== null || this.full) return false;
        const entry = entryOf(op, this.seq++);
        if (this.queuedBytes + entry.bytes > this.queueLimit) {
            this.full = true;
            this.figures.dropped++;
            this.report(`session '${this.session}': ${this.queuedBytes} bytes wait to be sent, the limit; nothing more is recorded`);
            return false;
        }
        this.entries.push(entry);
        this.queuedBytes += entry.bytes;
        this.figures.queued++;
        this.schedule(false);
        return true;
    }

    /**
     * @param {string} text a line read back from storage
     */
    enqueueText(text) {
        /** @type {Op} */
        let op;
        try {
            op = JSON.parse(text);
        } catch {
            return;
        }
        if (op === null || typeof op !== "object") return;
        const entry = { text, bytes: utf8Length(text) + 1, end: op.op === "end", op, seq: this.seq++ };
        this.entries.push(entry);
        this.queuedBytes += entry.bytes;
        this.figures.queued++;
    }

    /**
     * Sends what is queued now, without the batch delay; resolves true once every line queued
     * before the call is acknowledged or refused, false if delivery stops first.
     * @returns {Promise<boolean>}
     */
    flush() {
        const seq = this.seq - 1;
        if (this.settled(seq)) return Promise.resolve(this.stopped === null);
        if (this.stopped !== null) return Promise.resolve(false);
        return new Promise((resolve) => {
            this.waiters.push({ seq, resolve });
            this.schedule(true);
        });
    }

    /**
     * Whether no line numbered `seq` or lower waits.
     * @param {number} seq
     */
    settled(seq) {
        const first = this.entries.find((entry) => entry.seq >= 0);
        return first === undefined || first.seq > seq;
    }

    /**
     * Starts a request now (`now`), or after the batch delay, unless one is in flight or a wait runs.
     * @param {boolean} now
     */
    schedule(now) {
        if (this.stopped !== null || this.inFlight !== null || this.entries.length === 0) return;
        if (this.timer !== null) {
            if (!(now && this.timerIsBatchDelay)) return;
            this.clearTimeout(this.timer);
            this.timer = null;
        }
        if (now || this.batchDelay === 0) {
            // On a microtask: the lines recorded in the same task share the request.
            if (!this.sendPending) {
                this.sendPending = true;
                queueMicrotask(() => {
                    this.sendPending = false;
                    this.send();
                });
            }
            return;
        }
        this.timerIsBatchDelay = true;
        this.timer = this.setTimeout(() => {
            this.timer = null;
            this.send();
        }, this.batchDelay);
    }

    /** The next batch: from the front, at most maxLines lines and maxBytes bytes, an `end` alone. */
    nextBatch() {
        const lines = [];
        let bytes = 0;
        for (const entry of this.entries) {
            if (lines.length >= this.maxLines) break;
            if (entry.end && lines.length > 0) break;
            if (lines.length > 0 && bytes + entry.bytes > this.maxBytes) break;
            lines.push(entry.text);
            bytes += entry.bytes;
            if (entry.end) break;
        }
        return { position: this.acked, lines: lines.length, epoch: this.epoch, body: lines.join("\n") + "\n", end: this.entries[0].end && lines.length === 1 };
    }

    /**
     * The request for `position` of the current wire session.
     * @param {number} position
     * @param {string} body
     * @param {boolean} keepalive
     * @returns {{url: string, init: RequestInit}}
     */
    request(position, body, keepalive) {
        /** @type {Record<string, string>} */
        const headers = { "Content-Type": "application/x-ndjson" };
        if (this.key !== null) headers.Authorization = `Bearer ${this.key}`;
        const url = `${this.endpoint}/v1/sessions/${encodeURIComponent(this.wire)}/ops?position=${position}`;
        return { url, init: { method: "POST", headers, body, keepalive, mode: "cors", credentials: "omit", redirect: "error", cache: "no-store" } };
    }

    /** Sends the next batch and acts on its answer. */
    send() {
        if (this.stopped !== null || this.inFlight !== null || this.entries.length === 0) return;
        const batch = this.nextBatch();
        this.inFlight = batch;
        const { url, init } = this.request(batch.position, batch.body, false);
        const abort = typeof AbortController === "function" ? new AbortController() : null;
        const deadline = abort ? this.setTimeout(() => abort.abort(), limits.requestTimeoutMilliseconds) : null;
        /** @type {Promise<{status: number, retryAfter: string | null, body: string}>} */
        let answer;
        try {
            answer = this.fetch(url, abort ? { ...init, signal: abort.signal } : init).then(async (response) => ({
                status: response.status,
                retryAfter: response.headers.get("Retry-After"),
                body: await response.text(),
            }));
        } catch (error) {
            answer = Promise.reject(error);
        }
        answer
            .then(
                (reply) => this.answered(batch, reply),
                (error) => this.retry(batch, null, `no answer (${error instanceof Error ? error.message : String(error)})`),
            )
            .catch((error) => this.report(`internal error: ${String(error)}`))
            .finally(() => {
                if (deadline !== null) this.clearTimeout(deadline);
                this.inFlight = null;
                this.wake();
                this.schedule(this.failures === 0 && this.timer === null && this.waiters.length > 0);
            });
    }

    /**
     * Whether `batch` still starts at the front of the queue (no keepalive answer moved it).
     * @param {Batch} batch
     */
    current(batch) {
        return batch.epoch === this.epoch && batch.position === this.acked;
    }

    /**
     * Acts on the answer to a batch.
     * @param {Batch} batch
     * @param {{status: number, retryAfter: string | null, body: string}} reply
     */
    answered(batch, reply) {
        const { status } = reply;
        const error = parseError(reply.body);
        if (status >= 200 && status < 300) {
            const outcome = parseOutcome(reply.body);
            if (outcome === null) return this.stop(`an answer that is not the server's (HTTP ${status}): ${error.message}`);
            if (outcome.applied + outcome.skipped === 0 && batch.lines > 0) return this.stop(`the server acknowledged no line of ${batch.lines}`);
            this.failures = 0;
            this.acknowledge(batch.epoch, batch.position, Math.min(batch.lines, outcome.applied + outcome.skipped), outcome);
            return;
        }
        if (status === 413) {
            this.failures = 0;
            if (!this.current(batch)) return;
            if (batch.lines > 1) {
                this.maxLines = Math.max(1, Math.floor(batch.lines / 2));
            } else {
                const [aside] = this.entries.splice(0, 1);
                this.queuedBytes -= aside.bytes;
                this.figures.refused++;
                this.report(`session '${this.session}', line ${batch.position + 1}: set aside, larger than the server's body limit (413)`);
            }
            return;
        }
        if (status === 409 && error.code === "session-sealed" && !batch.end) {
            return this.retry(batch, reply.retryAfter, `HTTP 409 session-sealed: ${error.message}`);
        }
        if (status === 409) {
            this.failures = 0;
            if (!this.current(batch)) return;
            if (batch.end) {
                // The server ended the session with this `end` and forgot it before its answer came, or had lost it already.
                this.acknowledge(batch.epoch, batch.position, 1, null);
                return;
            }
            return this.continueSession(`409 ${error.code ?? ""}: ${error.message}`);
        }
        if (status === 401 || status === 403) return this.stop(`HTTP ${status} (${error.code ?? "refused"}): ${error.message}; check the key`);
        if (status === 429 || status >= 500) return this.retry(batch, reply.retryAfter, `HTTP ${status} ${error.code ?? ""}: ${error.message}`);
        return this.stop(`HTTP ${status} (${error.code ?? "refused"}): ${error.message}`);
    }

    /**
     * The server holds `count` lines from `position` on (of the session as it was in `epoch`):
     * they leave the queue; per-line errors are reported, never sent again.
     * @param {number} epoch
     * @param {number} position
     * @param {number} count
     * @param {Outcome | null} outcome
     */
    acknowledge(epoch, position, count, outcome) {
        if (epoch !== this.epoch || position > this.acked) return;
        const skip = this.acked - position;
        const taken = this.entries.splice(0, Math.max(0, Math.min(count - skip, this.entries.length)));
        for (const entry of taken) {
            this.queuedBytes -= entry.bytes;
            this.live.fold(entry);
            if (entry.end) {
                this.acked = 0;
                this.epoch++;
                this.keepaliveCovered = 0;
            } else this.acked++;
        }
        this.figures.sent += taken.length;
        if (outcome !== null) {
            this.figures.refused += outcome.errors.length + outcome.errorsOmitted;
            for (const error of outcome.errors) {
                const line = error.line === null ? "" : `, line ${position + error.line}`;
                this.report(`session '${this.session}'${line}: refused: ${error.code}: ${error.message}`);
            }
            if (outcome.errorsOmitted > 0) this.report(`session '${this.session}': ${outcome.errorsOmitted} more lines refused`);
        }
        if (taken.length > 0) {
            this.wake();
            if (this.storing) this.saveTail();
        }
    }

    /**
     * The server lost the session: go on under `ID~N`, registering the live nodes again first.
     * @param {string} why
     */
    continueSession(why) {
        if (!this.continues) {
            const lost = this.entries.length;
            this.dropAll();
            this.report(`session '${this.session}': the server no longer holds '${this.wire}' (${why}); ${lost} lines kept from an earlier page are dropped`);
            return;
        }
        this.generation++;
        const old = this.wire;
        this.wire = `${this.session}~${this.generation}`;
        this.acked = 0;
        this.epoch++;
        this.keepaliveCovered = 0;
        const registrations = this.live.registrations();
        for (const entry of registrations) this.queuedBytes += entry.bytes;
        this.entries.unshift(...registrations);
        this.figures.continued++;
        this.report(`session '${this.session}': the server no longer holds '${old}' (${why}); continuing as '${this.wire}'`);
    }

    /**
     * Waits, then sends the batch again.
     * @param {Batch} batch
     * @param {string | null} retryAfter
     * @param {string} why
     */
    retry(batch, retryAfter, why) {
        this.failures++;
        this.figures.retried++;
        const delay = retryDelay(this.failures, retryAfter, this.random);
        if (this.failures === 1 || this.failures % 10 === 0) {
            this.report(`session '${this.session}': ${why}; sending again in ${Math.round(delay)} ms`);
        }
        if (this.timer !== null) this.clearTimeout(this.timer);
        this.timerIsBatchDelay = false;
        this.timer = this.setTimeout(() => {
            this.timer = null;
            this.send();
        }, delay);
    }

    /** Stops for good (the page cannot fix a refused key); the lines stay queued, and stored when leaving. */
    /**
     * @param {string} why
     */
    stop(why) {
        if (this.stopped !== null) return;
        this.stopped = why;
        this.report(`session '${this.session}': delivery stopped: ${why}`);
        if (this.timer !== null) this.clearTimeout(this.timer);
        this.timer = null;
        this.wake();
    }

    dropAll() {
        this.figures.dropped += this.entries.length;
        this.entries = [];
        this.queuedBytes = 0;
        this.wake();
        if (this.storing) this.saveTail();
    }

    /** Resolves the flush() calls whose lines have all left the queue (or all of them when stopped). */
    wake() {
        this.waiters = this.waiters.filter((waiter) => {
            if (this.stopped !== null) waiter.resolve(false);
            else if (this.settled(waiter.seq)) waiter.resolve(true);
            else return true;
            return false;
        });
    }

    /**
     * The user leaves (the page is hidden or unloaded): what is queued goes out at once in keepalive
     * requests, pieces within the keepalive budget, and the unacknowledged lines are kept in storage
     * for the next page load of this origin (the pieces may arrive out of order; positions make a
     * resend harmless). Returns the pieces sent.
     * @returns {KeepalivePiece[]}
     */
    leave() {
        if (this.stopped !== null) return [];
        this.saveTail();
        const from = Math.max(this.acked, this.keepaliveCovered);
        const skip = from - this.acked;
        const budget = this.keepaliveBudget - this.keepaliveInFlight;
        const pieces = keepalivePieces(this.entries.slice(skip), from, { budget, maxLines: this.maxLines });
        const epoch = this.epoch;
        for (const piece of pieces) {
            const { url, init } = this.request(piece.position, piece.body, true);
            this.keepaliveInFlight += piece.bytes;
            this.keepaliveCovered = piece.position + piece.lines;
            /** @type {Promise<import("./focal.js").FetchAnswer>} */
            let sent;
            try {
                sent = this.fetch(url, init);
            } catch (error) {
                sent = Promise.reject(error);
            }
            sent.then(async (response) => {
                const body = await response.text();
                const outcome = response.status >= 200 && response.status < 300 ? parseOutcome(body) : null;
                if (outcome !== null) this.acknowledge(epoch, piece.position, Math.min(piece.lines, outcome.applied + outcome.skipped), outcome);
                else if (epoch === this.epoch) this.keepaliveCovered = Math.min(this.keepaliveCovered, piece.position);
            })
                .catch(() => {
                    if (epoch === this.epoch) this.keepaliveCovered = Math.min(this.keepaliveCovered, piece.position);
                })
                .finally(() => {
                    this.keepaliveInFlight -= piece.bytes;
                    this.schedule(false);
                });
        }
        return pieces;
    }

    /** The page is shown again: the live page delivers its lines itself, so storage forgets them. */
    resume() {
        this.storing = false;
        this.forgetTail();
        this.schedule(false);
    }

    /** Keeps the unacknowledged lines (at most `limits.tailBytes`) in storage under the session's key. */
    saveTail() {
        if (this.storage === null) return;
        this.storing = true;
        if (this.entries.length === 0) {
            this.forgetTail();
            return;
        }
        const lines = [];
        let bytes = 0;
        for (const entry of this.entries) {
            if (bytes + entry.bytes > limits.tailBytes) break;
            lines.push(entry.text);
            bytes += entry.bytes;
        }
        const tail = { v: 1, endpoint: this.endpoint, session: this.session, wire: this.wire, position: this.acked, savedAt: this.now(), lines };
        try {
            this.storage.setItem(tailPrefix + this.session, JSON.stringify(tail));
        } catch (error) {
            this.report(`session '${this.session}': the unsent lines could not be kept in storage (${String(error)})`);
        }
    }

    forgetTail() {
        if (this.storage === null) return;
        try {
            this.storage.removeItem(tailPrefix + this.session);
        } catch {
            // storage refused: nothing kept
        }
    }

    /**
     * The deliveries of the tails earlier page loads of this origin kept in `storage` for `endpoint`
     * (each removed from storage as it is taken; the oldest past `limits.tails` and those older than
     * `limits.tailAgeMilliseconds` are dropped). Each sends its lines to its old session with their
     * positions, so lines the server already holds are skipped.
     * @param {Omit<DeliveryOptions, "session">} options
     * @returns {Delivery[]}
     */
    static resumeTails(options) {
        const storage = options.storage ?? null;
        if (storage === null) return [];
        const now = (options.now ?? Date.now)();
        const endpoint = options.endpoint.replace(/\/+$/, "");
        /** @type {{session: string, wire: string, position: number, savedAt: number, lines: string[]}[]} */
        const tails = [];
        let stale = 0;
        try {
            const keys = [];
            for (let i = 0; i < storage.length; i++) {
                const key = storage.key(i);
                if (key !== null && key.startsWith(tailPrefix)) keys.push(key);
            }
            for (const key of keys) {
                let tail = null;
                try {
                    tail = JSON.parse(storage.getItem(key) ?? "null");
                } catch {
                    tail = null;
                }
                const valid = tail !== null && typeof tail === "object" && tail.v === 1 && typeof tail.session === "string" && typeof tail.wire === "string"
                    && Number.isSafeInteger(tail.position) && tail.position >= 0 && Array.isArray(tail.lines) && typeof tail.savedAt === "number"
                    && tail.lines.every((/** @type {unknown} */ line) => typeof line === "string");
                if (!valid || now - tail.savedAt > limits.tailAgeMilliseconds) {
                    storage.removeItem(key);
                    stale++;
                } else if (tail.endpoint === endpoint) {
                    storage.removeItem(key);
                    tails.push(tail);
                }
            }
        } catch {
            return [];
        }
        tails.sort((a, b) => b.savedAt - a.savedAt);
        const dropped = stale + Math.max(0, tails.length - limits.tails);
        if (dropped > 0) {
            (options.report ?? ((message) => console.warn("focal: " + message)))(
                `${dropped} sessions' lines kept by earlier page loads are dropped: older than a day, unreadable, or past the newest ${limits.tails}`);
        }
        return tails.slice(0, limits.tails).map((tail) => new Delivery({
            ...options, session: tail.session, wire: tail.wire, position: tail.position, lines: tail.lines, continues: false, batchDelay: 0,
        }));
    }
}

/**
 * The outcome in a 200's body, or null when it is not one.
 * @param {string} body
 * @returns {Outcome | null}
 */
function parseOutcome(body) {
    let value;
    try {
        value = JSON.parse(body);
    } catch {
        return null;
    }
    if (value === null || typeof value !== "object") return null;
    const { applied, skipped } = value;
    if (!Number.isSafeInteger(applied) || !Number.isSafeInteger(skipped) || applied < 0 || skipped < 0) return null;
    const errors = Array.isArray(value.errors)
        ? value.errors.slice(0, 1000).map((/** @type {any} */ error) => ({
            line: Number.isSafeInteger(error?.line) ? error.line : null,
            code: typeof error?.code === "string" ? error.code : "refused",
            message: typeof error?.message === "string" ? error.message : "",
        }))
        : [];
    const errorsOmitted = Number.isSafeInteger(value.errorsOmitted) && value.errorsOmitted > 0 ? value.errorsOmitted : 0;
    return { applied, skipped, errors, errorsOmitted };
}

/**
 * The `error` and `code` of an error body, or the body's start.
 * @param {string} body
 * @returns {{message: string, code: string | null}}
 */
function parseError(body) {
    try {
        const value = JSON.parse(body);
        if (value !== null && typeof value === "object") {
            return { message: typeof value.error === "string" ? value.error : body.slice(0, 512), code: typeof value.code === "string" ? value.code : null };
        }
    } catch {
        // not JSON
    }
    return { message: body.slice(0, 512), code: null };
}

/**
 * What went wrong with the page's markup or a call, said once per kind: a hostile or odd page is
 * reported, never thrown into.
 */
class Warnings {
    /**
     * @param {(message: string) => void} report
     */
    constructor(report) {
        this.report = report;
        /** @type {Set<string>} */
        this.said = new Set();
    }

    /**
     * @param {string} kind
     * @param {string} message
     */
    once(kind, message) {
        if (this.said.has(kind)) return;
        this.said.add(kind);
        this.report(message);
    }
}

/**
 * Whether `name` is a node or event name the op log takes: 1 to 1,024 bytes, no `/`.
 * @param {string} name
 */
function validName(name) {
    return name.length > 0 && !name.includes("/") && utf8Length(name) <= limits.nameBytes;
}

/**
 * Whether `namespace` names task files: dot-separated names without `/`, `\`, `..` or control characters.
 * @param {string} namespace
 */
function validNamespace(namespace) {
    return utf8Length(namespace) <= limits.nameBytes && namespace.split(".").every((part) => part.length > 0 && !/[/\\\u0000-\u001f\u007f]/.test(part));
}

/**
 * One tracked element's node.
 * @typedef {{id: number, element: Element | null, parent: Node | null, children: Set<Node>, depth: number,
 *   name: string, index: string | null, namespace: string | null, attach: boolean,
 *   values: Map<string, string>, inView: boolean, visible: boolean}} Node
 */

/**
 * Watches the page: elements with data-focal become nodes, their values, visibility and the user's
 * clicks, changes and submits become op lines for `delivery`.
 */
class Tracker {
    /**
     * @param {Delivery} delivery
     * @param {{rootName: string, rootNamespace: string | null, maxNodes: number, report: (message: string) => void}} options
     */
    constructor(delivery, options) {
        this.delivery = delivery;
        this.maxNodes = options.maxNodes;
        this.warnings = new Warnings(options.report);
        /** @type {Map<Element, Node>} */
        this.nodes = new Map();
        this.nextID = 2;
        /** @type {Node | null} the node the user last clicked */
        this.lastActed = null;
        this.pageHidden = document.visibilityState === "hidden";
        this.ended = false;
        /** @type {Node} */
        this.root = { id: 1, element: null, parent: null, children: new Set(), depth: 1, name: options.rootName, index: null, namespace: options.rootNamespace,
            attach: false, values: new Map(), inView: true, visible: false };
        /** @type {Op} */
        const register = { op: "register", node: 1, parent: null, name: options.rootName, time: Date.now() };
        if (options.rootNamespace !== null) register.namespace = options.rootNamespace;
        this.emit(register);
        this.intersections = new IntersectionObserver((entries) => this.guard(() => this.intersected(entries)), { threshold: [0, 0.5, 1] });
        this.mutations = new MutationObserver((records) => this.guard(() => this.mutated(records)));
        this.mutations.observe(document, { subtree: true, childList: true, attributes: true });
        /** @type {[EventTarget, string, (event: Event) => void][]} */
        this.listeners = [
            [window, "click", (event) => this.acted(event)],
            [window, "change", (event) => this.acted(event)],
            [window, "submit", (event) => this.acted(event)],
            [document, "visibilitychange", () => this.guard(() => this.visibilityChanged(document.visibilityState === "hidden"))],
            [window, "pagehide", (event) => this.guard(() => this.pageHide(/** @type {PageTransitionEvent} */ (event).persisted))],
            [window, "pageshow", (event) => this.guard(() => this.pageShow(/** @type {PageTransitionEvent} */ (event).persisted))],
        ];
        for (const [target, type, listener] of this.listeners) target.addEventListener(type, listener, { capture: true, passive: true });
        this.updateVisibility(this.root);
        if (document.documentElement) this.reconcile(document.documentElement);
    }

    /**
     * Runs `work`, reporting (once) instead of throwing into the page.
     * @param {() => void} work
     */
    guard(work) {
        try {
            work();
        } catch (error) {
            this.warnings.once("internal", `internal error, please report it: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
        }
    }

    /**
     * @param {Op} op
     */
    emit(op) {
        if (!this.ended) this.delivery.enqueue(op);
    }

    // Registering

    /**
     * Registers `element` (and, first, its unregistered data-focal ancestors); returns its node, or
     * null when it cannot be one (a bad name, a limit).
     * @param {Element} element
     * @param {boolean} [focus] whether data-focal-attach="focus" attaches it to the node last clicked
     * @returns {Node | null}
     */
    register(element, focus = true) {
        const known = this.nodes.get(element);
        if (known) return known;
        const chain = [element];
        for (let ancestor = element.parentElement?.closest("[data-focal]") ?? null; ancestor !== null && !this.nodes.has(ancestor); ancestor = ancestor.parentElement?.closest("[data-focal]") ?? null) {
            if (chain.length > limits.depth) return null;
            chain.push(ancestor);
        }
        /** @type {Node | null} */
        let node = null;
        for (let i = chain.length - 1; i >= 0; i--) node = this.registerOne(chain[i], focus);
        return node;
    }

    /**
     * @param {Element} element whose data-focal ancestors are registered
     * @param {boolean} focus
     * @returns {Node | null}
     */
    registerOne(element, focus) {
        if (this.nodes.size + 1 >= this.maxNodes) {
            this.warnings.once("nodes", `more than ${this.maxNodes} nodes: later elements are not tracked`);
            return null;
        }
        const name = element.getAttribute("data-focal") ?? "";
        if (!validName(name)) {
            this.warnings.once("name", `data-focal="${name.slice(0, 64)}" is not a name (1 to ${limits.nameBytes} bytes, no "/"): such elements are not tracked`);
            return null;
        }
        const parent = focus ? this.parentFor(element) : this.domParent(element);
        if (parent === null || parent.depth >= limits.depth) {
            this.warnings.once("depth", `a node deeper than ${limits.depth} levels is not tracked`);
            return null;
        }
        const indexText = element.getAttribute("data-focal-index");
        const namespace = element.getAttribute("data-focal-namespace");
        /** @type {Node} */
        const node = { id: this.nextID++, element, parent, children: new Set(), depth: parent.depth + 1, name, index: indexText, namespace,
            attach: element.getAttribute("data-focal-attach") === "focus", values: new Map(), inView: false, visible: false };
        /** @type {Op} */
        const op = { op: "register", node: node.id, parent: parent.id, name, time: Date.now() };
        if (indexText !== null) {
            const index = /^-?[0-9]{1,16}$/.test(indexText.trim()) ? Number(indexText.trim()) : NaN;
            if (Number.isSafeInteger(index)) op.index = index;
            else this.warnings.once("index", `data-focal-index="${indexText.slice(0, 64)}" is not a whole number: the node has no index`);
        }
        if (namespace !== null) {
            if (validNamespace(namespace)) op.namespace = namespace;
            else this.warnings.once("namespace", `data-focal-namespace="${namespace.slice(0, 64)}" is not a namespace (names separated by single dots): the node has none`);
        }
        this.nodes.set(element, node);
        parent.children.add(node);
        this.emit(op);
        for (const attribute of Array.from(element.attributes)) {
            if (attribute.name.startsWith(valuePrefix)) this.valueChanged(node, attribute.name);
        }
        this.intersections.observe(element);
        return node;
    }

    /**
     * The node `element` goes under: with data-focal-attach="focus", the node last clicked (when it is
     * live and not inside `element`); else the nearest data-focal ancestor's; else the root.
     * @param {Element} element
     * @returns {Node | null}
     */
    parentFor(element) {
        const focus = this.lastActed;
        if (element.getAttribute("data-focal-attach") === "focus" && focus !== null && focus.element !== null && this.nodes.get(focus.element) === focus
            && !element.contains(focus.element)) {
            return focus;
        }
        return this.domParent(element);
    }

    /**
     * The node of the nearest tracked data-focal ancestor of `element`, else the root; null past
     * `limits.depth` untracked data-focal ancestors (a hostile page's chain is not climbed for every element).
     * @param {Element} element
     * @returns {Node | null}
     */
    domParent(element) {
        let climbed = 0;
        for (let ancestor = element.parentElement?.closest("[data-focal]") ?? null; ancestor !== null; ancestor = ancestor.parentElement?.closest("[data-focal]") ?? null) {
            const node = this.nodes.get(ancestor);
            if (node) return node;
            if (++climbed > limits.depth) return null;
        }
        return this.root;
    }

    /**
     * Deregisters `node` and its subtree (ana-disappeared first on those visible); returns the
     * elements of the subtree's nodes, which may need registering again.
     * @param {Node} node
     * @returns {Element[]}
     */
    deregister(node) {
        /** @type {Node[]} */
        const subtree = [];
        const stack = [node];
        while (stack.length > 0) {
            const next = /** @type {Node} */ (stack.pop());
            subtree.push(next);
            for (const child of next.children) stack.push(child);
        }
        for (let i = subtree.length - 1; i >= 0; i--) {
            const gone = subtree[i];
            if (gone.visible) this.emit({ op: "record", node: gone.id, event: "ana-disappeared", time: Date.now() });
        }
        this.emit({ op: "deregister", node: node.id, time: Date.now() });
        node.parent?.children.delete(node);
        for (const gone of subtree) {
            if (gone.element !== null) {
                this.nodes.delete(gone.element);
                this.intersections.unobserve(gone.element);
            }
            if (this.lastActed === gone) this.lastActed = null;
        }
        return subtree.flatMap((gone) => (gone === node || gone.element === null ? [] : [gone.element]));
    }

    /**
     * Brings the nodes of `element` and its data-focal descendants in line with the page: elements
     * no longer named are deregistered, renamed or moved ones registered again under the right
     * parent, new ones registered (in document order: parents first).
     * @param {Element} element
     */
    reconcile(element) {
        if (!element.isConnected || this.ended) return;
        const elements = element.matches("[data-focal]") ? [element] : [];
        /** @type {Element[]} */
        const orphans = [];
        const known = this.nodes.get(element);
        if (known && !element.hasAttribute("data-focal")) orphans.push(...this.deregister(known));
        for (const descendant of Array.from(element.querySelectorAll("[data-focal]"))) elements.push(descendant);
        for (const each of elements) {
            const node = this.nodes.get(each);
            if (node && !this.fits(node)) orphans.push(...this.deregister(node));
            if (!this.nodes.has(each)) this.register(each);
        }
        this.adopt(orphans);
    }

    /**
     * Registers again, under their place in the page, the elements of nodes that went with a
     * deregistered node although they stay (a panel attached by focus to a row that is removed).
     * @param {Element[]} orphans
     */
    adopt(orphans) {
        for (const orphan of orphans) if (orphan.isConnected && orphan.hasAttribute("data-focal") && !this.nodes.has(orphan)) this.register(orphan, false);
    }

    /**
     * Whether `node` still says what its element says, under the parent it should have.
     * @param {Node} node
     */
    fits(node) {
        const element = /** @type {Element} */ (node.element);
        if (element.getAttribute("data-focal") !== node.name || element.getAttribute("data-focal-index") !== node.index
            || element.getAttribute("data-focal-namespace") !== node.namespace || (element.getAttribute("data-focal-attach") === "focus") !== node.attach) {
            return false;
        }
        if (node.attach && node.parent !== this.root && node.parent !== null && node.parent.element !== null && this.nodes.get(node.parent.element) === node.parent) {
            return true;
        }
        return this.domParent(element) === node.parent;
    }

    // Watching the page

    /**
     * @param {MutationRecord[]} records
     */
    mutated(records) {
        if (this.ended) return;
        let removed = false; // an element left the page (a text node leaving removes no node)
        /** @type {Set<Element>} */
        const changed = new Set();
        for (const record of records) {
            if (record.type === "childList") {
                for (const gone of Array.from(record.removedNodes)) if (gone instanceof Element) removed = true;
                for (const added of Array.from(record.addedNodes)) if (added instanceof Element) changed.add(added);
            } else if (record.type === "attributes" && record.attributeName !== null && record.attributeName.startsWith("data-focal") && record.target instanceof Element) {
                const node = this.nodes.get(record.target);
                if (record.attributeName.startsWith(valuePrefix)) {
                    if (node) this.valueChanged(node, record.attributeName);
                } else changed.add(record.target);
            }
        }
        if (removed) {
            /** @type {Element[]} */
            const orphans = [];
            for (const [element, node] of this.nodes) {
                if (!element.isConnected && this.nodes.get(element) === node) orphans.push(...this.deregister(node));
            }
            this.adopt(orphans);
        }
        for (const element of changed) this.reconcile(element);
    }

    /** Records pending mutations before an event, so the event finds the tree as the page is. */
    catchUp() {
        const records = this.mutations.takeRecords();
        if (records.length > 0) this.mutated(records);
    }

    /**
     * The value under attribute `attribute` (data-focal-value-KEY) of `node` changed: `ana-updated`
     * with key path KEY and the value (none when the attribute is gone).
     * @param {Node} node
     * @param {string} attribute
     */
    valueChanged(node, attribute) {
        const key = attribute.slice(valuePrefix.length);
        const element = /** @type {Element} */ (node.element);
        const value = element.getAttribute(attribute);
        if (key.length === 0 || utf8Length(key) > limits.keyBytes) {
            this.warnings.once("key", `${attribute.slice(0, 64)} has no key, or a key longer than ${limits.keyBytes} bytes: it is not sent`);
            return;
        }
        if (value !== null && utf8Length(value) > limits.valueBytes) {
            this.warnings.once("value", `a value longer than ${limits.valueBytes} bytes (${attribute.slice(0, 64)}) is not sent`);
            return;
        }
        if (value === null ? !node.values.has(key) : node.values.get(key) === value) return;
        if (value !== null && !node.values.has(key) && node.values.size >= limits.valuesPerNode) {
            this.warnings.once("values", `a node with more than ${limits.valuesPerNode} values: the others are not sent`);
            return;
        }
        if (value === null) node.values.delete(key);
        else node.values.set(key, value);
        /** @type {Record<string, unknown>} */
        const properties = { "key-path": key };
        if (value !== null) properties.value = value;
        this.emit({ op: "record", node: node.id, event: "ana-updated", properties, time: Date.now() });
    }

    /**
     * @param {IntersectionObserverEntry[]} entries
     */
    intersected(entries) {
        if (this.ended) return;
        this.catchUp();
        for (const entry of entries) {
            const node = this.nodes.get(entry.target);
            if (!node) continue;
            node.inView = entry.isIntersecting && entry.intersectionRatio >= 0.5;
            this.updateVisibility(node);
        }
    }

    /**
     * Records ana-appeared / ana-disappeared when whether `node` is visible changed.
     * @param {Node} node
     */
    updateVisibility(node) {
        const visible = node.inView && !this.pageHidden;
        if (visible === node.visible) return;
        node.visible = visible;
        this.emit({ op: "record", node: node.id, event: visible ? "ana-appeared" : "ana-disappeared", time: Date.now() });
    }

    /**
     * @param {boolean} hidden
     */
    visibilityChanged(hidden) {
        if (this.ended) return;
        this.catchUp();
        this.pageHidden = hidden;
        this.updateAll();
        if (hidden) this.delivery.leave();
        else this.delivery.resume();
    }

    /** Updates every node's visibility: appearing parents first, disappearing children first. */
    updateAll() {
        const all = [this.root, ...this.nodes.values()];
        if (this.pageHidden) all.reverse();
        for (const node of all) this.updateVisibility(node);
    }

    /**
     * @param {boolean} persisted whether the page may come back (the back-forward cache)
     */
    pageHide(persisted) {
        if (this.ended) return;
        this.catchUp();
        this.pageHidden = true;
        this.updateAll();
        if (!persisted) this.finish();
    }

    /**
     * @param {boolean} persisted
     */
    pageShow(persisted) {
        if (!persisted || this.ended) return;
        this.pageHidden = document.visibilityState === "hidden";
        this.updateAll();
        this.delivery.resume();
    }

    /**
     * @param {Event} event
     */
    acted(event) {
        this.guard(() => {
            if (this.ended) return;
            this.catchUp();
            const node = this.innermost(event.composedPath());
            if (node === null) return;
            this.emit({ op: "record", node: node.id, event: event.type, time: Date.now() });
            if (event.type === "click") this.lastActed = node;
        });
    }

    /**
     * The innermost tracked node on an event's path.
     * @param {EventTarget[]} path
     * @returns {Node | null}
     */
    innermost(path) {
        for (const target of path) {
            if (target instanceof Element) {
                const node = this.nodes.get(target);
                if (node) return node;
            }
        }
        return null;
    }

    /**
     * record(): `event` on the innermost node containing `element` (the root when none does).
     * @param {Element | null | undefined} element
     * @param {string} event
     * @param {Record<string, unknown> | undefined} properties
     */
    record(element, event, properties) {
        if (this.ended) return false;
        this.catchUp();
        if (typeof event !== "string" || !validName(event)) {
            this.warnings.once("event", `record(): an event name is 1 to ${limits.nameBytes} bytes without "/"`);
            return false;
        }
        /** @type {Op} */
        const op = { op: "record", node: this.nodeOf(element).id, event, time: Date.now() };
        if (properties !== undefined && properties !== null) {
            if (typeof properties !== "object" || Array.isArray(properties)) {
                this.warnings.once("properties", "record(): properties are an object");
                return false;
            }
            let json;
            try {
                json = JSON.stringify(properties);
            } catch (error) {
                this.warnings.once("properties-json", `record(): properties that are not JSON (${String(error)})`);
                return false;
            }
            if (Object.keys(properties).length > limits.propertiesMembers || utf8Length(json) > limits.propertiesBytes) {
                this.warnings.once("properties-size", `record(): properties over ${limits.propertiesMembers} members or ${limits.propertiesBytes} bytes are not sent`);
                return false;
            }
            op.properties = JSON.parse(json);
        }
        this.emit(op);
        return true;
    }

    /**
     * @param {Element | null | undefined} element
     * @returns {Node}
     */
    nodeOf(element) {
        for (let each = element ?? null; each !== null; each = each.parentElement) {
            const node = this.nodes.get(each);
            if (node) return node;
        }
        return this.root;
    }

    /** Ends the session: what is visible disappears, then `end`; nothing is recorded after. */
    finish() {
        if (this.ended) return;
        this.catchUp();
        this.pageHidden = true;
        this.updateAll();
        this.emit({ op: "end", time: Date.now() });
        this.ended = true;
        this.mutations.disconnect();
        this.intersections.disconnect();
        for (const [target, type, listener] of this.listeners) target.removeEventListener(type, listener, { capture: true });
    }
}

/**
 * Starts recording this page load as one session. Throws a TypeError naming the option when an
 * option is wrong; after that nothing it does throws into the page.
 * @param {StartOptions} options
 * @returns {Focal}
 */
export function start(options) {
    if (options === null || typeof options !== "object") throw new TypeError("focal.start: options are an object: {endpoint, key}");
    const { endpoint, key } = options;
    if (typeof endpoint !== "string" || !/^https?:\/\/[^/?#]+\/?$/.test(endpoint)) {
        throw new TypeError(`focal.start: endpoint is the server's origin, http(s)://host[:port], not ${JSON.stringify(endpoint)}`);
    }
    if (key !== undefined && key !== null && (typeof key !== "string" || !/^[\x21-\x7e]{1,4096}$/.test(key))) {
        throw new TypeError("focal.start: key is 1 to 4096 visible ASCII characters");
    }
    const rootName = checked(options.rootName, "__root__", "rootName", (value) => typeof value === "string" && validName(value));
    const rootNamespace = checked(options.namespace, null, "namespace", (value) => typeof value === "string" && validNamespace(value));
    const maxNodes = checked(options.maxNodes, limits.nodes, "maxNodes", (value) => Number.isSafeInteger(value) && value >= 2 && value <= 1000000);
    const batchDelay = checked(options.batchDelay, limits.batchDelayMilliseconds, "batchDelay", (value) => Number.isFinite(value) && value >= 0 && value <= 60000);
    const keepaliveBytes = checked(options.keepaliveBytes, limits.keepaliveBytes, "keepaliveBytes",
        (value) => Number.isSafeInteger(value) && value >= 1024 && value <= limits.keepaliveBrowserBytes);
    const report = options.report ?? ((message) => console.warn("focal: " + message));
    let storage = null;
    try {
        storage = globalThis.localStorage ?? null;
    } catch {
        storage = null; // storage disabled: what is unsent at leaving is not kept
    }
    const common = {
        endpoint, key: key ?? null, fetch: globalThis.fetch.bind(globalThis), setTimeout: globalThis.setTimeout.bind(globalThis),
        clearTimeout: (/** @type {unknown} */ handle) => globalThis.clearTimeout(/** @type {number} */ (handle)), storage, report, batchDelay, keepaliveBytes,
    };
    const earlier = Delivery.resumeTails(common);
    for (const delivery of earlier) delivery.flush();
    const session = newSessionID();
    const delivery = new Delivery({ ...common, session });
    const tracker = new Tracker(delivery, { rootName, rootNamespace, maxNodes, report });
    // After the tracker's own pagehide listener (registered first), which records the last lines.
    window.addEventListener("pagehide", () => {
        for (const each of [delivery, ...earlier]) each.leave();
    }, { capture: true });
    return Object.freeze({
        session,
        record: (/** @type {Element | null | undefined} */ element, /** @type {string} */ event, /** @type {Record<string, unknown> | undefined} */ properties) => {
            try {
                return tracker.record(element, event, properties);
            } catch (error) {
                tracker.warnings.once("internal", `internal error, please report it: ${String(error)}`);
                return false;
            }
        },
        flush: () => delivery.flush(),
        end: () => {
            tracker.guard(() => tracker.finish());
            return delivery.flush();
        },
    });
}

/**
 * `value` when `valid` says so, `fallback` when undefined; else a TypeError naming `option`.
 * @template T
 * @param {T | undefined} value
 * @param {T} fallback
 * @param {string} option
 * @param {(value: T) => boolean} valid
 * @returns {T}
 */
function checked(value, fallback, option, valid) {
    if (value === undefined) return fallback;
    if (!valid(value)) throw new TypeError(`focal.start: ${option} ${JSON.stringify(value)} is out of its range (see the reference)`);
    return value;
}
