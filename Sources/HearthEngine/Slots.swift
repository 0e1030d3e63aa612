import Foundation
import HearthDomain
import HearthGrammar
import HearthTime

/// A slot value as it appears in JSON (SPEC §3): a string, an integer, a boolean or a list of names.
public enum SlotValue: Sendable, Equatable, Encodable, CustomStringConvertible {
    case string(String), int(Int), bool(Bool), list([String])

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .string(let value): return "\"\(value)\""
        case .int(let value): return "\(value)"
        case .bool(let value): return "\(value)"
        case .list(let values): return "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }
}

/// Captured slots turned into typed values against the roster and the clock — the one place where
/// grammar text becomes members, instants and numbers.
struct ResolvedSlots: Sendable {
    var members: [String: [MemberID]] = [:]
    var times: [String: TemporalResolution] = [:]
    var texts: [String: String] = [:]
    var numbers: [String: Int] = [:]
    var phrases: [String: String] = [:]
    /// Times the resolver could not read, as said, for intents whose area asks for them instead
    /// (`SkillArea.asksForUnreadTimes`).
    var unreadTimes: [String: String] = [:]
    /// Words before a time that only reads without them ("dinner for two on friday at 7": "for two"),
    /// as said; they belong to the words before.
    var wordsBeforeTimes: [String: String] = [:]
    /// Remarks the temporal resolver made, e.g. a time that daylight saving skips; said in the reply.
    var notes: [String] = []
    /// What "it", "that" or "them" can stand for, of the kinds the slot allows, most recent first;
    /// empty when the conversation has nothing (or nothing current) to refer to.
    var referents: [String: [Referent]] = [:]

    /// The slot any intent captures a name in a name position with when it is nobody in the family
    /// (`{unknown_name}` in Intents/common.yaml: "where is Rosa", "tell Rosa dinner's ready").
    static let unknownNameSlot = "unknown_name"

    /// A name said where a member belongs that is nobody in the family: every area answers it the
    /// same way, before it reads anything else (`unknownMember`: "There's no Rosa in the family.").
    func requireKnownNames() throws(HearthError) {
        guard let said = texts[Self.unknownNameSlot], !said.isEmpty else { return }
        throw Self.unknownMember(said)
    }

    /// "There's no Rosa in the family.": the name as said, capitalised.
    static func unknownMember(_ said: String) -> HearthError {
        .unknownMember(said.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " "))
    }
}

struct SlotResolver {
    let roster: Roster
    let speaker: Member
    let temporal: TemporalResolver
    /// "everyone" leaves out the speaker: the owning area addresses people (`SkillArea.everyoneExcludesSpeaker`).
    let everyoneExcludesSpeaker: Bool
    /// Intents whose unreadable times are kept as `unreadTimes` rather than failing the turn.
    var asksForUnreadTimes: Set<String> = []
    /// What the conversation is about (`ConversationFocus`), while current: what "it" can mean.
    var focus: ConversationFocus? = nil

