import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import Hummingbird
import NIOCore

/// `POST /v1/owntracks`: the OwnTracks app in HTTP mode (issue 36). The phone's member is its
/// device token's (sent as the password of HTTP Basic credentials, or as a bearer token); a report
/// goes through the same door as `hearth location update` and the stdio `location` line — the one
/// permission table (`locationReportOwn`), `LocationSkill`'s keep/skip and battery rules, then each
/// area's geofence reactions (arrival check-ins) — and the reply is the OwnTracks "friends" array:
/// the members this member may see under their sharing, each with a card and a last location.
/// Coordinates never reach the log.
extension Routes {
    func ownTracks(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let caller = try await authenticate(request, context, basic: true)
        let member = caller.member
        // A report changes where someone is: a read-only token (a wall display) cannot make one.
        guard caller.device.scope == .full else { throw APIError.forbidden(DeviceTokenRules.readOnlyRefusal) }
        var request = request
        let body: ByteBuffer
        do { body = try await request.collectBody(upTo: Self.maximumBody) } catch {
            throw APIError(status: .contentTooLarge, code: "bad_request", message: "the body is larger than 64 KB")
        }
        let message: OwnTracks.Message
        do { message = try OwnTracks.message(Data(body.readableBytesView), now: engine.now()) } catch let invalid as OwnTracks.Invalid {
            throw APIError(status: .badRequest, code: "bad_request", message: invalid.description)
        }
        let (friends, notices) = try await engine.run { assistant -> ([OwnTracks.Friend], [Reply.Notice]) in
            if let refusal = Permissions.check(actor: member, action: .locationReportOwn) { throw APIError.forbidden(refusal.text) }
            let locations = LocationSkill(store: assistant.store)
            var notices: [Reply.Notice] = []
            if let location = OwnTracks.location(of: message, member: member.id, places: try locations.places()) {
                do {
                    notices = try assistant.reportLocation(location, by: member, now: assistant.timeSource.now()).notifications
                } catch SkillError.permissionDenied(let text) {
                    throw APIError.forbidden(text)
                } catch SkillError.invalid(let text) {
                    throw APIError(status: .badRequest, code: "bad_request", message: text)
                }
            }
            let visible = try locations.getAllMemberLocations(viewer: member.id)
            return (OwnTracks.friends(visible: visible, viewer: member.id, members: assistant.roster.members), notices)
        }
        if !notices.isEmpty { await events.publish(notices, roster: engine.assistant.roster) }
        return try Self.json(friends)
    }
}
