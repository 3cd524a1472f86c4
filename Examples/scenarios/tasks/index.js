// Tasks for the example scenarios of tabs, modals, typing and collections
// (the master/detail scenario uses the repository's tasks/ directory).
//
// Each task turns one kind of user activity into an analytics event; the
// scenarios' `expect:` lists check the events and the focus paths they carry.

// A screen appeared. Screens are the nodes whose names are listed here.
const screens = ['feed', 'search', 'results', 'compose', 'sheet', 'login', 'welcome', 'gallery', 'photo'];
match('ana-appeared', node =>
  screens.includes(node.nodeName) ? { event: 'screen_viewed', screen: node.nodeName, path: node.path } : undefined);

// A button was tapped.
match('touch-up-inside', node => ({ event: 'tap', path: node.path }));

// A switch was flipped: its observed value tells the new state.
match('switch/value-changed', node => ({ event: 'toggled', on: node.latestValue('isOn') }));

// The user pressed return in a text field: what was typed.
match('editing-did-end-on-exit', node => ({ event: 'submitted', field: node.nodeName, text: node.latestValue('text') }));

// An item of a list was selected.
match('did-select', node => ({
  event: 'selected', path: node.path, index: node.index, title: node.latestValue('title'),
}));
