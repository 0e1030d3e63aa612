import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import Hummingbird
import Logging
import NIOCore

/// The kitchen board's calls (issue 37): a member signs in on the shared screen with their PIN,
/// and a tap marks a chore done as them. Both go through `authenticate` (the board's device
/// token) and the one permission table; the chore skill checks again.
extension Routes {
    /// The header a board sends while a member is signed in on it.
    static let memberSession = HTTPFields.Element.Name("X-Hearth-Member-Session")!

    struct BoardSignInReply: Encodable { var member: String; var session: String; var idle_limit_seconds: Int }

    func boardSignIn(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let caller = try await authenticate(request, context)
        let object = try await Self.body(request)
        guard let name = object["member"] as? String, let pin = object["pin"] as? String else {
            throw APIError(status: .badRequest, code: "bad_request", message: "'member' and 'pin' must be strings")
        }
        guard name.utf8.count <= 128, pin.utf8.count <= 64 else { throw APIError(status: .badRequest, code: "bad_request", message: "too long") }
        let device = caller.device.id
        let outcome = try await engine.run { assistant -> (Member, SignInSkill.BoardSignIn)? in
            guard let member = assistant.roster.member(named: name) else { return nil }
            let skill = SignInSkill(store: assistant.store, logger: Logger(label: "hearth.sign-in"))
            return (member, try skill.signInOnBoard(member.id, pin: pin, device: device, now: assistant.timeSource.now()))
        }
        guard let (member, result) = outcome else { throw APIError(status: .notFound, code: "unknown_member", message: "no member of that name") }
        switch result {
        case .signedIn(let secret):
            return try Self.json(BoardSignInReply(member: member.name, session: secret, idle_limit_seconds: Int(SignInRules.boardIdleLimit)))
        case .refused(.wrong(let left)):
            throw APIError(status: .forbidden, code: "wrong_pin", message: "That PIN isn't right. \(left) \(left == 1 ? "try" : "tries") left.")
        case .refused(.locked):
            throw APIError(status: .forbidden, code: "sign_in_locked", message: "Too many wrong PINs: \(member.name) can try again in 15 minutes.")
        case .refused(.revoked):
            throw APIError(status: .forbidden, code: "access_revoked", message: AccountRules.refusal(for: member))
        case .refused:
            throw APIError(status: .forbidden, code: "no_pin", message: "\(member.name) has no PIN yet: a parent sets one (hearth pin set).")
        }
    }

    func boardSignOut(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let secret = request.headers[Self.memberSession]
        let caller = try await authenticate(request, context, memberSession: false)  // the board's own token is enough
        let device = caller.device.id
        let ended: Bool = try await engine.run { assistant in
            try secret.map { try SignInSkill(store: assistant.store, logger: Logger(label: "hearth.sign-in")).signOutOfBoard(secret: $0, device: device) } ?? false
        }
        return try Self.json(["signed_out": ended])
    }

    struct CompletionReply: Encodable {
        var id: String
        var status: String
        var points_awarded: Int
        var balance: Int
        var awaiting_review: Bool
    }

    /// A tap on a chore: done by the caller's member (a parent may not tick a child's chore off as
    /// the child this way; they say "Emma did the dishes").
    func completeChore(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let caller = try await authenticate(request, context)
        guard let id = context.parameters.get("id"), !id.isEmpty, id.utf8.count <= 128 else {
            throw APIError(status: .badRequest, code: "bad_request", message: "a chore id is needed")
        }
        guard caller.device.scope == .full else { throw APIError.forbidden(DeviceTokenRules.readOnlyRefusal) }
        let member = caller.member
        let done: ChoreSkill.Completion
        do {
            done = try await engine.run { assistant in
                try ChoreSkill(store: assistant.store, calendar: assistant.calendar, ids: assistant.ids, logger: Logger(label: "hearth.chores"))
                    .complete(ChoreID(id), by: member.id, actor: member, roster: assistant.roster, now: assistant.timeSource.now())
            }
        } catch let error as SkillError {
            switch error {
            case .permissionDenied(let text): throw APIError.forbidden(text)
            case .notFound: throw APIError(status: .notFound, code: "not_found", message: "no such chore")
            case .invalid(let text): throw APIError(status: .conflict, code: "invalid_request", message: text)
            default: throw APIError(status: .badRequest, code: "bad_request", message: "\(error)")
            }
        }
        return try Self.json(CompletionReply(id: id, status: done.chore.status.rawValue, points_awarded: done.pointsAwarded, balance: done.balance,
                                             awaiting_review: done.awaitingReview))
    }
}
