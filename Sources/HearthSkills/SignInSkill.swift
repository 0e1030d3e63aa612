import Crypto
import CryptoExtras
import Foundation
import HearthDomain
import HearthStore
import Logging

/// PIN sign-in (seed 003): PINs set and cleared, checked with the lock-out of `SignInRules`, and the
/// front-end sessions a right PIN signs in. PINs are stored hashed with scrypt (memory-hard) over a
/// per-member random salt, at a cost that makes an offline search of every 4-digit PIN take hours
/// (`Cost.standard`, measured in docs/protocol.md); rows hashed earlier with PBKDF2 still verify and are
/// hashed again with scrypt at their next right PIN. A PIN never reaches the log.
public struct SignInSkill: Sendable {
    public let store: any StoreAccess
    public let logger: Logger
    /// The cost new PINs are hashed at.
    public let cost: Cost

    /// The PBKDF2 rounds of rows hashed before scrypt (verified, never written any more).
    public static let iterations = 4096
    static let requiredSetting = "pin_required"

    /// scrypt's parameters: N = 2^log2N, block size r, parallelism p. Memory is 128·r·N bytes; time
    /// grows with N·r·p.
    public struct Cost: Sendable, Equatable {
        public var log2N: Int, r: Int, p: Int
        public init(log2N: Int, r: Int, p: Int) { self.log2N = log2N; self.r = r; self.p = p }
        /// 32 MiB and 0.53 s of one core a try in a release build (docs/protocol.md, "Sign-in and invitations"):
        /// an offline search of the 10,000 four-digit PINs takes about 1.5 hours of one core.
        public static let standard = Cost(log2N: 15, r: 8, p: 6)
        /// For tests that set many PINs in-process; never used by a command or a server.
        public static let testing = Cost(log2N: 10, r: 8, p: 1)

        public var name: String { "scrypt:\(log2N):\(r):\(p)" }

        init?(name: String) {
            let parts = name.split(separator: ":")
            guard parts.count == 4, parts[0] == "scrypt", let n = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
                  (1...22).contains(n), (1...32).contains(r), (1...64).contains(p) else { return nil }
            self.init(log2N: n, r: r, p: p)
        }
    }

    public init(store: any StoreAccess, logger: Logger, cost: Cost = .standard) { self.store = store; self.logger = logger; self.cost = cost }

    public func joining(_ transaction: any StoreAccess) -> SignInSkill { SignInSkill(store: transaction, logger: logger, cost: cost) }

    /// scrypt of `pin` with `salt` at `cost`, as hex.
    public static func derive(pin: String, salt: [UInt8], cost: Cost) -> String {
        let key = try? KDF.Scrypt.deriveKey(from: Array(pin.utf8), salt: salt, outputByteCount: 32, rounds: 1 << cost.log2N,
                                            blockSize: cost.r, parallelism: cost.p, maxMemory: 256 << 20)
        return key.map { $0.withUnsafeBytes { hex($0) } } ?? ""
    }

    /// The digest a stored row's function and cost give for `pin` ("" when the row's function is unknown).
    static func derive(pin: String, for stored: StoredPIN) -> String {
        let salt = bytes(hex: stored.salt)
        if let cost = Cost(name: stored.kdf) { return derive(pin: pin, salt: salt, cost: cost) }
        if stored.kdf == "pbkdf2-sha256" { return derive(pin: pin, salt: salt, iterations: stored.iterations) }
        return ""
    }

    /// A new row for `pin`: a fresh salt, scrypt at `cost`.
    func hashed(_ pin: String, for member: MemberID) -> StoredPIN {
        let salt = Self.makeSalt()
        return StoredPIN(member: member, salt: Self.hex(salt), hash: Self.derive(pin: pin, salt: salt, cost: cost), iterations: 0, kdf: cost.name)
    }

