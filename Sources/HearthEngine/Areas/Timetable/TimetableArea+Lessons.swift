import Foundation
import HearthDomain
import HearthSkills

/// Seed 002's manual entry by voice (issue 32): "Emma has drama instead of English on Monday",
/// "change my period 3 on Tuesday of week 2 to art", "Emma's maths on Tuesday is in room 12 now",
/// "Emma doesn't have PE on Friday any more". The lesson is found by what was said of it — day,
/// period, week, the subject it has now — and changed as `hearth timetable lesson` changes it
/// (`TimetableSkill.editLesson`); "undo that" puts the lessons back.
extension TimetableArea {
    /// One lesson to change, found: which slot, and what it becomes (nil: as it is).
    struct LessonEdit: Codable, Sendable, Equatable {
        var member: MemberID
        var week: Int
        /// 1 = Monday … 5 = Friday.
        var weekday: Int
        /// As `TimetableRules.periods` names it ("2", "AM Registration").
        var period: String
        var subject: String?
        /// "": the teacher is cleared (another subject, whose teacher was not said); nil: as it is.
        var teacher: String?
        var room: String?
        var remove: Bool
        /// The same lesson on the same day in the rotation's other weeks, taken out with it ("Emma
        /// doesn't have PE on Friday any more" with PE on Fridays in both weeks).
        var alsoIn: [Slot]? = nil

        struct Slot: Codable, Sendable, Equatable {
            var week: Int
            var weekday: Int
            var period: String
        }

        var slots: [Slot] { [Slot(week: week, weekday: weekday, period: period)] + (alsoIn ?? []) }
    }

    /// The lesson the words name, and the change. A week not said is the one the day falls in next
    /// (today included); a lesson not found, or more than one, is said back with what there is.
    func lessonEdit(_ request: AreaRequest, member id: MemberID, in turn: TurnContext) throws -> LessonEdit {
        let texts = request.slots.texts
        let skill = skill.joining(turn.transaction)
        guard let member = turn.roster[id] else { throw HearthError.unknownMember(id.rawValue) }
        if let denial = TimetableRules.denial(toChangeTimetableOf: member, by: turn.speaker) { throw HearthError.permissionDenied(denial) }
        let entries = try skill.hasTimetable(id) ? skill.entries(of: member, viewer: turn.speaker) : []
        let whose = id == turn.speaker.id ? "You" : member.name
        let has = id == turn.speaker.id ? "have" : "has"
        let remove = texts["remove"] != nil
        let day = texts["day"].flatMap(Self.schoolDay(said:))
        if let said = texts["day"], day == nil {
            throw HearthError.invalidRequest("The timetable has lessons Monday to Friday; there are none on \(said.prefix(1).uppercased() + said.dropFirst().lowercased())s. Nothing was changed.")
        }
        let period = texts["period"].flatMap(Self.period(said:))
        let old = texts["old_subject"]
        let newSubject = remove ? nil : texts["subject"].map { Self.subjectName(said: $0, among: entries) }
        let room = remove ? nil : texts["room"].map { Self.roomName(said: $0, among: entries) }
        if !remove, newSubject == nil, room == nil {
            throw HearthError.invalidRequest("What should the lesson be? Say a subject or a room, like \"change Emma's Monday period 2 to drama\".")
        }
        var week: Int
        let weekSaid = Self.week(said: texts["week"])
        if let weekSaid {
            week = weekSaid
        } else {
            // Before the timetable starts, the day's next lesson is in its first week.
            let info = try skill.week(on: Self.nextDate(weekday: day, from: turn.now, calendar: turn.calendar), school: skill.school(of: id))
            week = info.startsOn == nil ? info.week : 1
        }
        var everyWeek = entries
        if let day { everyWeek = everyWeek.filter { $0.weekday == day } }
        if let period { everyWeek = everyWeek.filter { $0.period == period } }
        if let old { everyWeek = everyWeek.filter { TimetableRules.matches($0, said: old) } }
        var found = everyWeek.filter { $0.week == week }
        // A week not said: a lesson the day's next week lacks is the one in the week that has it.
        if weekSaid == nil, found.isEmpty, let only = Set(everyWeek.map(\.week)).first, Set(everyWeek.map(\.week)).count == 1 {
            week = only
            found = everyWeek
        }
        let place = [day.map { "on \(TimetableRules.dayNames[$0 - 1])" }, period.map { TimetableRules.periodWords($0) }, "in week \(week)"]
            .compactMap { $0 }.joined(separator: " ")
        guard let lesson = found.first else {
            // An empty slot said whole takes a new lesson.
            if let day, let period, old == nil, !remove {
                return LessonEdit(member: id, week: week, weekday: day, period: period, subject: newSubject, teacher: nil, room: room, remove: false)
            }
            throw HearthError.notFound(ReplyText("\(whose) \(id == turn.speaker.id ? "don't" : "doesn't") have \(old.map { Self.subjectName(said: $0, among: entries) } ?? "a lesson") \(place). Nothing was changed."))
        }
        guard found.count == 1 else {
            let which = found.prefix(4).map { "\(TimetableRules.dayNames[$0.weekday - 1]) \(TimetableRules.periodWords($0.period))" }
            throw HearthError.invalidRequest("\(whose) \(has) \(old.map { Self.subjectName(said: $0, among: entries) } ?? "lessons") on \(joinedList(which, conjunction: "and")) in week \(week). Say which, like \"\(which[0])\". Nothing was changed.")
        }
        // Another subject is another teacher: the old one's code is not kept for it.
        let teacher: String? = newSubject.map { $0.lowercased() != lesson.subject.lowercased() ? "" : nil } ?? nil
        var edit = LessonEdit(member: id, week: lesson.week, weekday: lesson.weekday, period: lesson.period, subject: newSubject, teacher: teacher,
                              room: room, remove: remove)
        // A subject taken off a day, no week said, goes from that day in every week of the rotation
        // that has it once ("doesn't have PE on Friday any more").
        if remove, weekSaid == nil, old != nil {
            let others = Dictionary(grouping: everyWeek.filter { $0.week != lesson.week }, by: \.week)
            if !others.isEmpty, others.values.allSatisfy({ $0.count == 1 }) {
                edit.alsoIn = others.keys.sorted().compactMap { others[$0]?.first }.map { LessonEdit.Slot(week: $0.week, weekday: $0.weekday, period: $0.period) }
            }
        }
        return edit
    }

