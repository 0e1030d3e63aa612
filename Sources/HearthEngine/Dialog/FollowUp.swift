import Foundation
import HearthDomain
import HearthGrammar
import HearthTime

/// A follow-up: the conversation's last request again, with what the follow-up says changed
/// (docs/using.md "Follow-ups"). "and Jake?" asks it again about Jake, "no, Thursday" corrects it (undoing
/// the change it made, if any), "add Jake too" adds Jake to it. The request is kept as said
/// (`ConversationFocus.request`) and rebuilt as said, so the owning area reads it as if the whole
/// sentence had been spoken ("where is Jake", "schedule Emma and Jake for the dentist Thursday at 4").
/// How a follow-up stands to the request before it (`CoordinationMachine.IntentRole.followUp`).
public enum FollowUpKind: String, CaseIterable, Sendable {
    /// "and Jake?", "what about Saturday?", "and at 5?": the same request with that instead.
    case followUp = "dialog.follow_up"
    /// "no, Thursday", "I meant Jake", "make that 5pm": the last request as it should have been.
    case correct = "dialog.correct"
    /// "add Jake too", "and Emma as well", "Tuesdays too": the last request with that added.
    case add = "dialog.add"
    /// "more", "older ones", "next page": the last request's next page, where it has pages.
    case more = "dialog.more"

    /// Whether it replaces the change the last request made (which is undone first).
    public var replacesChange: Bool { self == .correct || self == .add }
}

enum FollowUp {
    typealias Kind = FollowUpKind

    /// The last request rebuilt: captures replaced (or extended) by what the follow-up said.
    /// Throws when the follow-up says nothing the request has a place for.
    static func rebuild(_ request: SavedMatch, with said: IntentMatch, kind: Kind, slotsOf intent: [String: SlotSpec],
                        resolve: (String) throws -> TemporalResolution, calendar: Calendar) throws -> SavedMatch {
        var rebuilt = request
        if kind == .more { return try nextPage(of: request, slotsOf: intent) }
        var changedSomething = false

        if let people = said.capture("members") {
            // The request's own people slot: the one it captured, else the first its intent has.
            let personTypes: Set<String> = [SlotType.member.rawValue, SlotType.members.rawValue]
            if let index = rebuilt.captures.firstIndex(where: { personTypes.contains($0.type) }) {
                var capture = rebuilt.captures[index]
                if kind == .add && capture.type == SlotType.members.rawValue {
                    capture.normalized += " and " + people.normalized
                    capture.original += " and " + people.original
                } else {
                    capture.normalized = people.normalized
                    capture.original = people.original
                }
                rebuilt.utterance = Self.saying(rebuilt.utterance, capture.original, insteadOf: rebuilt.captures[index].original)
                rebuilt.captures[index] = capture
                changedSomething = true
            } else if !rebuilt.captures.contains(where: { $0.type == SlotType.referent.rawValue }),
                      // A request about "it" names its thing already: a person said after it changes nothing.
                      let (name, spec) = intent.sorted(by: { $0.key < $1.key }).first(where: { $0.value.type == .members })
                        ?? intent.sorted(by: { $0.key < $1.key }).first(where: { $0.value.type == .member }) {
                rebuilt.captures.append(SavedMatch.Capture(name: name, type: spec.type.rawValue, key: spec.key, start: spec.start, end: spec.end,
                                                           normalized: people.normalized, original: people.original))
                changedSomething = true
            }
        }

        let day = said.capture("day"), time = said.capture("time"), whole = said.capture("when")
        // "no, ten" to "take 3 points from Emma?": a bare number corrects the number of a request
        // that has no time ("ten" is read as a clock time only where there is a time to change).
        let bare = time.map(\.normalized).flatMap { !$0.isEmpty && $0.allSatisfy({ $0.isASCII && $0.isNumber }) ? $0 : nil }
        if let number = said.capture("amount")?.normalized ?? (day == nil && whole == nil ? bare : nil),
           said.capture("amount") != nil || !rebuilt.captures.contains(where: { $0.type == SlotType.datetime.rawValue }),
           let index = rebuilt.captures.firstIndex(where: { $0.type == SlotType.number.rawValue }) {
            var capture = rebuilt.captures[index]
            rebuilt.utterance = Self.saying(rebuilt.utterance, number, insteadOf: capture.original)
            capture.normalized = number
            capture.original = number
            rebuilt.captures[index] = capture
            return rebuilt
        }
        if day != nil || time != nil || whole != nil {
            guard let index = rebuilt.captures.firstIndex(where: { $0.type == SlotType.datetime.rawValue }) else {
                throw HearthError.invalidRequest("That request has no time to change. Please say the whole request.")
            }
            var capture = rebuilt.captures[index]
            let before = try resolve(capture.normalized)
            let phrase: String
            if kind == .add, let whole, let added = try? resolve(whole.normalized) {
                phrase = try Self.phrase(adding: added, to: before, calendar: calendar) ?? whole.normalized
            } else {
                phrase = try Self.phrase(replacingIn: before, day: day.map { ($0.normalized, try resolve($0.normalized)) },
                                         time: time.map { ($0.normalized, try resolve(($0.normalized.first?.isNumber ?? false) ? "at " + $0.normalized : $0.normalized)) },
                                         whole: whole.map { ($0.normalized, try resolve($0.normalized)) }, calendar: calendar)
            }
            capture.normalized = phrase
            capture.original = phrase
            rebuilt.utterance = Self.saying(rebuilt.utterance, phrase, insteadOf: rebuilt.captures[index].original)
            rebuilt.captures[index] = capture
            changedSomething = true
        }
        guard changedSomething else { throw HearthError.invalidRequest("Sorry, I'm not sure what to change. Please say the whole request.") }
        return rebuilt
    }

