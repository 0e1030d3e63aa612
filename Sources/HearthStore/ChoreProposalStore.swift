import Foundation
import GRDB
import HearthDomain

// Chores children propose (migration v28): waiting, approved or declined.

extension StoreReader {
    /// The proposals waiting for a parent, oldest first.
    public func pendingChoreProposals() throws -> [ChoreProposal] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM chore_proposal WHERE status = 'pending' ORDER BY created_at, id"))
            .map(Self.choreProposal)
    }

    public func choreProposal(_ id: ChoreProposalID) throws -> ChoreProposal? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM chore_proposal WHERE id = ?"), arguments: [id.rawValue]).map(Self.choreProposal)
    }

    static func choreProposal(_ row: Row) -> ChoreProposal {
        ChoreProposal(id: ChoreProposalID(row["id"]), member: MemberID(row["member_id"]), title: row["title"], points: row["points"],
                      due: (row["due_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                      status: ChoreProposal.Status(rawValue: row["status"]) ?? .pending,
                      createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }
}

extension StoreWriter {
    public func insert(_ proposal: ChoreProposal) throws {
        try db.cachedStatement(sql: """
            INSERT INTO chore_proposal(id, member_id, title, points, due_at, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [proposal.id.rawValue, proposal.member.rawValue, proposal.title, proposal.points,
                                     proposal.due?.timeIntervalSince1970, proposal.status.rawValue, proposal.createdAt.timeIntervalSince1970])
    }

    /// Closes a waiting proposal: approved (with the chore it became) or declined. Returns false when
    /// it was no longer waiting (another parent got there first).
    @discardableResult
    public func decide(_ id: ChoreProposalID, _ status: ChoreProposal.Status, by actor: MemberID, at now: Date, chore: ChoreID?) throws -> Bool {
        try db.cachedStatement(sql: """
            UPDATE chore_proposal SET status = ?, decided_by = ?, decided_at = ?, chore_id = ? WHERE id = ? AND status = 'pending'
            """).execute(arguments: [status.rawValue, actor.rawValue, now.timeIntervalSince1970, chore?.rawValue, id.rawValue])
        return db.changesCount > 0
    }
}
