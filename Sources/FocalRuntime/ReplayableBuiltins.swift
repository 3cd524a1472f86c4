/// `Date` and `Math.random` as the host sets them, so that the same op log gives the same results.
///
/// The built-ins read the machine's clock and a random seed of the process: a task that used them would give other
/// results at every replay. Once installed (before ``JSRuntime/lockDown(alsoFreezing:)``), `Date.now()`, `new Date()`
/// and `Date()` give ``time``, which the host sets before it calls into JavaScript (the time of the op being applied),
/// and `Math.random()` draws from ``randomState`` (xoshiro128**, 53 bits a draw), which the host keeps for each of its
/// sessions (``RandomState/init(seed:)``) and hands over around each call. `new Date(value)`, `Date.parse` and
/// `Date.UTC` are the built-ins'; `instanceof Date` and subclasses work as before (one prototype).
///
/// Both read memory the host writes (``SharedNumbers``): setting the time or the state is a store, not a call into
/// JavaScriptCore. Confined, like its runtime, to the thread that runs it.
package struct ReplayableBuiltins {
    /// `[0]` the time in milliseconds since the Unix epoch, `[1...4]` the random state's words.
    private let numbers: SharedNumbers

    /// Replaces `Date` and `Math.random` of `runtime`'s global object; call it before the lockdown.
    package init(in runtime: JSRuntime) throws(ScriptError) {
        numbers = try SharedNumbers(count: 5, in: runtime)
        guard let install = runtime.object(try runtime.evaluate(Self.source, sourceURL: "<focal>")) else {
            throw ScriptError(name: "Error", message: "could not make Date and Math.random replayable")
        }
        _ = try runtime.call(install, arguments: [numbers.array.value])
    }

    /// What `Date.now()` and `new Date()` give, in milliseconds since the Unix epoch.
    package var time: Int64 {
        get { Int64(numbers[0]) }
        nonmutating set { numbers[0] = Double(newValue) }
    }

    /// The state `Math.random()` draws from next.
    package var randomState: RandomState {
        get { RandomState(words: (UInt32(numbers[1]), UInt32(numbers[2]), UInt32(numbers[3]), UInt32(numbers[4]))) }
        nonmutating set {
            (numbers[1], numbers[2], numbers[3], numbers[4]) = (
                Double(newValue.words.0), Double(newValue.words.1), Double(newValue.words.2), Double(newValue.words.3)
            )
        }
    }

    private static let source = """
        (function (numbers) {
          'use strict';
          const OriginalDate = Date, construct = Reflect.construct, define = Object.defineProperty, imul = Math.imul;
          function now() { return numbers[0]; }
          // An expression: a declaration named Date would be the `Date` of this whole function, OriginalDate included.
          const ReplayableDate = function Date(...values) {
            if (new.target === undefined) return new OriginalDate(numbers[0]).toString();
            return construct(OriginalDate, values.length === 0 ? [numbers[0]] : values, new.target);
          };
          define(ReplayableDate, 'length', { value: 7 });
          define(ReplayableDate, 'prototype', { value: OriginalDate.prototype, writable: false });
          define(OriginalDate.prototype, 'constructor', { value: ReplayableDate });
          for (const name of ['parse', 'UTC']) {
            define(ReplayableDate, name, { value: OriginalDate[name], writable: true, configurable: true });
          }
          define(ReplayableDate, 'now', { value: now, writable: true, configurable: true });
          define(globalThis, 'Date', { value: ReplayableDate, writable: true, configurable: true });
          function rotate(x, k) { return (x << k) | (x >>> (32 - k)); }
          // xoshiro128** (Blackman and Vigna): 32 bits a step.
          function next() {
            const s0 = numbers[1] >>> 0, s1 = numbers[2] >>> 0, s2 = numbers[3] >>> 0, s3 = numbers[4] >>> 0;
            const result = imul(rotate(imul(s1, 5), 7), 9) >>> 0;
            const t = s1 << 9;
            const u2 = s2 ^ s0, u3 = s3 ^ s1;
            numbers[1] = (s0 ^ u3) >>> 0;
            numbers[2] = (s1 ^ u2) >>> 0;
            numbers[3] = (u2 ^ t) >>> 0;
            numbers[4] = rotate(u3, 11) >>> 0;
            return result;
          }
          function random() { return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992; }
          define(Math, 'random', { value: random, writable: true, configurable: true });
        })
        """
}

/// Where `Math.random()` of one session is in its sequence: four words of xoshiro128**.
package struct RandomState: Sendable {
    package var words: (UInt32, UInt32, UInt32, UInt32)

    init(words: (UInt32, UInt32, UInt32, UInt32)) { self.words = words }

    /// The start of the sequence of `seed` (a session's id; the default session's is `nil`, as `""`): the words are
    /// SplitMix64 from the FNV-1a hash of its UTF-8, the same on every machine and in every process.
    package init(seed: String?) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (seed ?? "").utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        func splitMix() -> UInt64 {
            hash &+= 0x9e37_79b9_7f4a_7c15
            var z = hash
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        let (a, b) = (splitMix(), splitMix())
        words = (
            UInt32(truncatingIfNeeded: a), UInt32(truncatingIfNeeded: a >> 32), UInt32(truncatingIfNeeded: b),
            UInt32(truncatingIfNeeded: b >> 32)
        )
    }
}
