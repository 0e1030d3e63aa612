import Foundation
import HearthDomain
import HearthStore
import Logging

/// Check-ins of seed 000 §3.5 over the family store: how everyone is, asking someone to check in
/// and their answer, a said status ("I'm driving"), automatic check-ins (arriving at or leaving a
/// saved place, a set time, a low battery), and the time-driven rules (the 15-minute reminder, the
/// school-night safety check and its 30-minute alert to the parents).
///
/// Every write is one transaction with its notifications, and checks the acting member's
/// permission itself (`CheckInRules.denial…`). Privacy: check-in texts, places and coordinates
/// never reach the log or the activity summary — ids only; a member's location reaches only those
/// their sharing allows.
public struct CheckInSkill: Sendable {
    public let store: any StoreAccess
    public let calendar: Calendar
    public let ids: any IDGenerator
    public let logger: Logger

    public init(store: any StoreAccess, calendar: Calendar, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.calendar = calendar; self.ids = ids; self.logger = logger
    }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> CheckInSkill {
        CheckInSkill(store: transaction, calendar: calendar, ids: ids, logger: logger)
    }

    var location: LocationSkill { LocationSkill(store: store) }

    /// A result with the notifications it queued.
    public struct Sending<Value: Sendable>: Sendable {
        public var value: Value
        public var notifications: [OutboxNotification]
    }

    // MARK: - Reading

    /// seed 000 `getFamilyStatus`: everyone but `reader`, each as far as their sharing allows.
    public func getFamilyStatus(for reader: Member, roster: Roster, now: Date) throws -> FamilyStatus {
        let others = roster.members.filter { $0.id != reader.id }
        let whereabouts = try location.whereabouts(of: others, viewer: reader.id, now: now)
        return try store.read { db in
            let said = Dictionary(try db.saidStatuses().map { ($0.member, $0) }, uniquingKeysWith: { $1 })
            let details = try whereabouts.map { member, where_ -> MemberStatusDetail in
                var place: Place?, away: Date?, updated: Date?, battery: Int?, shares = true
                switch where_ {
                case .located(let located):
                    updated = located.location.recordedAt; battery = located.location.battery
                    if case .at(let at) = located.place { place = at } else { away = located.location.recordedAt }
                case .sharingOff, .notSharedWithViewer: shares = false
                case .unknown: break
                }
                let located: MemberStatus? = updated == nil ? nil : CheckInRules.status(atPlace: place)
                let (status, wasSaid) = CheckInRules.currentStatus(said: said[member.id], located: located, locatedAt: updated, now: now)
                let requests = try db.checkInRequests(to: member.id)
                var detail = MemberStatusDetail(member: member.id, name: member.name, status: status, statusSaid: wasSaid, place: place,
                                          awaySince: away, locationUpdated: updated, battery: battery, sharesLocation: shares,
                                          lastCheckIn: requests.first { $0.status == .responded },
                                          openRequest: CheckInRules.openRequest(to: member.id, among: requests))
                detail.statusSince = wasSaid ? said[member.id]?.setAt : nil
                detail.lastCheckInReadable = detail.lastCheckIn.map { CheckInRules.mayRead($0, reader: reader, sharesLocation: shares) } ?? false
                return detail
            }
            return FamilyStatus(members: details, lastUpdated: now)
        }
    }

    /// seed 000 `getRecentCheckIns`: a member's answered and automatic check-ins, latest first.
    public func recentCheckIns(of member: MemberID, limit: Int = 10) throws -> [CheckInRequest] {
        try store.read { try $0.checkInRequests(to: member, limit: 50) }.filter { $0.status == .responded }.prefix(limit).map { $0 }
    }

    /// The request a member's answer would settle: their latest open one.
    public func openRequest(to member: MemberID) throws -> CheckInRequest? {
        try store.read { try CheckInRules.openRequest(to: member, among: $0.pendingCheckInRequests()) }
    }

    // MARK: - Asking and answering

