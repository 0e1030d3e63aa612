import Foundation

/// Pure calendar rules of seed 000 §3.1 and the decision tree (§4). No clock reads: every function
/// takes the instants and the calendar (with the family's time zone) it needs.
public enum CalendarRules {
    /// Whether an event with this title fills the day it is on when no time is said: a birthday,
    /// an anniversary, a holiday ("Grandma's birthday is on March 3rd" is all day, not a time to pick).
    public static func isWholeDay(title: String) -> Bool {
        let words = title.lowercased().split { !$0.isLetter }
        guard let last = words.last else { return false }
        // Being away fills the day too ("Tom is away today", "out of town", "on a trip"), and so does a
        // day of its own kind ("a half day", "snow day", "sports day", "a day off school"; issue 29).
        // Something due that day fills it too ("science project due").
        return wholeDayKinds.contains(String(last)) || words.suffix(2).joined(separator: " ") == "day off" || last == "due"
            || words.count <= 3 && ["away", "town", "visiting"].contains(String(last))
            // Someone coming to stay ("Grandma is visiting on Saturday", "coming to visit").
            || ["coming to visit", "coming to stay"].contains(words.joined(separator: " "))
            || isHeldTime(title: title)
            || words.count <= 4 && (last == "day" || words.starts(with: ["day", "off"]) || words.starts(with: ["no", "school"]))
            // Staying away or on the way ("staying at Grandma's", "sleeping over at Sam's", "flying to Denver").
            || words.count <= 6 && ["staying", "sleeping", "flying", "travelling", "traveling"].contains(String(words[0]))
    }

    /// Time held with no name ("block off Friday afternoon", "mark me as busy tomorrow"): "Busy".
    public static func isHeldTime(title: String) -> Bool {
        ["busy", "unavailable"].contains(title.lowercased().trimmingCharacters(in: .whitespaces))
    }

    static let wholeDayKinds: Set<String> = ["birthday", "birthdays", "bday", "anniversary", "holiday", "holidays", "vacation",
                                              "graduation", "inset", "christmas", "thanksgiving", "easter", "hanukkah", "diwali", "eid",
                                              // Away for the day or the night ("field trip", "soccer camp", "sleepover").
                                              "trip", "camp", "sleepover"]
    /// Conflicts between a proposed event and existing occurrences (seed 000 `detectCalendarConflicts`):
    /// an overlap with a shared attendee is `directOverlap`, severity high — medium when the existing
    /// event is all-day (a vacation day is a warning, not a double booking); back-to-back events of a
    /// shared attendee at different locations with less time between them than the journey takes are
    /// `travelTime`, severity medium. `travelMinutes` estimates the journey between two locations.
    public static func detectConflicts(
        proposed: CalendarOccurrence,
        existing: [CalendarOccurrence],
        travelMinutes: ((String, String) -> Int?)? = nil
    ) -> [CalendarConflict] {
        let attendees = Set(proposed.event.attendees)
        var conflicts: [CalendarConflict] = []
        for occurrence in existing where occurrence.event.id != proposed.event.id {
            let shared = occurrence.event.attendees.filter(attendees.contains)
            guard !shared.isEmpty else { continue }
            if occurrence.start < proposed.end && proposed.start < occurrence.end {
                let allDay = occurrence.event.isAllDay || proposed.event.isAllDay
                conflicts.append(CalendarConflict(conflicting: occurrence, conflictType: .directOverlap,
                                                  affectedMembers: shared, severity: allDay ? .medium : .high))
                continue
            }
            guard let travelMinutes, let from = proposed.event.location, let to = occurrence.event.location,
                  from.caseInsensitiveCompare(to) != .orderedSame else { continue }
            let gap: TimeInterval, journey: Int?
            if occurrence.end <= proposed.start {
                gap = proposed.start.timeIntervalSince(occurrence.end); journey = travelMinutes(to, from)
            } else {
                gap = occurrence.start.timeIntervalSince(proposed.end); journey = travelMinutes(from, to)
            }
            if let journey, gap < TimeInterval(journey * 60) {
                conflicts.append(CalendarConflict(conflicting: occurrence, conflictType: .travelTime,
                                                  affectedMembers: shared, severity: .medium))
            }
        }
        return conflicts
    }

