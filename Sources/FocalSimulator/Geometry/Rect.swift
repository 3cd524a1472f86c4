/// A rectangle given by its top-left corner and its size, in points.
///
/// Sizes are expected to be non-negative; the simulator never produces negative sizes itself.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The width and height.
    public var size: Size

    /// Creates a rectangle from its corner and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its coordinates.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle at the origin with zero size.
    public static let zero = Rect(origin: .zero, size: .zero)

    /// The smallest x coordinate.
    public var minX: Double { origin.x }
    /// The smallest y coordinate.
    public var minY: Double { origin.y }
    /// The largest x coordinate.
    public var maxX: Double { origin.x + size.width }
    /// The largest y coordinate.
    public var maxY: Double { origin.y + size.height }
    /// The width.
    public var width: Double { size.width }
    /// The height.
    public var height: Double { size.height }
    /// The centre point.
    public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    /// Whether `point` lies inside; the left and top edges are inside, the right and bottom edges are not.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether the two rectangles share some area.
    ///
    /// Rectangles that only touch along an edge do not overlap. A rectangle that is empty along an axis (a line or
    /// a point, such as a view nobody gave a size) overlaps when it lies within the other rectangle on that axis, so
    /// a zero-sized view inside its superview still counts as on screen.
    public func overlaps(_ other: Rect) -> Bool {
        Self.intervalsOverlap(minX, maxX, other.minX, other.maxX)
            && Self.intervalsOverlap(minY, maxY, other.minY, other.maxY)
    }

    /// The rectangle moved by `offset`.
    public func offsetBy(_ offset: Point) -> Rect {
        Rect(origin: origin + offset, size: size)
    }

    /// `{origin, size}`.
    public var description: String { "{\(origin), \(size)}" }

    private static func intervalsOverlap(_ lower: Double, _ upper: Double, _ otherLower: Double, _ otherUpper: Double) -> Bool {
        if upper <= lower {
            return lower >= otherLower && lower < otherUpper
        }
        return lower < otherUpper && upper > otherLower
    }
}
