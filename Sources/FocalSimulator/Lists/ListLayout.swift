/// Where every item of a list goes: sections stacked top to bottom, each its header, a grid of lines of `columns`
/// items (one column for tables), then its footer.
///
/// Lines of equal height are described by arithmetic, so a table of uniform rows costs the same memory whatever
/// its length; only tables with rows of different heights keep one offset per row.
struct ListLayout {
    /// The size of all the content.
    private(set) var contentSize = Size.zero
    private var sections: [Section] = []

    /// A layout for a table: full-width rows of the given heights, one per line, below headers and above footers
    /// of the given heights (0 for none).
    static func rows(
        width: Double, itemCounts: [Int], height: (IndexPath) -> Double,
        supplementaryHeight: (SupplementaryElement) -> Double
    ) -> ListLayout {
        var layout = ListLayout()
        layout.contentSize.width = width
        for (section, count) in itemCounts.enumerated() {
            var tops = [0.0]
            tops.reserveCapacity(count + 1)
            for row in 0..<count {
                tops.append(tops[row] + max(height(IndexPath(row: row, section: section)), 0))
            }
            let first = count > 0 ? tops[1] : 0
            let isUniform = (0..<count).allSatisfy { tops[$0 + 1] - tops[$0] == first }
            let lines = isUniform ? Lines.uniform(pitch: first, itemHeight: first) : .variable(tops: tops)
            layout.append(
                itemCount: count, columns: 1, itemWidth: width, columnPitch: width, lines: lines,
                headerHeight: supplementaryHeight(SupplementaryElement(.header, section: section)),
                footerHeight: supplementaryHeight(SupplementaryElement(.footer, section: section)))
        }
        return layout
    }

    /// A layout for a collection: items of one size, as many per line as fit in `width`, below headers and above
    /// footers of the given heights (0 for none).
    static func grid(
        width: Double, itemCounts: [Int], flow: FlowLayout, supplementaryHeight: (SupplementaryElement) -> Double
    ) -> ListLayout {
        var layout = ListLayout()
        layout.contentSize.width = width
        let columnPitch = flow.itemSize.width + flow.interitemSpacing
        let columns = columnPitch > 0 ? max(Int((width + flow.interitemSpacing) / columnPitch), 1) : 1
        for (section, count) in itemCounts.enumerated() {
            let lines = Lines.uniform(pitch: flow.itemSize.height + flow.lineSpacing, itemHeight: flow.itemSize.height)
            layout.append(
                itemCount: count, columns: columns, itemWidth: flow.itemSize.width, columnPitch: columnPitch,
                lines: lines, headerHeight: supplementaryHeight(SupplementaryElement(.header, section: section)),
                footerHeight: supplementaryHeight(SupplementaryElement(.footer, section: section)))
        }
        return layout
    }

    /// The frame of the item at `indexPath`, in the list's content coordinates.
    func frame(for indexPath: IndexPath) -> Rect {
        let section = sections[indexPath.section]
        let line = indexPath.item / section.columns
        let column = indexPath.item % section.columns
        return Rect(
            x: Double(column) * section.columnPitch, y: section.itemsOriginY + section.top(ofLine: line),
            width: section.itemWidth, height: section.height(ofLine: line))
    }

    /// The frame of a section's header or footer in the content's coordinates, or `nil` when the section has none
    /// (its height is 0) or does not exist.
    func frame(for element: SupplementaryElement) -> Rect? {
        guard sections.indices.contains(element.section) else { return nil }
        let section = sections[element.section]
        let (y, height) =
            switch element.kind {
            case .header: (section.originY, section.headerHeight)
            case .footer: (section.itemsOriginY + section.itemsHeight, section.footerHeight)
            }
        guard height > 0 else { return nil }
        return Rect(x: 0, y: y, width: contentSize.width, height: height)
    }

    /// The frame of a whole section, header to footer, or `nil` when it does not exist.
    func frame(ofSection index: Int) -> Rect? {
        guard sections.indices.contains(index) else { return nil }
        let section = sections[index]
        return Rect(x: 0, y: section.originY, width: contentSize.width, height: section.totalHeight)
    }