    /// Whether a title asked about names the school's holidays ("school holiday", "half term",
    /// "spring break", "winter recess", "the Christmas holidays"), not an event.
    public static func namesSchoolHoliday(_ title: String) -> Bool {
        let words = title.lowercased().split { !$0.isLetter }.map(String.init)
        guard let last = words.last, words.count <= 4 else { return false }
        return ["recess", "half term", "halfterm"].contains(last) || words.suffix(2) == ["half", "term"]
            || (["holiday", "holidays", "break", "vacation"].contains(last)
                && (words.contains("school") || words.count == 2 && schoolBreakKinds.contains(words[0])))
    }

    static let schoolBreakKinds: Set<String> = ["spring", "summer", "winter", "christmas", "easter", "midwinter", "february", "thanksgiving",
                                                "october", "fall", "autumn", "mid", "half", "holiday"]

    /// The words naming one school holiday ("spring break" → ["spring"]); empty for any ("the next school holiday").
    public static func schoolHolidayWords(_ said: String) -> Set<String> {
        let generic: Set<String> = ["school", "holiday", "holidays", "break", "recess", "vacation", "the", "next", "kids", "kids'", "day", "days", "off"]
        var words = Set(said.lowercased().split { !$0.isLetter }.map(String.init)).subtracting(generic)
        // A Christmas break is called a winter one too ("Winter recess").
        if words.contains("christmas") { words.insert("winter") }
        return words
    }

    /// The said name without "the"/"next" ("the next school holiday" → "school holiday"): nil when it names none in particular.
    public static func schoolHolidayName(_ said: String) -> String? {
        schoolHolidayWords(said).isEmpty ? nil : said
    }

    /// A clash found on the calendar: `earlier` (or the first of two starting together) and the
    /// conflict `detectConflicts` finds with a later one.
    public struct Clash: Sendable, Equatable {
        public var earlier: CalendarOccurrence
        public var conflict: CalendarConflict
        public init(earlier: CalendarOccurrence, conflict: CalendarConflict) { self.earlier = earlier; self.conflict = conflict }
    }

    /// "any clashes next week": each pair of `occurrences` that `detectConflicts` finds in conflict,
    /// once, in order of time. A whole-day entry over other events ("away", a school trip, a
    /// birthday) is no double booking: only timed events overlapping, and back-to-back events too
    /// far apart to travel between, are clashes.
    public static func clashes(among occurrences: [CalendarOccurrence],
                               travelMinutes: ((String, String) -> Int?)? = nil) -> [Clash] {
        let sorted = occurrences.filter { !$0.event.isAllDay }.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var result: [Clash] = []
        for (index, first) in sorted.enumerated() {
            let later = Array(sorted[(index + 1)...].prefix { $0.start < first.end.addingTimeInterval(4 * 3600) })
            for conflict in detectConflicts(proposed: first, existing: later, travelMinutes: travelMinutes) {
                result.append(Clash(earlier: first, conflict: conflict))
            }
        }
        return result
    }

    /// Whether a child's event of this title is one an adult goes to with them: a medical or
    /// dental appointment, a parent-teacher meeting (seed 000 Scenario 1: "Both need to attend" for
    /// Emma's dentist, booked by Lisa). A lesson, class, practice or club is not: the child goes,
    /// and the parent who booked it is not an attendee unless they say so ("Jake and I").
    public static func childGoesWithAnAdult(title: String) -> Bool {
        let words = title.lowercased().split { !$0.isLetter && $0 != "-" }.map(String.init)
        let said = Set(words)
        let appointments: Set<String> = ["appointment", "appt", "dentist", "dental", "doctor", "doctor's", "gp", "pediatrician",
                                         "paediatrician", "orthodontist", "checkup", "check-up", "hospital", "clinic", "optician",
                                         "optometrist", "vaccination", "vaccine", "shots", "physio", "physiotherapy", "therapist",
                                         "therapy", "allergist", "dermatologist", "surgery", "parent-teacher", "conference"]
        if !said.isDisjoint(with: appointments) { return true }
        // "eye exam", "parent teacher meeting".
        let text = " " + words.joined(separator: " ") + " "
        return [" eye exam ", " parent teacher "].contains { text.contains($0) }
    }

