extension String {
    /// The text on one line: each line feed is written as `\n` and each carriage return
    /// as `\r`, so text from a task, a file or a peer cannot start a line of its own (a
    /// line that would look like Focal's own `error:`). Other characters are kept.
    package var escapingLineBreaks: String {
        guard utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The lines a terminal or a line-oriented reader sees: the text split at every line
    /// feed, every carriage return, and every carriage return and line feed together.
    /// Scalars, not characters, are compared: `"\r\n"` is one `Character`, which
    /// splitting on `Character("\n")` would never find.
    package var physicalLines: [String] {
        let scalars = unicodeScalars
        var lines: [String] = []
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\n" || scalar == "\r" else {
                index = scalars.index(after: index)
                continue
            }
            lines.append(String(scalars[start..<index]))
            index = scalars.index(after: index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
            start = index
        }
        lines.append(String(scalars[start...]))
        return lines
    }
}
