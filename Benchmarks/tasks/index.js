// Benchmark tasks: exposure of each row when it first appears (one result per row),
// and row selection. Everything else in the benchmark log matches no task.
match('master/tableView/cell/ana-appeared', node => {
  if (node.firstDisplayedEvent() !== node.latestEvent()) return undefined;
  return { event: 'row_exposed', row: node.index, title: node.latestValue('title') };
});

match('master/tableView/cell/did-select', node => ({ event: 'row_selected', row: node.index }));
