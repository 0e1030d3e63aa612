import Foundation

/// The check-in rules of seed 000 §3.5 and its CHECK-IN flow, as pure functions: who may ask whom,
/// when a request is reminded or escalated, the school-night safety check, and which triggers a
/// location report fires.
public enum CheckInRules {
    /// An unanswered request is reminded, with raised urgency, after this long.
    public static let reminderAfter: TimeInterval = 15 * 60
    /// An unanswered safety check alerts the parents after this long.
    public static let safetyAlertAfter: TimeInterval = 30 * 60
    /// The safety check starts at this hour on a school night, and runs until `safetyCheckEndHour` next morning.
    public static let safetyCheckHour = 21
    public static let safetyCheckEndHour = 5
    /// A battery below this (percent) fires battery-low triggers.
    public static let lowBattery = 20
    /// How long a said status holds: driving is short, being somewhere lasts a working day.
    public static func lifetime(of status: MemberStatus) -> TimeInterval {
        switch status {
        case .driving: 2 * 3600
        case .atHome, .atWork, .atSchool: 10 * 3600
        case .unknown: 0
        }
    }

    static func isParent(_ member: Member) -> Bool { member.role.canManage }

    /// The parents a safety alert and an automatic answer go to: the adults who manage.
    public static func parents(in roster: Roster) -> [MemberID] {
        roster.members.filter { $0.kind == .adult && isParent($0) }.map(\.id)
    }

    // MARK: - Permissions

    /// Who may ask `target` to check in: a parent anyone; another adult anyone; a child only an
    /// adult (a child checks on a parent, not on a sibling); a viewer nobody (they read only).
    public static func denial(toRequestCheckInFrom target: Member, by actor: Member) -> String? {
        if let refusal = Permissions.check(actor: actor, action: .checkInAsk) { return refusal.text }
        if target.id == actor.id { return "You can't ask yourself to check in." }
        if actor.kind == .child && target.kind == .child { return "Only a parent can ask \(target.name) to check in." }
        return nil
    }

    /// Only the member asked answers a request.
    public static func denial(toRespond request: CheckInRequest, by actor: Member, roster: Roster) -> String? {
        if let refusal = Permissions.check(actor: actor, action: .checkInAnswer) { return refusal.text }
        if request.to == actor.id { return nil }
        return "Only \(roster[request.to]?.name ?? "the person asked") can answer that check-in."
    }

    /// Who may have a member's check-ins reported to them: a parent for anyone; anyone else only
    /// for themselves or, as a child, a parent (who shares their location); a viewer nobody.
    public static func denial(toWatch member: Member, by actor: Member) -> String? {
        if let refusal = Permissions.check(actor: actor, action: .checkInWatch) { return refusal.text }
        if isParent(actor) || member.id == actor.id { return nil }
        if actor.kind == .child && member.kind == .child { return "Only a parent can set up check-ins for \(member.name)." }
        return nil
    }

    /// Who may read what a check-in said: the one who asked; the parents for the automatic ones,
    /// and for those naming a place only while the member shares their location.
    public static func mayRead(_ request: CheckInRequest, reader: Member, sharesLocation: Bool) -> Bool {
        if request.to == reader.id { return true }
        if let from = request.from { return from == reader.id }
        return isParent(reader) && (request.response?.place == nil || sharesLocation)
    }

