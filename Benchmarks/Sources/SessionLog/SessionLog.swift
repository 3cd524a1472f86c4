import FocalOpLog

/// A synthetic master/detail session for benchmarks: a table scrolling through rows
/// that register, update two values, appear, disappear and deregister, with scroll
/// events on the table and an occasional selection. With the benchmark tasks, about
/// one op in ten produces a result; the rest match no task.
public struct SessionLog: Sequence {
    /// How many ops to produce, exactly (the last row is cut short if need be).
    public var ops: Int
    /// How many rows are on screen at once.
    public var visibleRows = 12

    public init(ops: Int) {
        self.ops = ops
    }

    public func makeIterator() -> AnyIterator<Op> {
        var pending: [Op] = []
        var produced = 0
        var row = 0
        var time: Int64 = 1_732_200_000_000
        let root: NodeID = 1
        let master: NodeID = 2
        let table: NodeID = 3
        pending = [
            .register(Registration(node: root, parent: nil, name: "__root__", time: time)),
            .register(Registration(node: master, parent: root, name: "master", namespace: "Master.ViewController", time: time)),
            .register(Registration(node: table, parent: master, name: "tableView", time: time)),
            .record(Recording(node: master, event: "ana-appeared", time: time)),
        ].reversed()
        return AnyIterator {
            guard produced < ops else { return nil }
            if pending.isEmpty {
                time += 16
                let cell = NodeID(owner: 4, keys: ["0", String(row)])
                pending.append(.register(Registration(node: cell, parent: table, name: "cell", index: row, time: time)))
                pending.append(
                    .record(
                        Recording(
                            node: cell, event: "ana-updated", properties: ["key-path": "title", "value": .string("Row \(row)")], time: time)
                    ))
                pending.append(
                    .record(
                        Recording(
                            node: cell, event: "ana-updated", properties: ["key-path": "subtitle", "value": .number(Double(row % 100))],
                            time: time)))
                pending.append(.record(Recording(node: cell, event: "ana-appeared", time: time)))
                for step in 0..<3 {
                    pending.append(
                        .record(
                            Recording(
                                node: table, event: "did-scroll", properties: ["y": .number(Double(row * 44 + step * 15))], time: time)))
                }
                if row >= visibleRows {
                    let gone = NodeID(owner: 4, keys: ["0", String(row - visibleRows)])
                    pending.append(.record(Recording(node: gone, event: "ana-disappeared", time: time)))
                    pending.append(.deregister(Deregistration(node: gone, time: time)))
                }
                if row % 50 == 7 {
                    pending.append(
                        .record(
                            Recording(node: cell, event: "did-select", properties: ["section": 0, "row": .number(Double(row))], time: time))
                    )
                }
                row += 1
                pending.reverse()
            }
            produced += 1
            return pending.popLast()
        }
    }
}
