import Foundation
import HearthDomain
import HearthSkills

/// PIN sign-in at the front door (seed 003): a front end signs a member in on its session (the
/// protocol's `login`, the REPL's `:login`) or sends the PIN with a turn (`pin`). When the family
/// requires it (`hearth pin require on`), a turn from a member who has a PIN and is not signed in
/// is refused before anything is read or changed.
extension Assistant {
    public var signInSkill: SignInSkill { SignInSkill(store: store, logger: logger) }

    /// A reply that is only words (sign-in and its refusals): `code` set for a refusal.
    static func plainReply(_ text: String, code: String? = nil) -> Reply {
        Reply(intent: nil, state: code == nil ? "result_ready" : "error", reply: text, speak: Speech.sanitised(text), options: [], notifications: [],
              trace: [], error: code.map { Reply.Failure(code: $0, message: text) })
    }

    /// The words for a PIN that was not accepted.
    func refusal(_ verdict: SignInSkill.Verdict?, for member: Member, now: Date) -> Reply {
        switch verdict {
        case .wrong(let left)?: return Self.plainReply(SignInRules.wrongPIN(member.name, left: left), code: "wrong_pin")
        case .locked(let until)?:
            let when = TimeFormatter(calendar: calendar, now: now).time(until)
            return Self.plainReply(SignInRules.locked(member.name, until: when), code: "sign_in_locked")
        case .noPIN?: return Self.plainReply(SignInRules.noPIN(member.name), code: "no_pin")
        case .revoked?: return Self.plainReply(AccountRules.refusal(for: member), code: "access_revoked")
        case .accepted?, nil: return Self.plainReply(SignInRules.needsSignIn(member.name), code: "sign_in_required")
        }
    }

    /// Signs `name` in on `session` with `pin`: later turns of that session speak as them (when they
    /// name no one else) without a PIN, until `logOut` or half an hour without a turn.
    public func logIn(speaker name: String, pin: String, session: String, now: Date? = nil) -> Reply {
        let now = now ?? timeSource.now()
        guard let member = roster.member(named: name) else { return Self.plainReply(HearthError.unknownSpeaker(name).reply.display, code: "unknown_speaker") }
        do {
            let verdict = try signInSkill.verify(pin, for: member.id, session: session, now: now)
            guard verdict == .accepted else { return refusal(verdict, for: member, now: now) }
            return Self.plainReply("Hi \(member.name), you're signed in.")
        } catch {
            return Self.plainReply("I couldn't sign you in just now; please try again.", code: "storage_error")
        }
    }

    public func logOut(session: String) -> Reply {
        let signedOut = (try? signInSkill.signOut(session: session)) ?? false
        return Self.plainReply(signedOut ? "Signed out." : "Nobody was signed in.")
    }

    /// The front door for a turn (`FrontDoor`, issue 26): the member it speaks as — named, signed
    /// in on its session, or the household device, never nobody — once they gave their PIN where the
    /// family requires it; or the reply that refuses the turn instead.
    func admitted(_ turn: Turn, now: Date) -> Result<Member, SignInRefusal> {
        door(FrontDoor.Credentials(speaker: turn.speaker, pin: turn.pin, session: turn.session, proven: turn.proven), actions: [], now: now)
    }

    /// The member a turn that names nobody speaks as, when the family has a household device.
    public func householdDeviceMember() -> Member? { try? speaker(named: nil) }

    /// `FrontDoor.enter` with this turn's snapshot of the family; a refusal as the reply to give.
    public func door(_ credentials: FrontDoor.Credentials, actions: [Permissions.Action], now: Date) -> Result<Member, SignInRefusal> {
        do {
            return .success(try FrontDoor(store: store, logger: logger).enter(credentials, actions: actions, roster: roster, now: now))
        } catch let refused as FrontDoor.Refused {
            switch refused.refusal {
            case .signInRequired(let member) where refused.verdict != nil:
                return .failure(SignInRefusal(reply: refusal(refused.verdict, for: member, now: now)))
            case .signInRequired(let member):
                return .failure(SignInRefusal(reply: refusal(nil, for: member, now: now)))
            default:
                return .failure(SignInRefusal(reply: Self.plainReply(refused.refusal.text, code: refused.refusal.code)))
            }
        } catch {
            return .failure(SignInRefusal(reply: Self.plainReply("I couldn't check who is speaking just now; please try again.", code: "storage_error")))
        }
    }

    public struct SignInRefusal: Error, Sendable { public let reply: Reply }
}
