import AsyncHTTPClient
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HearthDomain
import HearthSkills
import NIOCore
import NIOHTTP1

/// The HTTP side of two-way CalDAV sync (issue 36, `CalDAVSkill`): a calendar-query REPORT
/// (RFC 4791 §7.8) lists the collection's events with their ETags and data, and PUT and DELETE
/// carry `If-Match` / `If-None-Match: *` (RFC 4791 §5.3.2) so that nothing someone changed since the
/// listing is overwritten (a 412 waits for the next round). HTTP Basic authentication; redirects are
/// not followed (the password goes only where the family said). Errors name the status, never the
/// URL or the password.
public final class CalDAVHTTPTransport: CalDAVTransport, @unchecked Sendable {
    let collection: URL
    let authorization: String
    let client: HTTPClient
    let timeout: TimeAmount

    public struct Failure: Error, CustomStringConvertible {
        public var what: String
        public var status: Int?
        public var description: String {
            status.map { "the CalDAV server answered \(what) with HTTP \($0)" } ?? "the CalDAV server could not be reached (\(what))"
        }
    }

    public init(account: CalDAVAccount, password: String, timeout: TimeAmount = .seconds(30)) throws {
        guard let url = URL(string: account.url) else { throw Failure(what: "the account's URL", status: nil) }
        self.collection = url
        self.authorization = "Basic " + Data("\(account.username):\(password)".utf8).base64EncodedString()
        self.timeout = timeout
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                 configuration: .init(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: timeout)))
    }

    public func shutdown() async { try? await client.shutdown() }

    /// The absolute URL of an href (a path on the collection's server, or a whole URL).
    func url(of href: String) -> String {
        if href.hasPrefix("http://") || href.hasPrefix("https://") { return href }
        var components = URLComponents(url: collection, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.percentEncodedPath = href
        components.query = nil
        return components.string ?? href
    }

    func request(_ method: HTTPMethod, _ url: String, body: Data?, headers: [(String, String)]) async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: authorization)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(request, timeout: timeout)
            var buffer = try await response.body.collect(upTo: 64 * 1024 * 1024)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            return (Int(response.status.code), response.headers, Data(bytes))
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(what: "\(method.rawValue): \(type(of: error))", status: nil)
        }
    }

    static let query = """
        <?xml version="1.0" encoding="utf-8" ?>
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
          <D:prop><D:getetag/><C:calendar-data/></D:prop>
          <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter></C:filter>
        </C:calendar-query>
        """

    public func list() async throws -> [CalDAVResource] {
        let response = try await request(HTTPMethod(rawValue: "REPORT"), collection.absoluteString, body: Data(Self.query.utf8),
                                         headers: [("Depth", "1"), ("Content-Type", "application/xml; charset=utf-8")])
        guard response.status == 207 else { throw Failure(what: "REPORT", status: response.status) }
        return try MultiStatus.resources(response.body)
    }

    public func put(href: String, body: Data, ifMatch: String?) async throws -> CalDAVWriteOutcome {
        var headers = [("Content-Type", "text/calendar; charset=utf-8")]
        headers.append(ifMatch.map { ("If-Match", $0) } ?? ("If-None-Match", "*"))
        let response = try await request(.PUT, url(of: href), body: body, headers: headers)
        switch response.status {
        case 200..<300: return .done(etag: response.headers.first(name: "ETag"))
        case 412: return .preconditionFailed
        default: throw Failure(what: "PUT", status: response.status)
        }
    }

    public func delete(href: String, ifMatch: String?) async throws -> CalDAVWriteOutcome {
        let response = try await request(.DELETE, url(of: href), body: nil, headers: ifMatch.map { [("If-Match", $0)] } ?? [])
        switch response.status {
        case 200..<300, 404, 410: return .done(etag: nil)
        case 412: return .preconditionFailed
        default: throw Failure(what: "DELETE", status: response.status)
        }
    }
}

/// A WebDAV multistatus (RFC 4918 §13) read for each response's href, getetag and calendar-data.
enum MultiStatus {
    final class Reader: NSObject, XMLParserDelegate {
        var resources: [CalDAVResource] = []
        var text = ""
        var href: String?, etag: String?, data: String?
        /// The closing `multistatus` was read: a listing cut short must not read as events deleted on the server.
        var complete = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            text = ""
            if name == "response" { href = nil; etag = nil; data = nil }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "href" where href == nil: href = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case "getetag": etag = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case "calendar-data": data = text
            case "multistatus": complete = true
            case "response":
                if let href, let data, !data.isEmpty { resources.append(CalDAVResource(href: href, etag: etag, data: Data(data.utf8))) }
            default: break
            }
            text = ""
        }
    }

    static func resources(_ body: Data) throws -> [CalDAVResource] {
        let parser = XMLParser(data: body)
        parser.shouldProcessNamespaces = true
        let reader = Reader()
        parser.delegate = reader
        guard parser.parse(), reader.complete else { throw CalDAVHTTPTransport.Failure(what: "REPORT with XML that does not parse", status: 207) }
        return reader.resources
    }
}