    /// The request's next page: its `page` slot one further (the second page when it had none).
    /// A request without pages has said everything already.
    static func nextPage(of request: SavedMatch, slotsOf intent: [String: SlotSpec]) throws -> SavedMatch {
        guard let spec = intent[pageSlot], spec.type == .number else {
            throw HearthError.invalidRequest("That's everything I have on that.")
        }
        var rebuilt = request
        if let index = rebuilt.captures.firstIndex(where: { $0.name == pageSlot }) {
            let next = String((Int(rebuilt.captures[index].normalized) ?? 1) + 1)
            rebuilt.captures[index].normalized = next
            rebuilt.captures[index].original = next
        } else {
            rebuilt.captures.append(SavedMatch.Capture(name: pageSlot, type: spec.type.rawValue, key: spec.key, start: spec.start, end: spec.end,
                                                       normalized: "2", original: "2"))
        }
        return rebuilt
    }

    /// The slot a request with pages reads its page from (`family.activity`'s `page`).
    static let pageSlot = "page"

    /// A time phrase for the request's time with the follow-up's day or clock time in it: "what
    /// about Saturday?" keeps the time of day asked about, "and at 5?" keeps the day.
    static func phrase(replacingIn before: TemporalResolution, day: (String, TemporalResolution)?, time: (String, TemporalResolution)?,
                       whole: (String, TemporalResolution)?, calendar: Calendar) throws -> String {
        if let whole { return whole.0 }
        let clock: (Int, Int)? = time.flatMap { $0.1.start }.map { (calendar.component(.hour, from: $0), calendar.component(.minute, from: $0)) }
        let keptClock: (Int, Int)? = before.hasTimeOfDay ? before.start.map { (calendar.component(.hour, from: $0), calendar.component(.minute, from: $0)) } : nil
        func at(_ clock: (Int, Int)) -> String { String(format: " at %02d:%02d", clock.0, clock.1) }
        if let day {
            // A repeating day ("tuesdays") or a day: said as it was, at the time kept or given.
            guard let chosen = clock ?? keptClock else { return day.0 }
            return (day.1.rrule != nil || day.1.start == nil ? day.0 : isoDay(day.1.start!, calendar: calendar)) + at(chosen)
        }
        guard time != nil, let clock else { throw HearthError.invalidRequest("Sorry, I'm not sure what to change. Please say the whole request.") }
        guard before.rrule == nil, let start = before.start else {
            throw HearthError.invalidRequest("Please say the whole time, like \"every Monday at 5\".")
        }
        return isoDay(start, calendar: calendar) + at(clock)
    }

    /// "also on Tuesdays" to a weekly rule: the rule with that day added, at its time.
    static func phrase(adding added: TemporalResolution, to before: TemporalResolution, calendar: Calendar) throws -> String? {
        guard let old = before.rrule, let new = added.rrule, let oldDays = weekdays(in: old), let newDays = weekdays(in: new),
              old.split(separator: ";").allSatisfy({ $0.hasPrefix("FREQ=WEEKLY") || $0.hasPrefix("BYDAY=") }) else {
            return nil
        }
        let days = Weekday.allCases.filter { oldDays.contains($0) || newDays.contains($0) }
        var phrase = "every " + days.map(\.rawValue).joined(separator: " and ")
        if before.hasTimeOfDay, let start = before.start {
            phrase += String(format: " at %02d:%02d", calendar.component(.hour, from: start), calendar.component(.minute, from: start))
        }
        return phrase
    }

    static func weekdays(in rrule: String) -> Set<Weekday>? {
        guard let part = rrule.split(separator: ";").first(where: { $0.hasPrefix("BYDAY=") }) else { return nil }
        let codes = part.dropFirst(6).split(separator: ",").map(String.init)
        let days = codes.compactMap { code in Weekday.allCases.first { $0.rfcCode == code } }
        return days.count == codes.count ? Set(days) : nil
    }

    /// The request's words with one slot's words replaced, so the area reads it as if said that way.
    static func saying(_ utterance: String, _ new: String, insteadOf old: String) -> String {
        guard !old.isEmpty, let range = utterance.range(of: old, options: .caseInsensitive) else { return utterance }
        return utterance.replacingCharacters(in: range, with: new)
    }

    static func isoDay(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// What to say when there is nothing (current) to follow up: ask rather than guess.
    static func nothingToFollow(_ kind: Kind, said: IntentMatch, expired: Bool) -> HearthError {
        let lead = expired ? "It's been a while, so I'm not sure what we were talking about." : "I'm not sure what you're referring to."
        switch kind {
        case .followUp: return .unclearReference("\(lead) Please ask the whole question, like \"where is Jake?\"")
        case .correct: return .unclearReference("\(lead) Please say the whole request again.")
        case .add: return .unclearReference("Add \(said.capture("members")?.original ?? "that") to what? \(lead) Please say the whole request.")
        case .more: return .unclearReference("More of what? \(lead) Please say the whole request, like \"what's changed this week?\"")
        }
    }
}