    /// seed 000 `requestCheckIn`: asks `member` to check in and tells them.
    public func requestCheckIn(from actor: Member, to member: MemberID, message: String?, roster: Roster, now: Date) throws
        -> Sending<CheckInRequest> {
        guard let target = roster[member] else { throw SkillError.notFound("I don't know anyone like that in this family.") }
        try SkillError.checkPermission(CheckInRules.denial(toRequestCheckInFrom: target, by: actor))
        let request = CheckInRequest(id: CheckInID(ids.next("chk")), from: actor.id, to: member, message: message,
                                     origin: .manual, requestedAt: now)
        let sent = Sent()
        try store.write { writer in
            try writer.insert(request)
            try sent.queue(on: writer, requestNotification(request, roster: roster))
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "checkin_request",
                                            subjectID: request.id.rawValue, summary: "Asked a member to check in"))
        }
        logger.info("check-in requested", metadata: ["request": "\(request.id)"])
        return Sending(value: request, notifications: sent.notifications)
    }

    func requestNotification(_ request: CheckInRequest, roster: Roster) -> OutboxNotification {
        let asker = request.from.flatMap { roster[$0]?.name }
        let ask = request.message.map { "\(asker ?? "Your family") asks: \($0)" }
            ?? "\(asker ?? "Your family") wants to know you're OK."
        let at = TimeFormatter(calendar: calendar, now: request.requestedAt).time(request.requestedAt)
        let body: String = switch request.origin {
        case .safety: "It's \(at) on a school night. Please check in so \(joinedList(CheckInRules.parents(in: roster).compactMap { roster[$0]?.name })) know you're OK."
        case .scheduled: "\(asker ?? "Your family") asked me to check on you at \(at). Are you OK? Say \"all good\", where you are, or when you'll be home."
        default: "\(ask) Say \"all good\", where you are, or when you'll be home."
        }
        return OutboxNotification(id: ids.next("ntf"), recipient: request.to, kind: "checkin",
                                  title: request.origin == .safety ? "Safety check-in" : "Check-in request", body: body,
                                  relatedID: request.id.rawValue, createdAt: request.requestedAt,
                                  dedupeKey: "checkin-request-\(request.id.rawValue)")
    }

    /// seed 000 `respondToCheckIn`: the addressee answers; the one who asked (the parents, for an
    /// automatic request) is told.
    public func respondToCheckIn(_ id: CheckInID, response: CheckInResponse, actor: Member, roster: Roster, now: Date) throws
        -> Sending<CheckInRequest> {
        let sent = Sent()
        let answered = try store.write { writer -> CheckInRequest in
            guard let request = try writer.reader.checkInRequest(id) else { throw SkillError.notFound("I can't find that check-in.") }
            try SkillError.checkPermission(CheckInRules.denial(toRespond: request, by: actor, roster: roster))
            guard request.status == .pending else { throw SkillError.invalid("That check-in has already been answered.") }
            let answered = CheckInRules.answered(request, with: response, at: now)
            try writer.update(answered)
            let formatter = TimeFormatter(calendar: calendar, now: now)
            let eta = response.eta.map { " (back around \(formatter.time($0)))" } ?? ""
            let recipients = request.from.map { [$0] } ?? CheckInRules.parents(in: roster)
            for recipient in recipients where recipient != actor.id {
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: recipient, kind: "checkin", title: "\(actor.name) checked in",
                    body: "\"\(response.statusMessage)\"\(eta)", relatedID: request.id.rawValue, createdAt: now,
                    dedupeKey: "checkin-answer-\(request.id.rawValue)-\(recipient.rawValue)"))
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "checkin_request",
                                            subjectID: request.id.rawValue, summary: "Answered a check-in"))
            return answered
        }
        logger.info("check-in answered", metadata: ["request": "\(id)"])
        return Sending(value: answered, notifications: sent.notifications)
    }

    /// seed 000 `setMemberStatus`: a member says what they're doing; it holds for a while
    /// (`CheckInRules.lifetime`).
    @discardableResult
    public func setMemberStatus(_ status: MemberStatus, actor: Member, now: Date) throws -> Bool {
        try SkillError.checkPermission(CheckInRules.denial(toSetStatusBy: actor))
        let lifetime = CheckInRules.lifetime(of: status)
        try store.write { writer in
            try writer.upsert(SaidStatus(member: actor.id, status: status, setAt: now, expiresAt: lifetime > 0 ? now.addingTimeInterval(lifetime) : now))
            // Privacy: that a status was said, not which (it can tell where someone is).
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "member_status",
                                            subjectID: actor.id.rawValue, summary: "Updated their status"))
        }
        return true
    }

    // MARK: - Automatic check-ins

    /// seed 000 `enableAutomaticCheckIns`: stores the triggers (`watcher` is told when they fire).
    @discardableResult
    public func enableAutomaticCheckIns(member: MemberID, triggers: [CheckInTrigger], actor: Member, roster: Roster, now: Date) throws
        -> [CheckInTrigger] {
        guard let target = roster[member] else { throw SkillError.notFound("I don't know anyone like that in this family.") }
        try SkillError.checkPermission(CheckInRules.denial(toWatch: target, by: actor))
        for trigger in triggers where trigger.type == .scheduled {
            guard let time = trigger.time else { throw SkillError.invalid("What time should I check on \(target.name)?") }
            if time <= now { throw SkillError.invalid("That time has already passed.") }
        }
        try store.write { writer in
            let places = try writer.reader.places()
            // Arriving and leaving tell where the member is: only if they share their location.
            if triggers.contains(where: { ($0.type == .arrive || $0.type == .depart) && $0.watcher != member }),
               member != actor.id,
               !LocationRules.mayView(locationOf: member, sharing: try writer.reader.locationSharingPreference(member), viewer: actor.id) {
                throw SkillError.permissionDenied("\(target.name) isn't sharing their location with you, so I can't tell you when they arrive or leave.")
            }
            for trigger in triggers {
                if let place = trigger.place, !places.contains(where: { $0.id == place }) {
                    throw SkillError.invalid("I don't know that place. Saved places: \(joinedList(places.map(\.name))).")
                }
                try writer.insert(trigger)
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "checkin_trigger",
                                            subjectID: triggers.first?.id.rawValue, summary: "Set up automatic check-ins"))
        }
        logger.info("automatic check-ins enabled", metadata: ["triggers": "\(triggers.count)"])
        return triggers
    }

    /// The notifications a location report leads to: the arrive/depart triggers its crossings
    /// fire and the battery-low triggers a drop below 20 % fires (each recorded as an automatic
    /// check-in of the member); arriving home also answers an open safety check.
    public func locationReported(_ update: LocationUpdate, roster: Roster, now: Date) throws -> [OutboxNotification] {
        let member = update.location.member
        guard let name = roster[member]?.name else { return [] }
        let sent = Sent()
        let formatter = TimeFormatter(calendar: calendar, now: now)
        try store.write { writer in
            let triggers = try writer.reader.activeCheckInTriggers(member: member)
            let sharing = try writer.reader.locationSharingPreference(member)
            let stamp = Int(update.location.recordedAt.timeIntervalSince1970)
            for crossing in update.crossings {
                let fired = CheckInRules.triggers(firedBy: crossing, among: triggers).filter { LocationRules.mayView(locationOf: member, sharing: sharing, viewer: $0.watcher) }
                let verb = crossing.kind == .arrived ? "arrived at" : "left"
                // Their own place by its short name: "Ben arrived at work", not "at Ben's work".
                let placeName = crossing.place.owner == member ? crossing.place.baseName : crossing.place.name
                let text = "\(name) \(verb) \(placeName)"
                if !fired.isEmpty {
                    try record(automatic: "\(crossing.kind == .arrived ? "Arrived at" : "Left") \(placeName)",
                               place: placeName, member: member, at: crossing.at, writer: writer)
                }
                for trigger in fired {
                    try sent.queue(on: writer, OutboxNotification(
                        id: ids.next("ntf"), recipient: trigger.watcher, kind: "checkin", title: "Check-in",
                        body: "\(text) at \(formatter.time(crossing.at)).", relatedID: trigger.id.rawValue, createdAt: now,
                        dedupeKey: "checkin-trigger-\(trigger.id.rawValue)-\(stamp)"))
                }
                // Home after the safety check asked: it is answered.
                if crossing.kind == .arrived, crossing.place.id == "home",
                   let open = try CheckInRules.openRequest(to: member, among: writer.reader.pendingCheckInRequests()), open.origin == .safety {
                    try writer.update(CheckInRules.answered(open, with: CheckInResponse(statusMessage: "Arrived home", place: crossing.place.name),
                                                           at: crossing.at))
                    for parent in CheckInRules.parents(in: roster) {
                        try sent.queue(on: writer, OutboxNotification(
                            id: ids.next("ntf"), recipient: parent, kind: "checkin", title: "\(name) is home",
                            body: "\(name) got home at \(formatter.time(crossing.at)).", relatedID: open.id.rawValue, createdAt: now,
                            dedupeKey: "checkin-answer-\(open.id.rawValue)-\(parent.rawValue)"))
                    }
                }
            }
            if CheckInRules.batteryDropped(to: update.location.battery, from: update.previous?.battery) {
                let fired = triggers.filter { $0.type == .batteryLow }
                if let battery = update.location.battery, !fired.isEmpty {
                    let told = sent.notifications.count
                    for trigger in fired {
                        try sent.queue(on: writer, OutboxNotification(
                            id: ids.next("ntf"), recipient: trigger.watcher, kind: "checkin", title: "\(name)'s battery is low",
                            body: "\(name)'s phone battery is at \(battery)%.", relatedID: trigger.id.rawValue, createdAt: now,
                            // Keyed by the last kept report: low reports the update rules skip
                            // (under 20 %, kept only every 30 minutes) all compare with it, and
                            // must not each fire again.
                            dedupeKey: "checkin-battery-\(trigger.id.rawValue)-\(Int(update.previous?.recordedAt.timeIntervalSince1970 ?? 0))"))
                    }
                    // One automatic check-in per drop, as one notice: a later skipped report of a drop
                    // already told (under 10 %, or too soon under 20 %) records nothing again.
                    if sent.notifications.count > told {
                        try record(automatic: "Battery low (\(battery)%)", place: nil, member: member, at: update.location.recordedAt, writer: writer)
                    }
                }
            }
        }
        return sent.notifications
    }

    /// An automatic check-in: a request answered at once, in the member's recent check-ins.
    func record(automatic message: String, place: String?, member: MemberID, at time: Date, writer: StoreWriter) throws {
        let request = CheckInRequest(id: CheckInID(ids.next("chk")), from: nil, to: member, origin: .automatic, requestedAt: time,
                                     status: .responded, respondedAt: time, response: CheckInResponse(statusMessage: message, place: place))
        try writer.insert(request)
    }

    // MARK: - Time

    /// `hearth tick`: scheduled triggers that came due ask; open requests 15 minutes old are
    /// reminded with raised urgency; on a school night after 9 PM a child not at home is asked to
    /// check in, and 30 minutes without an answer alerts the parents with the last known location;
    /// requests half a day old expire. Idempotent: a second tick at the same time sends nothing new.
    public func tick(now: Date, roster: Roster) throws -> [OutboxNotification] {
        let sent = Sent()
        let formatter = TimeFormatter(calendar: calendar, now: now)
        try store.write { writer in
            let reader = writer.reader
            // Scheduled triggers: ask once, then the trigger is spent.
            for trigger in CheckInRules.dueScheduled(try reader.activeCheckInTriggers(), now: now) {
                try writer.deactivateCheckInTrigger(trigger.id)
                let request = CheckInRequest(id: CheckInID("chk_sched_\(trigger.id.rawValue)"), from: trigger.watcher, to: trigger.member,
                                             origin: .scheduled, requestedAt: trigger.time ?? now)
                if try writer.insert(request) { try sent.queue(on: writer, requestNotification(request, roster: roster)) }
            }
            // The school-night safety check.
            if let evening = CheckInRules.safetyEvening(at: now, calendar: calendar, holidays: try reader.schoolHolidays()) {
                let places = try reader.places()
                let locations = Dictionary(try reader.latestLocations().map { ($0.member, $0) }, uniquingKeysWith: { $1 })
                let said = Dictionary(try reader.saidStatuses().map { ($0.member, $0) }, uniquingKeysWith: { $1 })
                let day = ISO8601.dateString(evening, in: calendar.timeZone)
                for member in roster.members where member.kind == .child {
                    let atHome: Bool? = if let location = locations[member.id] {
                        Geo.place(containing: location, among: places)?.id == "home"
                    } else if let status = said[member.id], status.expiresAt.map({ $0 > now }) ?? true {
                        status.status == .atHome
                    } else { nil }
                    guard CheckInRules.needsSafetyCheck(member, atHome: atHome) else { continue }
                    let request = CheckInRequest(id: CheckInID("chk_safety_\(member.id.rawValue)_\(day)"), from: nil, to: member.id,
                                                 origin: .safety, requestedAt: now)
                    if try writer.insert(request) { try sent.queue(on: writer, requestNotification(request, roster: roster)) }
                }
            }
            for request in try reader.pendingCheckInRequests() {
                var changed = request
                if now.timeIntervalSince(request.requestedAt) >= 12 * 3600 {
                    changed.status = .expired
                } else if CheckInRules.needsReminder(request, now: now) {
                    changed.remindedAt = now
                    let asker = request.from.flatMap { roster[$0]?.name } ?? "Your family"
                    try sent.queue(on: writer, OutboxNotification(
                        id: ids.next("ntf"), recipient: request.to, kind: "checkin", title: "Urgent: please check in",
                        body: "\(asker) is still waiting to hear from you (asked at \(formatter.time(request.requestedAt))). Please check in now.",
                        relatedID: request.id.rawValue, createdAt: now, dedupeKey: "checkin-remind-\(request.id.rawValue)"))
                } else if CheckInRules.needsSafetyAlert(request, now: now) {
                    changed.alertedAt = now
                    let name = roster[request.to]?.name ?? request.to.rawValue
                    for parent in CheckInRules.parents(in: roster) {
                        // Each parent is told only what the child shares with them.
                        let lastKnown = try lastKnownLocation(of: request.to, name: name, viewer: parent, reader: reader, formatter: formatter)
                        try sent.queue(on: writer, OutboxNotification(
                            id: ids.next("ntf"), recipient: parent, kind: "checkin", title: "Urgent: \(name) hasn't checked in",
                            body: "\(name) hasn't answered the \(formatter.time(request.requestedAt)) safety check-in. \(lastKnown)",
                            relatedID: request.id.rawValue, createdAt: now,
                            dedupeKey: "checkin-alert-\(request.id.rawValue)-\(parent.rawValue)"))
                    }
                }
                if changed != request { try writer.update(changed) }
            }
        }
        if !sent.notifications.isEmpty { logger.info("check-in tick", metadata: ["notifications": "\(sent.notifications.count)"]) }
        return sent.notifications
    }

    /// "Last known location: School (9:00 PM, battery 50%)." — only what the member shares with `viewer`.
    func lastKnownLocation(of member: MemberID, name: String, viewer: MemberID, reader: StoreReader, formatter: TimeFormatter) throws -> String {
        guard LocationRules.mayView(locationOf: member, sharing: try reader.locationSharingPreference(member), viewer: viewer) else {
            return "\(name) isn't sharing their location with you."
        }
        guard let location = try reader.latestLocations().first(where: { $0.member == member }) else {
            return "I don't have a location for \(name)."
        }
        let battery = location.battery.map { ", battery \($0)%" } ?? ""
        let when = "\(formatter.time(location.recordedAt))\(battery)"
        switch LocationRules.whereabouts(of: location, among: try reader.places()) {
        case .at(let place): return "Last known location: \(place.name) (\(when))."
        case .near(let place): return "Last known location: near \(place.name), at \(String(format: "%.4f, %.4f", location.latitude, location.longitude)) (\(when))."
        case .away: break
        }
        return "Last known location: away from your saved places, at \(String(format: "%.4f, %.4f", location.latitude, location.longitude)) (\(when))."
    }
}
