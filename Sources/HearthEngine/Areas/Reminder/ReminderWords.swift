import Foundation
import HearthDomain
import HearthSkills

/// Everything the reminder area says, on screen and aloud from the same words: "OK, I'll remind
/// Jake to practise piano every day at 4:00 PM, starting today." / "… at 4 PM, starting today."
struct ReminderWords {
    let phrasing: Phrasing
    let formatter: TimeFormatter

    var speaker: Member { phrasing.speaker }
    typealias Draft = ReminderArea.Draft
    typealias Upcoming = ReminderSkill.Upcoming

    // MARK: Pieces

    /// The words of a reminder for the speaker: their own said back ("call your mom"), someone
    /// else's as the recipient reads them ("call Lisa"), and to the one reminded, in the second
    /// person ("bring your library book", `ReminderRules.addressed`).
    func body(_ body: String?, setBy setter: MemberID?, for recipients: [MemberID] = []) -> String? {
        guard let body else { return nil }
        if setter == speaker.id { return ReminderRules.saidBack(body) }
        let told = ReminderRules.told(body, by: setter.map(phrasing.name))
        return setter != nil && recipients.contains(speaker.id) ? ReminderRules.addressed(told) : told
    }

    /// "to call your mom", "about the meeting", "that you have a meeting"; "" without words.
    func what(_ body: String?, link: Reminder.Link) -> String {
        guard let body else { return "" }
        return "\(link.rawValue) \(body)"
    }

    func what(_ reminder: Reminder) -> String {
        what(body(reminder.body, setBy: reminder.createdBy, for: reminder.recipients), link: reminder.link)
    }

    /// "your reminder to call grandma", "Jake's reminder to practise piano", "the reminder for Emma and
    /// Jake to pack their bags".
    func reminderPhrase(_ reminder: Reminder, spoken: Bool) -> String {
        let others = reminder.recipients.filter { $0 != speaker.id }
        let whose = others.isEmpty ? "your reminder" : reminder.recipients.count == 1 ? "\(phrasing.name(others[0]))'s reminder"
            : "the reminder for \(phrasing.people(reminder.recipients))"
        let words = what(reminder)
        return words.isEmpty ? whose : "\(whose) \(words)"
    }

    /// "a day", "2 weeks".
    func count(_ number: Int, _ unit: String) -> String { number == 1 ? "a \(unit)" : "\(number) \(unit)s" }

    /// "an hour", "30 minutes", "2 hours".
    func lead(_ minutes: Int) -> String { minutes == 60 ? "an hour" : TimeFormatter.duration(minutes: minutes) }

