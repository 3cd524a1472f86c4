// Ordinary code that assigns properties the frozen built-ins also have: it keeps working.
function Point(x, y) { this.x = x; this.y = y; }
Point.prototype.toString = function () { return '(' + this.x + ', ' + this.y + ')'; };
Point.prototype.constructor = Point;

class NotFound extends Error {
  constructor(what) {
    super();
    this.name = 'NotFound';
    this.message = what + ' not found';
  }
}

const plain = {};
plain.toString = () => 'plain';
plain.hasOwnProperty = () => 'own';

match('overrides', node => {
  let caught;
  try { throw new NotFound(node.nodeName); } catch (e) { caught = String(e); }
  return [String(new Point(1, 2)), caught, String(plain), plain.hasOwnProperty(), Object.isFrozen(Object.prototype)];
});
