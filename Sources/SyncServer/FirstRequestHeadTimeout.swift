import NIOCore
import NIOHTTPTypes

/// Closes a connection that has not sent a complete request head within `timeout` of being
/// accepted (`serve --header-timeout`). Slow or half-sent headers would otherwise hold a file
/// descriptor, which every user of the server shares, for as long as the client likes; the
/// idle timeout (`--idle-timeout`) covers a connection between requests and a stalled body.
final class FirstRequestHeadTimeout: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var headSeen = false

    init(timeout: Duration) { self.timeout = TimeAmount(timeout) }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !headSeen, case .head = unwrapInboundIn(data) {
            headSeen = true
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil, !headSeen else { return }
        let loop = context.eventLoop.assumeIsolated()
        deadline = loop.scheduleTask(in: timeout) { [weak self] in
            guard let self, !self.headSeen else { return }
            context.close(promise: nil)
        }
    }
}
