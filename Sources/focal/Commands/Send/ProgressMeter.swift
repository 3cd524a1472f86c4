import FocalClient
import FocalReplay
import Synchronization

/// Prints a sender's figures on standard error as progress, at most once a second.
final class ProgressMeter: Sendable {
    private let last = Mutex(ContinuousClock.now)

    func show(_ figures: SenderFigures) {
        let due = last.withLock { last in
            guard ContinuousClock.now - last >= .seconds(1) else { return false }
            last = .now
            return true
        }
        guard due else { return }
        StandardStream.error.writeLine("focal send: " + figures.description)
        StandardStream.error.flush()
    }
}