    /// The headers and footers whose frames overlap `rect`, in order.
    func supplementaryElements(in rect: Rect) -> [SupplementaryElement] {
        var result: [SupplementaryElement] = []
        for index in sections.indices where sections[index].hasSupplementaryViews {
            for kind in SupplementaryKind.allCases {
                let element = SupplementaryElement(kind, section: index)
                if let frame = frame(for: element), frame.overlaps(rect) { result.append(element) }
            }
        }
        return result
    }

    /// The index paths of the items whose frames overlap `rect`, in order.
    func indexPaths(in rect: Rect) -> [IndexPath] {
        var result: [IndexPath] = []
        for (index, section) in sections.enumerated() where section.itemCount > 0 {
            var line = section.firstLine(endingBelow: rect.minY - section.itemsOriginY)
            while line < section.lineCount, section.itemsOriginY + section.top(ofLine: line) < rect.maxY {
                for column in 0..<section.columns {
                    let indexPath = IndexPath(item: line * section.columns + column, section: index)
                    if indexPath.item < section.itemCount, frame(for: indexPath).overlaps(rect) {
                        result.append(indexPath)
                    }
                }
                line += 1
            }
        }
        return result
    }

    private mutating func append(
        itemCount: Int, columns: Int, itemWidth: Double, columnPitch: Double, lines: Lines, headerHeight: Double,
        footerHeight: Double
    ) {
        let section = Section(
            originY: contentSize.height, itemCount: itemCount, columns: columns, itemWidth: itemWidth,
            columnPitch: columnPitch, lines: lines, headerHeight: max(headerHeight, 0), footerHeight: max(footerHeight, 0))
        sections.append(section)
        contentSize.height += section.totalHeight
    }

    /// How the lines of a section are spaced.
    private enum Lines {
        /// Every line is `itemHeight` tall and starts `pitch` below the previous one.
        case uniform(pitch: Double, itemHeight: Double)
        /// Line `i` spans from `tops[i]` to `tops[i + 1]`.
        case variable(tops: [Double])
    }

    private struct Section {
        /// The top of the section: of its header, if it has one.
        let originY: Double
        let itemCount: Int
        let columns: Int
        let itemWidth: Double
        let columnPitch: Double
        let lines: Lines
        let headerHeight: Double
        let footerHeight: Double

        /// The top of the first line of items.
        var itemsOriginY: Double { originY + headerHeight }

        var hasSupplementaryViews: Bool { headerHeight > 0 || footerHeight > 0 }

        var lineCount: Int { (itemCount + columns - 1) / columns }

        func top(ofLine line: Int) -> Double {
            switch lines {
            case .uniform(let pitch, _): Double(line) * pitch
            case .variable(let tops): tops[line]
            }
        }

        func height(ofLine line: Int) -> Double {
            switch lines {
            case .uniform(_, let itemHeight): itemHeight
            case .variable(let tops): tops[line + 1] - tops[line]
            }
        }

        /// The height of the lines of items.
        var itemsHeight: Double {
            guard lineCount > 0 else { return 0 }
            return top(ofLine: lineCount - 1) + height(ofLine: lineCount - 1)
        }

        var totalHeight: Double { headerHeight + itemsHeight + footerHeight }

        /// The first line whose bottom is below `y` (in section coordinates), or a line before it.
        func firstLine(endingBelow y: Double) -> Int {
            switch lines {
            case .uniform(let pitch, let itemHeight):
                guard pitch > 0 else { return 0 }
                return min(max(Int(((y - itemHeight) / pitch).rounded(.down)), 0), lineCount)
            case .variable(let tops):
                var low = 0
                var high = lineCount
                while low < high {
                    let middle = (low + high) / 2
                    if tops[middle + 1] > y { high = middle } else { low = middle + 1 }
                }
                return low
            }
        }
    }
}
