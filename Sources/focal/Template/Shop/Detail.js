// Loaded when a node registered with the namespace "Shop.Detail" appears: the
// detail screen, pushed under the row that opened it (/products/list/row/detail).

// `parentNode` and `ancestor(n)` are null past the root, hence `?.`.
match('row/detail/ana-appeared', node => ({
  event: 'product_viewed',
  position: node.parentNode?.index,
  title: node.parentNode?.latestValue('title'),
}));

// The add-to-cart button: its row is two steps up (button → detail → row).
match('detail/add-to-cart/touch-up-inside', node => ({
  event: 'add_to_cart',
  position: node.ancestor(2)?.index,
  title: node.ancestor(2)?.latestValue('title'),
}));
