import Foundation
import GRDB
import HearthDomain

// CalDAV accounts and their per-event sync state (issue 36, two-way sync; migration "v27-caldav").

extension StoreReader {
    /// Every CalDAV account, oldest first (never their passwords).
    public func caldavAccounts() throws -> [CalDAVAccount] {
        try Row.fetchAll(db, sql: "SELECT * FROM caldav_account ORDER BY created_at, id").map(Self.caldavAccount)
    }

    /// An account's password, for the sync only.
    public func caldavPassword(of account: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT password FROM caldav_account WHERE id = ?", arguments: [account])
    }

    /// What both sides held after the account's last round, one row per event, with the iCalendar
    /// text as synced (the base of a merge).
    public func caldavItems(of account: String) throws -> [(item: CalDAVSync.Synced, ics: String)] {
        try Row.fetchAll(db, sql: "SELECT * FROM caldav_item WHERE account_id = ? ORDER BY uid", arguments: [account]).map { row in
            (CalDAVSync.Synced(uid: row["uid"], event: EventID(row["event_id"] as String), href: row["href"], etag: row["etag"],
                               changeTag: row["change_tag"]), row["synced_ics"])
        }
    }

    static func caldavAccount(_ row: Row) -> CalDAVAccount {
        CalDAVAccount(id: row["id"], name: row["name"], url: row["url"], username: row["username"],
                      member: (row["member_id"] as String?).map { MemberID($0) }, owner: MemberID(row["owner_id"] as String),
                      createdAt: Date(timeIntervalSince1970: row["created_at"]),
                      lastSyncAt: (row["last_sync_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

extension StoreWriter {
    public func insert(_ account: CalDAVAccount, password: String) throws {
        try db.execute(sql: """
            INSERT INTO caldav_account(id, name, url, username, password, member_id, owner_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [account.id, account.name, account.url, account.username, password, account.member?.rawValue,
                             account.owner.rawValue, account.createdAt.timeIntervalSince1970])
    }

    /// Removes an account and its sync state (the events stay, on both sides).
    public func deleteCalDAVAccount(_ id: String) throws {
        try db.execute(sql: "DELETE FROM caldav_account WHERE id = ?", arguments: [id])
    }

    public func setCalDAVLastSync(_ id: String, at date: Date) throws {
        try db.execute(sql: "UPDATE caldav_account SET last_sync_at = ? WHERE id = ?", arguments: [date.timeIntervalSince1970, id])
    }

    /// Records what both sides hold for one event after it was synced.
    public func recordCalDAVItem(account: String, _ item: CalDAVSync.Synced, ics: String) throws {
        try db.execute(sql: """
            INSERT INTO caldav_item(account_id, uid, event_id, href, etag, change_tag, synced_ics) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(account_id, uid) DO UPDATE SET event_id = excluded.event_id, href = excluded.href, etag = excluded.etag,
              change_tag = excluded.change_tag, synced_ics = excluded.synced_ics
            """, arguments: [account, item.uid, item.event.rawValue, item.href, item.etag, item.changeTag, ics])
    }

    /// A removed member's name or address leaves the synced copies (the bases of later merges): a
    /// base that names them is emptied (a later conflict on that event then keeps Hearth's value
    /// for every field both sides hold differently). Returns how many rows changed.
    public func forgetCalDAVBases(mentioning name: String, id: String) throws -> Int {
        var changed = 0
        for row in try Row.fetchAll(db, sql: "SELECT account_id, uid, synced_ics FROM caldav_item WHERE synced_ics <> ''") {
            let text: String = row["synced_ics"]
            guard FamilyRules.mentions(name, in: text) || text.contains("mailto:\(id)@") else { continue }
            try db.execute(sql: "UPDATE caldav_item SET synced_ics = '' WHERE account_id = ? AND uid = ?",
                           arguments: [row["account_id"] as String, row["uid"] as String])
            changed += db.changesCount
        }
        return changed
    }

    public func forgetCalDAVItem(account: String, uid: String) throws {
        try db.execute(sql: "DELETE FROM caldav_item WHERE account_id = ? AND uid = ?", arguments: [account, uid])
    }
}
