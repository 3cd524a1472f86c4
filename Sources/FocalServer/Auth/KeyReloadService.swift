import Dispatch
import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads a ``KeyRing`` from its file on every SIGHUP, as a service of the application
/// (``FocalServer/backgroundServices`` runs it when the ring was loaded from a file): keys
/// are added and revoked without a restart.
///
/// A reload that succeeds is logged at info (`keys reloaded`, with the number of keys); a
/// file that cannot be used (unreadable, not valid, or changing the projects) is logged as
/// an error naming the file and what is wrong, and the ring keeps its keys. The file is
/// read off the cooperative thread pool. The service ends at graceful shutdown.
public struct KeyReloadService: Service {
    /// The ring reloaded.
    public let keyRing: KeyRing
    let logger: Logger

    public init(keyRing: KeyRing, logger: Logger) {
        self.keyRing = keyRing
        self.logger = logger
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        logger.debug("reloading the keys file on SIGHUP", metadata: ["focal.keys.file": "\(keyRing.path ?? "")"])
        for await _ in signals.cancelOnGracefulShutdown() {
            await reload()
        }
    }

    /// Reloads the ring once, logging the outcome.
    func reload() async {
        let ring = keyRing
        let outcome: Result<Int, KeysFileError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Result { () throws(KeysFileError) in
                        try ring.reload()
                        return ring.file.keys.count
                    })
            }
        }
        switch outcome {
        case let .success(count):
            logger.info(
                "keys reloaded",
                metadata: [
                    "focal.keys.file": "\(ring.path ?? "")", "focal.keys.count": "\(count)", "focal.keys.reloads": "\(ring.reloadCount)",
                ])
        case let .failure(error):
            logger.error(
                "keys file not reloaded; the old keys stay", metadata: ["focal.keys.file": "\(ring.path ?? "")", "focal.error": "\(error)"])
        }
    }
}
