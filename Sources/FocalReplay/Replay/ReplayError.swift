import FocalEngine

/// Why a replay could not start; the command says ``description`` and exits with 2.
package enum ReplayError: Error, CustomStringConvertible {
    /// An engine could not start (its tasks directory cannot be read, a limit is out of range, …).
    case engineCannotStart(EngineError)
    /// The op log cannot be opened: its path and the system's reason.
    case cannotOpen(path: String, reason: String)
    /// No thread could be started to read the op log.
    case cannotStartReader(ThreadStartError)

    package var description: String {
        switch self {
        case .engineCannotStart(let error): error.message
        case .cannotOpen(let path, let reason): "cannot open '\(path)': \(reason)"
        case .cannotStartReader(let error): error.description
        }
    }
}
