import Foundation
import HearthDomain

/// What a skill refuses or cannot do, with the words a reply says (every skill throws these; the
/// engine turns them into `HearthError` in one place, `Assistant.hearthError`).
public enum SkillError: Error, Equatable, Sendable {
    case permissionDenied(String)
    case invalid(String)
    case notFound(String)
    /// Something of that name is already there ("Emma is already in the family.").
    case alreadyExists(String)
    /// A redemption the balance does not cover: how many more points it needs, and the balance.
    case insufficientPoints(need: Int, balance: Int)

    /// What a reply says for it: the one wording every front end (a turn, the CLI, HTTP) uses.
    public var words: String {
        switch self {
        case .permissionDenied(let text), .invalid(let text), .notFound(let text), .alreadyExists(let text): text
        case .insufficientPoints(let need, _): ChoreRules.insufficientPoints(need: need)
        }
    }

    /// Throws `permissionDenied` with a permission rule's refusal (`CalendarRules.denial(…)`), if it has one.
    static func checkPermission(_ denial: String?) throws {
        if let denial { throw SkillError.permissionDenied(denial) }
    }
}