    /// Whether an event of this title is an appointment at a time on one day — a visit to a provider,
    /// a haircut, jabs, a meeting, a call, a car's service — rather than something that fills days
    /// ("the dentist next week" is one day next week, never a week-long all-day event).
    public static func isAppointment(title: String) -> Bool {
        let said = Set(title.lowercased().split { !$0.isLetter && $0 != "-" }.map(String.init))
        // A conference of days ("a conference from Monday to Wednesday"), unlike a parent-teacher one.
        if said.contains("conference"), said.isDisjoint(with: ["teacher", "parent-teacher", "parents"]) { return false }
        if childGoesWithAnAdult(title: title) { return true }
        let kinds: Set<String> = ["haircut", "hair", "jab", "jabs", "flu", "booster", "vet", "meeting", "call", "interview", "mot",
                                  "servicing", "service", "lesson", "tutoring", "session", "massage", "nails", "eye", "exam", "test"]
        return !said.isDisjoint(with: kinds)
    }

    /// Typical length of an event, from words in its title (seed 000 `suggestEventDuration`).
    public static func suggestedDurationMinutes(title: String) -> Int {
        let words = title.lowercased()
        let table: [(keywords: [String], minutes: Int)] = [
            (["parent-teacher", "parent teacher", "conference", "haircut", "check-in", "call"], 30),
            (["soccer", "football", "practice", "training", "rehearsal", "game", "match"], 90),
            (["party", "birthday", "movie", "dinner"], 120),
            (["dentist", "doctor", "appointment", "checkup", "check-up", "orthodontist", "vet", "lesson", "meeting", "tutor"], 60),
        ]
        for entry in table where entry.keywords.contains(where: words.contains) { return entry.minutes }
        return 60
    }

    /// Merges overlapping or touching intervals into a sorted, disjoint list.
    public static func merge(_ intervals: [DateInterval]) -> [DateInterval] {
        var merged: [DateInterval] = []
        for interval in intervals.sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1] = DateInterval(start: last.start, end: max(last.end, interval.end))
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    static func isFree(_ candidate: DateInterval, busy: [DateInterval]) -> Bool {
        !busy.contains { $0.start < candidate.end && candidate.start < $0.end }
    }

