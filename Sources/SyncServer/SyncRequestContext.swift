import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic context plus the connection's peer
/// address, from which the pairing route's rate limit finds the client (`TrustedProxies`).
package struct SyncRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
