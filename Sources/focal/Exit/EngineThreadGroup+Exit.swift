import ArgumentParser
import FocalEngine
import FocalReplay

extension EngineThreadGroup {
    /// An engine on the next thread; when it cannot start, says why and exits with 2.
    func makeWorkerOrExit(_ configuration: EngineConfiguration) async throws -> EngineWorker {
        do {
            return try await makeWorker(configuration: configuration)
        } catch {
            StandardStream.error.writeError(error.message)
            throw ExitCode(2)
        }
    }
}
