import FocalSimulator

extension SparkDetector {
    /// Measures how long `host` stays on screen: each appear/disappear pair reports the time between them, in
    /// milliseconds, to `report` (SparkChamber's time-on-screen pattern, as a ready-made pair of events).
    ///
    /// - Returns: the two events attached (appear, then disappear).
    @discardableResult
    public func trackTimeOnScreen(of host: Responder, trace: String? = nil, report: @escaping (Int64) -> Void) -> [SparkEvent] {
        var appearedAt: Int64?
        let appear = SparkEvent(trigger: .didAppear, trace: trace) { time in appearedAt = time }
        let disappear = SparkEvent(trigger: .didDisappear, trace: trace) { time in
            guard let start = appearedAt else { return }
            appearedAt = nil
            report(time - start)
        }
        attach(appear, to: host)
        attach(disappear, to: host)
        return [appear, disappear]
    }
}
