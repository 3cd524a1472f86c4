import FocalCore
import FocalDelivery
import FocalEngine
import FocalServer
import FocalTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging

/// Tasks of the `shop` project: a tap answers `{"shop": index}`, so its results cannot be
/// taken for the default project's.
let shopTasks = "match('item/tap', n => ({ shop: n.index }));"

/// Keys for the tests, each with its secret and its entry in a keys file.
struct TestKey: Sendable {
    let name: String
    let secret: String
    let scopes: [String]
    let project: String?
    let rateLimit: (opsPerSecond: Double, burst: Int)?
    /// The byte dimension of the rate limit, with `rateLimit`.
    let byteLimit: (bytesPerSecond: Double, bytesBurst: Int)?
    /// Whether the entry says `"publishable": true`.
    var publishable = false
    /// The entry's `maxSessions`.
    var maxSessions: Int?

    init(
        _ name: String, scopes: [String], project: String? = nil, rateLimit: (opsPerSecond: Double, burst: Int)? = nil,
        byteLimit: (bytesPerSecond: Double, bytesBurst: Int)? = nil, publishable: Bool = false, maxSessions: Int? = nil
    ) {
        self.publishable = publishable
        self.maxSessions = maxSessions
        self.name = name
        secret = APIKey.generate().secret
        self.scopes = scopes
        self.project = project
        self.rateLimit = rateLimit
        self.byteLimit = byteLimit
    }

    /// The key's entry, as JSON text.
    var entry: String {
        let key = APIKey(secret: secret)
        let project = self.project.map { #","project":"\#($0)""# } ?? ""
        let bytes = byteLimit.map { #","bytesPerSecond":\#($0.bytesPerSecond),"bytesBurst":\#($0.bytesBurst)"# } ?? ""
        let limit = rateLimit.map { #","rateLimit":{"opsPerSecond":\#($0.opsPerSecond),"burst":\#($0.burst)\#(bytes)}"# } ?? ""
        let scopes = self.scopes.map { "\"\($0)\"" }.joined(separator: ",")
        let publishing = (publishable ? #","publishable":true"# : "") + (maxSessions.map { #","maxSessions":\#($0)"# } ?? "")
        return #"{"name":"\#(name)","sha256":"\#(key.sha256Hex)","scopes":[\#(scopes)]\#(project)\#(limit)\#(publishing)}"#
    }

    /// `Authorization: Bearer <secret>`.
    var headers: HTTPFields { [.authorization: "Bearer \(secret)"] }
}

/// A keys file holding `keys`, with the `shop` project's tasks at `shop`.
func keysFileText(_ keys: [TestKey], shop: String) -> String {
    #"{"keys":[\#(keys.map(\.entry).joined(separator: ","))],"projects":{"shop":{"tasks":"\#(shop)"}}}"#
}

/// Starts a server with `keys` on a loopback port: the default project runs ``serverTasks``,
/// `shop` runs ``shopTasks``. `body` gets a client, the server and its key ring.
func withKeyedServer<R: Sendable, C: Clock>(
    keys: [TestKey], configuration: ServerConfiguration = ServerConfiguration(port: 0), pipeline: DeliveryPipeline? = nil,
    journal: (any SessionJournal)? = nil, clock: C = ContinuousClock(),
    logger: Logger = quietLogger,
    _ body: @Sendable (any TestClientProtocol, FocalServer, KeyRing) async throws -> R
) async throws -> R where C.Instant == ContinuousClock.Instant {
    let defaultTasks = try TemporaryDirectory(index: serverTasks)
    let shop = try TemporaryDirectory(index: shopTasks)
    let file = try KeysFile(parsing: keysFileText(keys, shop: shop.path), file: "keys.json", directory: "/")
    let ring = KeyRing(file, clock: clock)
    let engine = EngineConfiguration(tasksDirectory: defaultTasks.path, timeLimit: .milliseconds(200))
    let pool = try await EnginePool(configuration: engine, threads: 2)
    var shopEngine = engine
    shopEngine.tasksDirectory = shop.path
    let shopPool = try await EnginePool(configuration: shopEngine, threads: 1)
    let server = FocalServer(
        configuration: configuration, pool: pool, pipeline: pipeline, journal: journal, clock: clock,
        logger: logger, keyRing: ring, projects: ["shop": shopPool], metrics: .prometheus())
    defer { withExtendedLifetime((defaultTasks, shop)) {} }
    do {
        let result = try await server.makeApplication().test(.live) { client in try await body(client, server, ring) }
        await pool.close()
        await shopPool.close()
        return result
    } catch {
        await pool.close()
        await shopPool.close()
        throw error
    }
}

extension TestClientProtocol {
    /// Posts op-log lines to a session with `key`.
    func post(_ lines: [String], to session: String, key: TestKey) async throws -> Answer {
        var headers = key.headers
        headers[.contentType] = "application/x-ndjson"
        return try await send(.post, "/v1/sessions/\(session)/ops", headers: headers, body: lines.map { $0 + "\n" }.joined())
    }
}
