import GRDB

/// Schema history. Migrations are named, append-only and never edited once shipped; they use
/// table definitions only (no record types), so later code changes cannot alter old migrations.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-family-calendar-dialog") { db in
            try db.create(table: "family_setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "member") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                t.column("kind", .text).notNull().check { ["adult", "child"].contains($0) }
                t.column("role", .text).notNull().check { ["owner", "co-parent", "viewer", "member"].contains($0) }
                t.column("age", .integer)
                t.column("supervised", .boolean).notNull().defaults(to: false)
                t.column("aliases", .text).notNull().defaults(to: "[]")
                t.column("location_sharing", .boolean).notNull().defaults(to: true)
                t.column("position", .integer).notNull().defaults(to: 0)
                t.column("updated_at", .double).notNull()
                t.column("updated_by", .text)
                t.column("change_tag", .integer).notNull().defaults(to: 1)
            }
            try db.create(table: "place") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("radius_m", .double).notNull().defaults(to: 150)
                t.column("updated_at", .double).notNull()
            }
            try db.create(table: "event") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull()
                t.column("start_at", .double).notNull()
                t.column("end_at", .double).notNull()
                t.column("all_day", .boolean).notNull().defaults(to: false)
                t.column("location", .text)
                t.column("organizer_id", .text).references("member", onDelete: .setNull)
                t.column("rrule", .text)
                // Last instant any occurrence can end (NULL: the series never ends). Lets range queries
                // skip finished series without expanding them.
                t.column("series_end_at", .double)
                t.column("exdates", .text).notNull().defaults(to: "[]")
                t.column("created_at", .double).notNull()
                t.column("updated_at", .double).notNull()
                t.column("updated_by", .text)
                t.column("change_tag", .integer).notNull().defaults(to: 1)
                t.check(sql: "end_at >= start_at")
            }
            try db.create(index: "event_on_start", on: "event", columns: ["start_at"])
            try db.create(table: "event_attendee") { t in
                t.column("event_id", .text).notNull().references("event", onDelete: .cascade)
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.primaryKey(["event_id", "member_id"])
            }
            try db.create(index: "event_attendee_on_member", on: "event_attendee", columns: ["member_id", "event_id"])
            try db.create(table: "session") { t in
                t.primaryKey("id", .text)
                t.column("speaker_id", .text).references("member", onDelete: .cascade)
                t.column("pending", .text)
                t.column("expires_at", .double)
                t.column("updated_at", .double).notNull()
            }
            try db.create(table: "activity") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .double).notNull()
                t.column("actor_id", .text).references("member", onDelete: .setNull)
                t.column("action", .text).notNull()
                t.column("subject_type", .text).notNull()
                t.column("subject_id", .text)
                t.column("summary", .text).notNull()
            }
            try db.create(index: "activity_on_at", on: "activity", columns: ["at"])
            try db.create(table: "notification") { t in
                t.primaryKey("id", .text)
                t.column("created_at", .double).notNull()
                t.column("deliver_at", .double).notNull()
                t.column("recipient_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
                t.column("related_id", .text)
                t.column("status", .text).notNull().defaults(to: "pending")
                    .check { ["pending", "delivered", "read"].contains($0) }
                // Makes "queue this once" idempotent (reminders must never go out twice).
                t.column("dedupe_key", .text).unique()
            }
            try db.create(index: "notification_on_status", on: "notification", columns: ["status", "deliver_at"])
            try db.create(table: "member_location") { t in
                t.primaryKey("member_id", .text).references("member", onDelete: .cascade)
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("accuracy_m", .double).notNull()
                t.column("battery", .integer)
                t.column("recorded_at", .double).notNull()
            }
        }
        // iCalendar import/export: an event's UID stays stable across re-imports (NULL: none yet;
        // export then derives one from the id). SQLite cannot add a UNIQUE column, hence the index.
        migrator.registerMigration("v2-event-uid") { db in
            try db.alter(table: "event") { t in t.add(column: "uid", .text) }
            try db.create(index: "event_on_uid", on: "event", columns: ["uid"], unique: true)
        }
        // Range queries that stay sub-linear on large calendars (see StoreReader.events): one-offs
        // longer than a week and recurring series each get a small partial index, so the common
        // case can bound its scan of `event_on_start` to a week before the range.
        migrator.registerMigration("v3-event-range-indexes") { db in
            try db.execute(sql: "CREATE INDEX event_long_on_end ON event(end_at) WHERE rrule IS NULL AND end_at - start_at > 604800")
            try db.execute(sql: "CREATE INDEX event_series_on_start ON event(start_at) WHERE rrule IS NOT NULL")
        }
        // The last change a conversation made, so that "undo that" can put it back (JSON owned by the engine).
        migrator.registerMigration("v4-session-last-change") { db in
            try db.alter(table: "session") { t in t.add(column: "last_change", .text) }
        }
        // "except school holidays": a series' skip that RRULE cannot hold (an X-HEARTH-SKIP value), and
        // the family's school calendar it is read against. Dates are text so they stay civil dates.
        migrator.registerMigration("v5-school-holidays") { db in
            try db.alter(table: "event") { t in t.add(column: "rrule_skip", .text) }
            try db.create(table: "school_holiday") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("first_day", .text).notNull()
                t.column("last_day", .text).notNull()
                t.column("updated_at", .double).notNull()
                t.check(sql: "last_day >= first_day AND length(first_day) = 10 AND length(last_day) = 10")
                t.uniqueKey(["first_day", "last_day", "name"], onConflict: .ignore)
            }
        }
        // Reminders: once, on a rule, or a while before each occurrence of an event (computed from the
        // event as it is when due, so it follows the event when it moves; it goes when the event goes).
        // `last_due_at` is when the last occurrence delivered was due: a tick delivers what falls after it.
        migrator.registerMigration("v6-reminders") { db in
            try db.create(table: "reminder") { t in
                t.primaryKey("id", .text)
                t.column("body", .text)
                t.column("link", .text).notNull().defaults(to: "to").check { ["to", "about", "that"].contains($0) }
                t.column("due_at", .double)
                t.column("rrule", .text)
                t.column("rrule_skip", .text)
                t.column("event_id", .text).references("event", onDelete: .cascade)
                t.column("minutes_before", .integer)
                t.column("last_due_at", .double)
                t.column("created_by", .text).references("member", onDelete: .setNull)
                t.column("created_at", .double).notNull()
                t.column("updated_at", .double).notNull()
                t.column("updated_by", .text)
                t.column("change_tag", .integer).notNull().defaults(to: 1)
                // Either a time of its own or an event to count back from, never both.
                t.check(sql: "(due_at IS NULL) = (event_id IS NOT NULL) AND (event_id IS NULL) = (minutes_before IS NULL)")
                t.check(sql: "rrule IS NULL OR due_at IS NOT NULL")
            }
            try db.create(index: "reminder_on_event", on: "reminder", columns: ["event_id"], condition: Column("event_id") != nil)
            try db.create(table: "reminder_recipient") { t in
                t.column("reminder_id", .text).notNull().references("reminder", onDelete: .cascade)
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.primaryKey(["reminder_id", "member_id"])
            }
            try db.create(index: "reminder_recipient_on_member", on: "reminder_recipient", columns: ["member_id", "reminder_id"])
        }
        // A member's home time zone (an IANA identifier) when they live elsewhere: "5 pm grandma's time".
        migrator.registerMigration("v7-member-home-time-zone") { db in
            try db.alter(table: "member") { t in t.add(column: "home_time_zone", .text) }
        }
        // Chores, points and rewards (seed 000 §3.4, seed 003, seed 004). A series makes one `chore` row
        // per occurrence as it comes up (unique per series and due time, so a second tick adds nothing);
        // points are an append-only ledger whose sum is the balance, `dedupe_key` making a bonus that
        // must be given once (a perfect week) idempotent.
        migrator.registerMigration("v8-chores-points-rewards") { db in
            try db.create(table: "chore_template") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                t.column("points", .integer).notNull().check { $0 >= 0 }
                t.column("difficulty", .text).notNull().check { ["easy", "medium", "hard"].contains($0) }
                t.column("category", .text).notNull().defaults(to: "other")
                t.column("estimated_minutes", .integer)
                t.column("rrule", .text)
                t.column("aliases", .text).notNull().defaults(to: "[]")
                t.column("requires_review", .boolean).notNull().defaults(to: false)
                t.column("missed_policy", .text).notNull().defaults(to: "stay").check { ["stay", "roll"].contains($0) }
                t.column("active", .boolean).notNull().defaults(to: true)
                t.column("updated_at", .double).notNull()
                t.column("updated_by", .text)
                t.column("change_tag", .integer).notNull().defaults(to: 1)
            }
            try db.create(table: "chore_series") { t in
                t.primaryKey("id", .text)
                t.column("template_id", .text).references("chore_template", onDelete: .setNull)
                t.column("title", .text).notNull()
                t.column("points", .integer).notNull().check { $0 >= 0 }
                t.column("sharing", .text).notNull().check { ["single", "any", "rotate"].contains($0) }
                t.column("first_due_at", .double).notNull()
                t.column("rrule", .text).notNull()
                t.column("rrule_skip", .text)
                t.column("requires_review", .boolean).notNull().defaults(to: false)
                t.column("missed_policy", .text).notNull().defaults(to: "stay").check { ["stay", "roll"].contains($0) }
                t.column("created_by", .text).references("member", onDelete: .setNull)
                t.column("created_at", .double).notNull()
                t.column("ended_at", .double)
                t.column("updated_at", .double).notNull()
                t.column("change_tag", .integer).notNull().defaults(to: 1)
            }
            try db.create(table: "chore_series_assignee") { t in
                t.column("series_id", .text).notNull().references("chore_series", onDelete: .cascade)
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.primaryKey(["series_id", "member_id"])
            }
            try db.create(table: "chore") { t in
                t.primaryKey("id", .text)
                t.column("series_id", .text).references("chore_series", onDelete: .cascade)
                t.column("template_id", .text).references("chore_template", onDelete: .setNull)
                t.column("title", .text).notNull()
                t.column("points", .integer).notNull().check { $0 >= 0 }
                t.column("sharing", .text).notNull().check { ["single", "any", "rotate"].contains($0) }
                t.column("due_at", .double).notNull()
                t.column("status", .text).notNull().defaults(to: "pending")
                    .check { ["pending", "overdue", "pending_review", "completed", "skipped", "missed"].contains($0) }
                t.column("requires_review", .boolean).notNull().defaults(to: false)
                t.column("missed_policy", .text).notNull().defaults(to: "stay").check { ["stay", "roll"].contains($0) }
                t.column("completed_by", .text).references("member", onDelete: .setNull)
                t.column("completed_at", .double)
                t.column("minutes_spent", .integer)
                t.column("reviewed_by", .text).references("member", onDelete: .setNull)
                t.column("reviewed_at", .double)
                t.column("rejection_reason", .text)
                t.column("points_awarded", .integer)
                t.column("created_by", .text).references("member", onDelete: .setNull)
                t.column("created_at", .double).notNull()
                t.column("updated_at", .double).notNull()
                t.column("updated_by", .text)
                t.column("change_tag", .integer).notNull().defaults(to: 1)
                t.uniqueKey(["series_id", "due_at"])
            }
            try db.create(index: "chore_on_due", on: "chore", columns: ["due_at"])
            try db.create(index: "chore_on_status", on: "chore", columns: ["status", "due_at"])
            try db.create(table: "chore_assignee") { t in
                t.column("chore_id", .text).notNull().references("chore", onDelete: .cascade)
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.primaryKey(["chore_id", "member_id"])
            }
            try db.create(index: "chore_assignee_on_member", on: "chore_assignee", columns: ["member_id", "chore_id"])
            try db.create(table: "points_entry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("amount", .integer).notNull()
                t.column("kind", .text).notNull()
                    .check { ["chore", "early_bonus", "first_chore_bonus", "perfect_week", "adjustment", "redemption", "refund"].contains($0) }
                t.column("reason", .text)
                t.column("related_id", .text)
                t.column("at", .double).notNull()
                t.column("by_id", .text).references("member", onDelete: .setNull)
                t.column("dedupe_key", .text).unique()
            }
            try db.create(index: "points_entry_on_member", on: "points_entry", columns: ["member_id", "at"])
            try db.create(table: "reward") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                t.column("cost", .integer).notNull().check { $0 > 0 }
                t.column("category", .text).notNull().defaults(to: "treat")
                t.column("aliases", .text).notNull().defaults(to: "[]")
                t.column("needs_approval", .boolean).notNull().defaults(to: false)
                t.column("active", .boolean).notNull().defaults(to: true)
                t.column("updated_at", .double).notNull()
                t.column("updated_by", .text)
                t.column("change_tag", .integer).notNull().defaults(to: 1)
            }
            try db.create(table: "redemption") { t in
                t.primaryKey("id", .text)
                t.column("reward_id", .text).references("reward", onDelete: .setNull)
                t.column("reward_title", .text).notNull()
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("cost", .integer).notNull()
                t.column("status", .text).notNull().check { ["approved", "pending", "declined"].contains($0) }
                t.column("requested_at", .double).notNull()
                t.column("decided_by", .text).references("member", onDelete: .setNull)
                t.column("decided_at", .double)
            }
            try db.create(table: "chore_pause") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("member_id", .text).references("member", onDelete: .cascade)
                t.column("first_day", .text).notNull()
                t.column("last_day", .text).notNull()
                t.column("created_at", .double).notNull()
                t.column("created_by", .text).references("member", onDelete: .setNull)
                t.check(sql: "last_day >= first_day AND length(first_day) = 10 AND length(last_day) = 10")
            }
        }
        // When a notification was handed to a front end (in a turn's reply or a tick's output):
        // handed out once, then `status` follows the front end's acknowledgements.
        migrator.registerMigration("v9-notification-sent-at") { db in
            try db.alter(table: "notification") { t in t.add(column: "sent_at", .double) }
        }
        // Messages and broadcasts (seed 000 §3.2): a status per recipient and the answers in the thread.
        migrator.registerMigration("v10-messages") { db in
            try db.create(table: "message") { t in
                t.primaryKey("id", .text)
                t.column("kind", .text).notNull().check { ["direct", "broadcast"].contains($0) }
                t.column("sender_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("subject", .text)
                t.column("body", .text).notNull()
                t.column("requires_response", .boolean).notNull().defaults(to: false)
                t.column("deadline_at", .double)
                t.column("priority", .text).notNull().check { ["low", "normal", "high", "urgent"].contains($0) }
                t.column("sent_at", .double).notNull()
                t.column("outcome_told_at", .double)
            }
            try db.create(index: "message_on_sender", on: "message", columns: ["sender_id", "sent_at"])
            try db.create(table: "message_recipient") { t in
                t.column("message_id", .text).notNull().references("message", onDelete: .cascade)
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("status", .text).notNull().check { ["pending", "delivered", "read", "failed"].contains($0) }
                t.column("delivered_at", .double)
                t.column("read_at", .double)
                t.primaryKey(["message_id", "member_id"])
            }
            try db.create(index: "message_recipient_on_member", on: "message_recipient", columns: ["member_id", "status"])
            try db.create(table: "message_response") { t in
                t.primaryKey("id", .text)
                t.column("message_id", .text).notNull().references("message", onDelete: .cascade)
                t.column("responder_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("body", .text).notNull()
                t.column("responded_at", .double).notNull()
            }
            try db.create(index: "message_response_on_message", on: "message_response", columns: ["message_id", "responded_at"])
        }
        // Who may see a member's location (seed 000 `LocationSharingPreference.visibleTo`): no rows =
        // the whole family; `member.location_sharing` stays the on/off switch.
        migrator.registerMigration("v11-location-sharing") { db in
            try db.create(table: "location_visibility") { t in
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("viewer_id", .text).notNull().references("member", onDelete: .cascade)
                t.primaryKey(["member_id", "viewer_id"])
                t.check(sql: "member_id <> viewer_id")
            }
        }
        // Check-ins (seed 000 §3.5): requests and their answers (manual, the school-night safety
        // check, scheduled, and the automatic ones triggers make), the triggers, and said statuses.
        migrator.registerMigration("v12-check-ins") { db in
            try db.create(table: "checkin_request") { t in
                t.primaryKey("id", .text)
                t.column("from_id", .text).references("member", onDelete: .setNull)
                t.column("to_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("message", .text)
                t.column("origin", .text).notNull().check { ["manual", "safety", "scheduled", "automatic"].contains($0) }
                t.column("status", .text).notNull().check { ["pending", "responded", "expired", "cancelled"].contains($0) }
                t.column("requested_at", .double).notNull()
                t.column("responded_at", .double)
                t.column("response_text", .text)
                t.column("eta", .double)
                t.column("place", .text)
                t.column("reminded_at", .double)
                t.column("alerted_at", .double)
            }
            try db.create(index: "checkin_request_on_to", on: "checkin_request", columns: ["to_id", "status", "requested_at"])
            try db.create(table: "checkin_trigger") { t in
                t.primaryKey("id", .text)
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("watcher_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("type", .text).notNull().check { ["arrive", "depart", "scheduled", "battery_low"].contains($0) }
                t.column("place_id", .text)
                t.column("time", .double)
                t.column("active", .boolean).notNull().defaults(to: true)
                t.column("created_at", .double).notNull()
            }
            try db.create(index: "checkin_trigger_on_member", on: "checkin_trigger", columns: ["member_id", "active"])
            try db.create(table: "member_status") { t in
                t.primaryKey("member_id", .text).references("member", onDelete: .cascade)
                t.column("status", .text).notNull().check { ["at_home", "at_work", "at_school", "driving", "unknown"].contains($0) }
                t.column("set_at", .double).notNull()
                t.column("expires_at", .double)
            }
        }
        // School timetables (seed 002): a school's week 1 start, its override for one week and its
        // bells; each student's two-week timetable, with subjects, teachers and rooms as reference rows.
        migrator.registerMigration("v13-timetable") { db in
            try db.create(table: "timetable_school") { t in
                t.primaryKey("name", .text).collate(.nocase)
                t.column("week1_start", .text).notNull()
                t.column("override_week", .integer).check { [1, 2].contains($0) }
                t.column("override_week_start", .text)
                t.column("updated_at", .double).notNull()
            }
            try db.create(table: "timetable_period") { t in
                t.column("school", .text).notNull().references("timetable_school", onDelete: .cascade)
                t.column("period", .text).notNull()
                t.column("start_time", .text).notNull()
                t.column("end_time", .text).notNull()
                t.primaryKey(["school", "period"])
            }
            try db.create(table: "timetable") { t in
                t.primaryKey("member_id", .text).references("member", onDelete: .cascade)
                t.column("school", .text).notNull().references("timetable_school", onDelete: .restrict)
                t.column("imported_at", .double).notNull()
                t.column("imported_by", .text)
            }
            try db.create(table: "timetable_subject") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().collate(.nocase)
            }
            try db.create(table: "timetable_teacher") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("code", .text).notNull().unique().collate(.nocase)
            }
            try db.create(table: "timetable_room") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().collate(.nocase)
            }
            try db.create(table: "timetable_lesson") { t in
                t.column("member_id", .text).notNull().references("timetable", onDelete: .cascade)
                t.column("week", .integer).notNull().check { [1, 2].contains($0) }
                t.column("weekday", .integer).notNull().check { $0 >= 1 && $0 <= 5 }
                t.column("period", .text).notNull()
                t.column("subject_id", .integer).notNull().references("timetable_subject")
                t.column("teacher_id", .integer).references("timetable_teacher")
                t.column("room_id", .integer).notNull().references("timetable_room")
                t.primaryKey(["member_id", "week", "weekday", "period"])
            }
        }
        migrator.registerMigration("v14-session-focus") { db in
            // What the conversation is about, for follow-ups ("and Jake?", "move it"): opaque JSON
            // owned by the engine, like the pending question and the last change.
            try db.alter(table: "session") { t in t.add(column: "focus", .text) }
        }
        // A real family (issue 9): the words one member uses for another ("mom" said by a child is
        // Lisa; said by Lisa it is Grandma Sue). Both ends go with either member.
        migrator.registerMigration("v15-family-setup") { db in
            try db.create(table: "member_alias") { t in
                t.column("speaker_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("word", .text).notNull().collate(.nocase)
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.primaryKey(["speaker_id", "word"])
            }
            try db.create(index: "member_alias_on_member", on: "member_alias", columns: ["member_id"])
        }
        // Invitations (seed 001: owner only, single use, 72 hours; only the token's SHA-256 is kept),
        // members' PINs (salted, iterated hashes, with the lock-out count) and the front-end sessions a
        // PIN signed in (transient: never exported).
        migrator.registerMigration("v16-sign-in-invitations") { db in
            try db.create(table: "invitation") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("role", .text).notNull().check { ["co-parent", "viewer", "member"].contains($0) }
                t.column("kind", .text).notNull().check { ["adult", "child"].contains($0) }
                t.column("token_hash", .text).notNull().unique()
                t.column("created_by", .text).references("member", onDelete: .setNull)
                t.column("created_at", .double).notNull()
                t.column("expires_at", .double).notNull()
                t.column("accepted_at", .double)
                t.column("accepted_member_id", .text).references("member", onDelete: .setNull)
            }
            try db.create(table: "member_pin") { t in
                t.primaryKey("member_id", .text).references("member", onDelete: .cascade)
                t.column("salt", .text).notNull()
                t.column("hash", .text).notNull()
                t.column("iterations", .integer).notNull()
                t.column("failed_attempts", .integer).notNull().defaults(to: 0)
                t.column("locked_until", .double)
                t.column("updated_at", .double).notNull()
            }
            try db.create(table: "sign_in_session") { t in
                t.primaryKey("session_id", .text)
                t.column("member_id", .text).notNull().references("member", onDelete: .cascade)
                t.column("signed_in_at", .double).notNull()
                t.column("last_seen_at", .double).notNull()
            }
        }
        // The family's revision, bumped by triggers whenever members, aliases or places change, so a
        // running assistant notices a change made by anyone and reloads names (FamilyRevisionStore.swift).
        // Not family data: never exported, imported or deleted with the family (`tableNames`). A
        // member's location sharing, change tag or updated_at alone, or a place's position, bumps nothing.
        migrator.registerMigration("v17-family-revision") { db in
            try db.create(table: "family_revision") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("revision", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO family_revision(id, revision) VALUES (1, 0)")
            for (name, event) in [
                ("member_insert", "AFTER INSERT ON member"),
                ("member_delete", "AFTER DELETE ON member"),
                ("member_update", "AFTER UPDATE OF id, name, kind, role, age, supervised, aliases, position, home_time_zone ON member"),
                ("member_alias_insert", "AFTER INSERT ON member_alias"),
                ("member_alias_delete", "AFTER DELETE ON member_alias"),
                ("member_alias_update", "AFTER UPDATE ON member_alias"),
                ("place_insert", "AFTER INSERT ON place"),
                ("place_delete", "AFTER DELETE ON place"),
                ("place_update", "AFTER UPDATE OF id, name ON place"),
            ] {
                try revisionTrigger(db, name: name, event: event)
            }
        }
        // PINs hashed with a memory-hard function (issue 26): which function and cost a row used, so
        // older rows (PBKDF2, `iterations`) still verify and are re-hashed at their next right PIN.
        migrator.registerMigration("v18-pin-kdf") { db in
            try db.alter(table: "member_pin") { t in t.add(column: "kdf", .text).notNull().defaults(to: "pbkdf2-sha256") }
        }
        // The title index (issue 26, EventTitleIndex.swift): each event's meaningful title words, so
        // naming an event reads the events sharing a word with what was said. Derived data, kept by
        // the store's writes and filled here for the events already stored; `first` marks a title's
        // alphabetically first word. Deleting an event deletes its words.
        migrator.registerMigration("v19-event-title-words") { db in
            try db.execute(sql: """
                CREATE TABLE event_title_word (
                  word TEXT NOT NULL,
                  event_id TEXT NOT NULL REFERENCES event(id) ON DELETE CASCADE,
                  first BOOLEAN NOT NULL,
                  PRIMARY KEY (word, event_id)
                ) WITHOUT ROWID
                """)
            try db.execute(sql: "CREATE INDEX event_title_word_on_event ON event_title_word(event_id)")
            try db.execute(sql: "CREATE INDEX event_title_word_first ON event_title_word(word) WHERE first")
            try EventTitleIndex.rebuild(db)
        }
        // The moment a time-driven notification speaks of (issue 27): a reminder is worded again when
        // it goes out, and not handed out once its event has started.
        migrator.registerMigration("v20-notification-moment") { db in
            try db.alter(table: "notification") { t in t.add(column: "about_at", .double) }
        }
        // Reads that stay flat as the family's history grows (issue 31). Indexes only: nothing is
        // rewritten, so an existing file keeps every row. Series by when they end, so a range query
        // reads the series still running (or never ending) rather than every series ever started;
        // the notifications not yet handed out, so a tick reads what is waiting rather than every
        // reminder handed out and never acknowledged; a member's unread notifications oldest first,
        // so `hearth notifications` stops at its limit without sorting everything unread; and the
        // notifications about a record, so withdrawing a chore's reads that chore's alone.
        migrator.registerMigration("v21-history-indexes") { db in
            try db.execute(sql: "CREATE INDEX event_series_on_end ON event(series_end_at, start_at) WHERE rrule IS NOT NULL")
            try db.execute(sql: "CREATE INDEX notification_unsent ON notification(deliver_at) WHERE status = 'pending' AND sent_at IS NULL")
            try db.execute(sql: "CREATE INDEX notification_unread ON notification(recipient_id, created_at, id) WHERE status != 'read'")
            try db.execute(sql: "CREATE INDEX notification_on_related ON notification(related_id, kind)")
        }
        // The family's reward titles are grammar vocabulary too (issue 33: a reward is recognised by
        // the family's own titles), so a reward added, renamed or withdrawn moves the revision.
        migrator.registerMigration("v22-reward-vocabulary-revision") { db in
            for (name, event) in [
                ("reward_insert", "AFTER INSERT ON reward"),
                ("reward_delete", "AFTER DELETE ON reward"),
                ("reward_update", "AFTER UPDATE OF title, aliases, active ON reward"),
            ] {
                try revisionTrigger(db, name: name, event: event)
            }
        }
        // Device tokens for the home service's HTTP API (issue 35): only the SHA-256 of a token is kept
        // (a 192-bit random token needs no salt); a member's tokens go with the member.
        migrator.registerMigration("v23-device-tokens") { db in
            try db.execute(sql: """
                CREATE TABLE device_token (
                  id TEXT PRIMARY KEY,
                  member_id TEXT NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                  name TEXT NOT NULL,
                  scope TEXT NOT NULL,
                  token_hash TEXT NOT NULL UNIQUE,
                  created_by TEXT REFERENCES member(id) ON DELETE SET NULL,
                  created_at DOUBLE NOT NULL,
                  revoked_at DOUBLE,
                  last_used_at DOUBLE
                )
                """)
            try db.execute(sql: "CREATE INDEX device_token_on_member ON device_token(member_id)")
        }
        // Read-only calendar feeds (issue 36): a subscribable `.ics` URL whose token is its secret; only
        // the token's SHA-256 is kept. `member_id` NULL is the family feed (read as its maker); a
        // member's feeds go with the member, and the family feed stops working when its maker goes.
        migrator.registerMigration("v24-feed-tokens") { db in
            try db.execute(sql: """
                CREATE TABLE feed_token (
                  id TEXT PRIMARY KEY,
                  member_id TEXT REFERENCES member(id) ON DELETE CASCADE,
                  token_hash TEXT NOT NULL UNIQUE,
                  created_by TEXT REFERENCES member(id) ON DELETE SET NULL,
                  created_at DOUBLE NOT NULL,
                  revoked_at DOUBLE
                )
                """)
            try db.execute(sql: "CREATE INDEX feed_token_on_member ON feed_token(member_id)")
        }
        // Push by signed webhooks (issue 36): each member's targets (the signing secret is kept: the
        // receiver checks the signature with it), and one row per notification handed out per
        // active target of its recipient, queued in the transaction that hands it out, holding
        // its words as they went out and the attempts so far.
        migrator.registerMigration("v25-push-targets") { db in
            try db.execute(sql: """
                CREATE TABLE push_target (
                  id TEXT PRIMARY KEY,
                  member_id TEXT NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                  name TEXT NOT NULL,
                  url TEXT NOT NULL,
                  format TEXT NOT NULL,
                  secret TEXT NOT NULL,
                  created_by TEXT REFERENCES member(id) ON DELETE SET NULL,
                  created_at DOUBLE NOT NULL,
                  revoked_at DOUBLE
                )
                """)
            try db.execute(sql: "CREATE INDEX push_target_on_member ON push_target(member_id) WHERE revoked_at IS NULL")
            try db.execute(sql: """
                CREATE TABLE push_delivery (
                  notification_id TEXT NOT NULL,
                  target_id TEXT NOT NULL REFERENCES push_target(id) ON DELETE CASCADE,
                  kind TEXT NOT NULL,
                  title TEXT NOT NULL,
                  body TEXT NOT NULL,
                  created_at DOUBLE NOT NULL,
                  attempts INTEGER NOT NULL DEFAULT 0,
                  next_attempt_at DOUBLE NOT NULL,
                  last_attempt_at DOUBLE,
                  last_status INTEGER,
                  status TEXT NOT NULL DEFAULT 'pending',
                  PRIMARY KEY (notification_id, target_id)
                )
                """)
            try db.execute(sql: "CREATE INDEX push_delivery_due ON push_delivery(next_attempt_at) WHERE status = 'pending'")
        }
        // What changed, area by area (issue 35, ChangeRevisionStore.swift): a revision per area bumped
        // by triggers on every table behind it, which the home service turns into `change` events.
        migrator.registerMigration("v26-change-revisions") { db in try ChangeRevision.migrate(db) }
        // Two-way CalDAV sync (issue 36): the family's accounts on a CalDAV server (the password is
        // kept: the sync sends it; never exported) and, per account, what both sides held after the
        // last round for each event (its href, ETag, the Hearth change tag, and the iCalendar text
        // as synced, the base a conflicting edit is merged from). `event_id` has no foreign key: a
        // mapping outlives its event, which is how a deletion in Hearth is seen.
        migrator.registerMigration("v27-caldav") { db in
            try db.execute(sql: """
                CREATE TABLE caldav_account (
                  id TEXT PRIMARY KEY,
                  name TEXT NOT NULL UNIQUE,
                  url TEXT NOT NULL,
                  username TEXT NOT NULL,
                  password TEXT NOT NULL,
                  member_id TEXT REFERENCES member(id) ON DELETE CASCADE,
                  owner_id TEXT NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                  created_at DOUBLE NOT NULL,
                  last_sync_at DOUBLE
                )
                """)
            try db.execute(sql: """
                CREATE TABLE caldav_item (
                  account_id TEXT NOT NULL REFERENCES caldav_account(id) ON DELETE CASCADE,
                  uid TEXT NOT NULL,
                  event_id TEXT NOT NULL,
                  href TEXT NOT NULL,
                  etag TEXT,
                  change_tag INTEGER NOT NULL,
                  synced_ics TEXT NOT NULL,
                  PRIMARY KEY (account_id, uid)
                )
                """)
        }
        // Chores a child proposes (seed 004 "supervised users can add personal chores, parent-
        // controlled"): waiting for a parent, then approved (the chore it became) or declined.
        migrator.registerMigration("v28-chore-proposals") { db in
            try db.execute(sql: """
                CREATE TABLE chore_proposal (
                  id TEXT PRIMARY KEY,
                  member_id TEXT NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                  title TEXT NOT NULL,
                  points INTEGER CHECK (points >= 0),
                  due_at DOUBLE,
                  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined')),
                  created_at DOUBLE NOT NULL,
                  decided_by TEXT REFERENCES member(id) ON DELETE SET NULL,
                  decided_at DOUBLE,
                  chore_id TEXT REFERENCES chore(id) ON DELETE SET NULL
                )
                """)
            try db.execute(sql: "CREATE INDEX chore_proposal_pending ON chore_proposal(status, created_at)")
            try ChangeRevision.follow("chore_proposal", in: "chores", db)
        }
        // Supervised accounts (seed 004, issue 33): whether a member has a device of their own, the
        // parental consent for a minor's account (when, and which parent), their access taken away by
        // a parent without deleting anything (when, and by whom), and their named guardians (none:
        // every parent). The roster carries all of it, so the family's revision follows it.
        migrator.registerMigration("v29-member-accounts") { db in
            try db.execute(sql: "ALTER TABLE member ADD COLUMN has_device BOOLEAN NOT NULL DEFAULT 0")
            try db.execute(sql: "ALTER TABLE member ADD COLUMN consent_at DOUBLE")
            try db.execute(sql: "ALTER TABLE member ADD COLUMN consent_by TEXT REFERENCES member(id) ON DELETE SET NULL")
            try db.execute(sql: "ALTER TABLE member ADD COLUMN access_revoked_at DOUBLE")
            try db.execute(sql: "ALTER TABLE member ADD COLUMN access_revoked_by TEXT REFERENCES member(id) ON DELETE SET NULL")
            try db.execute(sql: """
                CREATE TABLE member_guardian (
                  member_id TEXT NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                  guardian_id TEXT NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                  position INTEGER NOT NULL DEFAULT 0,
                  PRIMARY KEY (member_id, guardian_id),
                  CHECK (member_id <> guardian_id)
                )
                """)
            try db.execute(sql: "CREATE INDEX member_guardian_on_guardian ON member_guardian(guardian_id)")
            for (name, event) in [
                ("member_account_update", "AFTER UPDATE OF has_device, consent_at, consent_by, access_revoked_at, access_revoked_by ON member"),
                ("member_guardian_insert", "AFTER INSERT ON member_guardian"),
                ("member_guardian_delete", "AFTER DELETE ON member_guardian"),
                ("member_guardian_update", "AFTER UPDATE ON member_guardian"),
            ] {
                try revisionTrigger(db, name: name, event: event)
            }
            try ChangeRevision.follow("member_guardian", in: "family", db)
        }
        // Achievements once unlocked (issue 33): kept, so one never goes away when a day's goal
        // later changes (a chore added for a day already done), and is announced once.
        migrator.registerMigration("v30-achievements") { db in
            try db.execute(sql: """
                CREATE TABLE achievement (
                  member_id TEXT NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                  key TEXT NOT NULL,
                  unlocked_at DOUBLE NOT NULL,
                  PRIMARY KEY (member_id, key)
                )
                """)
            try ChangeRevision.follow("achievement", in: "chores", db)
        }
        // Notes on an event (issue 32: "add a note to the dentist: bring the insurance card"),
        // RFC 5545 DESCRIPTION in an ICS feed or a CalDAV peer.
        migrator.registerMigration("v31-event-notes") { db in
            try db.execute(sql: "ALTER TABLE event ADD COLUMN notes TEXT")
        }
        // Whether a member lives in the household (issue 32: "we" and "the family" are the
        // household; a grandparent abroad joins only when named). NULL: nobody said, the role decides.
        // The roster reads it, so the family's revision follows it (the trigger is remade with it).
        migrator.registerMigration("v32-member-lives-here") { db in
            try db.execute(sql: "ALTER TABLE member ADD COLUMN lives_here BOOLEAN")
            try db.execute(sql: "DROP TRIGGER family_revision_member_update")
            try revisionTrigger(db, name: "member_update",
                                event: "AFTER UPDATE OF id, name, kind, role, age, supervised, aliases, position, home_time_zone, lives_here ON member")
        }
        migrator.registerMigration("v33-place-owner") { db in
            // A member's own place ("Ben's work"); it goes with them (issue 32).
            try db.execute(sql: "ALTER TABLE place ADD COLUMN owner_id TEXT REFERENCES member(id) ON DELETE CASCADE")
            try db.execute(sql: "DROP TRIGGER family_revision_place_update")
            try revisionTrigger(db, name: "place_update", event: "AFTER UPDATE OF id, name, owner_id ON place")
        }
        // Each member's points balance and ledger line count, kept by triggers as the ledger changes
        // (issue 31): "how many points do I have" summed the whole ledger — ten years of daily chores
        // are tens of thousands of lines — on every ask. Derived: never exported, rebuilt on restore
        // (`PointsBalance`). Registered before the areas' own migrations, one of which came first
        // (v34): the migrator applies each unapplied one by name, in this order.
        migrator.registerMigration("v35-points-balance") { db in
            try PointsBalance.create(db)
        }
        // Areas whose storage is their own register theirs, in order (`StoreAreas.all`).
        for area in StoreAreas.all { area.register(&migrator) }
        return migrator
    }

    /// A trigger moving the family's revision (`family_revision`) after `event` on a table the
    /// roster or the grammar's vocabulary is read from.
    private static func revisionTrigger(_ db: Database, name: String, event: String) throws {
        try db.execute(sql: """
            CREATE TRIGGER family_revision_\(name) \(event) FOR EACH ROW
            BEGIN UPDATE family_revision SET revision = revision + 1 WHERE id = 1; END
            """)
    }
}
