import FocalJSON
import Hummingbird

/// Answers each request of a ``LoopbackReceiver`` according to its behaviour and
/// records what it received. A request other than a `POST` (a client that followed a
/// redirect with a `GET`, say) is answered 200 with nothing stored, as a misconfigured
/// collector's landing page would.
struct ReceiverResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let state: SharedReceiverState

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 64 << 20)
        let origin = Origin(method: request.method.rawValue, path: request.uri.path, bodyBytes: body.readableBytes)
        guard request.method == .post else { return answer(200, origin) }
        let fault = state.withLock { $0.nextFault(bodyBytes: origin.bodyBytes) }
        switch fault {
        case .status(let status):
            return answer(status, origin)
        case .statusWithBody(let status, let text):
            var response = answer(status, origin)
            response.body = ResponseBody(byteBuffer: ByteBuffer(string: text))
            return response
        case .tooManyRequests(let seconds):
            return answer(429, origin, headers: [.retryAfter: String(seconds)])
        case .redirect(let status, let location):
            return answer(status, origin, headers: [.location: location])
        case .hang:
            state.withLock { $0.hanging += 1 }
            await state.untilStopping()
            state.withLock { $0.hanging -= 1 }
            return answer(503, origin, didHang: true)
        case .acceptThenFail:
            return store(body, origin, orElse: 500)
        case .acceptWithLargeBody(let bytes):
            var response = store(body, origin, orElse: 200)
            response.body = ResponseBody(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "x"), count: bytes))
            return response
        case nil:
            return store(body, origin, orElse: 200)
        }
    }

    /// Where a request came from and how large its body was.
    struct Origin {
        var method: String
        var path: String
        var bodyBytes: Int
    }

    /// Records the batch in `body` and answers `status`, or 400 when it is not a batch.
    private func store(_ body: ByteBuffer, _ origin: Origin, orElse status: Int) -> Response {
        let batch = body.withUnsafeReadableBytes { bytes in
            (try? JSONValue(parsing: bytes))?["batch"]?.arrayValue
        }
        guard let batch else { return answer(400, origin) }
        let messages = batch.compactMap(ReceivedMessage.init(json:))
        guard messages.count == batch.count else { return answer(400, origin) }
        return state.withLock { state in
            state.batches.append(messages)
            state.uniqueIDs.formUnion(messages.map(\.messageID))
            return record(status, origin, messageCount: messages.count, didHang: false, in: &state)
        }
    }

    private func answer(_ status: Int, _ origin: Origin, headers: HTTPFields = [:], didHang: Bool = false) -> Response {
        var response = state.withLock { state in
            record(status, origin, messageCount: 0, didHang: didHang, in: &state)
        }
        response.headers.append(contentsOf: headers)
        return response
    }

    private func record(
        _ status: Int, _ origin: Origin, messageCount: Int, didHang: Bool, in state: inout ReceiverState
    ) -> Response {
        state.requests.append(
            ReceivedRequest(
                method: origin.method, path: origin.path, status: status, bodyBytes: origin.bodyBytes,
                messageCount: messageCount, didHang: didHang))
        return Response(status: HTTPResponse.Status(code: status))
    }
}
