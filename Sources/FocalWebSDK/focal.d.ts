// Types of focal.js, Focal's web SDK. The reference is the FocalServer article "Web pages as producers"
// (WebSDK.md); the contract is web.md. `./Scripts/test` checks focal.js against this file with tsc.

/** What `start` takes. */
export interface StartOptions {
    /** The server's origin, `http(s)://host[:port]`: lines go to `/v1/sessions/{id}/ops`. */
    endpoint: string;
    /** The bearer key (a publishable ingest key), or none for a server without keys. */
    key?: string | null;
    /** The root node's namespace (which task files it loads); none by default. */
    namespace?: string;
    /** The root node's name: `__root__` by default, as the iOS original's. */
    rootName?: string;
    /** The most live nodes, the root's included: 10,000 by default (2–1,000,000). */
    maxNodes?: number;
    /** Milliseconds a line waits for others to share its request: 1,000 by default (0–60,000). */
    batchDelay?: number;
    /** Bytes of keepalive bodies the SDK may have in flight when the user leaves: 49,152 by default (1,024–65,536). */
    keepaliveBytes?: number;
    /** Told every problem as one sentence: `console.warn` by default. */
    report?: (message: string) => void;
}

/** A started session: what `start` returns. */
export interface Focal {
    /** The session id this page load sends under (22 random URL-safe characters). */
    readonly session: string;
    /**
     * Records `event` with `properties` on the innermost node containing `element` (the root when
     * none does, or for `null`). Returns false, and reports once, when the event or properties are
     * refused (a bad name, not JSON, over a limit) or the session has ended.
     */
    record(element: Element | null | undefined, event: string, properties?: Record<string, unknown>): boolean;
    /** Sends what is queued now; resolves true once it is all acknowledged (or refused), false if delivery stopped. */
    flush(): Promise<boolean>;
    /** Ends the session (what is visible disappears, then `end`) and flushes; nothing is recorded after. */
    end(): Promise<boolean>;
}

/** Starts recording this page load as one session; throws a TypeError naming a wrong option. */
export function start(options: StartOptions): Focal;

/** One op of the op log, as an object. */
export interface Op {
    op: string;
    [member: string]: unknown;
}

/** One keepalive request of `keepalivePieces`: its first line's position, its line count, body and body bytes. */
export interface KeepalivePiece {
    position: number;
    lines: number;
    body: string;
    bytes: number;
}

/** The part of a fetch answer the delivery reads. */
export interface FetchAnswer {
    status: number;
    headers: { get(name: string): string | null };
    text(): Promise<string>;
}

/** `fetch`, or a fake of it. */
export type FetchLike = (url: string, init: RequestInit) => Promise<FetchAnswer>;

/** The part of `localStorage` the delivery uses. */
export type TailStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** What a `Delivery` takes. */
export interface DeliveryOptions {
    endpoint: string;
    key?: string | null;
    /** The app's session id (the storage key); `wire` is the id the server knows it by (the same by default). */
    session: string;
    wire?: string;
    /** Lines the server already holds (the first queued line's position): 0 by default. */
    position?: number;
    /** Lines queued at once (a tail read back from storage). */
    lines?: string[];
    /** Whether a session the server lost goes on under `ID~N` (true), or its lines are dropped (false). */
    continues?: boolean;
    fetch: FetchLike;
    setTimeout: (callback: () => void, milliseconds: number) => unknown;
    clearTimeout: (handle: unknown) => void;
    /** In [0, 1): `Math.random` by default. */
    random?: () => number;
    /** Milliseconds since the epoch: `Date.now` by default. */
    now?: () => number;
    storage?: TailStorage | null;
    report?: (message: string) => void;
    batchLines?: number;
    batchBytes?: number;
    batchDelay?: number;
    keepaliveBytes?: number;
    queueBytes?: number;
}

/** Counts of what a delivery did. */
export interface DeliveryFigures {
    queued: number;
    sent: number;
    refused: number;
    retried: number;
    continued: number;
    dropped: number;
}

/** Sends one session's lines to `focal serve`: in order, `?position=N`, one request in flight, batched, retried. */
export class Delivery {
    constructor(options: DeliveryOptions);
    readonly session: string;
    /** The id the server knows the session by now (`ID~N` after a continuation). */
    readonly wire: string;
    /** Lines of the wire session the server holds. */
    readonly acked: number;
    /** Why delivery stopped for good, or null. */
    readonly stopped: string | null;
    /** The lines per request now (halved by a 413). */
    readonly maxLines: number;
    readonly figures: DeliveryFigures;
    /** Queues `op`; false when delivery stopped or the queue is full. */
    enqueue(op: Op): boolean;
    flush(): Promise<boolean>;
    /** The user leaves: keepalive pieces within the budget, and the unacknowledged lines kept in storage. */
    leave(): KeepalivePiece[];
    /** The page shows again: storage forgets the lines, the page sends them itself. */
    resume(): void;
    /** Deliveries of the tails earlier page loads kept in storage for this endpoint. */
    static resumeTails(options: Omit<DeliveryOptions, "session">): Delivery[];
}

/** Cuts lines into keepalive pieces: each at most `maxLines` lines, an `end` alone, together at most `budget` bytes. */
export function keepalivePieces(
    entries: { text: string; bytes: number; end: boolean }[], position: number, limit: { budget: number; maxLines: number },
): KeepalivePiece[];

/** Milliseconds to wait after the `failures`-th failure in a row, honouring a `Retry-After` header. */
export function retryDelay(failures: number, retryAfter: string | null, random: () => number): number;

/** The UTF-8 length of `text`. */
export function utf8Length(text: string): number;

/** A new session id: 22 random URL-safe characters. */
export function newSessionID(): string;

/** Every size the SDK bounds (the reference says what happens past each). */
export const limits: Readonly<{
    nameBytes: number;
    keyBytes: number;
    valueBytes: number;
    valuesPerNode: number;
    propertiesBytes: number;
    propertiesMembers: number;
    nodes: number;
    depth: number;
    queueBytes: number;
    batchLines: number;
    batchBytes: number;
    keepaliveBrowserBytes: number;
    keepaliveBytes: number;
    tailBytes: number;
    tails: number;
    tailAgeMilliseconds: number;
    requestTimeoutMilliseconds: number;
    retryAfterSeconds: number;
    retryAfterJitterMilliseconds: number;
    backoffBaseMilliseconds: number;
    backoffCapMilliseconds: number;
    batchDelayMilliseconds: number;
}>;
