import Foundation
import HearthDomain
import HearthStore

// A member signing in on a shared screen (issue 37): the kitchen board runs on a device token
// (usually a read-only one), and a child taps their name and types their PIN to act as
// themselves for a while. A right PIN gives the board a random session secret; the store keeps
// only its hash, as a sign-in session bound to the board's device. The session lapses after
// `SignInRules.boardIdleLimit` without use, or when the board signs out.

extension SignInSkill {
    public enum BoardSignIn: Sendable, Equatable {
        /// Signed in: the secret the board sends as `X-Hearth-Member-Session` (shown only now).
        case signedIn(secret: String)
        case refused(Verdict)
    }

    /// The stored session id of a board's secret: bound to the device it was given to.
    static func boardSession(device: String, secret: String) -> String {
        "board:\(device):\(InvitationSkill.hash(token: secret))"
    }

    /// Checks `member`'s PIN (with the usual lock-out) and, when right, signs a new session in on
    /// `device`. A member without a PIN cannot sign in on a board.
    public func signInOnBoard(_ member: MemberID, pin: String, device: String, now: Date) throws -> BoardSignIn {
        let secret = InvitationSkill.makeToken()
        let verdict = try verify(pin, for: member, session: Self.boardSession(device: device, secret: secret), now: now)
        return verdict == .accepted ? .signedIn(secret: secret) : .refused(verdict)
    }

    /// The member a board's secret is signed in as, touching the session (nil: unknown, another
    /// device's, or lapsed — a lapsed one is removed).
    public func boardMember(secret: String, device: String, now: Date) throws -> MemberID? {
        let session = Self.boardSession(device: device, secret: secret)
        return try store.write { writer in
            guard let (member, lastSeen) = try writer.reader.signedIn(session: session) else { return nil }
            guard now.timeIntervalSince(lastSeen) < SignInRules.boardIdleLimit else {
                _ = try writer.signOut(session: session)
                return nil
            }
            try writer.touchSignIn(session: session, at: now)
            return member
        }
    }

    /// Ends a board's sign-in. Returns whether it was signed in.
    public func signOutOfBoard(secret: String, device: String) throws -> Bool {
        try signOut(session: Self.boardSession(device: device, secret: secret))
    }
}
