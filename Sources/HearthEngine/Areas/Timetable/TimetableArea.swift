import Foundation
import HearthDomain
import HearthSkills

/// School timetables (seed 002): "what does Emma have next", "what lesson is Emma in right now",
/// "what has Emma got on Tuesday of week 2", "does Emma have PE today", "which room is maths in",
/// "is it week 1 or week 2", "this is week 2". A child sees only their own timetable; adults see all.
struct TimetableArea: SkillArea {
    static let id: SkillAreaID = "timetable"
    let intents = ["timetable.next", "timetable.now", "timetable.day", "timetable.week_type", "timetable.set_week", "timetable.edit_lesson"]
    let readIntents: Set<String> = ["timetable.next", "timetable.now", "timetable.day", "timetable.week_type"]
    let help = AreaHelp(topic: "school timetables",
                        examples: ["\"What does Emma have next?\" / \"Does Emma have PE today?\" / \"Is it week 1 or week 2?\""],
                        spoken: ["what does Emma have next"])

    let skill: TimetableSkill

    init(_ dependencies: AreaDependencies) {
        skill = TimetableSkill(store: dependencies.store, calendar: dependencies.calendar, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        case next(MemberID, subject: String?)
        /// `subject`: asked as "is Jake in maths right now" (the answer starts "Yes." or "No.").
        case now(MemberID, subject: String? = nil)
        /// One day (`date`, local midnight), a week of the rotation (`week`), both, or neither (today
        /// or the next school day); `subject`: only that subject ("does Emma have PE today").
        /// `yesNo`: asked as a question to answer yes or no ("does Emma have PE today").
        /// `pick`: one lesson of the day by its place ("first lesson", "3rd period"); `bound`: when the
        /// school day starts or ends ("what time does school finish").
        case day(MemberID, date: Date?, week: Int?, subject: String?, yesNo: Bool, pick: LessonPick? = nil, bound: SchoolDayBound? = nil)
        case weekType
        case setWeek(Int)
        /// One lesson of the fortnight changed, moved to another room or taken out (seed 002's manual entry).
        case editLesson(LessonEdit)
    }

    /// "this is week 2", undone by putting back each school's rotation as it was; a lesson changed,
    /// by putting back the member's lessons as they were ("undo that").
    struct Change: Codable, Sendable, Equatable {
        var rotations: [String: TimetableRotation]?
        var lessons: LessonsBefore?
    }

    struct LessonsBefore: Codable, Sendable, Equatable {
        var member: MemberID
        var entries: [TimetableEntry]
    }

    /// A lesson taken out of a timetable by voice is said back first: "Take PE on Friday period 5
    /// out of Emma's timetable?"
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? {
        guard case .editLesson(let edit) = action, edit.remove, let member = turn.roster[edit.member] else { return nil }
        let whose = edit.member == turn.speaker.id ? "your" : "\(member.name)'s"
        let entries = try skill.joining(turn.transaction).entries(of: member, viewer: turn.speaker)
        let subject = entries.first { $0.week == edit.week && $0.weekday == edit.weekday && $0.period == edit.period }?.subject
        let slots = edit.slots.map { "\(TimetableRules.dayNames[$0.weekday - 1]) \(TimetableRules.periodWords($0.period)) in week \($0.week)" }
        return ReadBack(question: ReplyText("Take \(subject.map { $0 + " on " } ?? "")\(joinedList(slots)) out of \(whose) timetable?"),
                        subject: "\(whose) timetable")
    }

    func undo(_ change: Change, in turn: TurnContext) throws -> ActionResult {
        let skill = skill.joining(turn.transaction)
        if let rotations = change.rotations { try skill.restoreWeek(rotations, actor: turn.speaker, now: turn.now) }
        if let lessons = change.lessons {
            guard let member = turn.roster[lessons.member] else { throw HearthError.notFound(ReplyText("That member is no longer in the family.")) }
            try skill.restoreLessons(of: member, entries: lessons.entries, actor: turn.speaker, now: turn.now)
        }
        return ActionResult(reply: ReplyText(""))
    }

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        switch request.intent {
        case "timetable.week_type":
            return act(.weekType)
        case "timetable.set_week":
            guard let week = Self.week(said: request.slots.texts["week"]) else {
                throw HearthError.invalidRequest("Which week? The timetable has a week 1 and a week 2.")
            }
            return act(.setWeek(week))
        case "timetable.edit_lesson":
            return act(.editLesson(try lessonEdit(request, member: try member(request, in: turn), in: turn)))
        default:
            break
        }
        let member = try self.member(request, in: turn)
        let subject = request.slots.texts["subject"]
        switch request.intent {
        case "timetable.next":
            return act(.next(member, subject: subject))
        case "timetable.now":
            return act(.now(member, subject: subject))
        case "timetable.day":
            let date = request.slots.times["date"]?.start.map { turn.calendar.startOfDay(for: $0) }
            let first = request.utterance.lowercased().split { !$0.isLetter }.first { !["hey", "ok", "okay", "hearth", "please", "um", "uh", "so"].contains($0) }
            let yesNo = ["does", "do", "has", "have", "is", "am", "will"].contains(first.map(String.init) ?? "")
            let pick = request.slots.texts["period"].flatMap(LessonPick.init(said:))
            let bound = request.slots.texts["bound"].map(SchoolDayBound.init(said:))
            return act(.day(member, date: date, week: Self.week(said: request.slots.texts["week"]), subject: subject, yesNo: yesNo, pick: pick,
                            bound: bound))
        default:
            throw HearthError.internalState("\(request.intent) sent to timetable")
        }
    }

