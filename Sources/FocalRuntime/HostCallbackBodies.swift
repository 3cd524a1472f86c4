import Synchronization

/// The Swift bodies of host members, one per position of their C functions (``HostMethod``,
/// ``HostGetter``): registered once each, then read without a lock by the C function of their
/// position.
///
/// `@unchecked Sendable`: a position is written once, under ``registered``'s lock, before the C
/// function that reads it is handed out; a host class or function made with that C function reaches
/// another thread only through a once-initialized `static let` or a lock, which orders the write
/// before every read. Positions are never freed.
final class HostCallbackBodies<Body>: @unchecked Sendable {
    private let bodies: UnsafeMutablePointer<Body?>
    private let capacity: Int
    /// How many positions are taken.
    private let registered = Mutex(0)

    init(capacity: Int) {
        self.capacity = capacity
        bodies = .allocate(capacity: capacity)
        bodies.initialize(repeating: nil, count: capacity)
    }

    /// Takes the next position for `body` and returns it.
    func register(_ body: Body) -> Int {
        registered.withLock { count in
            precondition(count < capacity, "more than \(capacity) host members of one kind: raise HostMethod's or HostGetter's capacity")
            bodies[count] = body
            count += 1
            return count - 1
        }
    }

    /// The body at `position`, which ``register(_:)`` returned.
    @inline(__always)
    subscript(position: Int) -> Body {
        bodies[position].unsafelyUnwrapped
    }
}
