'use strict';
// Replays a focal op log (one JSON op per line) through the reference core and writes
// each result as a JSON line on standard output, like `focal replay` does for a log
// without sessions. Usage: node replay.js TASK_DIRECTORY OPLOG > results.jsonl
//
// Each op becomes the call Anna's iOS side would make: register → registerNode,
// record → recordEvent, deregister → deregisterNodes. Errors are counted and the first
// few printed on standard error; they do not stop the replay.
const fs = require('fs');
const path = require('path');
const { Core } = require('./core');

const [taskDirectory, logFile] = process.argv.slice(2);
if (!taskDirectory || !logFile) {
  process.stderr.write('usage: node replay.js TASK_DIRECTORY OPLOG\n');
  process.exit(2);
}

let output = [];
const flush = () => { if (output.length) { fs.writeSync(1, output.join('')); output = []; } };
const core = new Core(path.resolve(taskDirectory), (result) => {
  output.push(JSON.stringify(result) + '\n');
  if (output.length >= 4096) flush();
});

let errors = 0;
function apply(op) {
  switch (op.op) {
    case 'register': return core.registerNode(op.node, op.parent, op.name, op.index, op.namespace, op.attributes);
    case 'record': return core.recordEvent(op.event, op.properties, op.node);
    case 'deregister': return core.deregisterNodes(op.node);
    default: throw new Error(`unsupported op '${op.op}'`);
  }
}

// Reads the log in 1 MiB chunks and splits lines, so memory does not grow with its length.
const fd = fs.openSync(logFile, 'r');
const chunk = Buffer.alloc(1 << 20);
let carry = '';
let lineNumber = 0;
for (;;) {
  const read = fs.readSync(fd, chunk, 0, chunk.length, null);
  if (read === 0) break;
  const lines = (carry + chunk.toString('utf8', 0, read)).split('\n');
  carry = lines.pop();
  for (const line of lines) {
    lineNumber += 1;
    if (line.length === 0) continue;
    try {
      apply(JSON.parse(line));
    } catch (e) {
      if (++errors <= 5) process.stderr.write(`line ${lineNumber}: ${e.message}\n`);
    }
  }
}
if (carry.length > 0) {
  try { apply(JSON.parse(carry)); } catch (e) { errors += 1; }
}
flush();
if (errors > 0) process.stderr.write(`${errors} errors\n`);
