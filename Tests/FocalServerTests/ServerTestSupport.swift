import FocalCore
import FocalDelivery
import FocalEngine
import FocalJSON
import FocalServer
import FocalTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging

/// Tasks for the server tests: `item/tap` answers the item's index and a per-session
/// count, `/fail` throws, `/spin` runs past the time limit.
let serverTasks = """
    let count = 0;
    match('item/tap', n => ({ item: n.index, count: ++count }));
    match('/fail', () => { throw new Error('failing on purpose'); });
    match('/spin', () => { for (;;) {} });
    """

/// Op-log lines building a session: the root, `items` items, then a tap on each.
enum Ops {
    static let root = #"{"op":"register","node":1,"parent":null,"name":"app","time":1}"#

    static func item(_ index: Int) -> String {
        #"{"op":"register","node":[1,"item",\#(index)],"parent":1,"name":"item","index":\#(index),"time":2}"#
    }

    static func tap(_ index: Int) -> String {
        #"{"op":"record","node":[1,"item",\#(index)],"event":"tap","time":3}"#
    }

    static func record(_ event: String) -> String {
        #"{"op":"record","node":1,"event":"\#(event)","time":4}"#
    }

    /// A root, `items` items and a tap on each: `items` results.
    static func session(items: Int) -> [String] {
        [root] + (0..<items).map(item) + (0..<items).map(tap)
    }

    /// The results of tapping items `range` after `before` earlier taps.
    static func results(_ range: Range<Int>, before: Int = 0) -> [JSONValue] {
        range.enumerated().map { offset, item in
            ["item": .number(Double(item)), "count": .number(Double(before + offset + 1))]
        }
    }
}

extension TemporaryDirectory {
    /// A temporary tasks directory (`focal-server-…`) holding `index.js` with `source`.
    convenience init(index source: String) throws {
        try self.init(prefix: "focal-server-", files: ["index.js": source])
    }
}

/// A logger that keeps quiet unless a test fails loudly.
let quietLogger: Logger = {
    var logger = Logger(label: "focal.server.test")
    logger.logLevel = .critical
    return logger
}()

/// Starts a server on a loopback port with a fresh engine pool, runs `body` with a client
/// and the server, then shuts both down.
func withServer<R: Sendable, C: Clock>(
    _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
    tasks: String = serverTasks,
    pipeline: DeliveryPipeline? = nil,
    journal: (any SessionJournal)? = nil,
    clock: C = ContinuousClock(),
    logger: Logger = quietLogger,
    metrics: ServerMetrics = .prometheus(),
    _ body: @Sendable (any TestClientProtocol, FocalServer) async throws -> R
) async throws -> R where C.Instant == ContinuousClock.Instant {
    let directory = try TemporaryDirectory(index: tasks)
    let pool = try await EnginePool(
        configuration: EngineConfiguration(tasksDirectory: directory.path, timeLimit: .milliseconds(200)), threads: 2)
    var configuration = configuration
    configuration.port = 0
    let server = FocalServer(
        configuration: configuration, pool: pool, pipeline: pipeline, journal: journal, clock: clock, logger: logger,
        metrics: metrics)
    do {
        let result = try await server.makeApplication().test(.live) { client in try await body(client, server) }
        await pool.close()
        withExtendedLifetime(directory) {}
        return result
    } catch {
        await pool.close()
        throw error
    }
}

/// What a test reads of an answer.
struct Answer: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var text: String

    var json: JSONValue { get throws { try JSONValue(parsing: text) } }

    /// The `results` of a POST answer.
    var results: [JSONValue] { get throws { try json["results"]?.arrayValue ?? [] } }

    /// The `error` message of an error answer.
    var error: String? { try? json["error"]?.stringValue }
}

extension TestClientProtocol {
    /// Sends a request and collects the answer.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: String? = nil
    ) async throws -> Answer {
        try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            Answer(status: response.status, headers: response.headers, text: String(buffer: response.body))
        }
    }

    /// Posts op-log lines (each followed by a newline) to a session.
    func post(_ lines: [String], to session: String, position: Int? = nil) async throws -> Answer {
        let query = position.map { "?position=\($0)" } ?? ""
        return try await send(
            .post, "/v1/sessions/\(session)/ops\(query)", headers: [.contentType: "application/x-ndjson"],
            body: lines.map { $0 + "\n" }.joined())
    }
}
