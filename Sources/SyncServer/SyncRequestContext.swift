import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic context plus the client's address,
/// which the pairing route's rate limit is keyed by.
package struct SyncRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The address without its port ("unknown" when the channel has none).
    var clientAddress: String { remoteAddress?.ipAddress ?? "unknown" }
}
