import FocalJSON
import Hummingbird

/// Answers each request of a ``LoopbackReceiver`` according to its behaviour and
/// records what it received.
struct ReceiverResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let state: SharedReceiverState

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 64 << 20)
        let bodyBytes = body.readableBytes
        let fault = state.withLock { $0.nextFault(bodyBytes: bodyBytes) }
        switch fault {
        case .status(let status):
            return answer(status, bodyBytes: bodyBytes)
        case .tooManyRequests(let seconds):
            return answer(429, bodyBytes: bodyBytes, headers: [.retryAfter: String(seconds)])
        case .hang:
            await waitUntilStopping()
            return answer(503, bodyBytes: bodyBytes, didHang: true)
        case .acceptThenFail:
            return store(body, orElse: 500)
        case nil:
            return store(body, orElse: 200)
        }
    }

    /// Records the batch in `body` and answers `status`, or 400 when it is not a batch.
    private func store(_ body: ByteBuffer, orElse status: Int) -> Response {
        let batch = body.withUnsafeReadableBytes { bytes in
            (try? JSONValue(parsing: bytes))?["batch"]?.arrayValue
        }
        guard let batch else { return answer(400, bodyBytes: body.readableBytes) }
        let messages = batch.compactMap(ReceivedMessage.init(json:))
        guard messages.count == batch.count else { return answer(400, bodyBytes: body.readableBytes) }
        return state.withLock { state in
            state.batches.append(messages)
            return record(status, bodyBytes: body.readableBytes, messageCount: messages.count, didHang: false, in: &state)
        }
    }

    private func answer(_ status: Int, bodyBytes: Int, headers: HTTPFields = [:], didHang: Bool = false) -> Response {
        var response = state.withLock { state in
            record(status, bodyBytes: bodyBytes, messageCount: 0, didHang: didHang, in: &state)
        }
        response.headers.append(contentsOf: headers)
        return response
    }

    private func record(
        _ status: Int, bodyBytes: Int, messageCount: Int, didHang: Bool, in state: inout ReceiverState
    ) -> Response {
        state.requests.append(
            ReceivedRequest(status: status, bodyBytes: bodyBytes, messageCount: messageCount, didHang: didHang))
        return Response(status: HTTPResponse.Status(code: status))
    }

    private func waitUntilStopping() async {
        while !state.withLock({ $0.isStopping }) && !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
