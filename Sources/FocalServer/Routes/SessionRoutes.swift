import FocalCore
import FocalEngine
import FocalOpLog
import Hummingbird
import Logging

/// `/v1/sessions/{id}/…`: applying ops, snapshots and ending a session.
struct SessionRoutes<Context: RequestContext>: Sendable {
    let registry: SessionRegistry
    let services: SessionServices
    let maxBodyBytes: Int
    let deadline: RequestDeadline
    let ingest: OpsIngest

    init(server: FocalServer) {
        registry = server.registry
        services = server.services
        maxBodyBytes = server.configuration.maxBodyBytes
        deadline = server.deadline
        ingest = OpsIngest(registry: server.registry)
    }

    /// The most lines a `position` may say were sent before.
    static var positionLimit: Int { 1 << 52 }

    /// `POST /v1/sessions/{id}/ops[?position=N]`. A request without a body answers 400 and
    /// one of another media type 415, creating nothing; a batch that applies no line (all
    /// errors) answers its errors and leaves no session behind that it created.
    func postOps(_ request: Request, context: Context) async throws -> Response {
        let id = try Self.session(in: context)
        let position = try Self.position(in: request)
        let encoding = try BodyMediaType.check(request)
        let body = try await RequestBodyReader.read(request, encoding: encoding, limit: maxBodyBytes, logger: context.logger)
        let answer = try await ingest.apply(
            body, to: id, at: position, client: { ClientIdentity.of(context) }, logger: context.logger, deadline: deadline)
        return Self.response(answer, contentType: "application/json")
    }

    /// `GET /v1/sessions/{id}/snapshot?format=xml|json|html`.
    func snapshot(_ request: Request, context: Context) async throws -> Response {
        let id = try Self.session(in: context)
        let format = try Self.format(in: request)
        // With a journal, a session this instance does not host may be rebuilt from it.
        let (text, host) = try await deadline.run { [registry, services] in
            try await registry.withHost(id, creating: services.journal != nil) { host in
                (try await host?.snapshot(format: format), host)
            }
        }
        guard let text else {
            // Not hosting a session that does not exist anywhere.
            if let host, host.isEmpty { registry.discard(host) }
            throw ServerError.notFound(session: id.id.rawValue)
        }
        var response = Self.response(text, contentType: Self.contentType(of: format))
        if format == .html { response.headers.append(contentsOf: HTMLPageHeaders.fields(for: text)) }
        return response
    }

    /// `DELETE /v1/sessions/{id}`: the session ends with reason `deleted` (its tasks'
    /// results reach the outbox first), then it is forgotten. With a journal, a session this
    /// instance does not host is rebuilt from it to end. 503 when a store call fails: the
    /// session stays, and a retried `DELETE` finishes its end.
    func delete(_ request: Request, context: Context) async throws -> Response {
        let id = try Self.session(in: context)
        let ended = try await deadline.run { [registry, services] in
            try await registry.withHost(id, creating: services.journal != nil, client: ClientIdentity.of(context)) { host in
                guard let host else { return false }
                return try await host.end(reason: .deleted) { registry.removeEnded(host) }
            }
        }
        guard ended else { throw ServerError.notFound(session: id.id.rawValue) }
        context.logger.debug("session ended", metadata: ["focal.session": "\(id)", "focal.reason": "deleted"])
        return Response(status: .noContent)
    }

    /// The session of the request: the `{id}` of its path, in the project of its key
    /// (``AuthenticatedKey/current``).
    private static func session(in context: Context) throws -> SessionKey {
        session(try SessionID.validate(context.parameters.require("id")), of: AuthenticatedKey.current)
    }

    /// The session `id` of a request authenticated with `key`: in the key's project, the default project without one.
    static func session(_ id: SessionID, of key: AuthenticatedKey?) -> SessionKey {
        SessionKey(project: key?.project ?? ProjectName.default, id: id)
    }

    /// The query parameter `name`'s value, `nil` without one.
    /// - Throws: 400 when the query gives it more than once: no value is chosen among several.
    private static func query(_ name: Substring, in request: Request) throws(ServerError) -> Substring? {
        let values = request.uri.queryParameters[values: name]
        guard values.count <= 1 else { throw .badRequest(.invalidQuery, "'\(name)' must be given once, not \(values.count) times") }
        return values.first
    }

    private static func position(in request: Request) throws(ServerError) -> Int? {
        try position(try query("position", in: request))
    }

    /// The `position` query parameter's value `text`, `nil` without one.
    /// - Throws: 400 when it is not a whole number from 0 to ``positionLimit``.
    static func position(_ text: Substring?) throws(ServerError) -> Int? {
        guard let text else { return nil }
        guard !text.isEmpty, text.utf8.count <= 16, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
            value <= positionLimit
        else {
            throw .badRequest(.invalidQuery, "'position' must be a whole number from 0 to \(positionLimit), not '\(text)'")
        }
        return value
    }

    private static func format(in request: Request) throws(ServerError) -> SnapshotFormat {
        guard let text = try query("format", in: request) else { return .xml }
        guard let format = SnapshotFormat(rawValue: String(text)) else {
            throw .badRequest(.invalidQuery, "'format' must be xml, json or html, not '\(text)'")
        }
        return format
    }

    private static func contentType(of format: SnapshotFormat) -> String {
        switch format {
        case .xml: "application/xml; charset=utf-8"
        case .json: "application/json"
        case .html: "text/html; charset=utf-8"
        }
    }

    static func response(_ text: String, contentType: String) -> Response {
        response(ByteBuffer(string: text), contentType: contentType)
    }

    static func response(_ body: ByteBuffer, contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: ResponseBody(byteBuffer: body))
    }
}
