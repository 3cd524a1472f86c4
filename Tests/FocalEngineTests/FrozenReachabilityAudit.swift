/// The reachability audit of the isolation suite (issue 53), as task code: `audit(node)` walks, independently of
/// the lockdown, what a task can reach that another session's task reaches too, and lists what is not frozen.
enum FrozenReachabilityAudit {
    static let source = #"""
        // Everything a task reaches that another session's task reaches too must be frozen. Shared is what the global
        // object reaches (its properties and prototypes, to the end), and what two separate makings of a value both reach:
        // every built-in of every shared object is called, on that object and on instances of it, and constructed, with a
        // few argument lists, each time twice with the receiver and arguments made afresh, to a fixpoint. Returns how many
        // shared objects were found and the paths of those not frozen.
        function audit(node) {
          const getPrototypeOf = Object.getPrototypeOf, ownKeys = Reflect.ownKeys, getDescriptor = Object.getOwnPropertyDescriptor;
          const isFrozen = Object.isFrozen, apply = Reflect.apply, construct = Reflect.construct, sourceText = Function.prototype.toString;
          const isObject = value => (typeof value === 'object' || typeof value === 'function') && value !== null;
          const isBuiltIn = value => typeof value === 'function' && apply(sourceText, value, []).endsWith('[native code]\n}');
          const nameOf = key => (typeof key === 'symbol' ? '[' + String(key.description) + ']' : String(key));
          // Argument lists, made afresh for every call.
          const argumentLists = [
            () => [], () => [function () {}], () => ['a'], () => [0], () => [{ next: () => ({ done: true, value: undefined }) }],
            () => [[1], {}], () => [function () {}, function () {}], () => ['a', 'a'],
          ];
          const shared = new Map(), queue = [], visited = new Set();
          function share(value, path) {
            if (isObject(value) && !shared.has(value)) { shared.set(value, path); queue.push(value); }
          }
          // What a made value leads to (its own properties three levels deep, every prototype on the way): each found
          // object with its path and the steps that lead to it from the value.
          function reach(value, path) {
            const found = new Map();
            (function walk(value, path, steps, depth) {
              if (!isObject(value) || found.has(value)) return;
              found.set(value, { path, steps });
              if (shared.has(value)) return;
              walk(getPrototypeOf(value), 'Object.getPrototypeOf(' + path + ')', steps.concat([null]), depth);
              if (depth === 0) return;
              for (const key of ownKeys(value)) {
                const descriptor = getDescriptor(value, key);
                if (descriptor === undefined) continue;
                if ('value' in descriptor) walk(descriptor.value, path + '.' + nameOf(key), steps.concat([[key, 'value']]), depth - 1);
                else for (const part of ['get', 'set']) walk(descriptor[part], path + '.' + part + ' ' + nameOf(key), steps.concat([[key, part]]), depth - 1);
              }
            })(value, path, [], 3);
            return found;
          }
          function follow(value, steps) {
            for (const step of steps) value = step === null ? getPrototypeOf(value) : getDescriptor(value, step[0])[step[1]];
            return value;
          }
          // Makes a value twice, independently (`make` makes its receiver and arguments afresh too): what both makings
          // reach is shared; what only the first reaches is an instance of its prototypes, with a way to make another.
          const instances = new Map();
          let makings = 0;
          function makeTwice(make, path) {
            let first, second;
            makings += 2;
            try { first = make(); second = make(); } catch (e) { return; }
            const secondReached = reach(second, path);
            for (const [value, { path: where, steps }] of reach(first, path)) {
              if (secondReached.has(value)) { share(value, where); continue; }
              const makeAgain = () => follow(make(), steps);
              for (let prototype = getPrototypeOf(value); prototype !== null; prototype = getPrototypeOf(prototype)) {
                let list = instances.get(prototype);
                if (list === undefined) instances.set(prototype, (list = []));
                if (list.length === 2) continue;
                list.push(makeAgain);
                if (visited.has(prototype)) callAll(prototype, makeAgain, shared.get(prototype) + ' on ' + where);
              }
            }
          }
          // Calls every built-in of `owner` (its methods, getters and setters) on what `makeReceiver` makes.
          function callAll(owner, makeReceiver, path) {
            for (const key of ownKeys(owner)) {
              const descriptor = getDescriptor(owner, key);
              for (const builtIn of 'value' in descriptor ? [descriptor.value] : [descriptor.get, descriptor.set]) {
                if (!isBuiltIn(builtIn)) continue;
                for (const makeArguments of argumentLists) {
                  makeTwice(() => apply(builtIn, makeReceiver(), makeArguments()), path + '.' + nameOf(key) + '(…)');
                }
              }
            }
          }
          function expand(owner) {
            const path = shared.get(owner);
            share(getPrototypeOf(owner), 'Object.getPrototypeOf(' + path + ')');
            for (const key of ownKeys(owner)) {
              const descriptor = getDescriptor(owner, key);
              if ('value' in descriptor) share(descriptor.value, path + '.' + nameOf(key));
              else for (const part of ['get', 'set']) share(descriptor[part], path + '.' + part + ' ' + nameOf(key));
            }
          }
          // What the global object reaches first, so that paths name the shortest way there.
          share(globalThis, 'globalThis');
          for (let index = 0; index < queue.length; index++) expand(queue[index]);
          makeTwice(() => function* () {}, 'function* () {}');
          makeTwice(() => function* () {}(), '(function* () {})()');
          makeTwice(() => async function () {}, 'async function () {}');
          makeTwice(() => async () => {}, 'async () => {}');
          makeTwice(() => async function* () {}, 'async function* () {}');
          makeTwice(() => async function* () {}(), '(async function* () {})()');
          makeTwice(() => function () { return arguments; }(), 'arguments');
          makeTwice(() => Function('return arguments')(), 'sloppy arguments');
          makeTwice(() => class {}, 'class {}');
          makeTwice(() => /a/g, '/a/g');
          // A node and its event belong to one dispatch of one session; what they inherit from is every session's.
          share(getPrototypeOf(node), 'Object.getPrototypeOf(node)');
          share(getPrototypeOf(node.latestEvent()), 'Object.getPrototypeOf(node.latestEvent())');
          share(getPrototypeOf(node.latestEvent().properties), 'Object.getPrototypeOf(node.latestEvent().properties)');
          for (let head = 0; head < queue.length; head++) {
            const owner = queue[head], path = shared.get(owner);
            expand(owner);
            visited.add(owner);
            if (isBuiltIn(owner)) {
              for (const makeArguments of argumentLists) {
                makeTwice(() => apply(owner, undefined, makeArguments()), path + '(…)');
                makeTwice(() => construct(owner, makeArguments()), 'new ' + path + '(…)');
              }
            }
            callAll(owner, () => owner, path);
            for (const makeInstance of instances.get(owner) ?? []) callAll(owner, makeInstance, path + ' on an instance');
          }
          const notFrozen = [];
          for (const [value, path] of shared) if (!isFrozen(value)) notFrozen.push(path);
          return { shared: shared.size, makings, notFrozen };
        }
        """#
}
