import Foundation

/// Who may change the family calendar, as pure rules. Each returns the refusal to say, or nil when
/// the actor may go ahead; the skills turn a refusal into `SkillError.permissionDenied`.
///
/// A viewer changes nothing. A child adds events only for themselves, and changes only an event that
/// is theirs alone and that they set up (not what a parent put on the calendar for them). Owners,
/// co-parents and other adults may do anything.
extension CalendarRules {
    /// Whether `actor` may change the calendar at all (a viewer may not; see `Permissions`).
    public static func denial(toChangeCalendarBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .calendarEdit)?.text
    }

    /// Whether `actor` may add events attended by `attendees` (an import onto one member's calendar
    /// passes that member): their own (`calendarCreate`) or others' (`calendarCreateForOthers`).
    public static func denial(toAddEventsFor attendees: [MemberID], by actor: Member) -> String? {
        Permissions.check(actor: actor, action: attendees == [actor.id] ? .calendarCreate : .calendarCreateForOthers)?.text
    }

    /// Whether `actor` may create `event`.
    public static func denial(toCreate event: CalendarEvent, by actor: Member) -> String? {
        denial(toAddEventsFor: event.attendees, by: actor)
    }

    /// Whether `actor` may move, cancel or otherwise change the stored `event`: theirs alone and set
    /// up by them (`calendarEdit`), or anyone else's (`calendarEditOthers`).
    public static func denial(toChange event: CalendarEvent, by actor: Member) -> String? {
        let own = event.attendees == [actor.id] && event.organizer == actor.id
        return Permissions.check(actor: actor, action: own ? .calendarEdit : .calendarEditOthers)?.text
    }
}

// MARK: - Reminders of what one booked (issue 32)

extension CalendarRules {
    /// The setting that holds a member's choice to be reminded of the events they book for others
    /// ("on"; off unless they asked). The speaker attends only when they say so, and so is reminded
    /// of a child's lesson they booked only when they chose this.
    public static func bookedRemindersSetting(for member: MemberID) -> String { "booked_reminders.\(member.rawValue)" }
    /// The family setting that keeps what the last iCalendar import onto `member`'s calendar
    /// changed, so that it can be undone once (`hearth import ics --undo`).
    public static func importUndoSetting(for member: MemberID) -> String { "ics_before_import.\(member.rawValue)" }

    /// Who is reminded of `event`: its attendees, then its organizer when they asked to be reminded
    /// of what they book (`remindsOrganizer`) and are not among them.
    public static func reminderRecipients(of event: CalendarEvent, remindsOrganizer: Bool) -> [MemberID] {
        guard remindsOrganizer, let organizer = event.organizer, !event.attendees.contains(organizer) else { return event.attendees }
        return event.attendees + [organizer]
    }
}
