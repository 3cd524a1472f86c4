// Loaded when a node registered with namespace "Detail.ViewController" appears.
// The detail screen is a child of the row that opened it: /master/tableView/cell/detail.
// `parentNode` and `ancestor(n)` are null past the root, hence `?.` (focal.d.ts says so).

match('cell/detail/ana-appeared', node => ({
  event: 'detail_viewed',
  row: node.parentNode?.index,
  path: node.path,
}));

match('detail/button/touch-up-inside', node => ({
  event: 'detail_button_tapped',
  row: node.ancestor(2)?.index,
  title: node.ancestor(2)?.latestValue('title'),
}));
