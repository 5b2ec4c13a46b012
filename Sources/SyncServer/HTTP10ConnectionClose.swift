import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Closes a connection after its answer when the request asked for no keep-alive in HTTP/1's
/// own terms: HTTP/1.0 without `Connection: keep-alive` (RFC 9112 §9.3). The version-independent
/// request that Hummingbird handles no longer carries the version, and Hummingbird closes only
/// on `Connection: close`; so this handler, placed in front of the conversion, says `close` for
/// such a request. Without it an HTTP/1.0 client that waits for the close to end the body would
/// hang for the idle timeout.
final class HTTP10ConnectionClose: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive,
              !head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Put among the handlers Hummingbird adds after its HTTP/1 conversion (`additionalChannelHandlers`):
    /// places an `HTTP10ConnectionClose` in front of that conversion, then removes itself.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            if let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
                try? pipeline.addHandler(HTTP10ConnectionClose(), position: .before(codec))
            }
            pipeline.removeHandler(context: context, promise: nil)
        }
    }
}
