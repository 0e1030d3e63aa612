import Foundation
import HearthDomain
import HearthSkills
import HearthTime

/// The family itself by voice (issue 9): "add our son Max, he's 8", "add Grandma Sue as a viewer",
/// "remove Max from the family" (after a spoken yes), "what did Tom change today?". The work and
/// the permission checks are FamilySkill's; this area reads the request and words the result.
struct FamilyArea: SkillArea {
    static let id: SkillAreaID = "family"
    let intents = ["family.add_member", "family.invite", "family.remove_member", "family.activity", "family.update_member", "family.list_members",
                   "family.revoke_access", "family.restore_access", "family.parent_updates"]
    let readIntents: Set<String> = ["family.activity", "family.list_members"]
    let help = AreaHelp(topic: "who's in the family",
                        examples: ["\"Who's in the family?\" / \"Add our son Max, he's 8\" / \"Remove Max from the family\" / \"What did Tom change today?\"",
                                   "\"Make Tom a viewer\" / \"Call Lisa mum from now on\" / \"Grandpa lives in Chicago\" / \"Zoe is 10 now\""],
                        spoken: ["who's in the family", "what did Tom change today"])

    let skill: FamilySkill
    let invitations: InvitationSkill

    init(_ dependencies: AreaDependencies) {
        skill = FamilySkill(store: dependencies.store, ids: dependencies.ids)
        invitations = InvitationSkill(store: dependencies.store, ids: dependencies.ids, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        case add(FamilySkill.NewMember)
        /// A single-use code for someone joining from their own device.
        case invite(FamilySkill.NewMember)
        case remove(MemberID, name: String)
        /// Whose changes (nil: everyone's), from when to when, and how the range was said.
        /// `about`: what changed, as said ("the dentist appointment"), when the log is searched.
        /// `page`: 1 for the newest lines, 2 for the ones before them ("more"), …
        /// `last`: only the newest line ("what did I just do"); its pages are one line each.
        /// `onCalendar`: changes to the calendar only ("what did Tom add to the calendar").
        case activity(MemberID?, from: Date, to: Date, said: String?, about: String? = nil, page: Int = 1, last: Bool = false,
                      onCalendar: Bool = false)
        /// Everyone in the family, as the speaker knows them.
        case list
        /// A change to a member (issue 32), and the place a time zone was said as ("Chicago").
        case update(MemberID, MemberChange, zoneLabel: String?)
        /// A member's access taken away (true) or given back (false), nothing deleted (issue 33).
        case access(MemberID, revoke: Bool)
        /// Whether the speaker is told of the other parents' changes (seed 001).
        case parentUpdates(Bool)
    }

    /// "Remove Max from the family?": whom, to remove on a yes.
    struct Question: Codable, Sendable, Equatable {
        var member: MemberID
        var name: String
    }

    /// How far back "what's changed" looks when no time is said.
    static let recentDays = 7
    /// How far back a search of the log looks when no time is said ("who changed the dentist?").
    static let searchedDays = 30

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        let skill = skill.joining(turn.transaction)
        switch request.intent {
        case "family.add_member":
            return act(.add(try Self.newMember(request.slots)))
        case "family.invite":
            // Refused before reading the rest: a child asking to invite learns who can, not what to say.
            if let denial = InvitationRules.denial(toInviteBy: turn.speaker) { throw HearthError.permissionDenied(denial) }
            return act(.invite(try Self.newMember(request.slots, inviting: true)))
        case "family.remove_member":
            guard let said = request.slots.texts["name"] else { throw HearthError.invalidRequest("Who should I remove from the family?") }
            guard let member = try skill.member(named: said, for: turn.speaker.id) else { throw HearthError.unknownMember(Self.tidy(said)) }
            // Refused before the question: nobody is asked to confirm what they may not do.
            if let denial = FamilyRules.denial(toRemove: member, by: turn.speaker) { throw HearthError.permissionDenied(denial) }
            let prompt = ReplyText("Remove \(member.name) from the family? That deletes \(member.name)'s chores, messages, locations, points and reminders. Say yes or no.")
            return .ask(try ask(Question(member: member.id, name: member.name), prompt: prompt, subject: "removing \(member.name)", in: turn))
        case "family.activity":
            // "what did you just do": the assistant did what the speaker asked, so the speaker's changes.
            let member = request.slots.texts["by_assistant"] != nil ? turn.speaker.id : request.slots.members["member"]?.first
            let range = request.slots.times["range"]
            let about = (request.slots.phrases["about"] ?? request.slots.texts["about"])
                .map { $0.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)) }.flatMap { $0.isEmpty ? nil : $0 }
            let days = about == nil ? Self.recentDays : Self.searchedDays
            let start = range?.start ?? turn.now.addingTimeInterval(-Double(days) * 86400)
            // Up to and including this moment: a change just made is in the log.
            var end = range?.end ?? turn.now.addingTimeInterval(1)
            if let start = range?.start, range?.end == nil { end = turn.calendar.date(byAdding: .day, value: 1, to: turn.calendar.startOfDay(for: start)) ?? turn.now }
            // "this week's activity": the range as "this week".
            let said = request.slots.phrases["range"].map { $0.hasSuffix("'s") ? String($0.dropLast(2)) : $0 }
            return act(.activity(member, from: start, to: end, said: said, about: about, page: max(1, request.slots.numbers[FollowUp.pageSlot] ?? 1),
                                 last: request.slots.texts["last"] != nil, onCalendar: request.slots.texts["calendar"] != nil))
        case "family.list_members":
            return act(.list)
        case "family.update_member":
            let (id, change, label) = try Self.memberChange(request.slots, in: turn, skill: skill)
            return act(.update(id, change, zoneLabel: label))
        case "family.revoke_access", "family.restore_access":
            guard let id = request.slots.members["name"]?.first, let member = turn.roster[id] else {
                throw HearthError.invalidRequest("Whose access do you mean?")
            }
            if let denial = AccountRules.denial(toChangeAccessOf: member, by: turn.speaker) { throw HearthError.permissionDenied(denial) }
            return act(.access(id, revoke: request.intent == "family.revoke_access"))
        case "family.parent_updates":
            // Refused before anything is asked: a child learns who is told, not how to say it.
            if let refusal = Permissions.check(actor: turn.speaker, action: .parentUpdates) { throw HearthError.permissionDenied(refusal.text) }
            let said = (request.slots.texts["switch"] ?? "").lowercased()
            let off = ["stop", "quit", "mute", "silence", "disable", "turn off", "switch off", "no more", "dont", "don't", "do not",
                       "no need to", "never"].contains { said.hasPrefix($0) }
            return act(.parentUpdates(!off))
        default:
            throw HearthError.internalState("\(request.intent) sent to family")
        }
    }

    /// Heard by voice, taking a member's access away or changing what they may do is said back
    /// first ("Turn off Jake's access?", "Make Tom a viewer?"). Removing a member asks whether typed
    /// or heard.
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? {
        switch action {
        case .access(let id, revoke: true):
            let name = turn.phrasing.name(id)
            return ReadBack(question: ReplyText("Turn off \(name)'s access? \(name) won't be able to sign in or use Hearth until a parent gives it back."),
                            subject: "\(name)'s access")
        case .update(let id, let change, _) where change.role != nil || change.kind != nil:
            guard let member = turn.roster[id] else { return nil }
            let role = FamilyRules.roleWords(change.role ?? member.role, change.kind ?? member.kind)
            return ReadBack(question: ReplyText("Make \(member.name) \(role)?"), subject: "\(member.name)'s role")
        default:
            return nil
        }
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        guard request.intent == "family.update_member" else { return }
        let (_, change, _) = try Self.memberChange(request.slots, in: turn, skill: skill.joining(turn.transaction))
        // SPEC's role words: owner, co-parent, viewer, adult, child.
        if let role = change.role { slots["role"] = .string(change.kind == .child ? "child" : role == .member ? "adult" : role.rawValue) }
        if let alias = change.aliases.first { slots["alias"] = .string(alias) }
        if !change.aliases.isEmpty {
            switch change.aliasScope {
            case .family: slots["alias_scope"] = .string("family")
            case .speakers(let ids): slots["alias_scope"] = .list(ids.compactMap { turn.roster[$0]?.name })
            }
        }
        if let zone = change.homeTimeZone { slots["time_zone"] = zone.map(SlotValue.string) ?? .string(turn.timeZone.identifier) }
    }

    func answer(_ answer: DialogAnswer, to question: Question, asked: PendingQuestion, in turn: TurnContext) throws -> AreaOutcome {
        switch answer {
        case .confirm: return act(.remove(question.member, name: question.name))
        case .cancel: return .say(ReplyText("OK, \(question.name) stays in the family."), endsQuestion: true)
        default: return .ask(asked.renewed(now: turn.now), lead: "Please say yes or no.")
        }
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction)
        switch action {
        case .add(let new):
            let member = try skill.addMember(new, by: turn.speaker, now: turn.now)
            return .completed(ActionResult(reply: ReplyText("I've added \(member.name) to the family as \(FamilySkill.describe(member)).")))
        case .invite(let new):
            let issued = try invitations.joining(turn.transaction).invite(name: new.name, role: new.role, kind: new.kind, by: turn.speaker, now: turn.now)
            let lead = "I've made an invitation for \(new.name) to join as \(FamilyRules.roleWords(new.role, new.kind))."
            let rule = "It works once, within 72 hours"
            return .completed(ActionResult(reply: ReplyText(
                "\(lead) The code is \(issued.token). \(rule): on their own device, run `hearth invite accept \(issued.token)`.",
                // A 32-character code is no use read aloud: the voice points at the screen.
                speak: "\(lead) The code is on the screen. \(rule).")))
        case .remove(let id, _):
            let member = try skill.removeMember(id, by: turn.speaker, now: turn.now)
            return .completed(ActionResult(reply: ReplyText("I've removed \(member.name) from the family, with their chores, messages, locations, points and reminders.")))
        case .list:
            let roster = Roster(members: try skill.members(), speakerAliases: try skill.store.read { try $0.speakerAliases() })
            return .completed(ActionResult(reply: Self.listing(roster, speaker: turn.speaker)))
        case .update(let id, let change, let label):
            let update = try skill.updateMember(id, change, by: turn.speaker, now: turn.now)
            let roster = Roster(members: try skill.members(), speakerAliases: try skill.store.read { try $0.speakerAliases() })
            return .completed(ActionResult(reply: Self.updateReply(update, zoneLabel: label, speaker: turn.speaker, roster: roster),
                                           notifications: update.notifications))
        case .access(let id, let revoke):
            let accounts = AccountSkill(store: turn.transaction)
            if revoke {
                let (member, _) = try accounts.revokeAccess(of: id, by: turn.speaker, now: turn.now)
                return .completed(ActionResult(reply: ReplyText(
                    "OK. \(member.name)'s access is off: \(member.name) can't sign in or use Hearth until a parent gives it back. Nothing of \(member.name)'s was deleted.")))
            }
            let member = try accounts.restoreAccess(of: id, by: turn.speaker, now: turn.now)
            return .completed(ActionResult(reply: ReplyText("OK. \(member.name) has access again.")))
        case .parentUpdates(let on):
            let already = try skill.setParentUpdates(on, by: turn.speaker, now: turn.now)
            return .completed(ActionResult(reply: ReplyText(FamilySkill.parentUpdatesWords(on, already: already))))
        case .activity(let member, let start, let end, let said, let about, let page, let last, let onCalendar):
            let shown = last ? 1 : Self.shownLines
            let skipped = (page - 1) * shown
            // One line past the page says whether there are older ones.
            var lines = try Self.searchedActivity(about, by: member, from: start, to: end, skill: skill, turn: turn, shown: shown + 1, skipping: skipped,
                                                  subjects: onCalendar ? FamilySkill.calendarSubjects : [])
            let more = lines.count > shown
            // One's own lines say "you": "You checked off Feed the dog".
            let own = member == turn.speaker.id
            lines = Array(lines.prefix(shown)).map { own ? FamilyRules.ownLine($0, name: turn.speaker.name) : $0 }
            let who = member.map { own ? "you" : turn.phrasing.name($0) }
            let days = about == nil ? Self.recentDays : Self.searchedDays
            let when = said.map { " \($0)" } ?? " in the last \(days) days"  // plural-ok: a fixed span
            let topic = about.map { " about \(Self.topicWords($0))" } ?? (onCalendar ? " on the calendar" : "")
            guard !lines.isEmpty else {
                if page > 1 {
                    return .completed(ActionResult(reply: ReplyText(last ? "There's nothing before that\(when)."
                        : "There are no older changes\(topic)\(when): that was all of them.")))
                }
                let has = own ? "You haven't" : who.map { "\($0) hasn't" }
                if let about {
                    let what = Self.topicWords(about)
                    return .completed(ActionResult(reply: ReplyText(has.map { "\($0) changed anything about \(what)\(when)." }
                        ?? "Nothing about \(what) has changed\(when).")))
                }
                return .completed(ActionResult(reply: ReplyText(has.map { "\($0) changed anything\(topic)\(when)." } ?? "Nothing has changed\(topic)\(when).")))
            }
            if last, let line = lines.first {
                // "Your last change: you checked off Feed the dog." — "more" reads the one before.
                let lead = page > 1 ? "Before that" : own ? "Your last change" : who.map { "\($0)'s last change" } ?? "The last change"
                let said = own ? line.prefix(1).lowercased() + line.dropFirst() : line
                return .completed(ActionResult(reply: ReplyText("\(lead): \(said).", speak: "\(lead): \(turn.formatter.spokenDates(in: said)).")))
            }
            let which = page > 1 ? ", changes \(skipped + 1) to \(skipped + lines.count)" : ""
            let lead = (who.map { "Here's what \($0) changed\(topic)\(when)" } ?? "Here's what changed\(topic)\(when)") + which + ":"
            let tail = more ? ReplyText("Say \"more\" for older ones.", speak: "Say more for older ones.") : nil
            return .completed(ActionResult(reply: ReplyText(lead + "\n" + lines.map { "- \($0)" }.joined(separator: "\n") + (tail.map { "\n" + $0.display } ?? ""),
                                                            speak: lead + " " + lines.map { turn.formatter.spokenDates(in: $0) + "." }.joined(separator: " ")
                                                                + (tail.map { " " + $0.speak } ?? ""))))
        }
    }

    /// How many of the log's lines one answer reads; "more" reads the next as many.
    static let shownLines = 20

    // MARK: - The log searched by voice (issue 32)

    /// The log's lines from `start` to `end` about `about` (all of them when nil), newest first, at
    /// most `shown`: lines mentioning every word that says what ("dentist appointment"), and when
    /// none does, every word that names it without saying its kind ("dentist"). A line mentions a
    /// word when one of its words starts with it, so "point" finds "points" but not "appointment".
    static func searchedActivity(_ about: String?, by member: MemberID?, from start: Date, to end: Date, skill: FamilySkill,
                                 turn: TurnContext, shown: Int = 20, skipping skipped: Int = 0, subjects: [String] = []) throws -> [String] {
        let words = about.map(searchWords) ?? []
        guard !words.isEmpty else {
            return try skill.activity(by: member, from: start, to: end, subjects: subjects, reader: turn.speaker, limit: shown, offset: skipped)
        }
        let lines = try skill.activity(by: member, from: start, to: end, subjects: subjects, reader: turn.speaker, limit: searchedLines)
        let found = lines.filter { FamilyRules.line($0, mentions: words) }
        let named = words.filter { !kindWords.contains($0) }
        guard found.isEmpty, !named.isEmpty, named.count < words.count else { return Array(found.dropFirst(skipped).prefix(shown)) }
        return Array(lines.filter { FamilyRules.line($0, mentions: named) }.dropFirst(skipped).prefix(shown))
    }

    /// How many of the newest lines in the range a search reads.
    static let searchedLines = 500

    /// The words of a topic a log line must hold: no articles or possessive words ("my", "Emma's"),
    /// a plural as its singular ("chores" finds "chore" and "chores").
    static func searchWords(_ about: String) -> [String] {
        about.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).compactMap { piece -> String? in
            let word = String(piece)
            if topicStopWords.contains(word) || word.hasSuffix("'s") || word.hasSuffix("s'") { return nil }
            if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") { return String(word.dropLast()) }
            return word
        }
    }

    /// The topic as a reply says it: "the dentist appointment" → "the dentist appointment", "my chores" → "your chores".
    static func topicWords(_ about: String) -> String {
        let words = about.split(separator: " ").map { word -> String in
            switch word.lowercased() { case "my": "your"; case "our": "the family's"; default: String(word) }
        }
        return words.joined(separator: " ")
    }

    static let topicStopWords: Set<String> = ["the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that",
                                              "these", "those", "of", "for", "to", "on", "in", "at", "about", "with", "and"]
    /// Words that say what kind a thing is rather than which: a line may name the thing without them.
    static let kindWords: Set<String> = ["appointment", "event", "meeting", "thing", "plan", "booking", "entry", "item"]

    // MARK: - Members: listing and changing them (issue 32)

    /// "There are 5 people in the family:" and one line each — role, age, the family's words for
    /// them, the speaker's own words, and a home zone of their own.
    static func listing(_ roster: Roster, speaker: Member) -> ReplyText {
        let members = roster.members
        let own = roster.speakerAliases[speaker.id] ?? [:]
        var lines: [String] = [], spoken: [String] = []
        for member in members {
            var line = FamilyRules.listing(member)
            var notes: [String] = []
            if !member.aliases.isEmpty { notes.append("also " + member.aliases.joined(separator: ", ")) }
            let mine = own.filter { $0.value == member.id }.map(\.key).sorted()
            if !mine.isEmpty { notes.append("you say " + mine.joined(separator: ", ")) }
            if let zone = member.homeTimeZone { notes.append("on \(FamilySkill.zoneWords(zone)) time") }
            if !member.inHousehold { notes.append("lives elsewhere") }
            if !notes.isEmpty { line += " (" + notes.joined(separator: "; ") + ")" }
            lines.append(line)
            spoken.append(FamilyRules.listing(member) + (member.id == speaker.id ? " (that's you)" : ""))
        }
        let lead = members.count == 1 ? "There is 1 person in the family:" : "There are \(members.count) people in the family:"
        let you = members.firstIndex { $0.id == speaker.id }
        var display = lines
        if let you { display[you] += " — that's you" }
        let speech = spoken.map { $0.replacingOccurrences(of: " (that's you)", with: ", that's you") }
        return ReplyText(lead + "\n" + display.map { "- \($0)" }.joined(separator: "\n"),
                         speak: lead + " " + (speech.count > 1 ? speech.dropLast().joined(separator: "; ") + "; and " + speech.last! : speech.joined()) + ".")
    }

    /// The member and the change a request names. A role said as a relation or a kind ("a child",
    /// "an adult") sets being a child too; a place is read as its time zone ("Chicago"), "here" is
    /// the family's; a word is the speaker's own unless the sentence says whose (`MemberChange.AliasScope`).
    static func memberChange(_ slots: ResolvedSlots, in turn: TurnContext, skill: FamilySkill) throws -> (MemberID, MemberChange, String?) {
        guard let id = slots.members["name"]?.first else { throw HearthError.invalidRequest("Who do you want to change?") }
        var change = MemberChange(aliasScope: .speakers([turn.speaker.id]))
        if let word = slots.texts["role"] {
            guard let said = FamilyRules.role(said: word) else { throw HearthError.invalidRequest("I don't know the role \(word). Say co-parent, viewer, adult or child.") }
            change.role = said.role
            change.kind = said.kind
        }
        if let age = slots.numbers["age"] { change.age = age }
        var label: String?
        if let place = slots.texts["time_zone"] {
            let key = place.lowercased()
            if ["here", "with us", "at home", "home", "in town", "locally", "nearby"].contains(key) {
                change.homeTimeZone = .some(nil)
                change.livesHere = true
            } else if TemporalZones.countriesWithSeveralZones.contains(key.replacingOccurrences(of: ".", with: "")) {
                throw HearthError.invalidRequest("That country has several time zones. Which city? Say, for example, \"\(turn.roster[id]?.name ?? "Grandpa") lives in Chicago\".")
            } else if let zone = TemporalZones.zone(forPlace: place) {
                change.homeTimeZone = .some(zone.identifier)
                label = zone.label
            } else {
                throw HearthError.invalidRequest("I don't know the time zone of \(FamilyArea.tidy(place)). Say a big city near it, like Chicago or London.")
            }
        }
        // "Grandpa lives in Chicago", "Grandma doesn't live with us", "Sue moved out": they live
        // elsewhere ("lives here" said so above). "Sue is on Pacific time" says only the zone.
        if slots.texts["lives"] != nil, change.livesHere == nil { change.livesHere = false }
        if let word = slots.texts["alias"] {
            change.aliases = [word.lowercased()]
            if let scope = slots.texts["alias_scope"]?.lowercased() {
                switch scope {
                case "everyone", "everybody", "the family", "the whole family", "we all", "we", "all of us", "the family all", "everyone in the family":
                    change.aliasScope = .family
                case "the kids", "the children", "the kids all", "all the kids":
                    let kids = turn.roster.members.filter { $0.kind == .child && $0.id != id }.map(\.id)
                    guard !kids.isEmpty else { throw HearthError.invalidRequest("There are no children in the family.") }
                    change.aliasScope = .speakers(kids)
                case "i", "me":
                    change.aliasScope = .speakers([turn.speaker.id])
                default:
                    guard let member = try skill.member(named: scope, for: turn.speaker.id) else { throw HearthError.unknownMember(FamilyArea.tidy(scope)) }
                    change.aliasScope = .speakers([member.id])
                }
            }
        }
        return (id, change, label)
    }

    /// What a member change says: each part done, or already so.
    static func updateReply(_ update: FamilySkill.MemberUpdate, zoneLabel: String?, speaker: Member, roster: Roster) -> ReplyText {
        let before = update.before, after = update.after, name = after.name
        var parts: [String] = []
        if after.name != before.name { parts.append("\(before.name) is now called \(after.name).") }
        if after.role != before.role || after.kind != before.kind { parts.append("\(name) is now \(FamilyRules.roleWords(after.role, after.kind)).") }
        if after.age != before.age, let age = after.age { parts.append("\(name) is \(age) now.") }
        if after.homeTimeZone != before.homeTimeZone {
            if let zone = after.homeTimeZone {
                parts.append("\(name) lives on \(zoneLabel ?? FamilySkill.zoneWords(zone)) time now (\(zone)).")
            } else {
                parts.append("\(name) is on the family's time now.")
            }
        }
        if after.inHousehold != before.inHousehold {
            parts.append(after.inHousehold ? "\(name) lives with the family now: when you say \"we\" or \"the family\", that includes \(name)."
                                           : "\(name) lives elsewhere now: when you say \"we\" or \"the family\", \(name) is left out unless named.")
        }
        var spokenParts = parts.map { $0.replacingOccurrences(of: #" \([A-Za-z_/+-]+\)"#, with: "", options: .regularExpression) }
        func say(_ display: String, _ spoken: String) { parts.append(display); spokenParts.append(spoken) }
        let whose: String
        switch update.wordScope {
        case .family: whose = "the family's"
        case .speakers(let ids) where ids == [speaker.id]: whose = "your"
        case .speakers(let ids): whose = joinedList(ids.map { roster[$0]?.name ?? FamilyRules.formerMember }) + "'s"
        }
        for word in update.wordsForgotten {
            say("\"\(word)\" is no longer \(whose) word for \(name).", "\(word.prefix(1).uppercased() + word.dropFirst()) is no longer \(whose) word for \(name).")
        }
        for word in update.wordsAdded {
            switch update.wordScope {
            case .family:
                say("\"\(word)\" now means \(name) for everyone in the family.", "\(word.prefix(1).uppercased() + word.dropFirst()) now means \(name) for everyone in the family.")
            case .speakers(let ids) where ids == [speaker.id]:
                say("When you say \"\(word)\", I'll know you mean \(name).", "When you say \(word), I'll know you mean \(name).")
            case .speakers(let ids):
                let who = joinedList(ids.map { roster[$0]?.name ?? FamilyRules.formerMember })
                let verb = ids.count == 1 ? "says" : "say"
                say("When \(who) \(verb) \"\(word)\", I'll know it means \(name).", "When \(who) \(verb) \(word), I'll know it means \(name).")
            }
        }
        parts += update.unchanged; spokenParts += update.unchanged
        let display = parts.isEmpty ? "Nothing changed for \(name)." : parts.joined(separator: " ")
        return ReplyText("OK. " + display, speak: "OK. " + (spokenParts.isEmpty ? display : spokenParts.joined(separator: " ")))
    }

    // MARK: - Reading the request

    /// A new member from the words: a role said wins; else a relation ("our son" a child, "grandma"
    /// a viewer, "our nanny" an adult member, "my wife" a co-parent); else an age (under 18 a child).
    static func newMember(_ slots: ResolvedSlots, inviting: Bool = false) throws -> FamilySkill.NewMember {
        guard let said = slots.texts["name"] else { throw HearthError.invalidRequest("What's their name?") }
        let name = tidy(said)
        let age = slots.numbers["age"]
        if let word = slots.texts["role"], let role = FamilyRules.role(said: word) {
            let kind = role.kind ?? ((age ?? 18) < 18 ? .child : .adult)
            return .init(name: name, kind: kind, role: role.role, age: age)
        }
        switch slots.texts["relation"]?.lowercased() {
        case "son", "daughter", "kid", "child", "baby", "boy", "girl", "stepson", "stepdaughter":
            return .init(name: name, kind: .child, role: .member, age: age)
        case "grandma", "grandpa", "grandmother", "grandfather", "granny", "nana", "grandad", "granddad", "aunt", "auntie", "uncle", "cousin":
            return .init(name: name, kind: .adult, role: .viewer, age: age)
        // The speaker's own relatives and in-laws ("add my mother-in-law Maria"): grown-ups who see the family's plans.
        case let relation? where relation.hasSuffix("in-law") || relation.hasSuffix("in law")
            || ["mother", "father", "mom", "mum", "dad", "brother", "sister"].contains(relation):
            return .init(name: name, kind: (age ?? 18) < 18 ? .child : .adult, role: .viewer, age: age)
        case "nanny", "au pair", "babysitter":
            return .init(name: name, kind: .adult, role: .member, age: age)
        case "partner", "husband", "wife":
            return .init(name: name, kind: .adult, role: .coParent, age: age)
        default:
            break
        }
        if let age { return .init(name: name, kind: age < 18 ? .child : .adult, role: .member, age: age) }
        if inviting {
            throw HearthError.invalidRequest("As what should \(name) join? Say, for example, \"invite \(name) as a co-parent\" or \"invite \(name) as a viewer\".")
        }
        throw HearthError.invalidRequest("What is \(name) in the family? Say, for example, \"add \(name) as a child\" or \"add \(name) as a viewer\".")
    }

    /// "grandpa joe" → "Grandpa Joe".
    static func tidy(_ name: String) -> String {
        name.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}