    // MARK: Hashing

    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = [], characters = Array(hex.utf8)
        guard characters.count % 2 == 0 else { return [] }
        var index = 0
        while index < characters.count {
            guard let byte = UInt8(String(decoding: characters[index..<index + 2], as: UTF8.self), radix: 16) else { return [] }
            result.append(byte)
            index += 2
        }
        return result
    }

    /// PBKDF2-HMAC-SHA256 (one block), the hash of rows written before scrypt:
    /// U1 = HMAC(pin, salt‖1), Ui = HMAC(pin, Ui-1), result = U1 ⊕ … ⊕ Un.
    public static func derive(pin: String, salt: [UInt8], iterations: Int) -> String {
        let key = SymmetricKey(data: Data(pin.utf8))
        var block = Array(HMAC<SHA256>.authenticationCode(for: salt + [0, 0, 0, 1], using: key))
        var result = block
        for _ in 1..<max(1, iterations) {
            block = Array(HMAC<SHA256>.authenticationCode(for: block, using: key))
            for index in result.indices { result[index] ^= block[index] }
        }
        return hex(result)
    }

    static func makeSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Compares two hex digests without stopping at the first difference.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    // MARK: Setting PINs

    /// Sets `target`'s PIN (anyone their own; a parent anyone's but the owner's). Clears a lock-out.
    public func setPIN(_ pin: String, for target: Member, by actor: Member, now: Date) throws {
        try SkillError.checkPermission(SignInRules.denial(toSetPINOf: target, by: actor))
        if let denial = SignInRules.denial(ofPIN: pin) { throw SkillError.invalid(denial) }
        let stored = hashed(pin, for: target.id)
        try store.write { writer in
            try writer.setPIN(stored, at: now)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "pin", subjectID: target.id.rawValue,
                                            summary: actor.id == target.id ? "\(actor.name) changed their PIN" : "\(actor.name) set \(target.name)'s PIN"))
        }
        logger.info("pin set", metadata: ["member": "\(target.id)"])
    }

    /// Removes `target`'s PIN (and their signed-in sessions). Returns whether they had one.
    @discardableResult
    public func clearPIN(for target: Member, by actor: Member, now: Date) throws -> Bool {
        try SkillError.checkPermission(SignInRules.denial(toSetPINOf: target, by: actor))
        return try store.write { writer in
            guard try writer.clearPIN(of: target.id) else { return false }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "pin", subjectID: target.id.rawValue,
                                            summary: "\(actor.name) removed \(target.name)'s PIN"))
            return true
        }
    }

    public func hasPIN(_ member: MemberID) throws -> Bool { try store.read { try $0.pin(of: member) != nil } }

    /// Whether front ends must have members who have a PIN sign in (`hearth pin require on|off`).
    public func isRequired() throws -> Bool { try store.read { try $0.setting(Self.requiredSetting) == "on" } }

    public func setRequired(_ required: Bool, by actor: Member, now: Date) throws {
        try SkillError.checkPermission(SignInRules.denial(toChangeRequirementBy: actor))
        try store.write { writer in
            try writer.setSetting(Self.requiredSetting, required ? "on" : "off")
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "setting", subjectID: Self.requiredSetting,
                                            summary: required ? "\(actor.name) required PIN sign-in" : "\(actor.name) stopped requiring PIN sign-in"))
        }
    }

    // MARK: Checking PINs

    public enum Verdict: Sendable, Equatable {
        case accepted
        /// Wrong; this many tries left before the lock.
        case wrong(left: Int)
        /// Locked out until then (the PIN was not checked).
        case locked(until: Date)
        case noPIN
        /// A parent took this member's access away (`AccountRules`): the PIN was not checked.
        case revoked
    }

    /// Checks `pin` for `member`, counting a wrong one (the fifth in a row locks for 15 minutes) and
    /// clearing the count on a right one, in one transaction. With `session`, a right PIN signs that
    /// front-end session in as `member`.
    public func verify(_ pin: String, for member: MemberID, session: String? = nil, now: Date) throws -> Verdict {
        let verdict = try store.write { writer -> Verdict in
            if let found = try writer.reader.member(member), !found.hasAccess { return .revoked }
            guard let stored = try writer.reader.pin(of: member) else { return .noPIN }
            if stored.state.isLocked(at: now), let until = stored.state.lockedUntil { return .locked(until: until) }
            let derived = Self.derive(pin: pin, for: stored)
            guard !derived.isEmpty, Self.same(derived, stored.hash) else {
                let next = SignInRules.afterFailure(stored.state, at: now)
                try writer.setSignInState(next, of: member, at: now)
                if let until = next.lockedUntil { return .locked(until: until) }
                return .wrong(left: SignInRules.attemptsLeft(next))
            }
            if stored.kdf != cost.name && Cost(name: stored.kdf) == nil {
                try writer.setPIN(hashed(pin, for: member), at: now)  // an older hash, upgraded while the PIN is at hand
            } else if stored.state != SignInState() {
                try writer.setSignInState(SignInRules.afterSuccess(stored.state, at: now), of: member, at: now)
            }
            if let session { try writer.signIn(session: session, member: member, at: now) }
            return .accepted
        }
        switch verdict {
        case .accepted: logger.info("signed in", metadata: ["member": "\(member)"])
        case .wrong: logger.notice("wrong pin", metadata: ["member": "\(member)"])
        case .locked: logger.notice("sign-in locked", metadata: ["member": "\(member)"])
        case .noPIN: break
        case .revoked: logger.notice("sign-in refused: access revoked", metadata: ["member": "\(member)"])
        }
        return verdict
    }

    /// Keeps a signed-in session alive: its idle time counts from now.
    public func touch(session: String, now: Date) throws { try store.write { try $0.touchSignIn(session: session, at: now) } }

    @discardableResult
    public func signOut(session: String) throws -> Bool { try store.write { try $0.signOut(session: session) } }

    /// The member signed in on `session` (nil: nobody, or the sign-in lapsed after `SignInRules.sessionIdleLimit`).
    public func signedIn(session: String, now: Date) throws -> MemberID? {
        guard let (member, lastSeen) = try store.read({ try $0.signedIn(session: session) }) else { return nil }
        return now.timeIntervalSince(lastSeen) < SignInRules.sessionIdleLimit ? member : nil
    }

    /// What the front door needs before every turn, in one read: whether PINs are required, who
    /// (if anyone) `session` is signed in as, and whether `speaker` has a PIN.
    public func frontDoor(session: String, now: Date) throws -> (required: Bool, signedIn: MemberID?, withPIN: Set<MemberID>) {
        try store.read { reader in
            let required = try reader.setting(Self.requiredSetting) == "on"
            let signedIn = try reader.signedIn(session: session).flatMap { now.timeIntervalSince($0.lastSeen) < SignInRules.sessionIdleLimit ? $0.member : nil }
            return (required, signedIn, required ? try reader.membersWithPIN() : [])
        }
    }

    public enum Admission: Sendable, Equatable {
        /// Go ahead.
        case admitted
        case refused(Verdict?)
    }

    /// Whether a turn from `speaker` on `session` may run: always when PINs are not required or the
    /// speaker has none; else when the turn carries their right PIN or the session is signed in as them.
    public func admit(_ speaker: MemberID, session: String, pin: String?, now: Date) throws -> Admission {
        let door = try frontDoor(session: session, now: now)
        return try admit(speaker, session: session, pin: pin, now: now, door: door)
    }

    /// `admit` with the front door already read (`frontDoor`).
    public func admit(_ speaker: MemberID, session: String, pin: String?, now: Date,
                      door: (required: Bool, signedIn: MemberID?, withPIN: Set<MemberID>)) throws -> Admission {
        guard door.required, door.withPIN.contains(speaker) else { return .admitted }
        if let pin {
            let verdict = try verify(pin, for: speaker, now: now)
            return verdict == .accepted ? .admitted : .refused(verdict)
        }
        if door.signedIn == speaker { return .admitted }
        return .refused(nil)
    }
}