    func resolve(_ match: IntentMatch) throws(HearthError) -> ResolvedSlots {
        var slots = ResolvedSlots()
        for capture in match.captures {
            slots.phrases[capture.name] = capture.original
            switch capture.spec.type {
            case .member:
                let ids = try members(in: capture.normalized)
                slots.members[capture.name] = Array(ids.prefix(1))
            case .members:
                slots.members[capture.name] = try members(in: capture.normalized)
            case .text, .place, .literal:
                slots.texts[capture.name] = Self.cleanText(capture.original)
            case .referent:
                slots.referents[capture.name] = focus?.referents(ofKinds: capture.spec.kinds) ?? []
            case .datetime:
                var capture = capture
                // A time said in two places that do not read as one ("at 5 … at 6"): the first, as said first.
                if let first = capture.firstPart, (try? temporal.resolve(capture.normalized)) == nil {
                    capture = SlotCapture(slot: capture.name, spec: capture.spec, normalized: first.normalized, original: first.original)
                    slots.phrases[capture.name] = capture.original
                }
                do {
                    // "move it to 10": a bare clock number reads as "at 10".
                    let bare = capture.normalized.first?.isNumber == true && Int(capture.normalized) != nil
                    let time = try temporal.resolve(bare ? "at " + capture.normalized : capture.normalized)
                    slots.times[capture.name] = time
                    slots.notes += time.notes
                } catch {
                    if case .notUnderstood = error, asksForUnreadTimes.contains(match.intent) {
                        let words = capture.original.split(separator: " "), normalized = capture.normalized.split(separator: " ")
                        // The longest end of the phrase that reads whole, when the words before it are not a time.
                        if words.count == normalized.count,
                           let drop = (1..<max(normalized.count, 1)).first(where: { (try? temporal.resolve(normalized[$0...].joined(separator: " "))) != nil }),
                           let time = try? temporal.resolve(normalized[drop...].joined(separator: " ")) {
                            slots.times[capture.name] = time
                            slots.phrases[capture.name] = words[drop...].joined(separator: " ")
                            slots.wordsBeforeTimes[capture.name] = words[..<drop].joined(separator: " ")
                        } else {
                            slots.unreadTimes[capture.name] = capture.original
                        }
                        continue
                    }
                    switch error {
                    case .notUnderstood: throw .timeNotUnderstood(capture.original)
                    case .unclearHolidays: throw .unclearHolidays(capture.original)
                    case .endsBeforeStart(_, let start, let end):
                        let formatter = TimeFormatter(calendar: temporal.context.calendar, now: temporal.context.now)
                        throw HearthError.endsBeforeStart(start: start, end: end, formatter: formatter)
                    case .ambiguous(_, let candidates):
                        let formatter = TimeFormatter(calendar: temporal.context.calendar, now: temporal.context.now)
                        throw .ambiguousTime(capture.original, choices: candidates.map { formatter.dateWords($0) })
                    }
                }
            case .duration:
                // "the day before": a day's notice.
                let said = capture.normalized.hasPrefix("the ") ? "a " + capture.normalized.dropFirst(4) : capture.normalized
                let phrase = said.hasPrefix("for ") ? said : "for \(said)"
                guard let resolution = try? temporal.resolve(phrase), let minutes = resolution.minutes else {
                    throw .timeNotUnderstood(capture.original)
                }
                slots.numbers[capture.name] = minutes
            case .number:
                if let value = Int(capture.normalized.filter(\.isNumber)) { slots.numbers[capture.name] = value }
            case .ordinal:
                if capture.normalized == "last" { slots.numbers[capture.name] = -1 }
                else if let value = Int(capture.normalized.prefix { $0.isNumber }) { slots.numbers[capture.name] = value }
            }
        }
        return slots
    }

