import Foundation
import HearthDomain
import HearthSkills

// The read-only family views that screens show (issue 35; `GET /v1/views/...`): the calendar per
// member, chores and points, where everyone is, and today's school timetable. Each is the data
// the voice answers read, through the same skills and the same permission table, as `viewer`
// may see it — only without the words. Times are ISO 8601 in the family's zone.

/// A view the viewer may not see (the permission table's refusal, to be answered 403).
public struct ViewRefused: Error, Sendable, Equatable {
    public var text: String
}

public struct FamilyViews {
    public struct MemberCard: Encodable, Sendable, Equatable {
        public var name: String
        public var kind: String
        public var role: String
    }

    // MARK: Calendar

    public struct CalendarView: Encodable, Sendable {
        public var viewer: String
        public var zone: String
        public var from: String
        public var to: String
        public var members: [MemberCard]
        public var events: [Event]

        public struct Event: Encodable, Sendable, Equatable {
            public var id: String
            public var title: String
            public var start: String
            public var end: String
            public var all_day: Bool
            public var attendees: [String]
            public var location: String?
            /// What the family wrote down about it, one note per line (absent when none).
            public var notes: String?
            public var repeats: Bool
        }
    }

    // MARK: Chores and points

    public struct ChoresView: Encodable, Sendable {
        public var viewer: String
        public var chores: [Chore]
        public var points: [Points]
        public var rewards: [RewardItem]

        public struct Chore: Encodable, Sendable, Equatable {
            public var id: String
            public var title: String
            public var points: Int
            public var assignees: [String]
            /// "pending", "overdue" (as the clock says now) or "pending_review".
            public var status: String
            public var due: String
            public var needs_review: Bool
        }

        /// A child sees the order, and only their own points (as "who's winning" says it).
        public struct Points: Encodable, Sendable, Equatable {
            public var name: String
            public var rank: Int
            public var balance: Int?
            public var this_week: Int?
        }

        public struct RewardItem: Encodable, Sendable, Equatable {
            public var title: String
            public var cost: Int
            public var needs_approval: Bool
        }
    }

    // MARK: Locations

    public struct LocationsView: Encodable, Sendable {
        public var viewer: String
        public var members: [Whereabouts]

        /// `state`: "located", "sharing_off", "not_shared" (shares, but not with the viewer) or
        /// "unknown" (nothing reported). Where: a saved place (`at`), the nearest one (`near`), or
        /// neither (away). Never coordinates: the voice answer does not give them either.
        public struct Whereabouts: Encodable, Sendable, Equatable {
            public var name: String
            public var state: String
            public var at: String?
            public var near: String?
            public var status: String?
            public var updated_at: String?
            public var stale: Bool?
            public var battery: Int?
        }
    }

    // MARK: The family question

    /// The newest family question still open (a broadcast asking for answers, before its
    /// deadline) that the viewer sent or was asked, with who has answered. What each said is shown
    /// to its sender and to parents; to anyone else, only who has answered.
    public struct QuestionView: Encodable, Sendable {
        public var viewer: String
        public var question: Question?

        public struct Question: Encodable, Sendable, Equatable {
            public var id: String
            public var from: String
            public var text: String
            public var asked_at: String
            public var deadline: String?
            public var answered: [Answer]
            public var waiting: [String]
        }

        public struct Answer: Encodable, Sendable, Equatable {
            public var name: String
            public var answer: String?
        }
    }

    // MARK: Timetable

    public struct TimetableView: Encodable, Sendable {
        public var viewer: String
        public var date: String
        public var lessons: [Lesson]

        public struct Lesson: Encodable, Sendable, Equatable {
            public var name: String
            public var period: String
            public var subject: String
            public var teacher: String?
            public var room: String
            public var start: String
            public var end: String
        }
    }
}

extension Assistant {
    /// The view's skills, outside any turn (each reads in its own transaction).
    private var viewDependencies: (calendar: CalendarSkill, chores: ChoreSkill, locations: LocationSkill, timetable: TimetableSkill) {
        (CalendarSkill(store: store, calendar: calendar, ids: ids, logger: logger),
         ChoreSkill(store: store, calendar: calendar, ids: ids, logger: logger),
         LocationSkill(store: store),
         TimetableSkill(store: store, calendar: calendar, logger: logger))
    }

