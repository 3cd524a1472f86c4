/// Keeps persisting results but sends them only while a condition holds, e.g. "not on
/// a metered network" or "the user consented".
///
/// ```swift
/// options.flushPolicies.append(.sendOnly { !network.isExpensive })
/// ```
public struct SendingConditionPolicy: FlushPolicy {
    private let condition: @Sendable () -> Bool

    /// A policy allowing sending only while `condition()` is true.
    public init(_ condition: @escaping @Sendable () -> Bool) {
        self.condition = condition
    }

    public func shouldFlush(on trigger: FlushTrigger, _ state: FlushState) -> Bool {
        false
    }

    public func maySend(_ state: FlushState) -> Bool {
        condition()
    }
}

extension FlushPolicy where Self == SendingConditionPolicy {
    /// Sends only while `condition()` is true; results stay in the outbox meanwhile.
    public static func sendOnly(when condition: @escaping @Sendable () -> Bool) -> SendingConditionPolicy {
        SendingConditionPolicy(condition)
    }
}
