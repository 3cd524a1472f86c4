import FocalEngine

extension EngineError.Kind {
    /// The kinds an op line's error can have: the `kind`s of `focal_errors_total`.
    static let lineErrorKinds: [EngineError.Kind] = [
        .malformedOp, .invalidOp, .refusedOp, .overMemoryBudget, .taskFailed, .taskFileFailed,
    ]

    /// The kind's machine-readable name, in kebab case: the `code` of a line's error in a batch's answer.
    var code: String {
        switch self {
        case .malformedOp: "malformed-op"
        case .invalidOp: "invalid-op"
        case .refusedOp: "refused-op"
        case .overMemoryBudget: "over-memory-budget"
        case .taskFailed: "task-failed"
        case .taskFileFailed: "task-file-failed"
        case .invalidConfiguration: "invalid-configuration"
        }
    }

    /// The kind as the `kind` label of `focal_errors_total` names it: the ``code`` in snake case, as Prometheus
    /// label values usually are.
    var metricKind: String { String(code.map { $0 == "-" ? "_" : $0 }) }
}
