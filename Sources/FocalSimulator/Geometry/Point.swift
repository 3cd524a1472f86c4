/// A location in a two-dimensional coordinate space, in points.
///
/// The simulator uses UIKit's coordinate convention: the origin is the top-left corner, `x` grows to the right
/// and `y` grows downwards.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point whose coordinates are both zero.
    public static let zero = Point(x: 0, y: 0)

    /// The point moved by `offset`, adding coordinate by coordinate.
    public func offset(by offset: Point) -> Point {
        Point(x: x + offset.x, y: y + offset.y)
    }

    /// Adds two points coordinate by coordinate.
    public static func + (lhs: Point, rhs: Point) -> Point {
        lhs.offset(by: rhs)
    }

    /// Subtracts two points coordinate by coordinate.
    public static func - (lhs: Point, rhs: Point) -> Point {
        Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}
