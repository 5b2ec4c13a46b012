import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body does not arrive (`serve --body-timeout`,
/// `--body-min-rate`): a client that sends a head and then trickles its body (a byte every few
/// seconds) stays under the idle timeout forever and holds one of `--max-connections` slots,
/// token or not. Only the time during which the server waits for body bytes counts (a `read` it
/// asked for is still unanswered when the clock ticks): a body the server is slow to take (a
/// handler busy before it reads) is never held against the client. Once the server has waited
/// `grace` seconds, fewer than `minimumRate` bytes for each second waited closes the
/// connection, and so does waiting `timeout` in all (Schemas/sync-api.yaml "Slow clients").
final class RequestBodyDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Seconds of waiting before the rate is judged: a body's first bytes may follow its head
    /// a round trip later.
    static let grace = 2

    private let timeout: Int
    private let minimumRate: Int
    private var ticker: Scheduled<Void>?
    private var inBody = false
    private var demanded = false
    private var waitedSeconds = 0
    private var received = 0

    /// - Parameters: timeout: seconds of waiting for one body in all; minimumRate: bytes a second.
    init(timeout: Int, minimumRate: Int) {
        (self.timeout, self.minimumRate) = (timeout, minimumRate)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            inBody = true
            waitedSeconds = 0
            received = 0
            start(context)
        case .body(let bytes):
            received += bytes.readableBytes
        case .end:
            inBody = false
            stop()
        }
        demanded = false
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        demanded = true
        context.read()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard ticker == nil else { return }
        schedule(context)
    }

    /// The next tick, a second from now (each tick schedules the one after it).
    private func schedule(_ context: ChannelHandlerContext) {
        let loop = context.eventLoop.assumeIsolated()
        ticker = loop.scheduleTask(in: .seconds(1)) { [weak self] in
            guard let self, self.ticker != nil else { return }
            if self.tick() {
                self.ticker = nil
                context.close(promise: nil)
            } else {
                self.schedule(context)
            }
        }
    }

    private func stop() {
        ticker?.cancel()
        ticker = nil
    }

    /// One second passed: whether the client has now been too slow.
    private func tick() -> Bool {
        guard inBody, demanded else { return false }
        waitedSeconds += 1
        if waitedSeconds >= timeout { return true }
        return waitedSeconds > Self.grace && received < minimumRate * (waitedSeconds - Self.grace)
    }
}
