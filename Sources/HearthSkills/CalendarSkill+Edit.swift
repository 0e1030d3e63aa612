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
                case .notes: return merged.event.notes == nil ? "cleared the notes" : "changed the notes"
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

extension CalendarSkill {
    /// seed 000 `updateCalendarEvent` for what is not a time (issue 32): a new name, place or
    /// length, and who goes (`EventDetails`). `wholeSeries` false on a series: only `occurrence`
    /// changes — that date is cancelled (EXDATE) and a changed one-off copy with `newID` takes its
    /// place, as a moved occurrence does. One transaction: logged, reminders queued afresh, the
    /// attendees told, those taken off it too.
    public func updateEvent(_ occurrence: CalendarOccurrence, details: EventDetails, wholeSeries: Bool, newID: EventID,
                            actor: Member, now: Date, formatter: TimeFormatter, name: @escaping (MemberID) -> String) throws -> Change {
        let event = occurrence.event
        try Self.checkCanChange(event, actor: actor)
        if let problem = details.problem(with: event, name: name) { throw SkillError.invalid(problem) }
        let single = event.recurrence != nil && !wholeSeries
        let describe = { (before: CalendarEvent, after: CalendarEvent) in
            EventDetails.changes(from: before, to: after, name: name, duration: { TimeFormatter.duration(minutes: $0) }).joined(separator: "; ")
        }
        var changed = event
        let sent = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            if single {
                let base = CalendarEvent(id: newID, title: event.title, start: occurrence.start, end: occurrence.end,
                                         isAllDay: event.isAllDay, location: event.location, attendees: event.attendees,
                                         organizer: event.organizer, notes: event.notes)
                changed = details.applied(to: base)
                guard try writer.addException(occurrence.start, to: event.id, at: now, by: actor.id) else {
                    throw SkillError.notFound("That \(event.title.lowercased()) isn't on the calendar any more.")
                }
                try writer.insert(changed, seriesEnd: nil, at: now, by: actor.id)
            } else {
                // Onto the event as it is now: what others changed since it was read is kept.
                guard let current = try writer.reader.versionedEvent(event.id) else {
                    throw SkillError.notFound("That event isn't on the calendar any more.")
                }
                changed = details.applied(to: current.event)
                guard try writer.update(changed, seriesEnd: CalendarRecurrence.seriesEnd(of: changed, timeZone: calendar.timeZone),
                                        at: now, by: actor.id, expectedChangeTag: current.changeTag) else {
                    throw SkillError.notFound("That event isn't on the calendar any more.")
                }
            }
            let what = describe(event, changed)
            let day = single ? " on \(formatter.dateWords(occurrence.start))" : ""
            // Those added hear they are going, those taken off it that they are not; everyone else
            // still going hears what changed (each member is told once, by the first notice naming them).
            var added = changed, removed = event
            added.attendees = changed.attendees.filter { !event.attendees.contains($0) }
            removed.attendees = event.attendees.filter { !changed.attendees.contains($0) }
            let when = changed.isAllDay ? formatter.dateWords(changed.start) : formatter.dayAndTime(changed.start)
            return ChangeRecord(action: "update", subject: event.id, summary: "Changed \(event.title)\(day): \(what)",
                                withdrawnReminders: [Self.reminderKeyPrefix(event: event.id, occurrence: single ? occurrence.start : nil)],
                                notices: [Notice(added, kind: "event_changed", title: "Event changed",
                                                 body: "You're now going to \(changed.title), \(when)"),
                                          Notice(removed, kind: "event_changed", title: "Event changed",
                                                 body: "You're no longer going to \(event.title)\(day)"),
                                          Notice(changed, kind: "event_changed", title: "Event changed", body: "\(event.title)\(day): \(what)")],
                                requeued: [changed])
        }
        return Change(event: changed, notifications: sent)
    }
}

extension CalendarSkill {
    /// "make soccer every other Thursday from now on": `occurrence`'s event repeats by `rule` from
    /// that occurrence on (`CalendarRecurrence.repeating`). A series with times before it ends just
    /// before it, keeping them as history, and the new form is a new series `newID`; otherwise the
    /// event itself changes (a one-off starts repeating). One transaction: logged, reminders queued
    /// afresh, the other attendees told.
    public func repeatSeries(_ occurrence: CalendarOccurrence, as rule: String, at time: Date?, newID: EventID,
                             actor: Member, now: Date, formatter: TimeFormatter) throws -> Change {
        let event = occurrence.event
        try Self.checkCanChange(event, actor: actor)
        let ended = CalendarRecurrence.ending(event, before: occurrence.start, timeZone: calendar.timeZone)
        let repeated = try CalendarRecurrence.repeating(event, as: rule, from: occurrence.start, at: time, id: ended == nil ? event.id : newID,
                                                        calendar: calendar)
        let words = CalendarRecurrence.describe(repeated, formatter: formatter) ?? formatter.dayAndTime(repeated.start)
        let sent = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            func end(_ form: CalendarEvent) -> Date? { CalendarRecurrence.seriesEnd(of: form, timeZone: calendar.timeZone) }
            // The old series ends before the new one starts, or the event itself takes the new form.
            guard try writer.update(ended ?? repeated, seriesEnd: end(ended ?? repeated), at: now, by: actor.id) else {
                throw SkillError.notFound("That \(event.title.lowercased()) isn't on the calendar any more.")
            }
            if ended != nil { try writer.insert(repeated, seriesEnd: end(repeated), at: now, by: actor.id) }
            return ChangeRecord(action: "update", subject: event.id, summary: "Changed \(event.title) to \(words)",
                                withdrawnReminders: [Self.reminderKeyPrefix(event: event.id)],
                                notices: [Notice(repeated, kind: "event_changed", title: "Event changed", body: "\(event.title) is now \(words)")],
                                requeued: [repeated])
        }
        return Change(event: repeated, notifications: sent)
    }
}
