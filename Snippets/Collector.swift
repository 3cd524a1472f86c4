// The complete server of the FocalEngine article "Embedding Focal in a server", compiled so
// that it cannot rot (`Scripts/check-snippets` checks the article's copy).

// snippet.collector
import FocalEngine
import FocalRuntime
import Hummingbird

@main
struct Collector {
    static func main() async throws {
        try JavaScriptCoreOptions.configure(JavaScriptCoreOptions())
        let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: "tasks"))

        let router = Router()
        // POST /sessions/{id}/ops with op-log lines (JSON Lines) as the body.
        router.post("sessions/:id/ops") { request, context -> Response in
            let id = try context.parameters.require("id")
            let body = try await request.body.collect(upTo: 16 << 20)
            let session = try pool.session(id)
            let outcome = try await session.apply(opLog: Array(buffer: body))
            var text = "applied \(outcome.applied)\n"
            for result in outcome.results { text += result.record.resultJSON + "\n" }
            for error in outcome.errors { text += "error: \(error)\n" }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.delete("sessions/:id") { _, context -> HTTPResponse.Status in
            guard let session = pool.existingSession(try context.parameters.require("id")) else { return .notFound }
            await session.close()
            return .noContent
        }

        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
        try await app.runService()
        await pool.close()
    }
}
// snippet.end
