import Foundation
@testable import HearthService
import XCTest

/// The calendar-query REPORT's answer as servers other than Radicale write it (Nextcloud's `d:`
/// and `cal:` prefixes, a default namespace, CDATA, a 404 propstat beside the 200 one, a
/// response without calendar data), read by the CalDAV client's multistatus reader.
final class CalDAVMultiStatusTests: XCTestCase {
    func testPrefixesCDATAAndMissingDataAreRead() throws {
        let body = """
            <?xml version="1.0"?>
            <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav" xmlns:oc="http://owncloud.org/ns">
             <d:response>
              <d:href>/remote.php/dav/calendars/lisa/family/a.ics</d:href>
              <d:propstat><d:prop><d:getetag>&quot;e-a&quot;</d:getetag>
               <cal:calendar-data>BEGIN:VCALENDAR&#13;
            BEGIN:VEVENT&#13;
            UID:a&#13;
            END:VEVENT&#13;
            END:VCALENDAR&#13;
            </cal:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
              <d:propstat><d:prop><oc:owner/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
             </d:response>
             <response xmlns="DAV:">
              <href>/remote.php/dav/calendars/lisa/family/b.ics</href>
              <propstat><prop><getetag>"e-b"</getetag><calendar-data xmlns="urn:ietf:params:xml:ns:caldav"><![CDATA[BEGIN:VCALENDAR
            UID:b
            END:VCALENDAR]]></calendar-data></prop></propstat>
             </response>
             <d:response><d:href>/remote.php/dav/calendars/lisa/family/</d:href><d:propstat><d:prop><d:getetag>"c"</d:getetag></d:prop></d:propstat></d:response>
            </d:multistatus>
            """
        let resources = try MultiStatus.resources(Data(body.utf8))
        XCTAssertEqual(resources.map(\.href), ["/remote.php/dav/calendars/lisa/family/a.ics", "/remote.php/dav/calendars/lisa/family/b.ics"])
        XCTAssertEqual(resources.map(\.etag), ["\"e-a\"", "\"e-b\""])
        XCTAssertTrue(String(decoding: resources[0].data, as: UTF8.self).contains("UID:a\r\n"))
        XCTAssertTrue(String(decoding: resources[1].data, as: UTF8.self).contains("UID:b"))
        // A listing cut short is an error, never a collection with fewer events (which would read as deletions).
        XCTAssertThrowsError(try MultiStatus.resources(Data(body.prefix(body.count / 2).utf8)))
        XCTAssertThrowsError(try MultiStatus.resources(Data("<d:multistatus xmlns:d='DAV:'><d:response>".utf8)))
    }

    func testHrefsResolveAgainstTheCollectionsServer() throws {
        let transport = try CalDAVHTTPTransport(
            account: .init(id: "cdv", name: "n", url: "https://cloud.example:8443/remote.php/dav/calendars/lisa/family/?x=1", username: "lisa",
                           member: nil, owner: .init("lisa"), createdAt: Date()),
            password: "pw")
        defer { try? transport.client.syncShutdown() }
        XCTAssertEqual(transport.url(of: "/remote.php/dav/calendars/lisa/family/a.ics"), "https://cloud.example:8443/remote.php/dav/calendars/lisa/family/a.ics")
        XCTAssertEqual(transport.url(of: "http://other.example/x.ics"), "http://other.example/x.ics")
        XCTAssertEqual(transport.authorization, "Basic " + Data("lisa:pw".utf8).base64EncodedString())
    }
}
