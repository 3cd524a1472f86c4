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
    // The prototypes every node and event object of every session inherits from.
    nodeDefineProperty: attempt(() => { Object.defineProperty(Object.getPrototypeOf(node), 'ancestor', { value: () => name }); return node.ancestor(); }),
    nodeReflectDefine: attempt(() => Reflect.defineProperty(Object.getPrototypeOf(node), 'latestEvent', { value: () => name })),
    nodeDelete: attempt(() => delete Object.getPrototypeOf(node).isVisible),
    nodeMethodProperty: attempt(() => { Object.getPrototypeOf(node).ancestor.leaked = name; return node.ancestor.leaked; }),
    nodePrototypeSwap: attempt(() => { Object.getPrototypeOf(node).__proto__ = { leaked: name }; return node.leaked; }),
    nodeSetPrototypeOf: attempt(() => { Object.setPrototypeOf(Object.getPrototypeOf(node), { leaked: name }); return node.leaked; }),
    nodeMethodDescriptor: attempt(() => { const d = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(node), 'ancestor'); return [d.writable, d.configurable]; }),
    eventDefineProperty: attempt(() => { Object.defineProperty(Object.getPrototypeOf(node.latestEvent()), 'name', { get: () => name }); return node.latestEvent().name; }),
    eventReflectDefine: attempt(() => Reflect.defineProperty(Object.getPrototypeOf(node.latestEvent()), 'leaked', { value: name })),
    eventPrototypeSwap: attempt(() => { Object.getPrototypeOf(node.latestEvent()).__proto__ = { leaked: name }; return node.latestEvent().leaked; }),
    // A node's or an event's own prototype may change: the object is this dispatch's alone.
    ownEventSwap: attempt(() => { const event = node.latestEvent(); Object.setPrototypeOf(event, { leaked: name }); return event.leaked; }),
    ownNodeSwap: attempt(() => { node.__proto__ = { ancestor: () => name }; return node.ancestor(); }),
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
  nodeMethods: [node.ancestor(0).nodeName, node.latestEvent().name, node.isVisible(), typeof node.leaked],
  nodePrototype: typeof Object.getPrototypeOf(node).leaked,
  eventPrototype: [typeof Object.getPrototypeOf(node.latestEvent()).leaked, typeof node.latestEvent().leaked],
}));