    func editLesson(_ edit: LessonEdit, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction)
        guard let member = turn.roster[edit.member] else { throw HearthError.unknownMember(edit.member.rawValue) }
        let before = try skill.hasTimetable(edit.member) ? skill.entries(of: member, viewer: turn.speaker) : []
        let said = try edit.slots.map { slot in
            try skill.editLesson(of: member, week: slot.week, day: TimetableRules.dayNames[slot.weekday - 1], period: slot.period,
                                 subject: edit.subject, teacher: edit.teacher, room: edit.room, remove: edit.remove, actor: turn.speaker, now: turn.now)
        }.joined(separator: " ")
        let after = try skill.entries(of: member, viewer: turn.speaker)
        let whose = edit.member == turn.speaker.id ? "your" : "\(member.name)'s"
        guard before != after else { return .completed(ActionResult(reply: ReplyText(said))) }
        let slots = edit.slots.map { "\(TimetableRules.dayNames[$0.weekday - 1]) \(TimetableRules.periodWords($0.period)) in week \($0.week)" }
        let spoken: String
        if let now = after.first(where: { $0.week == edit.week && $0.weekday == edit.weekday && $0.period == edit.period }) {
            spoken = "Done. \(whose.prefix(1).uppercased() + whose.dropFirst()) \(slots[0]) is now \(TimetableRules.what(now)) in \(now.room)."
        } else {
            spoken = "Done. I've taken \(joinedList(slots)) out of \(whose) timetable."
        }
        let undo = try undoRecord(Change(lessons: LessonsBefore(member: edit.member, entries: before)),
                                  named: "changing \(whose) timetable", in: turn)
        return .completed(ActionResult(reply: ReplyText("Done. " + said, speak: spoken), lastChange: .record(undo)))
    }

    // MARK: - Reading the words

    /// "monday", "tues", "fri" → 1…5.
    static func schoolDay(said: String) -> Int? {
        let key = said.lowercased()
        return TimetableRules.dayNames.firstIndex { $0.lowercased().hasPrefix(String(key.prefix(3))) }.map { $0 + 1 }
    }

    /// "period 2", "the second period", "2nd lesson", "morning registration" → "2", "AM Registration".
    static func period(said: String) -> String? {
        let words = said.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        if words.contains(where: { ["registration", "reg", "form", "tutor"].contains($0) }) {
            return words.contains { ["pm", "p", "afternoon"].contains($0) } ? "PM Registration" : "AM Registration"
        }
        let numbers = ["1": "1", "one": "1", "first": "1", "1st": "1", "2": "2", "two": "2", "second": "2", "2nd": "2",
                       "3": "3", "three": "3", "third": "3", "3rd": "3", "4": "4", "four": "4", "fourth": "4", "4th": "4",
                       "5": "5", "five": "5", "fifth": "5", "5th": "5", "last": "5"]
        return words.lazy.compactMap { numbers[$0] }.first
    }

    /// The subject as the timetable names it when it has it ("maths" → "Mathematics"), else as said,
    /// capitalised ("drama" → "Drama", "pe" → "PE").
    static func subjectName(said: String, among entries: [TimetableEntry]) -> String {
        if let known = entries.first(where: { !$0.period.lowercased().hasSuffix("registration") && TimetableRules.matches($0, said: said) }) {
            return known.subject
        }
        var key = " " + said.lowercased() + " "
        for (spaced, joined) in [(" p e ", " pe "), (" r e ", " re "), (" d t ", " dt ")] { key = key.replacingOccurrences(of: spaced, with: joined) }
        return key.split(separator: " ").map { word in
            ["pe", "re", "dt", "ict", "pshe"].contains(word) ? word.uppercased() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// The room as the timetable writes it when it has it ("room 113" → "Room 113"), else as said,
    /// capitalised, without "the" ("the art studio" → "Art Studio").
    static func roomName(said: String, among entries: [TimetableEntry]) -> String {
        var words = said.split(separator: " ").map(String.init)
        if words.first?.lowercased() == "the" { words.removeFirst() }
        let written = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return entries.first { $0.room.lowercased() == written.lowercased() }?.room ?? written
    }

    /// The next `weekday` (1 = Monday) from `now`, today included; `now` when none was said.
    static func nextDate(weekday: Int?, from now: Date, calendar: Calendar) -> Date {
        guard let weekday else { return now }
        let today = calendar.startOfDay(for: now)
        for offset in 0..<7 {
            guard let date = calendar.date(byAdding: .day, value: offset, to: today) else { continue }
            if calendar.component(.weekday, from: date) == weekday + 1 { return date }
        }
        return now
    }
}
