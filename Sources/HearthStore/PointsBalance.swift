import GRDB

/// Each member's balance (the sum of their points ledger) and how many ledger lines they have, in
/// `points_balance`, kept by triggers on `points_entry`, so a balance is one row read however long
/// the family's history (issue 31). Every write to the ledger — an award, a redemption, an undo, a
/// member's removal (by cascade), a restore — moves it in the same transaction; nothing else
/// writes it. Derived from the ledger: never exported, rebuilt after a restore.
enum PointsBalance {
    static let table = "points_balance"

    /// The table, its triggers, and its rows for the ledger as it is.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE points_balance (
              member_id TEXT PRIMARY KEY NOT NULL REFERENCES member(id) ON DELETE CASCADE,
              balance INTEGER NOT NULL,
              lines INTEGER NOT NULL
            );
            CREATE TRIGGER points_balance_insert AFTER INSERT ON points_entry FOR EACH ROW BEGIN
              INSERT INTO points_balance(member_id, balance, lines) VALUES (NEW.member_id, NEW.amount, 1)
              ON CONFLICT(member_id) DO UPDATE SET balance = balance + excluded.balance, lines = lines + 1;
            END;
            CREATE TRIGGER points_balance_delete AFTER DELETE ON points_entry FOR EACH ROW BEGIN
              UPDATE points_balance SET balance = balance - OLD.amount, lines = lines - 1 WHERE member_id = OLD.member_id;
            END;
            CREATE TRIGGER points_balance_update AFTER UPDATE OF member_id, amount ON points_entry FOR EACH ROW BEGIN
              UPDATE points_balance SET balance = balance - OLD.amount, lines = lines - 1 WHERE member_id = OLD.member_id;
              INSERT INTO points_balance(member_id, balance, lines) VALUES (NEW.member_id, NEW.amount, 1)
              ON CONFLICT(member_id) DO UPDATE SET balance = balance + excluded.balance, lines = lines + 1;
            END;
            """)
        try rebuild(db)
    }

    /// The rows again, from the ledger (after a restore wrote the ledger's lines back).
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM points_balance;
            INSERT INTO points_balance(member_id, balance, lines) SELECT member_id, SUM(amount), COUNT(*) FROM points_entry GROUP BY member_id;
            """)
    }
}
