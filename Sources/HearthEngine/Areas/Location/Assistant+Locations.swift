import Foundation
import HearthDomain
import HearthSkills

// What `hearth location show` and `hearth location update` print, worded as the location area
// words its replies.

extension Assistant {
    /// "Where is everyone?" as `viewer` sees it: everyone but the viewer, each as their sharing allows.
    public func whereEveryoneIs(viewer: Member, now: Date) throws -> ReplyText {
        let turn = context(speaker: viewer, now: now, transaction: store)
        let others = roster.members.filter { $0.id != viewer.id }
        let seen = try LocationSkill(store: store).whereabouts(of: others, viewer: viewer.id, now: now)
        return LocationWords(phrasing: turn.phrasing, now: now).everyone(seen, group: nil)
    }

    /// Why a location report was kept or skipped, and the geofences it crossed, in sentences.
    public func explain(_ report: LocationReport) throws -> [String] {
        let update = report.update
        let name = roster[update.location.member]?.name ?? update.location.member.rawValue
        let places = try LocationSkill(store: store).places()
        let previous = update.previous
        let since = previous.map { "the last kept report (\(Geo.age(from: $0.recordedAt, to: update.location.recordedAt)))" } ?? ""
        let moved = previous.map { Int(Geo.distanceMeters($0, update.location).rounded()) } ?? 0
        var lines: [String]
        switch LocationRules.decide(update.location, previous: previous, places: places) {
        case .keep(.first): lines = ["Kept: \(name)'s first location."]
        case .keep(.moved): lines = ["Kept: \(name) moved \(moved) m since \(since)."]
        case .keep(.interval):
            let minutes = Int(LocationRules.interval(batteryLevel: update.location.battery) / 60)
            lines = ["Kept: \(counted(minutes, "minute")) or more since \(since)."]
        case .keep(.geofence): lines = ["Kept: \(name) crossed a saved place's boundary."]
        case .skip(.tooSoon): lines = ["Skipped: \(name) moved \(moved) m, not more than 100 m, within 15 minutes of \(since)."]
        case .skip(.lowBattery):
            let age = previous.map { Geo.age(from: $0.recordedAt, to: update.location.recordedAt) } ?? ""
            lines = ["Skipped: the battery is at \(update.location.battery ?? 0)%, under 20%, so a location is kept only every 30 minutes (the last kept one is from \(age))."]
        case .skip(.batteryCritical):
            lines = ["Skipped: the battery is at \(update.location.battery ?? 0)%, under 10%, so there are no automatic updates (only arriving at or leaving a saved place counts)."]
        case .skip(.outOfOrder): lines = ["Skipped: it is older than the last kept report."]
        }
        for crossing in update.crossings {
            lines.append(crossing.kind == .arrived ? "\(name) arrived at \(crossing.place.name)." : "\(name) left \(crossing.place.name).")
        }
        return lines
    }
}
