import Dispatch
import Foundation
import HearthEngine
import NIOCore
import NIOPosix

/// `hearth serve --wyoming tcp://HOST:PORT`: the Wyoming protocol over TCP for Home Assistant's
/// Assist pipeline and Rhasspy. The codec and the answers live in HearthEngine (`WyomingSession`);
/// this is only the socket side.
struct WyomingServer {
    let assistant: Assistant
    let host: String
    let port: Int
    let speaker: String?

    /// Reads `tcp://host:port`; port 0 picks a free port (the listening line tells which).
    static func address(_ uri: String) throws -> (host: String, port: Int) {
        guard let components = URLComponents(string: uri), components.scheme == "tcp",
              let host = components.host, !host.isEmpty, let port = components.port, (0...65535).contains(port) else {
            throw WyomingAddressError(uri: uri)
        }
        return (host, port)
    }

    struct WyomingAddressError: Error, CustomStringConvertible {
        var uri: String
        var description: String { "--wyoming: cannot read '\(uri)'; use tcp://HOST:PORT, like tcp://127.0.0.1:10700" }
    }

    /// Serves until the process is stopped. Blocks the calling thread: the CLI's commands are synchronous.
    func runBlocking() throws {
        final class Outcome: @unchecked Sendable { var error: (any Error)? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let server = self
        Task {
            do { try await server.run() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    func run() async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // A client may send its events and then shut its side (shutdown(SHUT_WR), `nc -N`, a
            // one-shot script): the end of its input is not the end of the connection. Without
            // this NIO closes the whole channel at EOF, and the answers to what was just sent,
            // already carried out, have nowhere to go.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let bound = listener.channel.localAddress?.port ?? port
        // The one line on stdout: scripts (and the test) learn the port from it when 0 was asked for.
        print("hearth: Wyoming server listening on tcp://\(host):\(bound)")
        fflush(nil)  // nil flushes every stream; `stdout` is not concurrency-safe to name in Swift 6
        // Conversation ids must not repeat across restarts: a saved question of an earlier run's
        // connection 1 must not be answered by this run's connection 1.
        let run = UUID().uuidString.prefix(8).lowercased()
        var connections = 0
        try await withThrowingDiscardingTaskGroup { group in
            try await listener.executeThenClose { inbound in
                for try await connection in inbound {
                    connections += 1
                    let session = WyomingSession(assistant: assistant, connectionConversation: "\(run)-\(connections)", speaker: speaker)
                    group.addTask { await Self.serve(connection, session: session) }
                }
            }
        }
    }

    /// One client: events in, answers out, in order. A bad event gets an `error` event and the
    /// connection goes on; a dropped connection ends only itself.
    ///
    /// Each event read is carried out once, and its answers are on the socket before the next
    /// event is read: every write is awaited until NIO has handed it to the kernel. When the
    /// client half-closes (`ChannelEvent.inputClosed`, which ends `inbound` since remote
    /// half-closure is allowed), everything it sent has therefore been answered, and only then is
    /// the connection closed.
    static func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, session: WyomingSession) async {
        let channel = connection.channel
        try? await connection.executeThenClose { inbound, _ in
            var decoder = WyomingDecoder()
            for try await buffer in inbound {
                decoder.feed(buffer.readableBytesView)
                while true {
                    let answers: [WyomingEvent]
                    do {
                        guard let event = try decoder.next() else { break }
                        answers = session.respond(to: event)
                    } catch {
                        answers = [WyomingSession.error("\(error)", code: "bad_request")]
                    }
                    var bytes: [UInt8] = []
                    for answer in answers { bytes += answer.encoded() }
                    if !bytes.isEmpty { try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get() }
                }
            }
        }
    }
}
