import Foundation

/// A member's PIN sign-in state: failed attempts in a row and a lock-out (seed 003's PIN).
public struct SignInState: Codable, Sendable, Equatable {
    public var failedAttempts: Int
    public var lockedUntil: Date?
    public init(failedAttempts: Int = 0, lockedUntil: Date? = nil) {
        self.failedAttempts = failedAttempts; self.lockedUntil = lockedUntil
    }

    public func isLocked(at now: Date) -> Bool { lockedUntil.map { now < $0 } ?? false }
}

/// The pure rules of PIN sign-in: PIN shape, lock-out arithmetic, who may set whose PIN, and the words.
public enum SignInRules {
    /// Wrong PINs in a row that lock a member out, and for how long.
    public static let maximumFailures = 5
    public static let lockDuration: TimeInterval = 15 * 60
    /// A signed-in front-end session lapses after this long without a turn.
    public static let sessionIdleLimit: TimeInterval = 30 * 60
    /// A member signed in on a shared screen (the kitchen board) lapses sooner: a child who walks
    /// away must not leave the board acting as them for the next one to tap.
    public static let boardIdleLimit: TimeInterval = 2 * 60

    /// Why `pin` cannot be a PIN (nil: it can): 4 to 8 digits.
    public static func denial(ofPIN pin: String) -> String? {
        guard (4...8).contains(pin.count), pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return "A PIN is 4 to 8 digits."
        }
        return nil
    }

    /// The state after a wrong PIN: the fifth in a row locks the member for 15 minutes and starts
    /// the count again. A wrong PIN while locked changes nothing (it is not even checked).
    public static func afterFailure(_ state: SignInState, at now: Date) -> SignInState {
        if state.isLocked(at: now) { return state }
        let failures = state.failedAttempts + 1
        if failures >= maximumFailures { return SignInState(failedAttempts: 0, lockedUntil: now.addingTimeInterval(lockDuration)) }
        return SignInState(failedAttempts: failures, lockedUntil: nil)
    }

    /// A right PIN clears the count (and a lock that has run out).
    public static func afterSuccess(_ state: SignInState, at now: Date) -> SignInState { SignInState() }

    /// Wrong PINs left before the lock.
    public static func attemptsLeft(_ state: SignInState) -> Int { max(0, maximumFailures - state.failedAttempts) }

    /// Why `actor` may not set or clear `target`'s PIN (nil: they may): anyone their own, a parent
    /// (owner or co-parent) a child's or any member's; nobody else's.
    public static func denial(toSetPINOf target: Member, by actor: Member) -> String? {
        if actor.id == target.id { return nil }
        // Nobody but the owner changes the owner's PIN: that would let a co-parent sign in as the owner.
        if Permissions.check(actor: actor, action: .pinSetOthers) == nil && !(target.role == .owner && actor.role != .owner) { return nil }
        return "Only \(target.name) or a parent can change \(target.name)'s PIN."
    }

    /// Why `actor` may not change whether front ends require PINs (nil: they may).
    public static func denial(toChangeRequirementBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .pinRequire)?.text
    }

    public static func wrongPIN(_ name: String, left: Int) -> String {
        left == 1 ? "That PIN isn't right for \(name). One more wrong try locks sign-in for 15 minutes."
                  : "That PIN isn't right for \(name). \(left) tries left."
    }
    public static func locked(_ name: String, until: String) -> String {
        "Too many wrong PINs: \(name)'s sign-in is locked until \(until)."
    }
    public static func needsSignIn(_ name: String) -> String {
        "\(name) needs to sign in with a PIN first."
    }
    public static func noPIN(_ name: String) -> String { "\(name) has no PIN set." }
}
