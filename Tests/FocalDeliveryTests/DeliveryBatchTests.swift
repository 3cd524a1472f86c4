import FocalCore
import FocalDelivery
import FocalJSON
import Testing

@Suite struct DeliveryBatchTests {
    let entries = [
        OutboxEntry(
            sequence: 1, messageID: "store-1",
            result: ResultRecord(
                resultJSON: #"{"row":2}"#, event: "did-select", path: "/master/tableView/cell", time: 1_732_200_000_000)),
        OutboxEntry(
            sequence: 2, messageID: "store-2",
            result: ResultRecord(result: "say \"hi\"", event: "did-appear", path: "/detail", time: 5)),
    ]

    @Test func theHTTPBodyIsExactlyTheContract() {
        let body = String(decoding: DeliveryBatch(entries: entries).jsonBody(), as: UTF8.self)
        #expect(
            body == #"{"batch":[{"messageId":"store-1","result":{"row":2},"event":"did-select","#
                + #""path":"/master/tableView/cell","time":1732200000000},"#
                + #"{"messageId":"store-2","result":"say \"hi\"","event":"did-appear","path":"/detail","time":5}]}"#)
        #expect((try? JSONValue(parsing: body))?["batch"]?.arrayValue?.count == 2)
    }

    @Test func jsonLinesHoldOneMessagePerLine() throws {
        let text = String(decoding: DeliveryBatch(entries: entries).jsonLines(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(try JSONValue(parsing: String(lines[1]))["messageId"] == "store-2")
    }
}

@Suite struct HTTPStatusPolicyTests {
    @Test(arguments: [200, 201, 204, 299])
    func successIsAccepted(status: Int) {
        #expect(HTTPStatusPolicy.outcome(status: status) == nil)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 599])
    func passingFailuresAreRetried(status: Int) {
        #expect(
            HTTPStatusPolicy.outcome(status: status, retryAfter: .seconds(3))
                == .retryable("HTTP \(status)", retryAfter: .seconds(3)))
    }

    @Test func tooLargeIsSplit() {
        #expect(HTTPStatusPolicy.outcome(status: 413) == .payloadTooLarge)
    }

    @Test(arguments: [400, 401, 403, 404, 410, 422])
    func otherClientErrorsAreDropped(status: Int) {
        #expect(HTTPStatusPolicy.outcome(status: status) == .rejected("HTTP \(status)"))
    }

    @Test func retryAfterIsReadInSecondsForm() {
        #expect(HTTPStatusPolicy.retryAfter("120") == .seconds(120))
        #expect(HTTPStatusPolicy.retryAfter(" 0 ") == .zero)
        #expect(HTTPStatusPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(HTTPStatusPolicy.retryAfter("-3") == nil)
        #expect(HTTPStatusPolicy.retryAfter(nil) == nil)
    }
}

@Suite struct RetryPolicyTests {
    @Test func backoffDoublesUpToTheCapWithJitterBelowTheDelay() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: 0.5)
        for _ in 0..<50 {
            let first = policy.delay(afterFailures: 1)
            let third = policy.delay(afterFailures: 3)
            let tenth = policy.delay(afterFailures: 10)
            #expect(first >= .milliseconds(50) && first <= .milliseconds(100))
            #expect(third >= .milliseconds(200) && third <= .milliseconds(400))
            #expect(tenth >= .milliseconds(500) && tenth <= .seconds(1))
        }
        #expect(RetryPolicy(jitter: 0).delay(afterFailures: 1000) == .seconds(300))
    }

    @Test func retryAfterWinsButIsCapped() {
        let policy = RetryPolicy(maxRetryAfter: .seconds(10))
        #expect(policy.delay(afterFailures: 1, retryAfter: .seconds(2)) == .seconds(2))
        #expect(policy.delay(afterFailures: 1, retryAfter: .seconds(3600)) == .seconds(10))
    }
}