    /// Alternatives for an appointment that conflicts (SPEC §2): free slots of the same length for every
    /// attendee, within 08:00–20:00, on a half-hour grid; the requested day first (at most `sameDayLimit`),
    /// then the following days; closest to the requested time first. Nothing before `notBefore`.
    public static func nearestAlternatives(
        to requested: DateInterval, busy: [DateInterval], calendar: Calendar, notBefore: Date,
        limit: Int = 4, sameDayLimit: Int = 2, searchDays: Int = 7
    ) -> [TimeSlot] {
        let busy = merge(busy)
        let requestedDay = calendar.startOfDay(for: requested.start)
        let requestedMinute = requested.start.timeIntervalSince(requestedDay) / 60
        var result: [TimeSlot] = []
        for dayOffset in 0...searchDays {
            guard let day = calendar.date(byAdding: .day, value: dayOffset, to: requestedDay) else { continue }
            let dayStart = calendar.startOfDay(for: day)
            // Distance from the requested time of day, computed once per candidate (not in the comparator).
            var candidates: [(slot: DateInterval, distance: Double)] = []
            for start in gridStarts(on: day, duration: requested.duration, calendar: calendar, stepMinutes: 30)
            where start >= notBefore && start != requested.start {
                let slot = DateInterval(start: start, duration: requested.duration)
                guard isFree(slot, busy: busy) else { continue }
                candidates.append((slot, abs(start.timeIntervalSince(dayStart) / 60 - requestedMinute)))
            }
            candidates.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.slot.start < $1.slot.start }
            let take = dayOffset == 0 ? sameDayLimit : 1
            for (slot, _) in candidates.prefix(take) where result.count < limit {
                result.append(TimeSlot(start: slot.start, end: slot.end, score: 0,
                                       reason: dayOffset == 0 ? "same day" : "nearest on a later day"))
            }
            if result.count >= limit { break }
        }
        return result
    }

    /// Open starting times on one day for an appointment of `duration` (08:00–20:00, on the hour),
    /// spread across the day: at most `limit`, chronological. With `startHours` (a meal: dinner
    /// 18–20), starts within those hours, on the half hour.
    public static func openSlots(on day: Date, duration: TimeInterval, busy: [DateInterval], calendar: Calendar,
                                 notBefore: Date, limit: Int = 5, startHours: Range<Int>? = nil) -> [TimeSlot] {
        let busy = merge(busy)
        let midnight = calendar.startOfDay(for: day)
        let starts = startHours.map { hours in
            stride(from: hours.lowerBound * 60, to: hours.upperBound * 60, by: 30).compactMap {
                calendar.date(bySettingHour: $0 / 60, minute: $0 % 60, second: 0, of: midnight)
            }
        } ?? gridStarts(on: midnight, duration: duration, calendar: calendar, stepMinutes: 60)
        let free = starts
            .filter { $0 >= notBefore }
            .map { DateInterval(start: $0, duration: duration) }
            .filter { isFree($0, busy: busy) }
        guard free.count > limit, limit > 1 else {
            return free.map { TimeSlot(start: $0.start, end: $0.end, reason: "open") }
        }
        return (0..<limit).map { index in
            let slot = free[index * (free.count - 1) / (limit - 1)]
            return TimeSlot(start: slot.start, end: slot.end, reason: "open")
        }
    }

    static func minuteOfDay(_ date: Date, _ calendar: Calendar) -> Double {
        date.timeIntervalSince(calendar.startOfDay(for: date)) / 60
    }

    /// Starts on a grid from 08:00 such that the slot ends by 20:00, in wall-clock time. Steps are
    /// added as seconds: daylight-saving changes happen at night, outside 08:00–20:00.
    static func gridStarts(on day: Date, duration: TimeInterval, calendar: Calendar, stepMinutes: Int) -> [Date] {
        guard let open = calendar.date(bySettingHour: 8, minute: 0, second: 0, of: day),
              let close = calendar.date(bySettingHour: 20, minute: 0, second: 0, of: day) else { return [] }
        return Array(stride(from: open, through: close.addingTimeInterval(-duration), by: TimeInterval(stepMinutes * 60)))
    }

    /// The hours of each day a free-time search keeps for a part of the day said over several days
    /// ("evenings next week"), as its slots are named: morning before noon, afternoon to 6 PM,
    /// evening 6 to 9 PM, night to 10 PM (sleep hours are left out anyway). Nil for any other word.
    public static func freeTimeHours(partOfDay: String) -> Range<Int>? {
        switch partOfDay {
        case "morning", "mornings": 7..<12
        case "afternoon", "afternoons": 12..<18
        case "evening", "evenings": 18..<21
        case "night", "nights", "tonight": 18..<22
        default: nil
        }
    }

    /// The family free-time search of the decision tree (seed 000 `findCommonFreeTime`): gaps in the
    /// merged busy timeline of the requested members, at least `minimumMinutes` long, outside sleep
    /// hours (22:00–07:00) and — when an adult is among them — weekday work hours (09:00–17:00).
    /// Ranked: weekend +10, evening (18:00–21:00) +5, weekend morning (09:00–12:00) +3; the best five,
    /// at most one per day and part of day, each `minimumMinutes` long. `dailyHours`: only those
    /// hours of each day ("evenings next week": 17–21 on each day of the week).
    public static func findCommonFreeTime(
        busy: [DateInterval], includesAdult: Bool, minimumMinutes: Int, window: DateInterval,
        calendar: Calendar, limit: Int = 5, dailyHours: Range<Int>? = nil
    ) -> [TimeSlot] {
        var blocked = busy
        var day = calendar.startOfDay(for: window.start)
        while day < window.end {
            let hour = { (value: Int) in calendar.date(bySettingHour: value, minute: 0, second: 0, of: day)! }
            let nextDay = calendar.date(byAdding: .day, value: 1, to: day)!
            blocked.append(DateInterval(start: day, end: hour(7)))
            blocked.append(DateInterval(start: hour(22), end: nextDay))
            if let hours = dailyHours {
                blocked.append(DateInterval(start: day, end: hour(max(0, hours.lowerBound))))
                blocked.append(DateInterval(start: hours.upperBound >= 24 ? nextDay : hour(hours.upperBound), end: nextDay))
            }
            if includesAdult && !calendar.isDateInWeekend(day) {
                blocked.append(DateInterval(start: hour(9), end: hour(17)))
            }
            day = nextDay
        }
        let duration = TimeInterval(minimumMinutes * 60)
        let zone = calendar.timeZone
        var candidates: [TimeSlot] = []
        var cursor = window.start
        for interval in merge(blocked) + [DateInterval(start: window.end, duration: 0)] {
            if interval.start > cursor {
                // A free gap [cursor, interval.start): candidate starts on the half hour.
                var start = roundUpToHalfHour(cursor, calendar)
                while start.addingTimeInterval(duration) <= min(interval.start, window.end) {
                    candidates.append(scored(start: start, duration: duration, calendar: calendar, zone: zone))
                    start = start.addingTimeInterval(30 * 60)
                }
            }
            cursor = max(cursor, interval.end)
        }
        var chosen: [TimeSlot] = []
        var usedParts: Set<String> = []
        for slot in candidates.sorted(by: { $0.score != $1.score ? $0.score > $1.score : $0.start < $1.start }) {
            let key = "\(localDayNumber(slot.start, zone))-\(slot.reason)"
            guard !usedParts.contains(key), chosen.allSatisfy({ $0.end <= slot.start || slot.end <= $0.start }) else { continue }
            usedParts.insert(key)
            chosen.append(slot)
            if chosen.count == limit { break }
        }
        return chosen
    }

    /// Days since 1970-01-01 in local time, and the local hour: plain arithmetic on the zone's
    /// offset at that instant, because Calendar calls per candidate dominated the search.
    static func localDayNumber(_ date: Date, _ zone: TimeZone) -> Int {
        Int(((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))) / 86_400).rounded(.down))
    }

    static func localHour(_ date: Date, _ zone: TimeZone) -> Int {
        let local = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        return ((local % 86_400) + 86_400) % 86_400 / 3600
    }

    static func roundUpToHalfHour(_ date: Date, _ calendar: Calendar) -> Date {
        let minute = calendar.component(.minute, from: date), second = calendar.component(.second, from: date)
        if (minute == 0 || minute == 30) && second == 0 { return date }
        let base = calendar.date(bySetting: .second, value: 0, of: date) ?? date
        let adjusted = base.addingTimeInterval(TimeInterval(-(minute % 30) * 60))
        return adjusted.addingTimeInterval(30 * 60)
    }

    static func scored(start: Date, duration: TimeInterval, calendar: Calendar, zone: TimeZone) -> TimeSlot {
        let hour = localHour(start, zone)
        // 1970-01-01 was a Thursday: day 2 of the week counting from Saturday = 0.
        let weekend = (localDayNumber(start, zone) + 5) % 7 < 2
        var score = 0
        var parts: [String] = []
        if weekend { score += 10; parts.append("weekend") } else { parts.append("weekday") }
        if (18..<21).contains(hour) { score += 5; parts.append("evening") }
        else if weekend && (9..<12).contains(hour) { score += 3; parts.append("morning") }
        else if hour < 12 { parts.append("morning") }
        else if hour < 18 { parts.append("afternoon") }
        else { parts.append("night") }
        return TimeSlot(start: start, end: start.addingTimeInterval(duration), score: score, reason: parts.joined(separator: " "))
    }
}