    // MARK: - Reading the request

    /// "week 2", "week two", "week B", "the second week", "a B week" → 2.
    static func week(said: String?) -> Int? {
        guard let words = said?.lowercased() else { return nil }
        var tokens = words.split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { $0 != "week" && $0 != "the" }
        if tokens.count > 1 && (tokens[0] == "a" || tokens[0] == "an") { tokens.removeFirst() }
        switch tokens.last {
        case "1", "one", "a", "first", "1st": return 1
        case "2", "two", "b", "second", "2nd": return 2
        default: break
        }
        return nil
    }

    /// Whose timetable: the member named in the words, "I"/"my"/"me" (the speaker), else the
    /// speaker's own when they have one, else the family's one student with a timetable.
    func member(_ request: AreaRequest, in turn: TurnContext) throws -> MemberID {
        try request.slots.requireKnownNames()
        if let named = turn.roster.membersNamed(in: request.utterance, for: turn.speaker.id)?.first { return named }
        let text = " " + request.utterance.lowercased().map { $0.isLetter || $0.isNumber ? $0 : " " }.reduce(into: "") { $0.append($1) } + " "
        if [" i ", " me ", " my ", " i ve ", " i m ", " myself "].contains(where: text.contains) { return turn.speaker.id }
        let skill = skill.joining(turn.transaction)
        if try skill.hasTimetable(turn.speaker.id) { return turn.speaker.id }
        let students = try turn.transaction.read { try $0.membersWithTimetables() }.keys.sorted()
        if students.count == 1 { return students[0] }
        if students.isEmpty {
            throw HearthError.notFound(ReplyText("Nobody in the family has a school timetable yet. Import one with `hearth timetable import FILE --member NAME`.",
                                                 speak: "Nobody in the family has a school timetable yet."))
        }
        throw HearthError.invalidRequest("Whose timetable? Say a name, like \"what does \(turn.phrasing.name(students[0])) have next\".")
    }

    // MARK: - Carrying it out

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let work = TimetableWork(skill: skill.joining(turn.transaction), turn: turn)
        switch action {
        case .next(let member, let subject):
            return .completed(ActionResult(reply: try work.next(member, subject: subject)))
        case .now(let member, let subject):
            return .completed(ActionResult(reply: try work.now(member, subject: subject)))
        case .day(let member, let date, let week, let subject, let yesNo, let pick, let bound):
            return .completed(ActionResult(reply: try work.day(member, date: date, week: week, subject: subject, yesNo: yesNo, pick: pick,
                                                               bound: bound)))
        case .weekType:
            return .completed(ActionResult(reply: try work.weekType()))
        case .setWeek(let week):
            let (reply, previous) = try work.setWeek(week)
            guard let previous else { return .completed(ActionResult(reply: reply)) }
            let undo = try undoRecord(Change(rotations: previous), named: "setting this week to week \(week)", in: turn)
            return .completed(ActionResult(reply: reply, lastChange: .record(undo)))
        case .editLesson(let edit):
            return try editLesson(edit, in: turn)
        }
    }

    // MARK: - hearth parse

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        if let week = Self.week(said: request.slots.texts["week"]) { slots["week"] = .int(week) } else { slots["week"] = nil }
        switch request.intent {
        case "timetable.next", "timetable.now", "timetable.day":
            slots["member"] = .string(turn.phrasing.name(try member(request, in: turn)))
            if let date = request.slots.times["date"]?.start { slots["date"] = .string(ISO8601.dateString(date, in: turn.timeZone)) }
        default:
            break
        }
    }
}