    /// A viewer reads only; anyone else says their own status.
    public static func denial(toSetStatusBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .statusSet)?.text
    }

    // MARK: - Answers

    /// The time an ETA "in 20 minutes" means, said at `now`.
    public static func eta(inMinutes minutes: Int?, from now: Date) -> Date? {
        guard let minutes, minutes > 0, minutes <= 24 * 60 else { return nil }
        return now.addingTimeInterval(TimeInterval(minutes * 60))
    }

    /// The request a member's answer settles: their latest open one.
    public static func openRequest(to member: MemberID, among requests: [CheckInRequest]) -> CheckInRequest? {
        requests.filter { $0.to == member && $0.status == .pending }.max { ($0.requestedAt, $0.id.rawValue) < ($1.requestedAt, $1.id.rawValue) }
    }

    /// The request answered: responded, with the response.
    public static func answered(_ request: CheckInRequest, with response: CheckInResponse, at now: Date) -> CheckInRequest {
        var answered = request
        answered.status = .responded
        answered.respondedAt = now
        answered.response = response
        return answered
    }

    // MARK: - Time-driven rules

    /// A pending request not yet reminded, asked 15 minutes ago or more (the safety check escalates
    /// to the parents instead).
    public static func needsReminder(_ request: CheckInRequest, now: Date) -> Bool {
        request.status == .pending && request.remindedAt == nil && request.origin != .safety
            && now.timeIntervalSince(request.requestedAt) >= reminderAfter
    }

    /// A safety check still unanswered 30 minutes on, whose parents were not alerted yet.
    public static func needsSafetyAlert(_ request: CheckInRequest, now: Date) -> Bool {
        request.origin == .safety && request.status == .pending && request.alertedAt == nil
            && now.timeIntervalSince(request.requestedAt) >= safetyAlertAfter
    }

    /// Whether the night after `day` is a school night: the next day is Monday–Friday and not a
    /// school holiday.
    public static func isSchoolNight(after day: Date, calendar: Calendar, holidays: [SchoolHoliday]) -> Bool {
        guard let next = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: day)) else { return false }
        let weekday = calendar.component(.weekday, from: next)
        guard (2...6).contains(weekday) else { return false }
        let parts = calendar.dateComponents([.year, .month, .day], from: next)
        let key = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        return !holidays.contains { $0.firstDay <= key && key <= $0.lastDay }
    }

    /// The evening (its day's start) a safety check at `now` belongs to: from 21:00 to 05:00 the
    /// next morning, if that night is a school night; nil outside it.
    public static func safetyEvening(at now: Date, calendar: Calendar, holidays: [SchoolHoliday]) -> Date? {
        let hour = calendar.component(.hour, from: now)
        let today = calendar.startOfDay(for: now)
        let evening: Date
        if hour >= safetyCheckHour { evening = today }
        else if hour < safetyCheckEndHour, let yesterday = calendar.date(byAdding: .day, value: -1, to: today) { evening = yesterday }
        else { return nil }
        return isSchoolNight(after: evening, calendar: calendar, holidays: holidays) ? evening : nil
    }

    /// Whether a member needs the safety check: a child whose location (or, without one, said
    /// status) doesn't put them at home. A child nobody can place is checked too.
    public static func needsSafetyCheck(_ member: Member, atHome: Bool?) -> Bool {
        member.kind == .child && atHome != true
    }

    /// The status a member's saved place means.
    public static func status(atPlace place: Place?) -> MemberStatus {
        switch place?.id.lowercased() ?? place?.name.lowercased() {
        case "home": .atHome
        case "work": .atWork
        case "school": .atSchool
        default: .unknown
        }
    }

    /// What a member is doing: the status they said while it holds, unless a later location
    /// report says otherwise; else what their location shows.
    public static func currentStatus(said: SaidStatus?, located: MemberStatus?, locatedAt: Date?, now: Date) -> (MemberStatus, said: Bool) {
        if let said, said.status != .unknown, (said.expiresAt.map { $0 > now } ?? true),
           locatedAt.map({ $0 <= said.setAt }) ?? true || located == nil || located == .unknown {
            return (said.status, true)
        }
        return (located ?? .unknown, false)
    }

    // MARK: - Triggers

    /// The active arrive/depart triggers a crossing fires.
    public static func triggers(firedBy crossing: GeofenceCrossing, among triggers: [CheckInTrigger]) -> [CheckInTrigger] {
        let type: CheckInTriggerType = crossing.kind == .arrived ? .arrive : .depart
        return triggers.filter { $0.active && $0.member == crossing.member && $0.type == type && ($0.place == nil || $0.place == crossing.place.id) }
    }

    /// Whether a report's battery fires battery-low triggers: it is below 20 % and the previous
    /// report's was not (once per drop, not on every report).
    public static func batteryDropped(to battery: Int?, from previous: Int?) -> Bool {
        guard let battery, battery < lowBattery else { return false }
        return (previous ?? 100) >= lowBattery
    }

    /// Scheduled triggers due at `now`: active, their time reached.
    public static func dueScheduled(_ triggers: [CheckInTrigger], now: Date) -> [CheckInTrigger] {
        triggers.filter { $0.active && $0.type == .scheduled && ($0.time.map { $0 <= now } ?? false) }
    }
}
