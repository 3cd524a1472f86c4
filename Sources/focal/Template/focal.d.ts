// Type declarations of Focal's JavaScript task API, for editors and `tsc --checkJs`.
//
// Written by `focal init` next to a jsconfig.json that includes it; check a tasks
// directory with `tsc -p jsconfig.json`. The reference is Docs/tasks.md in Focal's
// repository. The jsconfig turns on `strictNullChecks`: `node.index`,
// `node.parentNode` and `node.ancestor(n)` can be null.
// Tasks run on JavaScriptCore without a DOM or Node.js: there is no file system,
// network or timer. The same op log gives the same results: `Date.now()` and
// `new Date()` are the time of the op being handled, and `Math.random()` is seeded
// by the session's id (see `DateConstructor.now` and `Math.random` below).

/** A JSON value: what a task may return as a result. */
type FocalJSON = null | boolean | number | string | FocalJSON[] | { [key: string]: FocalJSON | undefined };

/** What a task returns: a JSON value, `results([…])`, or nothing (`undefined`) for "no result". */
type FocalTaskResult = FocalJSON | FocalResults | undefined | void;

/** Several results from one call: `results([a, b])` (see {@link results}). */
interface FocalResults {
  readonly __focalResults: readonly FocalJSON[];
}

/** The attributes of a node: Focal's own, then the ones the `register` op carried. */
interface FocalNodeAttributes {
  /** The node's id in the op log, as text (`"6"`, `"6/sku-3"`). */
  readonly id: string;
  readonly class: 'ana-node';
  /** When the node was registered, in milliseconds since the Unix epoch (the op log's clock). */
  readonly createdAt: number;
  /** The registered index, when there is one. */
  readonly index?: number;
  /** The registered attributes (they cannot override `id`, `class` and `createdAt`). */
  readonly [key: string]: FocalJSON | undefined;
}

/** The attributes of an event: the recorded properties plus `class` and `time`. */
interface FocalEventAttributes {
  readonly class: 'ana-event';
  /** When the event was recorded, in milliseconds since the Unix epoch (the op log's clock). */
  readonly time: number;
  /** `ana-updated`: the key path whose value changed. */
  readonly 'key-path'?: string;
  /** `ana-updated`: the new value (absent or `null` for "no value"). */
  readonly value?: FocalJSON;
  /** The other recorded properties. */
  readonly [key: string]: FocalJSON | undefined;
}

/** An event recorded on a node. */
interface FocalEvent {
  /** The event name (`ana-appeared`, `did-select`, `touch-up-inside`, `ana-session-ended`…). */
  readonly name: string;
  /** The same as {@link name}. */
  readonly nodeName: string;
  /** The recorded properties plus `class: "ana-event"` and `time`. */
  readonly attributes: FocalEventAttributes;
  /** The same as {@link attributes}. */
  readonly properties: FocalEventAttributes;
  /** When the event was recorded, in milliseconds since the Unix epoch (the op log's clock). */
  readonly time: number;
}

/** A node of the focus-path tree, as a task sees it. */
interface FocalNode {
  /** The node's name (the last segment of its path). */
  readonly nodeName: string;
  /** The registered index (a row's position), or `null` when the node has none. */
  readonly index: number | null;
  /** `""` for the root, otherwise `/name1/name2/…`. */
  readonly path: string;
  /** The parent node, or `null` for the root. */
  readonly parentNode: FocalNode | null;
  /** Focal's attributes plus the registered ones. */
  readonly attributes: FocalNodeAttributes;
  /** The node `n` steps up (`0`, the default, is the node itself), or `null` past the root. */
  ancestor(n?: number): FocalNode | null;
  /** The event being handled while a task runs; `null` before any event. */
  latestEvent(): FocalEvent | null;
  /** The current value for `keyPath` (set by `ana-updated`), or `undefined`. */
  latestValue(keyPath: string): FocalJSON | undefined;
  /** Whether the node is visible (`ana-appeared` / `ana-disappeared`); `false` at first. */
  isVisible(): boolean;
  /** The event that first made the node visible, or `null`. */
  firstDisplayedEvent(): FocalEvent | null;
  /** The event that first showed the current value of `keyPath`, or `null`. */
  valueFirstDisplayedEvent(keyPath: string): FocalEvent | null;
}

/** A task: called with the node the event was recorded on; returns the result. */
type FocalTask = (node: FocalNode) => FocalTaskResult;

/**
 * Registers a task: `fn` runs when an event whose pattern fits is recorded (at most once
 * per event, however many patterns fit). The last segment of a pattern is the event name,
 * the others are node names: `/ev` (the root), `/a/b/ev` (exactly `/a/b`), `a/b/ev` (a
 * path ending with `/a/b`), `ev` (any node), `*` (any one node name).
 * Exists only while a task file is being evaluated.
 */
declare function match(pattern: string | readonly string[], fn: FocalTask): void;

/**
 * Several results from one task call, in order: `return results([a, b])`. A plain
 * returned array stays one result (a JSON array). `undefined` elements are skipped.
 */
declare function results(values: readonly (FocalJSON | undefined)[]): FocalResults;

/** Console output goes to standard error; objects are printed as JSON. */
interface FocalConsole {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
  debug(...values: unknown[]): void;
}
declare var console: FocalConsole;

/** CommonJS `require`: relative ids, directories with index.js, node_modules, `.json`. */
interface FocalRequire {
  (id: string): any;
  /** The path `id` resolves to, from the tasks directory (`/lib/x.js`); throws for a missing module. */
  resolve(id: string): string;
}

/** The module object of a task file. */
interface FocalModule {
  exports: any;
  readonly id: string;
  /** As `__filename`: `/lib/x.js`. */
  readonly filename: string;
  loaded: boolean;
}

declare var require: FocalRequire;
declare var module: FocalModule;
declare var exports: any;
/** This file's path from the tasks directory, as if it were `/`: `/lib/x.js`. */
declare var __filename: string;
/** This file's directory from the tasks directory: `/lib`, or `/` for `index.js`. */
declare var __dirname: string;

interface DateConstructor {
  /**
   * The time of the op being handled, in milliseconds since the Unix epoch (the op log's clock, not the machine's):
   * in a task, the event's `time` (`node.latestEvent().time`); at a task file's top level, the time of the
   * `register` op that loaded it. `new Date()` and `Date()` give the same time.
   */
  now(): number;
}

interface Math {
  /**
   * A number in [0, 1) from the session's own sequence, seeded by the session's id: replaying the same log draws
   * the same numbers, whatever else the engine runs.
   */
  random(): number;
}
