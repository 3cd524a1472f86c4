// A compute-heavy task (for the optimizing-compilers comparison in BENCHMARKS.md): 200,000 iterations of
// integer arithmetic per selected row.
match('master/tableView/cell/did-select', node => {
  const row = node.index;
  let h = 0;
  for (let i = 0; i < 200000; i++) h = (h * 31 + ((i ^ row) & 0xff)) | 0;
  return { event: 'row_selected', row, h };
});
