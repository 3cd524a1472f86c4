// Sloppy-mode habit: an assignment to a name never declared.
const attempt = require('./lib/attempt');
leakedAtLoad = attempt(() => 'from Sloppy.js');
match('ev', () => 'never registered: the file stops at the line above');
