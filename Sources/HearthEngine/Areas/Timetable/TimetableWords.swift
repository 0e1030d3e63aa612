import Foundation
import HearthDomain
import HearthSkills

/// The timetable area's answers, display and speech from the same words: "Next, Emma has
/// Mathematics with KDN in Room 113 at 1:40 PM."
struct TimetableWork {
    let skill: TimetableSkill
    let turn: TurnContext

    var formatter: TimeFormatter { turn.formatter }
    var calendar: Calendar { turn.calendar }
    var now: Date { turn.now }
    /// How far ahead "next" looks: past a summer break.
    static let horizonDays = 120

    // MARK: - People

    /// The member, if the speaker may see their timetable and they have one.
    func student(_ id: MemberID) throws -> Member {
        guard let member = turn.roster[id] else { throw HearthError.unknownMember(id.rawValue) }
        try skill.checkCanView(member, viewer: turn.speaker)
        guard try skill.hasTimetable(id) else {
            let you = id == turn.speaker.id
            throw HearthError.notFound(ReplyText(you ? "You don't have a school timetable in Hearth yet."
                                                 : "\(member.name) has no school timetable in Hearth yet."))
        }
        return member
    }

    func who(_ member: Member) -> String { member.id == turn.speaker.id ? "you" : member.name }
    func whose(_ member: Member) -> String { member.id == turn.speaker.id ? "your" : "\(member.name)'s" }
    func has(_ member: Member) -> String { member.id == turn.speaker.id ? "have" : "has" }
    func isIn(_ member: Member) -> String { member.id == turn.speaker.id ? "You're" : "\(member.name) is" }

    // MARK: - Lessons

    /// "Mathematics with KDN in Room 113", "registration in Room 512".
    func lessonWords(_ entry: TimetableEntry) -> String {
        let what = TimetableRules.what(entry)
        return what + (entry.teacher.map { " with \($0)" } ?? "") + " in \(entry.room)"
    }

    func upcoming(_ member: Member, from start: Date) throws -> [Lesson] {
        try skill.lessons(of: member, viewer: turn.speaker,
                          in: DateInterval(start: start, end: start.addingTimeInterval(Double(Self.horizonDays) * 86_400)))
    }

    func day(_ date: Date) -> DateInterval {
        let start = calendar.startOfDay(for: date)
        return DateInterval(start: start, end: calendar.date(byAdding: .day, value: 1, to: start)!)
    }

    /// Why there is no (more) school today: "School's over for today. ", "It's the weekend. ",
    /// "It's Midwinter recess, so there's no school. ".
    func noSchoolLead(today: [Lesson]) throws -> String {
        let holidays = try skill.store.read { try $0.schoolHolidays() }
        if let holiday = TimetableRules.holiday(on: now, holidays: holidays, calendar: calendar),
           (2...6).contains(calendar.component(.weekday, from: now)) {
            return "It's \(holiday.name), so there's no school. "
        }
        if !(2...6).contains(calendar.component(.weekday, from: now)) { return "It's the weekend. " }
        if let last = today.last, last.end <= now { return "School's over for today. " }
        if today.isEmpty, try skill.week(on: now).startsOn != nil { return "The timetable hasn't started yet. " }
        return ""
    }

    /// " (week 2)" on screen, ", in week 2" aloud, when `date` is in another week than now.
    struct WeekTag {
        var week: Int?
        func text(spoken: Bool) -> String { week.map { spoken ? ", in week \($0)" : " (week \($0))" } ?? "" }
    }

    func weekTag(_ date: Date) throws -> WeekTag {
        guard TimetableRules.weekStart(date, calendar: calendar) != TimetableRules.weekStart(now, calendar: calendar) else { return WeekTag() }
        return WeekTag(week: try skill.week(on: date).week)
    }

