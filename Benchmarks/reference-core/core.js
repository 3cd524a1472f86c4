'use strict';
// A reference core for benchmarks: a plain JavaScript implementation of the algorithm of
// Anna's JS core (coppercash/Anna, core/src, v0.3.2, the published source) as that
// source describes it: a tree of nodes indexed by a trie of id paths, each node
// holding a "stage" (a trie of absolute patterns and one of relative ones), task sets
// merged into children on registration, an Event object and a 10-event history per
// recorded event. It is our own code, written from that description, not Anna's source;
// it keeps Anna's data structures (Map/object tries, Sets of tasks copied on merge) so that
// it costs what Anna's core costs, and drops what the benchmark does not exercise
// (snapshots, debug reloading).

// A trie keyed by path components; `value` holds what is stored at a path.
class Trie {
  constructor() { this.value = null; this.children = new Map(); }
  retrieve(path) {
    let node = this;
    for (let i = 0; i < path.length && node; i++) node = node.children.get(path[i]);
    return node;
  }
  insert(path) {
    let node = this;
    for (let i = 0; i < path.length - 1; i++) {
      let child = node.children.get(path[i]);
      if (!child) { child = new Trie(); node.children.set(path[i], child); }
      node = child;
    }
    const last = path[path.length - 1];
    if (node.children.get(last)) throw new Error(`Cannot override an already exists node with path '${path}.'`);
    const target = new Trie();
    node.children.set(last, target);
    return target;
  }
  delete(path) {
    let parent = this, current = this.children.get(path[0]);
    for (let i = 1; i < path.length; i++) { parent = current; current = current.children.get(path[i]); }
    parent.children.delete(path[path.length - 1]);
  }
  allValues(path) {
    const found = [];
    const collect = (node) => {
      if (!node) return;
      if (node.value) found.push(node.value);
      node.children.forEach(collect);
    };
    collect(this.retrieve(path));
    return found;
  }
}

class NodeID {
  constructor(owner, keyPath = []) { this.owner = owner; this.keyPath = keyPath; }
  toPath() { return [String(this.owner), ...this.keyPath]; }
  brief() { return this.toPath().join('/'); }
  toString() { return `Node(${this.brief()})`; }
}

// A pattern trie node: children by segment name, tasks stored where the event segment ends.
class MatchNode {
  constructor(children = {}, tasks = new Set()) { this.children = children; this.tasks = tasks; }
  copied() {
    const children = {};
    for (const name in this.children) children[name] = this.children[name].copied();
    return new MatchNode(children, new Set(this.tasks));
  }
  merge(other) {
    const union = new Set(this.tasks);
    other.tasks.forEach((t) => union.add(t));
    this.tasks = union;
    for (const name in other.children) {
      const mine = this.children[name];
      if (mine) mine.merge(other.children[name]); else this.children[name] = other.children[name].copied();
    }
  }
  descend(segments) {
    let node = this;
    for (const s of segments) {
      if (!node.children[s]) node.children[s] = new MatchNode();
      node = node.children[s];
    }
    return node;
  }
}

// What can still match at a node: `matches` continues absolute (and adopted relative)
// patterns at this node; `orphans` holds every relative pattern, which may start anywhere.
class Stage {
  constructor(matches = new MatchNode(), orphans = new MatchNode()) { this.matches = matches; this.orphans = orphans; }
  tasksMatching(event) { const child = this.matches.children[event]; return child ? child.tasks : new Set(); }
  matching(name) {
    const matched = this.matches.children[name];
    const merged = matched ? matched.copied() : new MatchNode();
    const adopted = this.orphans.children[name];
    if (adopted) merged.merge(adopted);
    return new Stage(merged, this.orphans);
  }
  merge(other) { this.matches.merge(other.matches); this.orphans.merge(other.orphans); }
}

class Event {
  constructor(name, properties) {
    this.name = name;
    this.properties = Object.assign({}, properties, { class: 'ana-event', time: Date.now() });
  }
  get nodeName() { return this.name; }
  get attributes() { return this.properties; }
}

