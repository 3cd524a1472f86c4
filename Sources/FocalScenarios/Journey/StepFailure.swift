/// Why a journey step could not be done: a sentence saying what was found and what was expected. The journey
/// turns it into a ``ScenarioError`` located at the step.
struct StepFailure: Error {
    /// What went wrong.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