    /// "at 1:40 PM" today, "tomorrow at 8:45 AM", "on Monday, Feb 9 at 8:45 AM".
    func when(_ date: Date, spoken: Bool) -> String {
        let at = "at \(formatter.time(date, spoken: spoken))"
        return calendar.isDate(date, inSameDayAs: now) ? at : "\(formatter.onDay(date, spoken: spoken)) \(at)"
    }

    // MARK: - Next

    func next(_ id: MemberID, subject: String?) throws -> ReplyText {
        let member = try student(id)
        let todays = try skill.lessons(of: member, viewer: turn.speaker, in: day(now))
        var lessons = try upcoming(member, from: now).filter { $0.start >= now }
        if let subject {
            // In that lesson right now: where they are, not where the next one is.
            if let current = todays.first(where: { $0.start <= now && now < $0.end && TimetableRules.matches($0.entry, said: subject) }) {
                return formatter.capitalizedWords { spoken in
                    "\(member.id == turn.speaker.id ? "you're" : "\(member.name) is") in \(TimetableRules.what(current.entry)) now, in \(current.entry.room)"
                        + (current.entry.teacher.map { " with \($0)" } ?? "") + ", until \(formatter.time(current.end, spoken: spoken))."
                }
            }
            lessons = lessons.filter { TimetableRules.matches($0.entry, said: subject) }
            guard let first = lessons.first else {
                return ReplyText("I can't find \(subject) on \(whose(member)) timetable in the next \(Self.horizonDays / 30) months.")  // plural-ok: a fixed horizon
            }
            let tag = try weekTag(first.start)
            return formatter.capitalizedWords { spoken in
                let day = calendar.isDate(first.start, inSameDayAs: now) ? "today " : ""
                return "\(whose(member)) next \(TimetableRules.what(first.entry)) lesson is in \(first.entry.room), \(day)\(when(first.start, spoken: spoken))\(tag.text(spoken: spoken))"
                    + (first.entry.teacher.map { " with \($0)" } ?? "") + "."
            }
        }
        lessons = lessons.filter { !$0.isRegistration }
        guard let first = lessons.first else {
            return ReplyText("\(try noSchoolLead(today: todays))There are no lessons on \(whose(member)) timetable in the next \(Self.horizonDays / 30) months.")  // plural-ok: a fixed horizon
        }
        if calendar.isDate(first.start, inSameDayAs: now) {
            return formatter.capitalizedWords { spoken in
                "Next, \(who(member)) \(has(member)) \(lessonWords(first.entry)) \(when(first.start, spoken: spoken))."
            }
        }
        let lead = try noSchoolLead(today: todays), tag = try weekTag(first.start)
        return formatter.capitalizedWords { spoken in
            "\(lead)\(formatter.capitalized(whose(member))) next lesson is \(lessonWords(first.entry)) \(when(first.start, spoken: spoken))\(tag.text(spoken: spoken))."
        }
    }

    // MARK: - Now

    func now(_ id: MemberID, subject: String? = nil) throws -> ReplyText {
        let answer = try now(id)
        guard let subject else { return answer }
        // "Is Jake in maths right now?": yes or no first, then what he is in.
        let member = try student(id)
        let current = try skill.lessons(of: member, viewer: turn.speaker, in: day(now)).first { $0.start <= now && now < $0.end }
        let yes = current.map { TimetableRules.matches($0.entry, said: subject) } ?? false
        return ReplyText((yes ? "Yes. " : "No. ") + answer.display, speak: (yes ? "Yes. " : "No. ") + answer.speak)
    }

