import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers, below Hummingbird's router, the two kinds of request the router never sees
/// (Schemas/sync-api.yaml, "Methods the server does not route"), then closes the connection:
/// - `CONNECT`: 405 with `Allow`. NIO sends every response to a `CONNECT` without a body or
///   length headers (a 2xx would open a tunnel), so the close is what ends the answer; without
///   it a client waits for a body forever.
/// - a request head the HTTP parser refuses (an unknown method token such as `FOO`, a malformed
///   request line): 400 with the API's JSON error body and a `Content-Length`, where Hummingbird
///   alone would send an empty one.
/// A parser error in the middle of a request is left to Hummingbird, which is answering it.
final class UnroutableRequestResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The methods the API routes (each path declares its own subset in its 405 answers).
    static let routedMethods = "GET, POST"

    /// Between a request head and the end of its response Hummingbird owns the connection.
    private var requestInFlight = false
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if head.method == .connect {
                refuse(context, SyncServerError(.methodNotAllowed, "the server does not open tunnels: CONNECT is not allowed",
                                                allow: Self.routedMethods))
                return
            }
            requestInFlight = true
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { requestInFlight = false }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !requestInFlight, !refused else {
            context.fireErrorCaught(error)
            return
        }
        refuse(context, SyncServerError(.malformed, "the request line is not HTTP/1.1 the server can parse (an unknown method?)"))
    }

    private func refuse(_ context: ChannelHandlerContext, _ error: SyncServerError) {
        refused = true
        guard let (answer, body) = try? error.responseParts() else {
            context.close(promise: nil)
            return
        }
        var head = answer
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
