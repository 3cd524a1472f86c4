/// The bytes a session holds, as its memory budget counts them, and the budget
/// (``EngineConfiguration/maxSessionBytes``; the FocalEngine article "Limits" says what is counted).
///
/// Kept as each op changes what the session holds, so checking an op against the budget walks nothing: a node's part
/// is added as it registers and subtracted as it is removed, an event's as it enters the node's history and leaves it,
/// a value's as it is set and replaced.
struct SessionBytes {
    /// The bytes the session holds now.
    var held = 0
    /// The most it may hold.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// How many bytes more the session may hold; negative past the limit.
    var room: Int { limit - held }

    /// A limit no count reaches, far enough from `Int.max` that sums and differences of rooms stay in range.
    static let unlimited = Int.max >> 2
}
