import Foundation

/// Who may change the family calendar, as pure rules. Each returns the refusal to say, or nil when
/// the actor may go ahead; the skills turn a refusal into `SkillError.permissionDenied`.
///
/// A viewer changes nothing. A child adds events only for themselves, and changes only an event that
/// is theirs alone and that they set up (not what a parent put on the calendar for them). Owners,
/// co-parents and other adults may do anything.
extension CalendarRules {
    /// Whether `actor` may change the calendar at all (a viewer may not).
    public static func denial(toChangeCalendarBy actor: Member) -> String? {
        actor.role == .viewer ? "\(actor.name) can view the calendar but not change it." : nil
    }

    /// Whether `actor` may add events attended by `attendees` (an import onto one member's calendar
    /// passes that member).
    public static func denial(toAddEventsFor attendees: [MemberID], by actor: Member) -> String? {
        if let denial = denial(toChangeCalendarBy: actor) { return denial }
        if actor.kind == .child && attendees != [actor.id] { return "Only a parent can add events for other family members." }
        return nil
    }

    /// Whether `actor` may create `event`.
    public static func denial(toCreate event: CalendarEvent, by actor: Member) -> String? {
        denial(toAddEventsFor: event.attendees, by: actor)
    }

    /// Whether `actor` may move, cancel or otherwise change the stored `event`.
    public static func denial(toChange event: CalendarEvent, by actor: Member) -> String? {
        if let denial = denial(toChangeCalendarBy: actor) { return denial }
        if actor.kind == .child && (event.attendees != [actor.id] || event.organizer != actor.id) {
            return "Only a parent can change that. Ask a parent to do it."
        }
        return nil
    }
}