extension CalendarRules {
    /// Providers people "see" rather than attend: "dentist" becomes "Dentist appointment".
    /// Whether a title starts with someone's name ("Sam's party", "Dale's birthday"), kept
    /// capitalised inside a sentence: a possessive that is no provider or family word ("doctor's
    /// appointment", "mom's birthday", "kids' party" are lowercased as usual).
    public static func startsWithName(_ title: String) -> Bool {
        guard let first = title.split(separator: " ").first, first.count > 2, first.first?.isUppercase == true,
              first.hasSuffix("'s") || first.hasSuffix("\u{2019}s") else { return false }
        let base = first.dropLast(2).lowercased()
        return !appointmentProviders.contains(base) && !commonPossessives.contains(base)
    }

    static let commonPossessives: Set<String> = ["mom", "mum", "dad", "mother", "father", "grandma", "grandpa", "granny", "nan", "nana",
                                                 "gran", "grandad", "kid", "child", "children", "family", "friend", "teacher", "school",
                                                 "today", "tomorrow", "tonight", "week", "year", "month", "everyone", "women", "men",
                                                 "doctor", "dentist", "vet", "mother", "valentine", "new year", "st patrick", "parent", "parents"]

    static let appointmentProviders: Set<String> = ["dentist", "doctor", "orthodontist", "optician", "optometrist",
                                                    "pediatrician", "paediatrician", "vet", "therapist", "physio", "gp"]

