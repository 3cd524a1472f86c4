// A closure in a required module: one count per session, whatever other sessions do.
let count = 0;
exports.next = () => ++count;