    private func iso(_ date: Date) -> String { ISO8601.string(date, in: timeZone) }

    private func refuse(_ viewer: Member, _ action: Permissions.Action) throws {
        if let refusal = Permissions.check(actor: viewer, action: action) { throw ViewRefused(text: refusal.text) }
    }

    /// The family day that `date` ("YYYY-MM-DD") names, else today.
    public func viewDay(_ date: String?, now: Date) -> Date? {
        guard let date else { return calendar.startOfDay(for: now) }
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, date.count == 10,
              let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
              calendar.component(.day, from: day) == parts[2] else { return nil }
        return day
    }

    /// `days` whole days from `day`, for `member` (everyone when nil), as "what's on" reads them.
    public func calendarView(viewer: Member, from day: Date, days: Int, member: Member?) throws -> FamilyViews.CalendarView {
        try refuse(viewer, .calendarRead)
        let end = calendar.date(byAdding: .day, value: days, to: day)!
        let occurrences = try viewDependencies.calendar.occurrences(of: member.map { [$0.id] }, in: DateInterval(start: day, end: end))
        let name = { (id: MemberID) in self.roster[id]?.name ?? id.rawValue }
        return FamilyViews.CalendarView(
            viewer: viewer.name, zone: timeZone.identifier, from: iso(day), to: iso(end),
            members: roster.members.map { FamilyViews.MemberCard(name: $0.name, kind: $0.kind.rawValue, role: $0.role.rawValue) },
            events: occurrences.map { occurrence in
                FamilyViews.CalendarView.Event(id: occurrence.event.id.rawValue, title: occurrence.event.title, start: iso(occurrence.start),
                                               end: iso(occurrence.end), all_day: occurrence.event.isAllDay,
                                               attendees: occurrence.event.attendees.map(name), location: occurrence.event.location,
                                               notes: occurrence.event.notes, repeats: occurrence.event.recurrence != nil)
            })
    }

    /// Open chores due within a week (and any overdue), those waiting for review, the points
    /// table and the active rewards.
    public func choresView(viewer: Member, now: Date) throws -> FamilyViews.ChoresView {
        try refuse(viewer, .choreRead)
        let skill = viewDependencies.chores
        let horizon = calendar.date(byAdding: .day, value: 7, to: now)!
        let chores = try skill.chores(statuses: [.overdue, .pending, .pendingReview])
            .filter { $0.status != .pending || $0.due < horizon }
            .sorted { ($0.due, $0.id.rawValue) < ($1.due, $1.id.rawValue) }
        let name = { (id: MemberID) in self.roster[id]?.name ?? id.rawValue }
        let seesOthers = Permissions.check(actor: viewer, action: .pointsSeeOthers) == nil
        let board = try skill.leaderboard(roster: roster, now: now)
        return FamilyViews.ChoresView(
            viewer: viewer.name,
            chores: chores.map { chore in
                // Due, overdue as the clock says now, not as the last tick left them.
                let status: ChoreStatus = chore.status == .pending && chore.due < now ? .overdue : chore.status
                return FamilyViews.ChoresView.Chore(id: chore.id.rawValue, title: chore.title, points: chore.points,
                                                    assignees: chore.assignees.map(name), status: status.rawValue, due: iso(chore.due),
                                                    needs_review: chore.requiresReview)
            },
            points: board.map { row in
                let shown = seesOthers || row.member == viewer.id
                return FamilyViews.ChoresView.Points(name: name(row.member), rank: row.rank, balance: shown ? row.totalPoints : nil,
                                                     this_week: shown ? row.weeklyPoints : nil)
            },
            rewards: try skill.rewards().filter(\.active).sorted { ($0.cost, $0.title) < ($1.cost, $1.title) }.map {
                FamilyViews.ChoresView.RewardItem(title: $0.title, cost: $0.cost, needs_approval: $0.needsApproval)
            })
    }

