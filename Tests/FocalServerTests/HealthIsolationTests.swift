import FocalEngine
import FocalServer
import FocalTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@Suite("Server: probes off the engine threads")
struct HealthIsolationTests {
    @Test("/healthz, /readyz and /metrics answer while every engine thread is busy")
    func probesWhileEnginesBusy() async throws {
        let directory = try TemporaryDirectory(index: serverTasks)
        let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: directory.path), threads: 2)
        let server = FocalServer(configuration: ServerConfiguration(port: 0), pool: pool, logger: quietLogger, metrics: .prometheus())
        let release = DispatchSemaphore(value: 0)
        let finished = Atomic(0)
        do {
            try await server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                // Every engine thread runs a task that waits until the probes are answered.
                let loops = Array(pool.eventLoopGroup.makeIterator())
                let (started, signal) = AsyncStream.makeStream(of: Void.self)
                for loop in loops {
                    loop.execute {
                        signal.yield()
                        release.wait()
                        finished.add(1, ordering: .relaxed)
                    }
                }
                var count = 0
                for await _ in started {
                    count += 1
                    if count == loops.count { break }
                }
                for path in ["/healthz", "/readyz", "/metrics"] {
                    let connection = try RawConnection(port: port)
                    connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    #expect(connection.readResponse()?.status == 200, "\(path)")
                }
                // The engine threads were busy throughout: none has finished its task yet.
                #expect(finished.load(ordering: .relaxed) == 0)
                for _ in loops { release.signal() }
                // And the engines work again afterwards.
                #expect(try await client.post([Ops.root], to: "after").status == .ok)
            }
        } catch {
            await pool.close()
            throw error
        }
        await pool.close()
        withExtendedLifetime(directory) {}
    }
}