class Node {
  constructor(id, parent, name, index, attributes) {
    this.children = new Set();
    this.stage = new Stage();
    this.latest = null;
    this.values = {};
    this.visible = false;
    this.events = [];
    this.id = id;
    this.parent = parent;
    this.path = parent ? `${parent.path}/${name}` : '';
    this.nodeName = name;
    this.index = index;
    const attrs = Object.assign({ id: id.brief(), class: 'ana-node', createdAt: Date.now() }, attributes || {});
    if (index !== undefined && index !== null) attrs.index = index;
    this.attributes = attrs;
  }
  get parentNode() { return this.parent; }
  fork(id, name, index, attributes) {
    const child = new Node(id, this, name, index, attributes);
    this.children.add(child);
    child.stage.merge(this.stage.matching(name));
    return child;
  }
  record(name, properties) {
    const event = new Event(name, properties);
    this.events.push(event);
    if (this.events.length > 10) this.events.shift();
    this.latest = event;
    if (name === 'ana-updated') this.updateValue(properties['value'], properties['key-path'], event);
    else if (name === 'ana-appeared') this.appear(true, event);
    else if (name === 'ana-disappeared') this.appear(false, event);
  }
  // Anna's loose equality (its `==`-style comparison of property values), kept for identical results.
  updateValue(value, keyPath, event) {
    let holder = this.values[keyPath];
    if (!holder) { holder = {}; this.values[keyPath] = holder; }
    const old = holder.value;
    // eslint-disable-next-line eqeqeq
    const equal = value == old || (value != undefined && old != undefined && value.toString() === old.toString());
    if (equal) return;
    holder.value = value;
    if (this.visible) holder.firstDisplayed = event; else delete holder.firstDisplayed;
  }
  appear(visible, event) {
    if (visible === this.visible) return;
    this.visible = visible;
    if (!visible) return;
    if (!this.firstDisplayed) this.firstDisplayed = event;
    for (const key of Object.keys(this.values)) {
      if (this.values[key].firstDisplayed == undefined) this.values[key].firstDisplayed = event;
    }
  }
  traverse(stage, visit) {
    this.children.forEach((child) => child.traverse(stage.matching(child.nodeName), visit));
    visit(this, stage);
  }
  // The node API tasks see (Anna's node API).
  latestEvent() { return this.latest; }
  latestValue(keyPath) { const h = this.values[keyPath]; return h ? h.value : undefined; }
  firstDisplayedEvent() { return this.firstDisplayed; }
  valueFirstDisplayedEvent(keyPath) { const h = this.values[keyPath]; return h ? h.firstDisplayed : undefined; }
  isVisible() { return this.visible; }
  ancestor(n = 0) { let node = this; for (; node && n > 0; n--) node = node.parent; return node; }
}

class Core {
  // `taskDirectory`: where index.js and namespace files are; `receive(result)` gets each result.
  constructor(taskDirectory, receive) {
    this.taskDirectory = taskDirectory;
    this.receive = receive;
    this.identities = new Trie();
    this.root = null;
    this.loaded = new Trie();
  }
  nodeID(id) {
    if (Array.isArray(id)) return id.length > 0 ? new NodeID(id[0], id.slice(1).map(String)) : null;
    if (typeof id === 'number') return new NodeID(id);
    return null;
  }
  node(id) { const entry = this.identities.retrieve(id.toPath()); return entry ? entry.value : null; }

  registerNode(id, parentID, name, index, namespace, attributes) {
    const nID = this.nodeID(id), pID = this.nodeID(parentID);
    try {
      if (this.node(nID)) throw new Error(`${nID} named '${name}' has already been registered.`);
      let parent = null;
      if (pID) {
        parent = this.node(pID);
        if (!parent) throw new Error(`Cannot find parent ${pID}.`);
      } else if (this.root) {
        throw new Error(`To be registerd, ${nID} must have a parent.`);
      }
      const node = parent ? parent.fork(nID, name, index, attributes) : new Node(nID, null, name, index, attributes);
      this.identities.insert(nID.toPath()).value = node;
      if (!parent) this.root = node;
    } catch (e) {
      if (nID.keyPath.length === 0) throw e;  // errors on keyed ids are swallowed (as Anna's core does)
    }
    this.loadTasks(['index'], ['.']);
    if (namespace) {
      if (namespace.startsWith('.') || namespace.endsWith('.')) throw new Error(`Cannot load tasks with invalid namespace '${namespace}'.`);
      this.loadTasks(namespace.split('.'));
    }
  }

  deregisterNodes(id) {
    const nID = this.nodeID(id);
    const nodes = this.identities.allValues(nID.toPath());
    if (nodes.length === 0) throw new Error(`No nodes were registered with ${nID}`);
    for (const node of nodes) {
      node.children.forEach((child) => this.deregisterNodes([child.id.owner, ...child.id.keyPath]));
      if (node.parent) node.parent.children.delete(node);
      this.identities.delete(nID.toPath());
      if (node === this.root) this.root = null;
    }
  }

  recordEvent(name, properties, id) {
    const nID = this.nodeID(id);
    const node = this.node(nID);
    if (!node) throw new Error(`Cannot record event '${name}' on unregistered node '${nID}'.`);
    node.record(name, properties || {});
    let failure;
    for (const task of Array.from(node.stage.tasksMatching(name))) {
      try {
        const result = task.map(node);
        if (result !== undefined) this.receive(result);
      } catch (e) {
        failure = e;
      }
    }
    if (failure) throw failure;
  }

  // Loads a task file once (as Anna's core does): `match` exists while it is required, every
  // error is swallowed, and the collected tasks are merged into every node's stage.
  loadTasks(namePath, cachePath = namePath) {
    if (this.loaded.retrieve(cachePath)) return;
    const built = new Stage();
    global.match = (patterns, map) => {
      for (const pattern of Array.isArray(patterns) ? patterns : [patterns]) {
        const absolute = pattern.startsWith('/');
        const segments = pattern.split('/').slice(absolute ? 1 : 0);
        (absolute ? built.matches : built.orphans).descend(segments).tasks.add({ map, pattern });
      }
    };
    try {
      require(`${this.taskDirectory}/${namePath.join('/')}.js`);
    } catch (_) {
      // a missing or broken task file loads nothing, as in Anna
    } finally {
      delete global.match;
    }
    if (this.root) this.root.traverse(built, (node, stage) => node.stage.merge(stage));
    this.loaded.insert(cachePath).value = built;
  }
}

module.exports = { Core };
