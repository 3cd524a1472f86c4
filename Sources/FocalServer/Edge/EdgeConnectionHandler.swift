import Logging
import NIOCore
import NIOHTTP1

/// What every connection goes through between the HTTP/1 parser and Hummingbird, for a
/// client that is slow, hostile or simply old:
///
/// - **Head deadline**: a request's head must be complete within ``Limits/headerTimeout``
///   of the connection opening or of the previous answer; else the connection is closed.
/// - **Body rate**: while a body arrives, every ``Limits/headerTimeout`` window must bring
///   at least ``Limits/minimumBodyBytesPerSecond`` bytes a second; else the connection is
///   closed (the request, still reading its body, ends with 400).
/// - **Idle timeout**: a connection on which nothing of a request arrives for ``Limits/idleTimeout``
///   is closed, but while every request that arrived is being answered: Hummingbird's rule (its
///   connection state handler's, not given the timeout here), kept here for every request, since
///   the ``OpsFastPathHandler``'s never reach that handler.
/// - **Host**: an HTTP/1.1 request without `Host`, and any request with more than one, answers 400.
/// - **Expect**: `Expect: 100-continue` is answered `100 Continue` at once; any other
///   expectation answers 417.
/// - **HTTP/1.0** (and `Connection: close`): the connection is closed after the request's answer
///   unless it asked for keep-alive; the requests pipelined before it are answered first.
/// - **Unparsable heads**: a head over the parser's limits answers 431, any other parse
///   error before a body 400, with the JSON error shape and a request id.
/// - **Drain**: at shutdown (``Drain``), an idle connection is closed at once and a request
///   still reading its body when the drain timeout has passed is cut.
/// - **Probes only** (a connection over the limits, see ``ConnectionLimiter``): only
///   `/healthz`, `/readyz` and `/metrics` are served; anything else answers 503.
/// - **Web pages**: with allowed origins, a refusal of a request from one carries its CORS
///   fields, as the router's answers do (``AllowedOrigins/answerFields(origin:)``), so the page
///   reads the 503's `Retry-After`.
final class EdgeConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The deadlines of a connection.
    struct Limits: Sendable {
        /// The time a client has to send a request's head, and the window of the body rate.
        var headerTimeout: TimeAmount
        /// The time a connection may stay idle: no request, or no part of the one arriving.
        var idleTimeout: TimeAmount
        /// The slowest body accepted, in bytes a second over each window.
        var minimumBodyBytesPerSecond: Int
        /// The `Retry-After` of a 503, in seconds.
        var retryAfterSeconds: Int
        /// The largest head, in bytes (the parser's limit), for the 431 message.
        var maxHeaderBytes: Int
    }

    /// The server is stopping: requests in flight have `timeout` to finish reading their body.
    struct Drain: Sendable {
        var timeout: TimeAmount
    }

    private let limits: Limits
    private let probesOnly: Bool
    private let origins: AllowedOrigins?
    private let logger: Logger
    /// When the awaited request head must have arrived; `nil` while a request is open.
    private var headDeadline: NIODeadline?
    /// When the body's current rate window ends; `nil` unless a body is arriving.
    private var bodyWindowEnd: NIODeadline?
    /// When the connection is idle for too long; `nil` while every request that arrived is answered.
    private var idleDeadline: NIODeadline?
    /// The connection's one timer, at or before the earliest deadline above. It is not
    /// cancelled when a deadline goes away or moves later (as each request's do): when it
    /// fires it checks the deadlines and arms itself again for the next one, so a request
    /// costs no timer of its own (a cancelled NIO timer is searched for in the loop's queue).
    private var timer: (scheduled: Scheduled<Void>, deadline: NIODeadline)?
    private var bodyBytesInWindow = 0
    /// Requests whose head arrived and whose answer has not ended (more than one when pipelined).
    private var requestsOpen = 0
    /// The request's body is arriving.
    private var readingBody = false
    /// This handler answered the request itself: its parts go no further.
    private var answeredHere = false
    /// The answers still to end before the connection closes, the last of them the answer to the first request
    /// that asked for the close (or was refused): requests pipelined before it are answered first.
    private var answersBeforeClose: Int?

    init(limits: Limits, probesOnly: Bool, origins: AllowedOrigins?, logger: Logger) {
        self.limits = limits
        self.probesOnly = probesOnly
        self.origins = origins
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armHeadTimer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        armHeadTimer(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            headDeadline = nil
            idleDeadline = nil
            requestsOpen += 1
            readingBody = true
            bodyBytesInWindow = 0
            if !head.isKeepAlive { closeAfter(requestsOpen) }
            if var refusal = refusal(of: head) {
                if let origins { refusal.headers.append(contentsOf: origins.answerFields(origin: head.headers.first(name: "origin"))) }
                answeredHere = true
                closeAfter(requestsOpen)
                answer(context, refusal, version: head.version)
                return
            }
            if head.headers.contains(name: "expect") {
                // Only 100-continue is left here (see refusal(of:)).
                head.headers.remove(name: "expect")
                context.writeAndFlush(
                    wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
            armBodyTimer(context)
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case let .body(buffer):
            bodyBytesInWindow += buffer.readableBytes
            if readingBody { idleDeadline = NIODeadline.now() + limits.idleTimeout }
            guard !answeredHere else { return }
            context.fireChannelRead(data)
        case .end:
            readingBody = false
            bodyWindowEnd = nil
            idleDeadline = nil
            guard !answeredHere else { return }
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case var .head(head) where answersBeforeClose == 1 && head.status.code >= 200:
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            requestsOpen = max(0, requestsOpen - 1)
            answersBeforeClose? -= 1
            if let answers = answersBeforeClose, answers <= 0 {
                let written = promise ?? context.eventLoop.makePromise()
                let channel = context.channel
                written.futureResult.whenComplete { _ in channel.close(promise: nil) }
                context.write(data, promise: written)
            } else {
                if requestsOpen == 0 { armHeadTimer(context) }
                context.write(data, promise: promise)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let drain = event as? Drain else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard requestsOpen > 0 else {
            context.close(promise: nil)
            return
        }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: drain.timeout) {
            let (handler, context) = bound.value
            guard handler.readingBody else { return }
            handler.logger.debug("connection closed: its request was still reading its body at the drain timeout")
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A body the parser cannot read goes on to the request reading it (it answers 400).
        guard let parserError = error as? HTTPParserError, requestsOpen == 0 else {
            context.fireErrorCaught(error)
            return
        }
        logger.debug("unparsable request head", metadata: ["focal.error": "\(parserError)"])
        requestsOpen += 1
        answeredHere = true
        closeAfter(requestsOpen)
        let refusal =
            parserError == .headerOverflow
            ? ServerError(
                .requestHeaderFieldsTooLarge, .headersTooLarge,
                "the request's head is larger than the limit of \(limits.maxHeaderBytes) bytes")
            : ServerError.badRequest(.invalidHTTP, "the request is not valid HTTP/1.1")
        answer(context, refusal, version: .http1_1)
    }

    /// Closes the connection once `answers` more answers have ended, unless an earlier request already closes it.
    private func closeAfter(_ answers: Int) {
        if answersBeforeClose == nil { answersBeforeClose = answers }
    }

    /// The answer this handler gives a request itself, if any.
    private func refusal(of head: HTTPRequestHead) -> ServerError? {
        if probesOnly, !Self.isProbe(head.uri) {
            return ServerError(
                .serviceUnavailable, .connectionLimit,
                "the server holds its limit of connections (--max-connections, --max-connections-per-client); retry later",
                headers: [.retryAfter: String(limits.retryAfterSeconds)])
        }
        let hosts = head.headers["host"]
        if head.version == .http1_1, hosts.isEmpty {
            return .badRequest(.invalidHost, "an HTTP/1.1 request must carry a Host header")
        }
        // RFC 9112 §3.2: more than one Host (as lines, or joined by a comma) is refused, never one of them chosen.
        if hosts.count > 1 {
            return .badRequest(.invalidHost, "a request must carry one Host header, not \(hosts.count)")
        }
        if let host = hosts.first, host.utf8.contains(UInt8(ascii: ",")) {
            return .badRequest(.invalidHost, "a Host header must name one host, not a list ('\(host.prefix(256))')")
        }
        let expectations = head.headers[canonicalForm: "expect"]
        if !expectations.isEmpty, expectations.contains(where: { $0.lowercased() != "100-continue" }) {
            return ServerError(.expectationFailed, .expectationFailed, "the server meets no expectation but 100-continue")
        }
        return nil
    }

    private static func isProbe(_ uri: String) -> Bool {
        let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return path == "/healthz" || path == "/readyz" || path == "/metrics"
    }

    /// Writes `error` as a JSON answer that closes the connection.
    private func answer(_ context: ChannelHandlerContext, _ error: ServerError, version: HTTPVersion) {
        let body = error.answerBody
        var headers = HTTPHeaders()
        headers.add(error.answerFields)
        headers.add(name: "content-length", value: String(body.readableBytes))
        headers.add(name: "x-request-id", value: RequestIDMiddleware<EdgeRequestContext>.generate())
        headers.add(name: "connection", value: "close")
        let status = HTTPResponseStatus(statusCode: Int(error.status.code))
        logger.debug("request refused", metadata: ["focal.status": "\(status.code)", "focal.error": "\(error.message)"])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func armHeadTimer(_ context: ChannelHandlerContext) {
        headDeadline = startWindow(context)
    }

    private func armBodyTimer(_ context: ChannelHandlerContext) {
        bodyWindowEnd = startWindow(context)
    }

    /// Starts a ``Limits/headerTimeout`` window now, and the idle timeout with it; returns the window's end.
    private func startWindow(_ context: ChannelHandlerContext) -> NIODeadline {
        let now = NIODeadline.now()
        let end = now + limits.headerTimeout
        let idle = now + limits.idleTimeout
        idleDeadline = idle
        armTimer(context, at: min(end, idle))
        return end
    }

    /// Makes sure the timer fires by `deadline`: one that fires earlier arms itself again then.
    private func armTimer(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        if let timer {
            if timer.deadline <= deadline { return }
            timer.scheduled.cancel()
        }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let scheduled = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.timerFired(context)
        }
        timer = (scheduled, deadline)
    }

    /// Closes the connection when a deadline has passed, and arms the timer for the next one.
    private func timerFired(_ context: ChannelHandlerContext) {
        timer = nil
        let now = NIODeadline.now()
        if let headDeadline, headDeadline <= now {
            logger.debug(
                "connection closed: no request head within the header timeout", metadata: ["focal.timeout": "\(limits.headerTimeout)"])
            context.close(promise: nil)
            return
        }
        if let idleDeadline, idleDeadline <= now {
            logger.debug("connection closed: idle for the connection idle timeout", metadata: ["focal.timeout": "\(limits.idleTimeout)"])
            context.close(promise: nil)
            return
        }
        if readingBody, let bodyWindowEnd, bodyWindowEnd <= now {
            guard checkBodyRate() else {
                context.close(promise: nil)
                return
            }
            self.bodyWindowEnd = now + limits.headerTimeout
        }
        if let next = [headDeadline, bodyWindowEnd, idleDeadline].compactMap({ $0 }).min() { armTimer(context, at: next) }
    }

    /// Whether the window that ended brought the body's minimum rate; starts the next window.
    private func checkBodyRate() -> Bool {
        let window = limits.headerTimeout.nanoseconds
        let minimum = Int64(limits.minimumBodyBytesPerSecond) * window / 1_000_000_000
        guard Int64(bodyBytesInWindow) >= minimum else {
            logger.debug(
                "connection closed: the body arrives too slowly",
                metadata: ["focal.received": "\(bodyBytesInWindow)", "focal.minimum": "\(minimum)"])
            return false
        }
        bodyBytesInWindow = 0
        return true
    }

    private func cancelTimers() {
        timer?.scheduled.cancel()
        timer = nil
        headDeadline = nil
        bodyWindowEnd = nil
        idleDeadline = nil
    }
}