    func now(_ id: MemberID) throws -> ReplyText {
        let member = try student(id)
        let today = try skill.lessons(of: member, viewer: turn.speaker, in: day(now))
        let later = today.filter { $0.start >= now && !$0.isRegistration }
        func thenNext(_ spoken: Bool) -> String {
            later.first.map { " Next is \(lessonWords($0.entry)) at \(formatter.time($0.start, spoken: spoken))." } ?? " That's the last lesson today."
        }
        if let current = today.first(where: { $0.start <= now && now < $0.end }) {
            return formatter.capitalizedWords { spoken in
                "\(isIn(member)) in \(lessonWords(current.entry)) until \(formatter.time(current.end, spoken: spoken)).\(thenNext(spoken))"
            }
        }
        if let before = today.last(where: { $0.end <= now }), let after = today.first(where: { $0.start > now }) {
            let kind = after.start.timeIntervalSince(before.end) >= 30 * 60 ? "at lunch" : "on a break"
            return formatter.capitalizedWords { spoken in
                "\(isIn(member)) \(kind) until \(formatter.time(after.start, spoken: spoken)). Next is \(lessonWords(after.entry))"
                    + " at \(formatter.time(after.start, spoken: spoken))."
            }
        }
        if let first = today.first, first.start > now, let lesson = later.first {
            return formatter.capitalizedWords { spoken in
                "School hasn't started yet: \(who(member)) \(has(member)) registration at \(formatter.time(first.start, spoken: spoken)), "
                    + "then \(lessonWords(lesson.entry)) at \(formatter.time(lesson.start, spoken: spoken))."
            }
        }
        let lead = try noSchoolLead(today: today)
        guard let next = try upcoming(member, from: now).first(where: { $0.start >= now && !$0.isRegistration }) else {
            return ReplyText("\(formatter.capitalized(who(member))) \(member.id == turn.speaker.id ? "aren't" : "isn't") in a lesson now. \(lead)")
        }
        let tag = try weekTag(next.start)
        let notIn = "\(formatter.capitalized(who(member))) \(member.id == turn.speaker.id ? "aren't" : "isn't") in a lesson: "
        let reason = lead.isEmpty ? "" : lead.prefix(1).lowercased() + lead.dropFirst()
        return formatter.capitalizedWords { spoken in
            "\(notIn)\(reason)\(formatter.capitalized(whose(member))) next lesson is \(lessonWords(next.entry)) \(when(next.start, spoken: spoken))\(tag.text(spoken: spoken))."
        }
    }

    // MARK: - A day or a week

