import FocalJSON

/// A line diff between the expected and the actual results, aligned on their longest common subsequence, so that
/// one wrong or extra result shows as one or two lines rather than everything after it.
struct ResultDiff {
    /// `--- expected`, `+++ actual`, then one line per result: `  same`, `- expected only`, `+ actual only`.
    let lines: [String]

    init(expected: [JSONValue], actual: [JSONValue]) {
        var lines = ["--- expected", "+++ actual"]
        let n = expected.count
        let m = actual.count
        // common[i][j]: the length of the longest common subsequence of expected[i...] and actual[j...].
        var common = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                common[i][j] = expected[i] == actual[j]
                    ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, expected[i] == actual[j] {
                lines.append("  \(actual[j].jsonString)")
                i += 1
                j += 1
            } else if i < n, j == m || common[i + 1][j] >= common[i][j + 1] {
                lines.append("- \(expected[i].jsonString)")
                i += 1
            } else {
                lines.append("+ \(actual[j].jsonString)")
                j += 1
            }
        }
        self.lines = lines
    }
}
