// Tasks for the example shop (Examples/web/shop.html): what its focal.js op log means.
//
// The page names its parts with data-focal attributes; the names make the paths matched here.
// Text and input values never leave the page: a task sees only the values the page names with
// data-focal-value-* (a row's title; the checkout's items, total and shipping).

// Exposure: a product row first at least half in view (in the list's scrolled box) is
// reported once, with its title.
match(['master/tableView/cell/ana-appeared', 'master/tableView/cell/ana-updated'], node => {
  const shown = node.valueFirstDisplayedEvent('title');
  if (shown === null || shown !== node.latestEvent()) return undefined;
  return { event: 'product_exposed', product: node.index, title: node.latestValue('title') };
});

// A row clicked: the product the user opened.
match('master/tableView/cell/click', node => ({
  event: 'product_opened',
  product: node.index,
  title: node.latestValue('title'),
}));

// A row's "not interested" button (the page removes the row).
match('master/tableView/cell/dismiss/click', node => ({
  event: 'product_dismissed',
  product: node.parentNode?.index,
  title: node.parentNode?.latestValue('title'),
}));

// The order form sent: what was in the cart, from the values the page keeps on the form.
match('/checkout/submit', node => ({
  event: 'purchase',
  items: Number(node.latestValue('items')),
  total: node.latestValue('total'),
  shipping: node.latestValue('shipping'),
}));
