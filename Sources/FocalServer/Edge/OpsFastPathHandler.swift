import NIOCore
import NIOHTTP1

/// Serves the `POST /v1/sessions/{id}/ops` requests ``OpsFastPath`` takes on the connection's
/// channel, and passes every other request on to Hummingbird: it sits right after the
/// ``EdgeConnectionHandler`` (which sees its requests: deadlines, idle timeout, drain) and before
/// Hummingbird's codec (`HTTP1ToHTTPServerCodec`), connection state handler and request loop, so
/// its requests and answers are NIOHTTP1's parts, never converted to HTTPTypes'.
///
/// A taken request's body is gathered on the event loop (a gzip body inflated as it arrives, see
/// ``RequestBodyBuffer``; one refused, too large once inflated or not valid gzip, is answered when it
/// has all arrived, not inflated further); its work runs in a task of its own on
/// the connection's thread (``EventLoopTaskExecutor``), and its answer is written back there.
/// Answers keep the requests' order: a request that arrives while another is answered (HTTP
/// pipelining) waits until that answer is written, and none is taken while a request passed on is
/// unanswered.
///
/// Hummingbird's connection state handler never sees a taken request, so this handler does for it
/// what that handler does for the router's: a graceful shutdown (`ChannelShouldQuiesceEvent`) that
/// arrives while a taken request is read or answered is held until its answer is written, then passed
/// on (the state handler, with no request of its own in flight, closes the connection); once passed on,
/// no request is taken (the state handler counts those it lets finish). It takes only requests that keep
/// the connection open (``OpsFastPath/take(_:from:)``): closing after an answer stays Hummingbird's.
final class OpsFastPathHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let route: OpsFastPath
    /// Requests passed on whose answer has not ended.
    private var passedOn = 0
    /// The taken request whose body is arriving, and its body so far.
    private var reading: (request: OpsFastPath.Taken, body: RequestBodyBuffer)?
    /// Why the body arriving is refused, once it is.
    private var refusal: ServerError?
    /// A taken request is being answered.
    private var answering = false
    /// The number of the taken request answered last, or being answered.
    private var number = 0
    /// The work of the taken request being answered, and the timer of its deadline.
    private var work: (task: Task<Void, Never>, deadline: DeadlineTimer)?
    /// The parts that arrived while a taken request was read or answered, in order.
    private var held: [NIOAny] = []
    /// The graceful shutdown arrived while a taken request was read or answered, and waits for its answer.
    private var quiesceHeld = false
    /// The graceful shutdown was passed on: requests are left to Hummingbird.
    private var quiesced = false

    init(route: OpsFastPath) {
        self.route = route
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if answering {
            held.append(data)
            return
        }
        switch unwrapInboundIn(data) {
        case let .head(head):
            if passedOn == 0, !quiesced, let taken = route.take(head, from: context.channel.remoteAddress) {
                reading = (taken, RequestBodyBuffer(encoding: taken.encoding, limit: route.maxBodyBytes, length: taken.length))
                return
            }
            passedOn += 1
            context.fireChannelRead(data)
        case let .body(buffer):
            guard reading != nil else { return context.fireChannelRead(data) }
            guard refusal == nil else { return }
            do {
                try reading?.body.append(buffer)
            } catch {
                refusal = error
            }
        case .end:
            guard let (taken, body) = reading else { return context.fireChannelRead(data) }
            reading = nil
            let refused = refusal
            refusal = nil
            do throws(ServerError) {
                if let refused { throw refused }
                answer(taken, try body.finish(), context)
            } catch {
                answering = true
                write(route.answer(taken, refusing: error), context)
            }
        }
    }

    /// A taken request whose body the connection broke off answers 400 (as the router's would); the
    /// error goes on to Hummingbird's request loop, which ends the connection.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let (taken, body) = reading {
            reading = nil
            refusal = nil
            answering = true
            write(route.answer(taken, brokenOffBy: error, after: body.received), context)
        }
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        if reading != nil || answering {
            quiesceHeld = true
        } else {
            quiesced = true
            context.fireUserInboundEventTriggered(event)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }

    private func answer(_ taken: OpsFastPath.Taken, _ body: [UInt8], _ context: ChannelHandlerContext) {
        answering = true
        number &+= 1
        let number = number
        let route = route
        let address = context.channel.remoteAddress
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let task = Task(executorPreference: route.executor.pinned(to: loop)) {
            let answer = await route.answer(taken, body: body, address: address)
            // Pinned to the connection's loop, the task ends there (unless the loop is not one of the executor's).
            if loop.inEventLoop {
                bound.value.handler.deliver(answer, of: number, bound.value.context)
            } else {
                loop.execute { bound.value.handler.deliver(answer, of: number, bound.value.context) }
            }
        }
        // The task runs after this returns (its executor queues it on this loop): the timer is set before it ends.
        let deadline = route.deadline.timer {
            loop.execute {
                let (handler, context) = bound.value
                guard handler.answering, handler.number == number else { return }
                handler.work?.task.cancel()
                handler.deliver(route.answerExceeded(taken), of: number, context)
            }
        }
        work = (task, deadline)
    }

    /// Writes the answer of the taken request `number`, unless it was answered (its deadline passed).
    private func deliver(_ answer: (head: HTTPResponseHead, body: ByteBuffer), of number: Int, _ context: ChannelHandlerContext) {
        guard answering, number == self.number else { return }
        work?.deadline.cancel()
        work = nil
        write(answer, context)
    }

    /// Writes a taken request's answer, then goes on with the parts held meanwhile, and passes on a graceful
    /// shutdown held once no taken request is left in flight.
    private func write(_ answer: (head: HTTPResponseHead, body: ByteBuffer), _ context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        answering = false
        let parts = held
        held = []
        for part in parts { channelRead(context: context, data: part) }
        if !parts.isEmpty { context.fireChannelReadComplete() }
        if quiesceHeld, reading == nil, !answering {
            quiesceHeld = false
            quiesced = true
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }
}
