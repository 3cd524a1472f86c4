import CJavaScriptCore

/// Keeps every regular-expression match of task code within the time limit.
///
/// JavaScriptCore does not check the time limit inside a match, so a catastrophic pattern
/// would run for minutes. Before any task runs, the runtime replaces the methods of
/// `RegExp.prototype` that match (`exec`, `test`, `@@match`, `@@matchAll`, `@@replace`,
/// `@@search`, `@@split`) with wrappers that first weigh the match with ``RegExpCost`` and
/// throw a `RangeError` named `RegExpLimitError` when it could take longer than the time
/// limit allows; the string methods (`match`, `replace`, `split`…) reach them through the
/// regular expression. The wrappers cannot be replaced or bypassed by task code:
///
/// - they are non-writable, non-configurable properties, as are `RegExp.prototype.constructor`
///   and `RegExp[Symbol.species]`, so the species a built-in method constructs is `RegExp`;
/// - the pattern and flags are read through the original internal getters (an instance can
///   define an own `source` that lies), and the subject is converted to a string once,
///   before it is weighed (a `toString` cannot hand the matcher another string);
/// - `@@split` and `@@matchAll`, which build a new regular expression, run on a fresh copy
///   made from the weighed pattern, so no object a task prepared (say, one whose own `exec`
///   is `undefined`, which makes the built-in algorithms match directly) reaches the matcher;
/// - `compile` forgets what was weighed for the object it changes.
///
/// The analysis of a pattern is cached per object and per pattern text, so a regular
/// expression used on every event costs a lookup and one multiplication per match.
extension JSRuntime {
    /// Steps of the cost model that JavaScriptCore does in a millisecond, at the least.
    ///
    /// Measured with JavaScriptCore 2.50 on the project's machine (BENCHMARKS.md, "Regular
    /// expressions under the time limit"): a step of a repeated group (`/(\d+\.)+x/`) takes
    /// about 6.5 ns, of a back-reference (`/(\w)\1*x/`) 5 ns, of a character loop
    /// (`/\d+x/`) 0.65 ns. 150,000 steps per millisecond keeps the costliest kind measured
    /// within the time limit, so a match that starts never overruns it by more than the
    /// limit itself.
    public static let regExpStepsPerMillisecond: Double = 150_000

    /// Installs the guard; returns the function that sets its budget in model steps.
    func installRegExpGuard() throws(ScriptError) -> ProtectedValue {
        let analyze = makeFunction(name: "analyze") { [unowned self] _, arguments throws(ScriptError) in
            guard arguments.count == 2, let source = string(arguments[0]), let flags = string(arguments[1]) else {
                throw ScriptError(name: "TypeError", message: "analyze(source, flags) takes two strings")
            }
            let cost = RegExpCost(source: source, flags: flags)
            if let refusal = cost.refusal { return makeString(refusal) }
            return makeValue(.array([.number(Double(cost.degree)), .number(cost.ambiguity)]))
        }
        guard let installer = object(try evaluate(Self.regExpGuardSource, sourceURL: "<focal regexp guard>")),
            let setBudget = object(try call(installer, arguments: [analyze]))
        else {
            throw ScriptError(name: "TypeError", message: "the regular-expression guard did not install")
        }
        return protect(setBudget)
    }

    /// The guard's budget for one match under `timeLimit`, in model steps.
    static func regExpBudget(for timeLimit: Duration) -> Double {
        let milliseconds = Double(timeLimit.components.seconds) * 1000 + Double(timeLimit.components.attoseconds) / 1e15
        return max(milliseconds, 1) * regExpStepsPerMillisecond
    }

