// Tasks for a shop app, made by `focal init`.
//
// index.js runs when the app's root node registers. A node registered with the
// namespace "Shop.Detail" loads Shop/Detail.js. focal.d.ts declares the task API
// (your editor reads it through jsconfig.json); run the scenarios with
// `focal test .` and check the types with `tsc -p jsconfig.json`.
//
// A pattern is node names followed by an event name: 'products/list/row/did-select'
// fires on any node whose path ends with /products/list/row; '/products/ana-appeared'
// only on the node whose path is exactly /products.

// The product list appeared.
match('/products/ana-appeared', node => ({ event: 'screen_viewed', screen: node.nodeName }));

// Impressions: each row's title once, when it is first on screen (a row that is
// renamed while visible is shown again).
match(['products/list/row/ana-appeared', 'products/list/row/ana-updated'], node => {
  const shown = node.valueFirstDisplayedEvent('title');
  if (shown === null || shown !== node.latestEvent()) return undefined;
  return { event: 'product_impression', position: node.index, title: node.latestValue('title') };
});

// A product was selected.
match('products/list/row/did-select', node => ({
  event: 'product_selected',
  position: node.index,
  title: node.latestValue('title'),
}));

// A funnel: when the session ends, how far the user got. Top-level variables
// belong to the session; `ana-session-ended` is recorded on the root (path "").
let furthest = 'browsed';
match('row/detail/ana-appeared', () => { furthest = 'viewed'; });
match('detail/add-to-cart/touch-up-inside', () => { furthest = 'added_to_cart'; });
match('/ana-session-ended', node => ({
  event: 'session_ended',
  furthest,
  reason: node.latestEvent()?.attributes.reason,
}));
