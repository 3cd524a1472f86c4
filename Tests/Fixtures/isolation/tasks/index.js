const counter = require('./lib/counter');
const shared = require('./lib/shared');
const attempt = require('./lib/attempt');

// The task file's own top level: one per session.
let probes = 0;

match('/probe', node => {
  const name = node.nodeName;
  probes += 1;
  shared.visits += 1;
  shared.names.push(name);
  return {
    session: name,
    probes,
    counter: counter.next(),
    exports: [shared.visits, shared.names.join(',')],
    undeclared: attempt(() => { leaked = (typeof leaked === 'string' ? leaked + ',' : '') + name; return leaked; }),
    globalThis: attempt(() => { globalThis.leakedGlobal = name; return globalThis.leakedGlobal; }),
    arrayPrototype: attempt(() => { Array.prototype.leaked = name; return [].leaked; }),
    objectPrototype: attempt(() => { Object.prototype.leaked = name; return ({}).leaked; }),
    functionPrototype: attempt(() => { Function.prototype.leaked = name; return (() => 0).leaked; }),
    functionCall: attempt(() => { Function.prototype.call = () => name; return Math.max.call(null, 1, 2); }),
    jsonStringify: attempt(() => { JSON.stringify = () => name; return JSON.stringify(1); }),
    sloppyGlobal: attempt(() => { Function('leakedSloppy = "' + name + '"')(); return typeof leakedSloppy; }),
    protoSetter: attempt(() => { ({}).__proto__.leakedProto = name; return ({}).leakedProto; }),
    regExpStatics: attempt(() => { /(\w+)/.exec(name); return typeof RegExp.$1; }),
  };
});

// Whatever any session may have left behind, as the session that looks sees it.
match('/look', node => ({
  session: node.nodeName,
  probes,
  exports: [shared.visits, shared.names.join(',')],
  undeclared: typeof leaked,
  globalThis: typeof globalThis.leakedGlobal,
  arrayPrototype: typeof [].leaked,
  objectPrototype: typeof ({}).leaked,
  functionPrototype: typeof (() => 0).leaked,
  sloppyGlobal: typeof leakedSloppy,
  regExpStatics: typeof RegExp.lastMatch,
}));