    /// "an hour before Emma's dentist appointment"; with no lead, "when Emma's dentist appointment starts".
    func before(_ minutes: Int, _ occurrence: CalendarOccurrence) -> String {
        let event = phrasing.eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees)
        return minutes == 0 ? "when \(event) starts" : "\(lead(minutes)) before \(event)"
    }

    /// "today at 5:00 PM", "on Thursday, Feb 5 at 4:00 PM" (in a sentence); without `on` in a list.
    func moment(_ date: Date, spoken: Bool, inSentence: Bool = true) -> String {
        "\(inSentence ? formatter.onDay(date, spoken: spoken) : formatter.day(date, spoken: spoken)) at \(formatter.time(date, spoken: spoken))"
    }

    /// When an upcoming reminder goes out: "today at 5:00 PM", "every day at 4:00 PM", "an hour before
    /// your dentist appointment, on Thursday, Feb 5 at 3:00 PM".
    func when(_ item: Upcoming, spoken: Bool, inSentence: Bool = true) -> String {
        switch item.reminder.schedule {
        case .once:
            return moment(item.due, spoken: spoken, inSentence: inSentence)
        case .repeating(let start, let rule, let skip):
            return CalendarRecurrence.describe(rule, start: start, formatter: formatter, spoken: spoken, skipsSchoolHolidays: skip != nil)
                ?? moment(item.due, spoken: spoken, inSentence: inSentence)
        case .beforeEvent(_, let minutes):
            guard let occurrence = item.occurrence else { return moment(item.due, spoken: spoken, inSentence: inSentence) }
            return "\(before(minutes, occurrence)), " + moment(item.due, spoken: spoken, inSentence: inSentence)
        }
    }

    /// "Call grandma: today at 5:00 PM", "Practise piano: every day at 4:00 PM (Jake)": a list line
    /// or an option. `shownFor`: the people the list is about; others it reminds are named.
    func itemLabel(_ item: Upcoming, shownFor members: [MemberID]? = nil) -> String {
        let words = body(item.reminder.body, setBy: item.reminder.createdBy, for: item.reminder.recipients)
        let others = item.reminder.recipients.filter { !(members ?? [speaker.id]).contains($0) }
        let also = others.isEmpty ? "" : " (\(members == nil ? "" : "also ")for \(phrasing.people(others)))"
        if words == nil, case .beforeEvent(_, let minutes) = item.reminder.schedule, let occurrence = item.occurrence {
            // "30 minutes before Jake's haircut: tomorrow at 10:30 AM"
            return "\(formatter.capitalized(before(minutes, occurrence))): \(moment(item.due, spoken: false, inSentence: false))\(also)"
        }
        let head = words.map { item.reminder.link == .to ? $0 : "\(item.reminder.link.rawValue) \($0)" } ?? "A reminder"
        return "\(formatter.capitalized(head)): \(when(item, spoken: false, inSentence: false))\(also)"
    }

    /// "to call grandma today at 5 PM", "a reminder every day at 4 PM, also for Jake".
    func spokenItem(_ item: Upcoming, shownFor members: [MemberID]? = nil) -> String {
        let words = what(item.reminder)
        let others = item.reminder.recipients.filter { !(members ?? [speaker.id]).contains($0) }
        let also = others.isEmpty ? "" : ", \(members == nil ? "" : "also ")for \(phrasing.people(others))"
        return "\(words.isEmpty ? "a reminder" : words) \(when(item, spoken: true))\(also)"
    }

    func numbered(_ labels: [String]) -> String {
        labels.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }

    // MARK: Setting

    /// "When should I remind you to call grandma?" / "What time today should I remind you …?"
    func askWhen(_ draft: Draft, day: String?) -> ReplyText {
        let words = what(body(draft.body, setBy: speaker.id), link: draft.link)
        let who = phrasing.people(draft.recipients)
        let rest = words.isEmpty ? "" : " \(words)"
        guard let day else { return ReplyText("When should I remind \(who)\(rest)?") }
        return ReplyText("What time \(day) should I remind \(who)\(rest)?")
    }

    /// "the reminder to call grandma": what "I've dropped the earlier question about …" names.
    func subject(_ draft: Draft) -> String {
        let words = what(body(draft.body, setBy: speaker.id), link: draft.link)
        return words.isEmpty ? "the reminder" : "the reminder \(words)"
    }

    func eventLabel(_ occurrence: CalendarOccurrence) -> String {
        "\(formatter.capitalized(phrasing.eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees))), \(formatter.dayAndTime(occurrence.start))"
    }

    func whichEvent(_ title: String, _ occurrences: [CalendarOccurrence]) -> ReplyText {
        let said = phrasing.lowercasedFirst(title)
        let shown = Array(occurrences.prefix(5))
        let display = "Which \(said) do you mean?\n" + numbered(shown.map(eventLabel) + ["Never mind"]) + "\nSay a number."
        let spoken = shown.map { "\(phrasing.eventPhrase($0.event.title, attendees: $0.event.attendees)) on \(formatter.dayAndTime($0.start, spoken: true))" }
        return ReplyText(display, speak: "Which \(said) do you mean: \(joinedList(spoken, conjunction: "or"))?")
    }

    /// "Your dentist appointment starts at 4:00 PM today, less than an hour from now."
    func tooLate(_ occurrence: CalendarOccurrence, minutes: Int) -> ReplyText {
        phrasing.words { spoken in
            "\(formatter.capitalized(phrasing.eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees))) starts "
                + "\(moment(occurrence.start, spoken: spoken)), less than \(lead(minutes)) from now."
        }
    }

    /// "OK, I'll remind you to call grandma today at 5:00 PM." and the like (see the cases).
    func created(_ draft: Draft, first: Upcoming) -> ReplyText {
        let who = phrasing.people(draft.recipients)
        let words = what(body(draft.body, setBy: speaker.id), link: draft.link)
        let head = "OK, I'll remind \(who)\(words.isEmpty ? "" : " \(words)")"
        return phrasing.words { spoken in
            switch first.reminder.schedule {
            case .once(let due) where draft.relative:
                let minutes = Int((due.timeIntervalSince(formatter.now) / 60).rounded())
                // Days and weeks as such, with the day: "in 2 weeks, on Monday, Feb 16 at 9:00 AM" (not "in 336 hours").
                let week = 7 * 1_440
                let span = minutes >= week && minutes % week == 0 ? count(minutes / week, "week")
                    : minutes >= 1_440 && minutes % 1_440 == 0 ? count(minutes / 1_440, "day") : lead(minutes)
                let at = formatter.calendar.isDate(due, inSameDayAs: formatter.now) ? "at \(formatter.time(due, spoken: spoken))" : moment(due, spoken: spoken)
                return "\(head) in \(span), \(at)."
            case .once(let due):
                return "\(head) \(moment(due, spoken: spoken))."
            case .repeating:
                return "\(head) \(when(first, spoken: spoken)), starting \(formatter.day(first.due, spoken: spoken))."
            case .beforeEvent(_, let minutes):
                guard let occurrence = first.occurrence else { return "\(head) \(moment(first.due, spoken: spoken))." }
                let event = occurrence.event
                var at = moment(first.due, spoken: spoken, inSentence: false)
                if let rule = event.recurrence, let pattern = CalendarRecurrence.describe(
                    rule, start: event.start.addingTimeInterval(-TimeInterval(minutes * 60)), formatter: formatter, spoken: spoken) {
                    at = "\(pattern), starting \(formatter.day(first.due, spoken: spoken))"
                }
                return "\(head) \(before(minutes, occurrence)), that's \(at)."
                    + " If it moves, the reminder moves with it."
            }
        }
    }

    // MARK: Listing

    /// "You have 2 reminders:\n- Call grandma: today at 5:00 PM\n- …"; aloud, one sentence.
    func list(_ items: [Upcoming], of members: [MemberID], rangeLabel: String?) -> ReplyText {
        let whose = phrasing.people(members)
        let have = members == [speaker.id] || members.count > 1 ? "have" : "has"
        var range = ""
        if let label = rangeLabel?.lowercased() {
            let trimmed = Phrasing.namesCapitalized(label.hasPrefix("on ") ? String(label.dropFirst(3)) : label)
            range = trimmed.hasPrefix("for ") ? " \(trimmed)" : " for \(trimmed)"
        }
        let subject = formatter.capitalized(whose)
        guard !items.isEmpty else { return ReplyText("\(subject) \(have) no reminders\(range).") }
        let count = items.count == 1 ? "1 reminder" : "\(items.count) reminders"
        let display = "\(subject) \(have) \(count)\(range):\n" + items.map { "- " + itemLabel($0, shownFor: members) }.joined(separator: "\n")
        let speak = "\(subject) \(have) \(count)\(range): \(joinedList(items.map { spokenItem($0, shownFor: members) }))."
        return ReplyText(display, speak: speak)
    }

    // MARK: Cancelling

    func whichReminder(_ items: [Upcoming]) -> ReplyText {
        let shown = Array(items.prefix(6))
        let display = "Which reminder do you mean?\n" + numbered(shown.map { itemLabel($0) } + ["All of them", "Never mind"]) + "\nSay a number."
        let spoken = shown.map { "\(reminderPhrase($0.reminder, spoken: true)) \(when($0, spoken: true))" }
        return ReplyText(display, speak: "Which reminder do you mean: \(joinedList(spoken, conjunction: "or"))? Or all of them?")
    }

    /// "I couldn't find a reminder about piano." / "You have no reminders to cancel."
    func noneToCancel(_ query: ReminderArea.Query) -> ReplyText {
        guard let said = query.body else { return ReplyText("There are no reminders like that to cancel.") }
        return ReplyText("I couldn't find a reminder about \(ReminderRules.saidBack(said)).")
    }

    /// "OK, I've cancelled Jake's reminder to practise piano every day at 4:00 PM."
    func cancelled(_ items: [Upcoming]) -> ReplyText {
        guard items.count == 1, let item = items.first else { return ReplyText("OK, I've cancelled those \(items.count) reminders.") }
        return phrasing.words { spoken in "OK, I've cancelled \(reminderPhrase(item.reminder, spoken: spoken)) \(when(item, spoken: spoken))." }
    }
}
