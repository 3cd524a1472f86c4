// Helpers for exposure tracking.

/**
 * Calls `report(value)` when the event being handled is the one that first
 * displayed the current value of `keyPath`, so each value is reported once.
 * Returns undefined (no result) otherwise.
 */
function firstDisplayed(node, keyPath, report) {
  const shown = node.valueFirstDisplayedEvent(keyPath);
  if (shown === null || shown !== node.latestEvent()) return undefined;
  return report(node.latestValue(keyPath));
}

module.exports = { firstDisplayed };
