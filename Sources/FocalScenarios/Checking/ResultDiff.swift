import FocalJSON

/// A line diff between the expected and the actual results, aligned on their longest common subsequence, so that
/// one wrong or extra result shows as one or two lines rather than everything after it.
struct ResultDiff {
    /// One line of the diff.
    private enum Entry {
        /// An expected result that was produced, at this index of the actual results.
        case same(Int)
        /// An expected result that was not produced.
        case missing(JSONValue)
        /// A produced result that was not expected, at this index.
        case unexpected(Int)
    }

    private let entries: [Entry]
    private let actual: [JSONValue]

    /// Aligns `expected` with `actual`, an expected result meeting an actual one when `matches` says so.
    init(expected: [JSONValue], actual: [JSONValue], matches: (JSONValue, JSONValue) -> Bool) {
        self.actual = actual
        let n = expected.count
        let m = actual.count
        // common[i][j]: the length of the longest common subsequence of expected[i...] and actual[j...].
        var common = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                common[i][j] =
                    matches(expected[i], actual[j])
                    ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var entries: [Entry] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, matches(expected[i], actual[j]) {
                entries.append(.same(j))
                i += 1
                j += 1
            } else if i < n, j == m || common[i + 1][j] >= common[i][j + 1] {
                entries.append(.missing(expected[i]))
                i += 1
            } else {
                entries.append(.unexpected(j))
                j += 1
            }
        }
        self.entries = entries
    }

    /// Whether every expected result met an actual one and there is no other.
    var isMatch: Bool {
        entries.allSatisfy { if case .same = $0 { true } else { false } }
    }

    /// `--- expected`, `+++ actual`, then one line per result: `  same`, `- expected only`, `+ actual only`. With
    /// `origin` (the step that produced the actual result at an index), unexpected results say their step, and
    /// missing ones the step by which they were due: the step that produced the next expected result that came
    /// (a missing result was due before it), or the end of the journey when none came after it.
    func lines(origin: ((Int) -> String)? = nil) -> [String] {
        var lines = ["--- expected", "+++ actual"]
        var nextSame: Int?
        var dues: [String?] = Array(repeating: nil, count: entries.count)
        for position in entries.indices.reversed() {
            switch entries[position] {
            case .same(let index): nextSame = index
            case .missing: dues[position] = origin.map { origin in nextSame.map(origin) ?? "the end of the journey" }
            case .unexpected: break
            }
        }
        for (position, entry) in entries.enumerated() {
            switch entry {
            case .same(let index):
                lines.append("  \(actual[index].jsonString)")
            case .missing(let value):
                let due = dues[position] ?? ""
                lines.append("- \(value.jsonString)" + (due.isEmpty ? "" : "    # due by \(due)"))
            case .unexpected(let index):
                let from = origin?(index) ?? ""
                lines.append("+ \(actual[index].jsonString)" + (from.isEmpty ? "" : "    # from \(from)"))
            }
        }
        return lines
    }
}
