// Example tasks for the master/detail demo (see README, "Writing tasks").
//
// A pattern is node names followed by an event name. Relative patterns
// ('master/tableView/cell/did-select') match the end of a node's path;
// absolute ones ('/master/ana-appeared') match the whole path.
const { firstDisplayed } = require('./lib/exposure');

// The user opened the list.
match('/master/ana-appeared', node => ({ event: 'screen_viewed', screen: node.nodeName }));

// A row was selected: which one, and what it showed.
match('master/tableView/cell/did-select', node => ({
  event: 'row_selected',
  row: node.index,
  title: node.latestValue('title'),
}));

// Exposure: each row's title is reported once, when it is first on screen.
match(['master/tableView/cell/ana-appeared', 'master/tableView/cell/ana-updated'], node =>
  firstDisplayed(node, 'title', title => ({ event: 'row_exposed', row: node.index, title })));
