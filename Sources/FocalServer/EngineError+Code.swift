import FocalEngine

extension EngineError.Kind {
    /// The kinds an op line's error can have: the `kind`s of `focal_errors_total`.
    static let lineErrorKinds: [EngineError.Kind] = [
        .malformedOp, .invalidOp, .refusedOp, .overMemoryBudget, .taskFailed, .taskFileFailed,
    ]

    /// The kind's machine-readable name: the `code` of a line's error in a batch's answer, and the `kind` label of
    /// `focal_errors_total`.
    var code: String {
        switch self {
        case .malformedOp: "malformed_op"
        case .invalidOp: "invalid_op"
        case .refusedOp: "refused_op"
        case .overMemoryBudget: "over_memory_budget"
        case .taskFailed: "task_failed"
        case .taskFileFailed: "task_file_failed"
        case .invalidConfiguration: "invalid_configuration"
        }
    }
}
