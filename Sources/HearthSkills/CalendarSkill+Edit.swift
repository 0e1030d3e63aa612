import Foundation
import HearthDomain
import HearthStore

/// Edits of an event's title, time or place made from an earlier read (a phone's copy, a question
/// asked a turn ago): merged field by field with what others changed since, or refused with a clear
/// message when they changed the same field (`ChangeMerge`), never silently overwriting it.
extension CalendarSkill {
    public struct Edited: Sendable {
        public var event: CalendarEvent
        /// Someone else's changes to other fields were kept.
        public var merged: Bool
        public var notifications: [OutboxNotification]
    }

    /// The event with `edit` applied onto its current form, inside the write transaction: throws the
    /// refusal when someone changed an edited field since `base` (read with `baseTag`; nil: unknown,
    /// compare the fields).
    func merging(_ edit: EventEdit, from base: CalendarEvent, baseTag: Int?, actor: Member, formatter: TimeFormatter,
                 writer: StoreWriter) throws -> (event: CalendarEvent, tag: Int, merged: Bool) {
        guard let current = try writer.reader.versionedEvent(base.id) else {
            throw SkillError.notFound("That event isn't on the calendar any more.")
        }
        try Self.checkCanChange(current.event, actor: actor)
        switch ChangeMerge.merge(edit, base: base, baseTag: baseTag ?? -1, current: current.event, currentTag: current.changeTag) {
        case .apply(let event, let merged): return (event, current.changeTag, merged)
        case .conflict(let fields, let latest):
            let someoneElse = current.updatedBy.flatMap { $0 == actor.id ? nil : $0 }
            let who = try someoneElse.flatMap { id in try writer.reader.members().first { $0.id == id }?.name }
            throw SkillError.invalid(ChangeMerge.refusal(fields, current: latest, by: who, formatter: formatter))
        }
    }

    /// seed 000 `updateCalendarEvent` for title, time and place: one transaction that merges, stores
    /// (checking the change tag it merged against), logs, tells the other attendees and re-queues reminders.
    public func editEvent(_ base: CalendarEvent, baseTag: Int?, edit: EventEdit, actor: Member, now: Date,
                          formatter: TimeFormatter) throws -> Edited {
        guard !edit.fields.isEmpty else { throw SkillError.invalid("Nothing to change.") }
        if let start = edit.start, let end = edit.end, end < start { throw SkillError.invalid("The event would end before it starts.") }
        if let title = edit.title, title.trimmingCharacters(in: .whitespaces).isEmpty { throw SkillError.invalid("An event needs a name.") }
        var result: (event: CalendarEvent, tag: Int, merged: Bool)?
        let sent = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            let merged = try merging(edit, from: base, baseTag: baseTag, actor: actor, formatter: formatter, writer: writer)
            result = merged
            guard try writer.update(merged.event, seriesEnd: CalendarRecurrence.seriesEnd(of: merged.event, timeZone: calendar.timeZone),
                                    at: now, by: actor.id, expectedChangeTag: merged.tag) else {
                throw SkillError.notFound("That event isn't on the calendar any more.")
            }
            let words = edit.fields.map { field -> String in
                switch field {
                case .title: return "renamed it \(merged.event.title)"
                case .time: return "moved it to \(formatter.dayAndTime(merged.event.start))"
                case .location: return merged.event.location.map { "set the place to \($0)" } ?? "cleared the place"
                }
            }.joined(separator: ", ")
            let timeChanged = edit.fields.contains(.time)
            return ChangeRecord(action: "update", subject: base.id, summary: "Changed \(base.title): \(words)",
                                withdrawnReminders: timeChanged ? [Self.reminderKeyPrefix(event: base.id)] : [],
                                notices: [Notice(merged.event, kind: "event_changed", title: "Event changed", body: "\(base.title): \(words)")],
                                requeued: timeChanged ? [merged.event] : [])
        }
        return Edited(event: result!.event, merged: result!.merged, notifications: sent)
    }
}
