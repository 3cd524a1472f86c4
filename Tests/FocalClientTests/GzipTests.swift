import FocalTestSupport
import Foundation
import Testing

@testable import FocalClient

@Suite("Gzip: request bodies as gzip streams")
struct GzipTests {
    @Test("a compressed body is a gzip stream that gzip -d inflates to the same bytes, and smaller for op-log lines")
    func roundTrip() throws {
        let line =
            #"{"op":"record","node":[4,"row",7],"event":"ana-updated","properties":{"key-path":"title","value":"Apples"},"session":"u1"}"#
        let body = Array(String(repeating: line + "\n", count: 200).utf8)
        let compressed = try #require(Gzip.compress(body))
        #expect(compressed.count * 5 < body.count)
        let inflated = try runFocal(["-dc"], input: Data(compressed), executable: "/bin/gzip")
        #expect(inflated.status == 0, "\(inflated)")
        #expect(Array(inflated.stdout.utf8) == body)
        #expect(try #require(Gzip.compress([])).count > 0)
    }
}
