import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore
import Hummingbird
import Logging
import NIOCore

// Issue 36: the subscribable calendar feed. `GET /v1/calendar/{name}.ics?token=…` answers a
// calendar app (Google Calendar "From URL", Apple Calendar "Subscribed calendar", Thunderbird)
// with the feed's iCalendar text. The URL is the secret: an unknown, mistyped or revoked token, or
// a token of another feed, is 404, as a feed that does not exist would be. Failed attempts count
// towards the same per-address limit as device tokens. Logs never hold the token or any title.
extension Routes {
    func calendarFeed(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let address = try await admitted(context)
        let raw = context.parameters.get("name") ?? ""
        let requested = raw.removingPercentEncoding ?? raw
        let token = request.uri.queryParameters.get("token") ?? ""
        let served: CalendarFeedBody? = try await engine.run { assistant in
            let skill = CalendarFeedSkill(store: assistant.store, ids: RandomIDGenerator(), logger: Logger(label: "hearth.feeds"))
            guard !token.isEmpty, let opened = try skill.open(token: token, requested: requested) else { return nil }
            return try ICalendarSkill(store: assistant.store, calendar: .family(assistant.timeZone), ids: RandomIDGenerator(),
                                      logger: Logger(label: "hearth.feeds"))
                .feedCalendar(opened.feed, viewer: opened.viewer, now: assistant.timeSource.now())
        }
        guard let served else {
            await limiter.failed(address)
            metrics.authFailures.increment()
            throw APIError(status: .notFound, code: "not_found", message: "No such calendar feed.")
        }
        var headers = HTTPFields()
        headers[.eTag] = served.entityTag
        headers[.cacheControl] = "private, max-age=300"
        if CalendarFeedRules.ifNoneMatch(request.headers[.ifNoneMatch], matches: served.entityTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "text/calendar; charset=utf-8"
        // The name matched the feed's own (a member id or `family`); only safe characters go in the header all the same.
        let filename = String(requested.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }.map(Character.init))
        headers[.contentDisposition] = "inline; filename=\"\(filename.isEmpty ? "calendar" : filename).ics\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: served.text)))
    }
}