    func day(_ id: MemberID, date: Date?, week: Int?, subject: String?, yesNo: Bool, pick: LessonPick? = nil,
             bound: SchoolDayBound? = nil) throws -> ReplyText {
        let member = try student(id)
        if let week {
            return try weekOfRotation(member, week: week, date: date, subject: subject, yesNo: yesNo)
        }
        if let subject, date == nil {
            return try next(id, subject: subject)
        }
        let holidays = try skill.store.read { try $0.schoolHolidays() }
        var target = date ?? now
        if date == nil {
            // Today, or the next school day once today's lessons are over.
            var tries = 0
            func over(_ date: Date) throws -> Bool {
                if !TimetableRules.isSchoolDay(date, holidays: holidays, calendar: calendar) { return true }
                return try skill.lessons(of: [member.id], in: day(date)).last.map { $0.end <= now } ?? false
            }
            while tries < 30, try over(target) {
                target = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: target))!
                tries += 1
            }
        }
        let label = formatter.day(target), spokenLabel = formatter.day(target, spoken: true)
        let onLabel = formatter.onDay(target), spokenOn = formatter.onDay(target, spoken: true)
        if !(2...6).contains(calendar.component(.weekday, from: target)) {
            return ReplyText("\(formatter.capitalized(label)) is not a school day.", speak: "\(formatter.capitalized(spokenLabel)) is not a school day.")
        }
        if let holiday = TimetableRules.holiday(on: target, holidays: holidays, calendar: calendar) {
            return ReplyText("There's no school \(onLabel): it's \(holiday.name).", speak: "There's no school \(spokenOn): it's \(holiday.name).")
        }
        let standing = try skill.week(on: target)
        // A day before the timetable starts has no lessons yet: said so, never an empty list.
        if let start = standing.startsOn {
            return formatter.capitalizedWords { spoken in
                "\(yesNo ? "No, " : "")\(who(member)) \(has(member)) no lessons \(spoken ? spokenOn : onLabel): the timetable starts with week 1 \(formatter.onDay(start, spoken: spoken))."
            }
        }
        var lessons = try skill.lessons(of: member, viewer: turn.speaker, in: day(target))
        let week = standing.week
        if let subject {
            lessons = lessons.filter { TimetableRules.matches($0.entry, said: subject) }
            guard !lessons.isEmpty else {
                return formatter.capitalizedWords { spoken in
                    "\(yesNo ? "No, " : "")\(who(member)) \(member.id == turn.speaker.id ? "don't" : "doesn't") have \(subject) \(spoken ? spokenOn : onLabel)."
                }
            }
            return formatter.capitalizedWords { spoken in
                "\(yesNo ? "Yes, " : "")\(who(member)) \(has(member)) " + joinedList(lessons.map {
                    "\(lessonWords($0.entry)) at \(formatter.time($0.start, spoken: spoken))"
                }) + " \(spoken ? spokenOn : onLabel)."
            }
        }
        if let bound, let first = lessons.first, let last = lessons.last {
            // Registration included: the school day is from the first bell to the last.
            let at = bound == .start ? first.start : last.end
            let verb = bound == .start ? "starts" : "ends"
            return ReplyText(formatter.capitalized("\(whose(member)) school day \(onLabel) \(verb) at \(formatter.time(at)) (week \(week))."),
                             speak: formatter.capitalized("\(whose(member)) school day \(spokenOn) \(verb) at \(formatter.time(at, spoken: true))."))
        }
        if let pick, !lessons.isEmpty {
            guard let lesson = pick.lesson(in: lessons) else {
                return formatter.capitalizedWords { spoken in
                    "\(who(member)) \(has(member)) no \(pick.words) \(spoken ? spokenOn : onLabel)" + (spoken ? ", in week \(week)." : " (week \(week)).")
                }
            }
            let teacher = lesson.entry.teacher.map { " with \($0)" } ?? ""
            return ReplyText(formatter.capitalized("\(whose(member)) \(pick.words) \(onLabel) is \(lesson.entry.subject), "
                                                   + "\(formatter.timeRange(lesson.start, lesson.end))\(teacher) in \(lesson.entry.room) (week \(week))."),
                             speak: formatter.capitalized("\(whose(member)) \(pick.words) \(spokenOn) is \(lesson.entry.subject) at "
                                                          + "\(formatter.time(lesson.start, spoken: true))\(teacher) in \(lesson.entry.room)."))
        }
        guard !lessons.isEmpty else {
            return formatter.capitalizedWords { spoken in
                "\(who(member)) \(has(member)) no lessons \(spoken ? spokenOn : onLabel)" + (spoken ? ", in week \(week)." : " (week \(week)).")
            }
        }
        let heading = "\(formatter.capitalized(whose(member))) lessons \(onLabel) (week \(week)):"
        let display = heading + "\n" + lessons.map { "- " + line($0.entry, start: $0.start, end: $0.end) }.joined(separator: "\n")
        let spoken = Self.doubled(lessons.filter { !$0.isRegistration }.map { ($0.entry.subject, $0.start) })
            .map { "\($0.0) at \(formatter.time($0.1, spoken: true))" }
        return ReplyText(display, speak: "\(formatter.capitalized(spokenOn)), week \(week), \(who(member)) \(has(member)) \(joinedList(spoken)).")
    }

    /// Two periods of one subject in a row said once, as "double Art".
    static func doubled<T>(_ items: [(String, T)]) -> [(String, T)] {
        var result: [(String, T)] = []
        var previous: String?
        for item in items {
            if item.0 == previous, let last = result.last, !last.0.hasPrefix("double ") {
                result[result.count - 1] = ("double \(last.0)", last.1)
            } else if item.0 != previous {
                result.append(item)
            }
            previous = item.0
        }
        return result
    }

    /// "8:45–9:45 AM  Mathematics, KDN, Room 113".
    func line(_ entry: TimetableEntry, start: Date, end: Date) -> String {
        "\(formatter.timeRange(start, end))  \(entry.period.hasSuffix("Registration") ? entry.period : entry.subject)"
            + (entry.teacher.map { ", \($0)" } ?? "") + ", \(entry.room)"
    }

    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]

    /// A week of the rotation, or one weekday of it ("Tuesday of week 2"), from the timetable itself.
    func weekOfRotation(_ member: Member, week: Int, date: Date?, subject: String?, yesNo: Bool) throws -> ReplyText {
        var entries = try skill.entries(of: member, viewer: turn.speaker).filter { $0.week == week }
        let bells = Dictionary(try skill.bells(school: try skill.school(of: member.id)).map { ($0.period, $0) }, uniquingKeysWith: { a, _ in a })
        var days = [1, 2, 3, 4, 5]
        if let date {
            let weekday = calendar.component(.weekday, from: date) - 1
            guard (1...5).contains(weekday) else { return ReplyText("Week \(week) has lessons Monday to Friday only.") }
            days = [weekday]
        }
        if let subject { entries = entries.filter { TimetableRules.matches($0, said: subject) } }
        func time(_ clock: String?, spoken: Bool) -> String {
            guard let clock, let minutes = TimetableRules.minutes(clock),
                  let date = calendar.date(byAdding: .minute, value: minutes, to: calendar.startOfDay(for: now)) else { return "" }
            return formatter.time(date, spoken: spoken)
        }
        let dayWords = days.count == 1 ? "\(Self.weekdayNames[days[0] - 1]) of week \(week)" : "week \(week)"
        if let subject {
            guard entries.contains(where: { days.contains($0.weekday) }) else {
                return ReplyText("\(yesNo ? "No, " : "")\(formatter.capitalized(who(member))) \(member.id == turn.speaker.id ? "don't" : "doesn't") have \(subject) on \(dayWords).")
            }
            return formatter.capitalizedWords { spoken in
                "\(yesNo ? "Yes, " : "")\(who(member)) \(has(member)) " + joinedList(entries.filter { days.contains($0.weekday) }.map {
                    "\(lessonWords($0))" + (days.count == 1 ? "" : " on \(Self.weekdayNames[$0.weekday - 1])") + " at \(time(bells[$0.period]?.start, spoken: spoken))"
                }) + " on \(dayWords)."
            }
        }
        var display: [String] = ["\(formatter.capitalized(whose(member))) lessons on \(dayWords):"]
        var speak: [String] = []
        for weekday in days {
            let todays = entries.filter { $0.weekday == weekday }
            if days.count > 1 { display.append("\(Self.weekdayNames[weekday - 1]):") }
            for entry in todays {
                let bell = bells[entry.period]
                display.append("- \(time(bell?.start, spoken: false))  \(entry.period.hasSuffix("Registration") ? entry.period : entry.subject)"
                               + (entry.teacher.map { ", \($0)" } ?? "") + ", \(entry.room)")
            }
            let subjects = Self.doubled(todays.filter { !$0.period.hasSuffix("Registration") }.map { ($0.subject, $0.weekday) }).map(\.0)
            speak.append((days.count > 1 ? "\(Self.weekdayNames[weekday - 1]): " : "") + joinedList(subjects) + ".")
        }
        return ReplyText(display.joined(separator: "\n"),
                         speak: "On \(dayWords), \(who(member)) \(has(member)) " + speak.joined(separator: " "))
    }

    // MARK: - Which week

    func weekType() throws -> ReplyText {
        let info = try skill.week(on: now)
        guard info.known else { return ReplyText("There's no school timetable in Hearth yet, so there's no week 1 or week 2.") }
        if let start = info.startsOn {
            return ReplyText("The school timetable starts with week 1 \(formatter.onDay(start)).",
                             speak: "The school timetable starts with week 1 \(formatter.onDay(start, spoken: true)).")
        }
        let weekday = calendar.component(.weekday, from: now)
        let nextMonday = calendar.date(byAdding: .day, value: 7, to: TimetableRules.weekStart(now, calendar: calendar))!
        if (2...6).contains(weekday), let holiday = info.holiday {
            let restart = try nextSchoolDay(after: now)
            let back = try restart.map { date in
                ReplyText(" School is back \(formatter.onDay(date)), in week \(try skill.week(on: date).week).",
                          speak: " School is back \(formatter.onDay(date, spoken: true)), in week \(try skill.week(on: date).week).")
            } ?? ReplyText("")
            var reply = ReplyText("It's \(holiday.name), so there's no school.")
            reply.append(back)
            return reply
        }
        if !(2...6).contains(weekday) {
            // A week with no school day (a recess) is no week of the rotation: say when school is back.
            let followingMonday = calendar.date(byAdding: .day, value: 7, to: nextMonday)!
            if let restart = try nextSchoolDay(after: now), restart >= followingMonday,
               let holiday = try skill.week(on: nextMonday).holiday {
                let back = try skill.week(on: restart).week
                return ReplyText("It's the weekend. This week was week \(info.week); next week is \(holiday.name), "
                                 + "and school is back \(formatter.onDay(restart)), in week \(back).",
                                 speak: "It's the weekend. This week was week \(info.week); next week is \(holiday.name), "
                                 + "and school is back \(formatter.onDay(restart, spoken: true)), in week \(back).")
            }
            let next = try skill.week(on: nextMonday).week
            return ReplyText("It's the weekend. This week was week \(info.week); next week is week \(next).")
        }
        let said = info.overridden ? ", as you told me; from Monday it goes by the school calendar again" : ""
        return ReplyText("It's week \(info.week)\(said).")
    }

    func nextSchoolDay(after date: Date) throws -> Date? {
        let holidays = try skill.store.read { try $0.schoolHolidays() }
        var day = calendar.startOfDay(for: date)
        for _ in 0..<120 {
            day = calendar.date(byAdding: .day, value: 1, to: day)!
            if TimetableRules.isSchoolDay(day, holidays: holidays, calendar: calendar) { return day }
        }
        return nil
    }

    /// The reply, and the rotations as they were when the week changed (for "undo").
    func setWeek(_ week: Int) throws -> (ReplyText, [String: TimetableRotation]?) {
        if let start = try skill.week(on: now).startsOn {
            return (ReplyText("The school timetable hasn't started yet: it starts with week 1 \(formatter.onDay(start)).",
                             speak: "The school timetable hasn't started yet: it starts with week 1 \(formatter.onDay(start, spoken: true))."), nil)
        }
        guard let previous = try skill.setWeek(week, actor: turn.speaker, now: now) else { return (ReplyText("Yes, it's week \(week) this week."), nil) }
        let nextMonday = calendar.date(byAdding: .day, value: 7, to: TimetableRules.weekStart(now, calendar: calendar))!
        let then = try skill.week(on: nextMonday).week
        return (formatter.capitalizedWords { spoken in
            "OK, this is week \(week) until the end of the week. From \(formatter.dateWords(nextMonday, spoken: spoken)) "
                + "the timetable goes by the school calendar again" + (then == week ? ", which says week \(then) too." : ": week \(then).")
        }, previous)
    }
}

extension TimeFormatter {
    /// Display and speech from the same words, each starting with a capital letter.
    func capitalizedWords(_ make: (_ spoken: Bool) -> String) -> ReplyText {
        ReplyText(capitalized(make(false)), speak: capitalized(make(true)))
    }
}