    /// Every member as the viewer's sharing rules let them be seen ("where is everyone"). On a
    /// family display (`display`: a read-only token on the wall), only those who chose to be shown
    /// there (`LocationRules.showsOnBoard`); the others are "not_shared".
    public func locationsView(viewer: Member, display: Bool = false, now: Date) throws -> FamilyViews.LocationsView {
        try refuse(viewer, .locationSeeShared)
        let skill = viewDependencies.locations
        let seen = display ? try skill.whereaboutsOnBoard(of: roster.members, viewer: viewer.id, now: now)
                           : try skill.whereabouts(of: roster.members, viewer: viewer.id, now: now)
        return FamilyViews.LocationsView(viewer: viewer.name, members: seen.map { member, whereabouts in
            var row = FamilyViews.LocationsView.Whereabouts(name: member.name, state: "unknown")
            switch whereabouts {
            case .sharingOff: row.state = "sharing_off"
            case .notSharedWithViewer: row.state = "not_shared"
            case .unknown: row.state = "unknown"
            case .located(let located):
                row.state = "located"
                switch located.place {
                case .at(let place): row.at = place.name
                case .near(let place): row.near = place.name
                case .away: break
                }
                row.status = located.status.rawValue
                row.updated_at = iso(located.location.recordedAt)
                row.stale = located.stale
                row.battery = located.location.battery
            }
            return row
        })
    }

    /// The family question on the board ("who's home for dinner?") and who has answered.
    public func questionView(viewer: Member, now: Date) throws -> FamilyViews.QuestionView {
        try refuse(viewer, .messageRead)
        let skill = MessageSkill(store: store, ids: ids, logger: logger)
        let open = try skill.getBroadcastHistory(for: viewer, limit: 20).first { message in
            message.kind == .broadcast && message.requiresResponse && (message.responseDeadline.map { $0 > now } ?? true)
                && MessageRules.denial(toRead: message, by: viewer) == nil
        }
        guard let open else { return FamilyViews.QuestionView(viewer: viewer.name, question: nil) }
        let name = { (id: MemberID) in self.roster[id]?.name ?? id.rawValue }
        let seesAnswers = open.sender == viewer.id || viewer.role.canManage
        let latest = Dictionary(open.responses.map { ($0.responder, $0) }, uniquingKeysWith: { $0.respondedAt >= $1.respondedAt ? $0 : $1 })
        let asked = open.recipientIDs.filter { $0 != open.sender }
        return FamilyViews.QuestionView(viewer: viewer.name, question: FamilyViews.QuestionView.Question(
            id: open.id.rawValue, from: name(open.sender), text: open.body, asked_at: iso(open.sentAt),
            deadline: open.responseDeadline.map(iso),
            answered: asked.filter { latest[$0] != nil }.map { FamilyViews.QuestionView.Answer(name: name($0), answer: seesAnswers ? latest[$0]?.text : nil) },
            waiting: asked.filter { latest[$0] == nil }.map(name)))
    }

    /// The day's lessons of every member with a timetable whom the viewer may see (a child: their own).
    public func timetableView(viewer: Member, day: Date) throws -> FamilyViews.TimetableView {
        let skill = viewDependencies.timetable
        let visible = try roster.members.filter { member in
            guard TimetableRules.denial(toView: member, by: viewer) == nil else { return false }
            return try skill.hasTimetable(member.id)
        }
        if visible.isEmpty, let refusal = Permissions.check(actor: viewer, action: .timetableReadOwn) { throw ViewRefused(text: refusal.text) }
        let end = calendar.date(byAdding: .day, value: 1, to: day)!
        let lessons: [Lesson] = visible.isEmpty ? [] : try skill.lessons(of: visible.map(\.id), in: DateInterval(start: day, end: end))
        let name = { (id: MemberID) in self.roster[id]?.name ?? id.rawValue }
        return FamilyViews.TimetableView(viewer: viewer.name, date: String(iso(day).prefix(10)), lessons: lessons.map {
            FamilyViews.TimetableView.Lesson(name: name($0.member), period: $0.entry.period, subject: $0.entry.subject,
                                             teacher: $0.entry.teacher, room: $0.entry.room, start: iso($0.start), end: iso($0.end))
        })
    }
}
