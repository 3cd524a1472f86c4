import ArgumentParser
import FocalReplay

extension ExitCode {
    /// The exit status of a replay that ran to its end: 0 without errors, 1 with errors or lost results.
    init(_ status: ReplayStatus) {
        self = status == .succeeded ? .success : .failure
    }
}

extension ReplayError {
    /// Says why the replay could not start on `stream`; the exit status 2 to throw.
    func reported(on stream: StandardStream = .error) -> ExitCode {
        stream.writeError(description)
        return ExitCode(2)
    }
}