    /// "emma and i" → [Emma, speaker]; group words per seed 000 §4 ("everyone" leaves out the
    /// speaker only when addressing people, e.g. for messages).
    func members(in phrase: String) throws(HearthError) -> [MemberID] {
        var text = phrase
        // "Both of us", "we both", "either of us": two people, the speaker and their fellow parent
        // (or a child's one brother or sister), not the whole household.
        if Self.pairWords.contains(text) { return roster.pair(saidBy: speaker.id) }
        // "both kids", "both of the kids", "all the kids": the group.
        while let filler = ["both ", "all of ", "all ", "of "].first(where: text.hasPrefix) { text.removeFirst(filler.count) }
        switch text {
        case "everyone", "everybody":
            let addressingOthers = everyoneExcludesSpeaker
            return roster.members.filter { !addressingOthers || $0.id != speaker.id }.map(\.id)
        // "We", "us", "the family": the household (issue 32); a member living elsewhere joins when named.
        // "Anyone", asked about free time or plans ("is anyone free Tuesday at 3"): the household too,
        // each member answered for, so the reply says who is free; "nobody" ("check that nobody has
        // anything Friday night") asks the same of everyone.
        case "the whole family", "the family", "us", "we", "us all", "we all", "all of us",
             "anyone", "anybody", "any of us", "nobody", "no one", "noone", "no-one":
            return roster.household(saidBy: speaker.id)
        // "My kids", "our children": the children, as "the kids".
        case "the kids", "the children", "my kids", "my children", "our kids", "our children", "kids", "children":
            return roster.members.filter { $0.kind == .child }.map(\.id)
        case "the adults", "the parents":
            return roster.members.filter { $0.kind == .adult && ($0.role.canManage || text == "the adults") }.map(\.id)
        default:
            break
        }
        var result: [MemberID] = []
        let parts = text.replacingOccurrences(of: ",", with: " , ")
            .components(separatedBy: " ").split { $0 == "," || $0 == "and" || $0 == "or" }
            .map { $0.joined(separator: " ") }.filter { !$0.isEmpty }
        for part in parts {
            // Each part of a list is read as if said alone ("Tom and the kids", "me and both kids",
            // people said in two places): a group among names is its members.
            if parts.count > 1 { result += try members(in: part).filter { !result.contains($0) }; continue }
            let id: MemberID
            switch part {
            case "me", "i", "myself", "my": id = speaker.id  // "my chore is …", "on my chore list"
            default:
                guard let member = roster.member(named: part, for: speaker.id) else { throw .unknownMember(part.capitalized) }
                id = member.id
            }
            if !result.contains(id) { result.append(id) }
        }
        return result
    }

    /// Two people said as one (the grammar's `{pair}`).
    static let pairWords = Set(GroupWords.pair)

    /// Text slots: the words as said, trimmed, without leading articles or trailing punctuation.
    static func cleanText(_ text: String) -> String {
        var words = text.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters.subtracting(CharacterSet(charactersIn: "'$"))))
        for article in ["the ", "a ", "an "] where words.lowercased().hasPrefix(article) {
            words.removeFirst(article.count)
        }
        return words
    }
}

extension ResolvedSlots {
    /// The slots of SPEC §3 for a match, before the owning area adds its defaults
    /// (`SkillArea.completeContractSlots`): what `hearth parse --json` prints.
    func contractSlots(of match: IntentMatch, roster: Roster, timeZone: TimeZone) -> [String: SlotValue] {
        var slots: [String: SlotValue] = [:]
        for capture in match.captures {
            let spec = capture.spec
            let key = spec.key ?? capture.name
            switch spec.type {
            case .member:
                if let id = members[capture.name]?.first, let member = roster[id] { slots[key] = .string(member.name) }
            case .members:
                slots[key] = .list((members[capture.name] ?? []).compactMap { roster[$0]?.name })
            case .text, .place, .literal:
                if let text = texts[capture.name] { slots[key] = .string(text) }
            case .referent:
                // With no conversation, the words that refer ("it", "that one"); none when a
                // pattern's referent is implied by other words ("Emma's coming too").
                if let name = referents[capture.name]?.first?.name { slots[key] = .string(name) }
                else if let first = capture.normalized.split(separator: " ").first,
                        ["it", "that", "this", "them", "the"].contains(first) { slots[key] = .string(capture.normalized) }
            case .duration, .number, .ordinal:
                if let number = numbers[capture.name] { slots[key] = .int(number) }
            case .datetime:
                guard let time = times[capture.name] else { continue }
                if let start = time.start { slots[spec.start ?? key] = .string(ISO8601.string(start, in: timeZone)) }
                if let end = time.end, let endKey = spec.end { slots[endKey] = .string(ISO8601.string(end, in: timeZone)) }
                if let rrule = time.rrule { slots["recurrence"] = .string(rrule) }
                if time.skipsSchoolHolidays { slots["skip"] = .string("school_holidays") }
                if time.kind == .duration, let minutes = time.minutes { slots["minutes"] = .int(minutes) }
            }
        }
        return slots
    }
}
