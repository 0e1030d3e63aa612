import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client over a loopback socket, for the home-service tests: one request per
/// connection (`Connection: close`), read to the end; or a stream read until some text arrives.
struct HTTPTestClient {
    let port: Int

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    enum Failure: Error { case connect(Int32), malformed(String), timeout }

    /// A connected socket with a receive timeout.
    func connect(timeout seconds: Int = 30) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.connect(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { let code = errno; close(descriptor); throw Failure.connect(code) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    static func requestBytes(_ method: String, _ path: String, token: String?, body: Data?) -> Data {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" } else if method == "POST" { head += "Content-Length: 0\r\n" }
        return Data((head + "\r\n").utf8) + (body ?? Data())
    }

    func send(_ descriptor: Int32, _ data: Data) {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    func request(_ method: String, _ path: String, token: String? = nil, json: [String: Any]? = nil) throws -> Response {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        return try exchange(Self.requestBytes(method, path, token: token, body: body))
    }

    /// A request with exactly these headers (Content-Length added) and this body, as a phone app would send it.
    func request(_ method: String, _ path: String, headers: [String: String], body: Data) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        return try exchange(Data((head + "\r\n").utf8) + body)
    }

    /// Sends one request on a new connection and reads the response to its end.
    func exchange(_ bytes: Data) throws -> Response {
        let descriptor = try connect()
        defer { close(descriptor) }
        send(descriptor, bytes)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 { throw Failure.timeout }
            if count == 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return try Self.parse(received)
    }

    static func parse(_ data: Data) throws -> Response {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure.malformed(String(decoding: data, as: UTF8.self)) }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure.malformed(head[0]) }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: Data) -> Data {
        var output = Data(), rest = Data(data)
        while let line = rest.range(of: Data("\r\n".utf8)) {
            let size = Int(String(decoding: rest[rest.startIndex..<line.lowerBound], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { break }
            let start = line.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size else { break }
            output.append(rest[start..<rest.index(start, offsetBy: size)])
            rest = Data(rest[rest.index(start, offsetBy: size)...].dropFirst(2))
        }
        return output
    }

    /// An open stream (server-sent events): the socket, read by `read(until:)`.
    final class Stream {
        let descriptor: Int32
        var received = Data()
        init(descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }

        /// Reads until the text so far contains `marker` (true) or `seconds` pass (false).
        func read(until marker: String, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while Date() < deadline {
                if String(decoding: received, as: UTF8.self).contains(marker) { return true }
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count > 0 { received.append(contentsOf: buffer[0..<count]) } else if count == 0 { break }
            }
            return String(decoding: received, as: UTF8.self).contains(marker)
        }
        var text: String { String(decoding: received, as: UTF8.self) }
    }

    func stream(_ path: String, token: String) throws -> Stream {
        let descriptor = try connect(timeout: 1)
        send(descriptor, Self.requestBytes("GET", path, token: token, body: nil))
        return Stream(descriptor: descriptor)
    }
}
