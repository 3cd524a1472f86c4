import FocalJSON
import FocalTestSupport
import Foundation
import Glibc

/// A raw TCP connection to a server on loopback, for requests no HTTP client would send
/// (a truncated body, a bad chunk, a missing Host, HTTP/1.0). Every read waits at most 30 s
/// (`SO_RCVTIMEO`), so a test that expects an answer fails rather than hangs.
final class RawConnection {
    let socket: Int32
    private var pending: [UInt8] = []

    /// A connection from `source`, a loopback address (`127.0.0.2`, …), when given.
    init(port: Int, from source: String? = nil) throws {
        socket = try LoopbackSocket.dial(port: port, readTimeout: 30, from: source).get()
    }

    deinit { close(socket) }

    /// Sends `text` as it is.
    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Closes the sending side (the server reads an end of stream).
    func halfClose() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// The next response: its status, header fields (names lower case) and body (by its
    /// Content-Length); nil when the connection closed (or the read timed out) first.
    func readResponse() -> RawResponse? {
        guard let headEnd = readUntil([13, 10, 13, 10]) else { return nil }
        let head = String(decoding: pending[..<headEnd], as: UTF8.self)
        pending.removeSubrange(..<(headEnd + 4))
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        while pending.count < length {
            guard fill() else { return nil }
        }
        let body = String(decoding: pending[..<length], as: UTF8.self)
        pending.removeSubrange(..<length)
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Whether the server closes the connection (reads to its end) before the read timeout.
    func waitUntilClosed() -> Bool {
        while true {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(socket, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
            if count < 0 && errno != EINTR { return false }
        }
    }

    private func readUntil(_ marker: [UInt8]) -> Int? {
        while true {
            if pending.count >= marker.count {
                for start in 0...(pending.count - marker.count) where pending[start..<(start + marker.count)].elementsEqual(marker) {
                    return start
                }
            }
            guard fill() else { return nil }
        }
    }

    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count > 0 {
                pending += buffer[..<count]
                return true
            }
            if count < 0 && errno == EINTR { continue }
            return false
        }
    }
}

/// A response read by ``RawConnection``.
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: String

    /// The `error` of a JSON error body.
    var error: String? { try? JSONValue(parsing: body)["error"]?.stringValue }
    /// The `code` of a JSON error body.
    var code: String? { try? JSONValue(parsing: body)["code"]?.stringValue }
    /// The `status` of a JSON error body.
    var jsonStatus: Int? {
        guard let value = try? JSONValue(parsing: body)["status"]?.numberValue else { return nil }
        return Int(value)
    }
}