    /// Words for "an entry" that say nothing about what it is: "a meeting called budget review" is
    /// titled by its name, "a slot on my calendar for a haircut" by what the slot is for.
    static let placeholderHeads: Set<String> = ["event", "events", "entry", "calendar event", "calendar entry", "meeting",
                                                "appointment", "slot", "time slot", "spot", "time", "space", "room",
                                                "something", "reminder", "booking", "new event", "new entry", "block"]

    /// Placeholders that are only room on the calendar: what they are "for" names the event
    /// ("a meeting for the school board" keeps its title).
    static let slotHeads: Set<String> = ["event", "entry", "calendar event", "calendar entry", "slot", "time slot", "spot",
                                         "time", "space", "room", "something", "booking", "new event", "new entry", "block"]

    /// The event's own name inside what was said as a title: after "called", "named", "titled"
    /// ("meeting called budget review" → "budget review"), or after a placeholder on the calendar
    /// followed by "for" ("slot on my calendar for a haircut" → "haircut"). Otherwise unchanged.
    /// "car needs a service" → "car service", "dog has a vet appointment" → "dog's vet appointment":
    /// one or two words for the thing (after "the", "my", "our"), a verb of needing or having, and
    /// what it needs; nil when the words are not that.
    static func thingsAppointment(words: [String], lower: [String]) -> String? {
        var start = 0
        while start < lower.count, ["the", "my", "our", "his", "her", "their"].contains(lower[start]) { start += 1 }
        let verbs: [(words: [String], owns: Bool)] = [
            (["needs", "to", "have"], false), (["needs", "to", "get"], false), (["is", "due", "for"], false), (["is", "booked", "in", "for"], false),
            (["is", "getting"], false), (["has", "got"], true), (["is", "having"], true), (["needs"], false), (["has"], true),
        ]
        for headLength in 1...2 where start + headLength < lower.count {
            let at = start + headLength
            guard let verb = verbs.first(where: { lower[at...].starts(with: $0.words) }) else { continue }
            var rest = at + verb.words.count
            while rest < lower.count - 1, ["a", "an", "its", "their", "his", "her", "the"].contains(lower[rest]) { rest += 1 }
            guard rest < lower.count, !["to", "been", "no", "nothing"].contains(lower[rest]) else { return nil }
            let head = words[start..<at].joined(separator: " ")
            return (verb.owns ? head + "'s" : head) + " " + words[rest...].joined(separator: " ")
        }
        return nil
    }

