import Foundation
import NIOCore

/// Notices at once that a client left a connection that is streaming to it.
///
/// The server allows half-closed connections (a client may close its side once it has sent
/// its request), so a client that goes away closes nothing on the server's side: a live
/// stream learned of it only when a write failed, and a keep-alive every 15 s failed at the
/// second one, 30 s on, while the stream still counted against the account's limit. A
/// handler at the front of the connection's pipeline sees the client's side close (or the
/// connection end) as it happens.
public enum ClientDeparture {
    /// Calls `departed` once the client closes its side of `connection` or the connection
    /// closes, until ``Watch/stop()``. A connection already gone calls it at once.
    public static func watch(_ connection: any Channel, onDeparture departed: @escaping @Sendable () -> Void) async -> Watch {
        let name = "commons-client-departure-\(UUID().uuidString)"
        do {
            try await connection.pipeline.addHandler(Handler(departed: departed), name: name, position: .first).get()
        } catch {
            departed() // no pipeline left to add to: the connection has closed
        }
        return Watch(connection: connection, name: name)
    }

    /// A watch on one connection.
    public struct Watch: Sendable {
        let connection: any Channel
        let name: String

        /// Removes the watch (the connection may serve more requests after the stream).
        public func stop() {
            connection.pipeline.removeHandler(name: name, promise: nil)
        }
    }

    private final class Handler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = NIOAny
        let departed: @Sendable () -> Void

        init(departed: @escaping @Sendable () -> Void) {
            self.departed = departed
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? ChannelEvent, event == .inputClosed { departed() }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            departed()
            context.fireChannelInactive()
        }
    }
}
