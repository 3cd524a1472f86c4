// Tasks for the simulator-fidelity scenarios: each turns one kind of UIKit
// behaviour into a small result, so that the scenarios' `expect:` lists pin
// where the simulator puts nodes and when it records events.

// A tap on the like button inside a table cell: the row it belongs to now.
match('cell/like/touch-up-inside', node => ({
  event: 'like',
  row: node.parentNode.index,
  title: node.parentNode.latestValue('title'),
  path: node.path,
  created: node.attributes.createdAt,
}));

// Named sections scrolling in and out.
match(['fruit/ana-appeared', 'fruit/ana-disappeared', 'vegetables/ana-appeared', 'vegetables/ana-disappeared'],
  node => ({ section: node.nodeName, index: node.index, event: node.latestEvent().name, path: node.path }));

// Screens appearing, with the path of their node.
const screens = ['feed', 'settings', 'detail', 'editor', 'player', 'queue', 'offer'];
match('ana-appeared', node =>
  screens.includes(node.nodeName) ? { screen: node.nodeName, path: node.path } : undefined);

// The banner of the app-changes scenario.
match(['banner/ana-appeared', 'banner/ana-disappeared'], node => ({ banner: node.latestEvent().name, path: node.path }));

// Rows selected after insertions, deletions and moves: the row's node keeps its item and creation time.
match('row/did-select', node => ({
  selected: node.latestValue('title'),
  index: node.index,
  item: node.attributes.item,
  created: node.attributes.createdAt,
  section: node.attributes.section || undefined,
}));

// Cell callbacks: willDisplay / didEndDisplaying with the row's bound values and its hook's value.
match('product/impression', node => ({
  impression: node.latestEvent().attributes.title,
  row: node.index,
  name: node.latestValue('name'),
  cost: node.latestValue('cost'),
  title: node.latestValue('title'),
  kind: node.latestValue('kind'),
}));
match('product/end-display', node => ({ endDisplay: node.index }));

// Observed properties of a model object and of another view.
match('badge/ana-updated', node => ({ badge: node.latestValue('items') }));
match('summary/ana-updated', node => ({ alerts: node.latestValue('alerts-on') }));

// Lifetimes: a button and a row of a screen that has no analyzer.
match('buy/touch-up-inside', node => ({ bought: node.path }));
match('fruitRow/did-select', node => ({ picked: node.latestValue('title'), path: node.path }));

// Taps recorded on sub-analyzers' nodes and on the node a button is hooked onto.
match(['toolbar/*/touch-up-inside', 'composer/touch-up-inside'], node => ({
  tapped: node.nodeName,
  index: node.index,
  path: node.path,
}));

// Sparks: single-fire, app triggers, time on screen, touches ending on a cell.
match(['banner-seen', 'promo-shown'], node => {
  const event = node.latestEvent();
  return { spark: event.name, trace: event.attributes.trace ?? null, trigger: event.attributes.trigger };
});
match(['banner-time', 'offers-time'], node => ({ timeOnScreen: node.latestEvent().name, ms: node.latestEvent().attributes.ms }));
match('later/touch-up-outside', node => ({ slidOff: node.path }));
match('deal/deal-touched', node => ({ touched: node.latestValue('title'), path: node.path }));

// Section headers appearing and disappearing as their sections scroll, and a spark on a footer.
match(['fruitHeader/ana-appeared', 'fruitHeader/ana-disappeared', 'greensHeader/ana-appeared', 'greensHeader/ana-disappeared'],
  node => ({ header: node.nodeName, event: node.latestEvent().name, path: node.path }));
match('fruit-footer-seen', node => ({ spark: node.latestEvent().name, trigger: node.latestEvent().attributes.trigger }));

// SparkChamber's touch routing: which spark a touch fired, and the row of the cell it fired in.
match(['card-touched', 'cell-touched', 'own-touched', 'other-action'], node => ({
  touchSpark: node.latestEvent().name,
  row: node.latestValue('title') ?? undefined,
}));

// SparkKit's didAppear (the row of a cell's), beside Focal's own visibility events of the banner.
match(['banner-appeared', 'deep-appeared', 'row-appeared'], node => ({
  appearSpark: node.latestEvent().name,
  row: node.latestValue('title') ?? undefined,
}));
match(['seen/ana-appeared', 'seen/ana-disappeared'], node => ({ seen: node.latestEvent().name }));

// SparkChamber's trace: the sparks that fired, with the trace recorded beside them.
match(['buy-spark', 'quiet', 'touched'], node => ({
  traceSpark: node.latestEvent().name,
  trace: node.latestEvent().attributes.trace ?? null,
}));

// Taps that hit testing sends to another view than the one named.
match(['behindButton/touch-up-inside', 'boxed/touch-up-inside', 'under/touch-up-inside', 'over/touch-up-inside'],
  node => ({ hitTapped: node.nodeName }));
