// What `body` returns, or the name of what it threw.
module.exports = function attempt(body) {
  try {
    const value = body();
    return value === undefined ? 'undefined' : value;
  } catch (e) {
    return e.name;
  }
};
