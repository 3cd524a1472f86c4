// In-process fakes for the delivery's logic tests: a clock whose timers run only when a test
// advances it, a fetch whose requests a test answers one by one, and a Map-backed Storage.

/** Lets every pending promise callback run (the delivery's answer handling takes several turns). */
export function settle() {
    return new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock {
    constructor() {
        this.time = 0;
        this.nextID = 1;
        /** @type {Map<number, {at: number, callback: () => void}>} */
        this.timers = new Map();
        this.setTimeout = (callback, milliseconds) => {
            const id = this.nextID++;
            this.timers.set(id, { at: this.time + milliseconds, callback });
            return id;
        };
        this.clearTimeout = (id) => {
            this.timers.delete(id);
        };
    }

    /** Moves time on by `milliseconds`, running each timer due, in order, and what it started. */
    async advance(milliseconds) {
        const end = this.time + milliseconds;
        for (;;) {
            let due = null;
            for (const [id, timer] of this.timers) if (timer.at <= end && (due === null || timer.at < due[1].at)) due = [id, timer];
            if (due === null) break;
            this.timers.delete(due[0]);
            this.time = due[1].at;
            due[1].callback();
            await settle();
        }
        this.time = end;
        await settle();
    }
}

/** A fetch whose requests wait until the test answers them. */
export class FakeFetch {
    constructor() {
        /** @type {{url: string, init: RequestInit, position: number, session: string, lines: object[], answer: (status: number, body?: object | string, headers?: Record<string, string>) => Promise<void>, fail: (error: Error) => Promise<void>}[]} */
        this.requests = [];
        this.fetch = (url, init) => new Promise((resolve, reject) => {
            const parsed = new URL(url);
            const request = {
                url,
                init,
                position: Number(parsed.searchParams.get("position")),
                session: decodeURIComponent(parsed.pathname.split("/")[3]),
                lines: String(init.body).split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line)),
                answered: false,
                answer: async (status, body = {}, headers = {}) => {
                    request.answered = true;
                    const text = typeof body === "string" ? body : JSON.stringify(body);
                    resolve({ status, headers: { get: (name) => headers[name] ?? null }, text: async () => text });
                    await settle();
                },
                fail: async (error) => {
                    request.answered = true;
                    reject(error);
                    await settle();
                },
            };
            init.signal?.addEventListener("abort", () => reject(new Error("aborted")));
            this.requests.push(request);
        });
    }

    /** The requests not answered yet. */
    get open() {
        return this.requests.filter((request) => !request.answered);
    }

    /** The only open request (fails the test when there is not exactly one). */
    get one() {
        const open = this.open;
        if (open.length !== 1) throw new Error(`expected one request in flight, found ${open.length}`);
        return open[0];
    }
}

/** The answer to a batch: `applied` lines applied, `skipped` skipped. */
export function applied(applied, skipped = 0, errors = []) {
    return { applied, skipped, errors, results: [] };
}

export class MemoryStorage {
    constructor() {
        /** @type {Map<string, string>} */
        this.map = new Map();
    }

    get length() {
        return this.map.size;
    }

    key(index) {
        return [...this.map.keys()][index] ?? null;
    }

    getItem(key) {
        return this.map.get(key) ?? null;
    }

    setItem(key, value) {
        this.map.set(key, String(value));
    }

    removeItem(key) {
        this.map.delete(key);
    }
}
