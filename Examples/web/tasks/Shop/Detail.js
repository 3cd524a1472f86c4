// Loaded when a node with data-focal-namespace="Shop.Detail" registers: the detail panel,
// whose node is a child of the row it was opened from (data-focal-attach="focus"), so
// the row is its parent and the panel's button is two levels under the row.

// The panel came into view: the product was viewed, from that row.
match('cell/detail/ana-appeared', node => ({
  event: 'product_viewed',
  product: node.parentNode?.index,
  title: node.parentNode?.latestValue('title'),
  path: node.path,
}));

// "Add to cart" in the panel.
match('cell/detail/button/click', node => ({
  event: 'added_to_cart',
  product: node.ancestor(2)?.index,
  title: node.ancestor(2)?.latestValue('title'),
}));