    private static let regExpGuardSource = """
        (function (analyze) {
          'use strict';
          const RegExpCtor = RegExp, proto = RegExp.prototype, apply = Reflect.apply, pow = Math.pow;
          const getDescriptor = Object.getOwnPropertyDescriptor, define = Object.defineProperty;
          const RangeErrorCtor = RangeError, TypeErrorCtor = TypeError;
          const weakGet = WeakMap.prototype.get, weakSet = WeakMap.prototype.set, weakDelete = WeakMap.prototype.delete;
          const mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapClear = Map.prototype.clear;
          const mapSize = getDescriptor(Map.prototype, 'size').get;
          const sourceOf = getDescriptor(proto, 'source').get;
          const flagNames = ['hasIndices', 'global', 'ignoreCase', 'multiline', 'dotAll', 'unicode', 'unicodeSets', 'sticky'];
          const flagLetters = ['d', 'g', 'i', 'm', 's', 'u', 'v', 'y'];
          const flagGetters = [];
          for (let i = 0; i < flagNames.length; i++) {
            const descriptor = getDescriptor(proto, flagNames[i]);
            flagGetters[i] = descriptor === undefined ? undefined : descriptor.get;
          }
          const original = {
            exec: proto.exec, test: proto.test, compile: proto.compile,
            match: proto[Symbol.match], matchAll: proto[Symbol.matchAll], replace: proto[Symbol.replace],
            search: proto[Symbol.search], split: proto[Symbol.split],
          };
          const byObject = new WeakMap(), byText = new Map();
          let budget = Infinity;

          const split = String.prototype.split, lastIndexOf = String.prototype.lastIndexOf;
          const slice = String.prototype.slice, startsWith = String.prototype.startsWith;
          const NumberCtor = Number;
          // The error names the script's line that asked for the match, not the guard's.
          function fail(message) {
            const error = new RangeErrorCtor(message);
            define(error, 'name', { __proto__: null, value: 'RegExpLimitError', writable: true, configurable: true });
            const frames = apply(split, `${error.stack}`, ['\\n']);
            for (let i = 0; i < frames.length; i++) {
              const at = apply(lastIndexOf, frames[i], ['@']);
              const place = at < 0 ? frames[i] : apply(slice, frames[i], [at + 1]);
              if (apply(startsWith, place, ['<focal regexp guard>']) || place === '[native code]') continue;
              const columnAt = apply(lastIndexOf, place, [':']), lineAt = apply(lastIndexOf, place, [':', columnAt - 1]);
              if (lineAt <= 0) break;
              const value = (v) => ({ __proto__: null, value: v, writable: true, configurable: true });
              define(error, 'sourceURL', value(apply(slice, place, [0, lineAt])));
              define(error, 'line', value(NumberCtor(apply(slice, place, [lineAt + 1, columnAt]))));
              define(error, 'column', value(NumberCtor(apply(slice, place, [columnAt + 1]))));
              break;
            }
            throw error;
          }
          function isRegExp(r) {
            if (r === null || (typeof r !== 'object' && typeof r !== 'function')) return false;
            if (apply(weakGet, byObject, [r]) !== undefined) return true;
            try { apply(sourceOf, r, []); return r !== proto; } catch (e) { return false; }
          }
          // What is known of r's pattern, read through the original getters (TypeError for a non-RegExp).
          function infoOf(r) {
            let info = apply(weakGet, byObject, [r]);
            if (info !== undefined) return info;
            const source = apply(sourceOf, r, []);
            let flags = '';
            for (let i = 0; i < flagGetters.length; i++) {
              if (flagGetters[i] !== undefined && apply(flagGetters[i], r, [])) flags += flagLetters[i];
            }
            const key = flags + '/' + source;
            info = apply(mapGet, byText, [key]);
            if (info === undefined) {
              const cost = analyze(source, flags);
              info = typeof cost === 'string'
                ? { __proto__: null, source: source, flags: flags, refusal: cost, degree: 0, ambiguity: 1 }
                : { __proto__: null, source: source, flags: flags, refusal: undefined, degree: cost[0], ambiguity: cost[1] };
              if (apply(mapSize, byText, []) >= 4096) apply(mapClear, byText, []);
              apply(mapSet, byText, [key, info]);
            }
            apply(weakSet, byObject, [r, info]);
            return info;
          }
          // Throws unless matching r against the string s fits the budget.
          function weigh(r, s) {
            const info = infoOf(r);
            if (info.refusal !== undefined) fail(`/${info.source}/${info.flags} is not run: ${info.refusal}`);
            const steps = info.ambiguity * pow(s.length + 1, info.degree);
            if (steps > budget) {
              fail(`/${info.source}/${info.flags} could take ${steps} steps on a subject of ${s.length} characters, ` +
                `more than the time limit allows (${budget}); anchor it, shorten the subject or use fewer quantifiers ` +
                `over the same characters`);
            }
          }
          // A fresh RegExp with r's real pattern, flags and lastIndex, for the methods that construct their own.
          function copyOf(r) {
            if (!isRegExp(r)) throw new TypeErrorCtor('the receiver must be a RegExp');
            const info = infoOf(r);
            const copy = new RegExpCtor(info.source, info.flags);
            copy.lastIndex = r.lastIndex;
            return copy;
          }
          const wrappers = {
            exec(string) { const s = `${string}`; weigh(this, s); return apply(original.exec, this, [s]); },
            test(string) { const s = `${string}`; weigh(this, s); return apply(original.test, this, [s]); },
            compile(pattern, flags) {
              apply(weakDelete, byObject, [this]);
              const result = apply(original.compile, this, [pattern, flags]);
              apply(weakDelete, byObject, [this]);
              return result;
            },
            [Symbol.match](string) {
              const s = `${string}`;
              if (isRegExp(this)) weigh(this, s);
              return apply(original.match, this, [s]);
            },
            [Symbol.replace](string, replaceValue) {
              const s = `${string}`;
              if (isRegExp(this)) weigh(this, s);
              return apply(original.replace, this, [s, replaceValue]);
            },
            [Symbol.search](string) {
              const s = `${string}`;
              if (isRegExp(this)) weigh(this, s);
              return apply(original.search, this, [s]);
            },
            [Symbol.split](string, limit) {
              const s = `${string}`, copy = copyOf(this);
              weigh(copy, s);
              return apply(original.split, copy, [s, limit]);
            },
            [Symbol.matchAll](string) {
              const s = `${string}`, copy = copyOf(this);
              weigh(copy, s);
              return apply(original.matchAll, copy, [s]);
            },
          };
          const keys = ['exec', 'test', 'compile', Symbol.match, Symbol.replace, Symbol.search, Symbol.split, Symbol.matchAll];
          for (let i = 0; i < keys.length; i++) {
            if (original[typeof keys[i] === 'string' ? keys[i] : keys[i].description.slice(7)] === undefined) continue;
            define(proto, keys[i], { __proto__: null, value: wrappers[keys[i]], writable: false, enumerable: false, configurable: false });
          }
          define(proto, 'constructor', { __proto__: null, value: RegExpCtor, writable: false, enumerable: false, configurable: false });
          const species = getDescriptor(RegExpCtor, Symbol.species);
          define(RegExpCtor, Symbol.species, { __proto__: null, get: species.get, enumerable: false, configurable: false });
          return function setBudget(steps) { budget = steps; };
        })
        """
}
