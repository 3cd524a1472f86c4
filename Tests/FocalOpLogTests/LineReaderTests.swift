import FocalOpLog
import Foundation
import Testing

@Suite("Reading op logs line by line")
struct LineReaderTests {
    @Test("lines are numbered from 1 and handed over without their newline")
    func simpleLines() throws {
        let (items, pauses) = try readItems(Array("a\nbc\n\nd\n".utf8))
        #expect(items == [.line("a", number: 1), .line("bc", number: 2), .line("", number: 3), .line("d", number: 4)])
        #expect(pauses >= 1)
    }

    @Test("a last line without a newline still counts")
    func lastLineWithoutNewline() throws {
        let (items, _) = try readItems(Array("one\ntwo".utf8))
        #expect(items == [.line("one", number: 1), .line("two", number: 2)])
    }

    @Test("empty input hands over no lines")
    func emptyInput() throws {
        let (items, pauses) = try readItems([])
        #expect(items.isEmpty)
        #expect(pauses == 1)
    }

    @Test("lines that straddle block boundaries arrive whole and in order", arguments: [1, 64, 4096, 5000])
    func blockBoundaries(blockSize: Int) throws {
        // Lengths chosen so that lines start and end at every offset around the block edges.
        let lines = (0..<300).map { i in String(repeating: Character(UnicodeScalar(UInt8(97 + i % 26))), count: (i * 37) % 211) + "#\(i)" }
        let input = Array((lines.joined(separator: "\n") + "\n").utf8)
        let (items, _) = try readItems(input, blockSize: blockSize)
        #expect(items == lines.enumerated().map { .line($1, number: $0 + 1) })
    }

    @Test("a line that fills a block exactly, newline on the next block")
    func lineEndingAtBlockEdge() throws {
        let first = String(repeating: "x", count: 4096)
        let (items, _) = try readItems(Array((first + "\nnext\n").utf8), blockSize: 4096)
        #expect(items == [.line(first, number: 1), .line("next", number: 2)])
    }

    @Test("a line of exactly the maximum length is kept")
    func lineAtLimit() throws {
        let line = String(repeating: "y", count: 100)
        let (items, _) = try readItems(Array((line + "\nz\n").utf8), maximumLineLength: 100)
        #expect(items == [.line(line, number: 1), .line("z", number: 2)])
    }

    @Test(
        "oversized lines are skipped and reported with their length; the next lines still arrive",
        arguments: [
            150, 4000, 4096, 9000, 50_000,
        ])
    func oversizedLines(length: Int) throws {
        let long = String(repeating: "L", count: length)
        let input = "first\n" + long + "\nmiddle\n" + String(repeating: "M", count: 20) + long + "\nlast\n"
        let (items, _) = try readItems(Array(input.utf8), maximumLineLength: 100, blockSize: 4096)
        #expect(
            items == [
                .line("first", number: 1),
                .oversized(number: 2, byteCount: length),
                .line("middle", number: 3),
                .oversized(number: 4, byteCount: length + 20),
                .line("last", number: 5),
            ])
    }

    @Test("an oversized last line without a newline is reported")
    func oversizedLastLine() throws {
        let (items, _) = try readItems(
            Array(("ok\n" + String(repeating: "Z", count: 10_000)).utf8), maximumLineLength: 100, blockSize: 4096)
        #expect(items == [.line("ok", number: 1), .oversized(number: 2, byteCount: 10_000)])
    }

    @Test("a line that starts in one block and grows too long in a later one is reported once", arguments: [4070, 9000])
    func oversizedAcrossBlocks(length: Int) throws {
        let first = String(repeating: "a", count: 3000)
        let input = first + "\n" + String(repeating: "d", count: length) + "\nend\n"
        let (items, _) = try readItems(Array(input.utf8), maximumLineLength: 4050, blockSize: 4096)
        #expect(items == [.line(first, number: 1), .oversized(number: 2, byteCount: length), .line("end", number: 3)])
    }

    @Test("pipe input: lines arrive while the writer is still writing")
    func pipeStreaming() throws {
        let pipe = try FedPipe()
        let firstLineSeen = DispatchSemaphore(value: 0)
        let writerDone = DispatchGroup()
        let streamed = Flag()
        writerDone.enter()
        DispatchQueue.global().async {
            pipe.write("{\"a\":1}\n{\"b\":")
            // The reader must hand over line 1 before the rest of the input exists.
            streamed.value = firstLineSeen.wait(timeout: .now() + 10) == .success
            pipe.write("2}\nlast")
            pipe.closeWriteEnd()
            writerDone.leave()
        }
        let (items, pauses) = try collect(LineReader(fileDescriptor: pipe.readEnd)) { number in
            if number == 1 { firstLineSeen.signal() }
        }
        writerDone.wait()
        #expect(streamed.value, "line 1 was not handed over before the input ended")
        #expect(items == [.line("{\"a\":1}", number: 1), .line("{\"b\":2}", number: 2), .line("last", number: 3)])
        #expect(pauses >= 2)
    }

    @Test("errors thrown by the consumer stop reading and are rethrown")
    func consumerError() throws {
        struct Stop: Error {}
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("linereader-\(UUID().uuidString)")
        try Data("1\n2\n3\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        var seen: [Int] = []
        #expect(throws: Stop.self) {
            try LineReader(fileDescriptor: fd).read { event in
                if case .line(_, let number) = event {
                    seen.append(number)
                    if number == 2 { throw Stop() }
                }
            }
        }
        #expect(seen == [1, 2])
    }

    @Test("reading a bad file descriptor throws")
    func badDescriptor() {
        #expect(throws: LineReaderError.self) { try LineReader(fileDescriptor: -1).read { _ in } }
    }
}
