import FocalServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server: metrics and page headers")
struct MetricsEdgeTests {
    @Test("every metric has # HELP; the process's memory, descriptors and CPU are there; a 405 is labelled by its template")
    func metrics() async throws {
        try await withServer { client, _ in
            #expect(try await client.post([Ops.root], to: "m").status == .ok)
            #expect(try await client.send(.put, "/v1/sessions/m/ops").status == .methodNotAllowed)
            #expect(try await client.send(.get, "/nowhere").status == .notFound)
            let text = try await client.send(.get, "/metrics").text
            let lines: [String] = text.split(separator: "\n").map(String.init)
            let typed: [String] = Self.names(in: lines, prefix: "# TYPE ")
            let helped = Set(Self.names(in: lines, prefix: "# HELP "))
            #expect(!typed.isEmpty)
            for name in typed { #expect(helped.contains(name), "\(name) has no # HELP") }
            for name in ["process_resident_memory_bytes", "process_open_fds", "process_max_fds", "process_cpu_seconds_total"] {
                let value: Double = Self.value(of: name, in: lines) ?? 0
                #expect(value > 0, "\(name): \(value)")
            }
            #expect(
                lines.contains { $0.hasPrefix(#"focal_request_duration_seconds_count{route="/v1/sessions/{id}/ops",status="405"}"#) },
                "\(text)")
            #expect(lines.contains { $0.hasPrefix(#"focal_request_duration_seconds_count{route="unmatched",status="404"}"#) })
            #expect(!text.contains("NotFound"))
        }
    }

    /// The metric names of the lines starting with `prefix` (`# TYPE `, `# HELP `).
    static func names(in lines: [String], prefix: String) -> [String] {
        lines.filter { $0.hasPrefix(prefix) }.map { line -> String in
            let fields = line.split(separator: " ")
            return fields.count > 2 ? String(fields[2]) : ""
        }
    }

    /// The value of an unlabelled sample.
    static func value(of name: String, in lines: [String]) -> Double? {
        guard let line = lines.first(where: { $0.hasPrefix(name + " ") }) else { return nil }
        let fields = line.split(separator: " ")
        return fields.count > 1 ? Double(String(fields[1])) : nil
    }

    /// SHA-256 by `sha256sum`, not the server's own code.
    static func sha256(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let hex = Array(text.prefix(64))
        return Data(stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(String(hex[$0...$0 + 1]), radix: 16) })
    }

    @Test("the HTML snapshot comes with a content security policy, nosniff and no framing")
    func htmlHeaders() async throws {
        try await withServer { client, _ in
            #expect(try await client.post([Ops.root], to: "page").status == .ok)
            let page = try await client.send(.get, "/v1/sessions/page/snapshot?format=html")
            #expect(page.status == .ok)
            let policy = try #require(page.headers[HTTPField.Name("Content-Security-Policy")!])
            #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"), "\(policy)")
            #expect(!policy.contains("unsafe-inline"), "\(policy)")
            // The page's script is allowed by its hash, computed here with coreutils.
            let script = try #require(
                page.text.range(of: "<script>").flatMap { open in
                    page.text[open.upperBound...].range(of: "</script>").map { page.text[open.upperBound..<$0.lowerBound] }
                })
            let digest = try Self.sha256(Data(script.utf8))
            #expect(policy.contains("script-src 'sha256-\(digest.base64EncodedString())'"), "\(policy)")
            #expect(page.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
        }
    }
}
