// Exports that every task file of a session requires and writes to.
module.exports = { visits: 0, names: [] };