    public static func namedTitle(_ said: String) -> String {
        let words = said.split(separator: " ").map(String.init)
        let lower = words.map { $0.lowercased() }
        let articles: Set<String> = ["a", "an", "the", "my", "our", "new"]
        func rest(after index: Int) -> String? {
            var from = index + 1
            while from < words.count - 1, articles.contains(lower[from]) { from += 1 }
            return from < words.count ? words[from...].joined(separator: " ") : nil
        }
        // A name said after the time ("an event on Friday at 3pm titled book club"): what follows.
        if let first = lower.first, ["called", "named", "titled", "entitled"].contains(first), let name = rest(after: 0) {
            return name.trimmingCharacters(in: CharacterSet(charactersIn: "\"'“”"))
        }
        // "… called / named / titled / entitled X": the name, when what comes before it is a placeholder.
        if let index = lower.firstIndex(where: { ["called", "named", "titled", "entitled"].contains($0) }), index > 0,
           placeholderHeads.contains(lower[..<index].filter { !articles.contains($0) }.joined(separator: " ")),
           let name = rest(after: index) {
            return name.trimmingCharacters(in: CharacterSet(charactersIn: "\"'“”"))
        }
        // Going to it ("can I go to Sam's party on Saturday", "go to the school disco"): the event.
        if lower.count > 2, lower[0] == "go" || lower[0] == "going", lower[1] == "to", let name = rest(after: 1),
           !(lower.count == 3 && ["bed", "sleep", "school", "work"].contains(lower[2])) {
            return name
        }
        // A thing's own appointment said as news ("car needs a service", "the dog has a vet
        // appointment", "lawn needs mowing"): the thing and what it needs ("car service", "dog's vet
        // appointment", "lawn mowing").
        if let thing = thingsAppointment(words: words, lower: lower) { return thing }
        // "slot on my calendar for X", "time in the diary for X", "something for X": what it is for.
        if let index = lower.firstIndex(of: "for"), index > 0 {
            let head = lower[..<index].filter { !articles.contains($0) }
            let calendarWords: Set<String> = ["on", "in", "to", "calendar", "schedule", "diary", "agenda", "planner"]
            let noun = head.prefix { !calendarWords.contains($0) }.joined(separator: " ")
            if slotHeads.contains(noun), head.dropFirst(head.prefix { !calendarWords.contains($0) }.count).allSatisfy(calendarWords.contains),
               let name = rest(after: index) {
                return name
            }
        }
        return said
    }

    /// The stored title for what was said: first letter capitalised, "appointment" after a bare provider.
    public static func eventTitle(from said: String) -> String {
        var title = said.trimmingCharacters(in: .whitespaces)
        if appointmentProviders.contains(title.lowercased()) { title += " appointment" }
        return title.prefix(1).uppercased() + title.dropFirst()
    }
}

/// Where "now" comes from. Injected everywhere so that tests and transcripts pin it.
public struct TimeSource: Sendable {
    private let read: @Sendable () -> Date
    public init(_ read: @escaping @Sendable () -> Date) { self.read = read }
    public func now() -> Date { read() }
    public static let system = TimeSource { Date() }
    public static func fixed(_ date: Date) -> TimeSource { TimeSource { date } }
}

/// Lists for sentences: "Emma", "Emma and Jake", "Lisa, Emma and Jake".
/// "a" or "an" before `phrase`, by how its first word sounds: "an English lesson", "a Music
/// lesson", and an abbreviation said letter by letter by its first letter's name: "an RE lesson",
/// "an ICT lesson", "a PE lesson".
public func indefiniteArticle(for phrase: String) -> String {
    let word = phrase.split(separator: " ").first.map(String.init) ?? ""
    guard let first = word.first else { return "a" }
    let letters = word.filter(\.isLetter)
    let abbreviation = letters.count >= 2 && letters.count <= 4 && letters.allSatisfy(\.isUppercase)
    if abbreviation { return "AEFHILMNORSX".contains(first) ? "an" : "a" }
    return "aeiouAEIOU".contains(first) ? "an" : "a"
}

public func joinedList(_ items: [String], conjunction: String = "and") -> String {
    switch items.count {
    case 0: return ""
    case 1: return items[0]
    default: return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
    }
}
