import Foundation

/// Reminders as pure rules: who may set, see and cancel them, which one a request names, which
/// occurrence a tick delivers, and how their words are said back. Each `denial` returns the refusal
/// to say, or nil when the actor may go ahead; the skill turns a refusal into `permissionDenied`.
///
/// Anyone — a child, a viewer — may remind themselves. Reminding others is for adults who may
/// change things: not a child (a parent asks the child's reminders for them), not a viewer.
/// A reminder is seen by whoever set it, by the people it reminds, and by a parent (owner or
/// co-parent) when it reminds one of the children. It is cancelled by whoever set it, by an adult
/// it reminds, or by a parent when it reminds children — not by a child a parent set it for.
public enum ReminderRules {
    // MARK: The day said inside the words

    /// "remind me about my tomorrow meeting at ten": the day is said inside the words and only a
    /// clock time after them, which alone would mean today. The reminder goes out on the day said
    /// (today, tonight, tomorrow or a weekday, possessive or not) at that time; nil when the time
    /// phrase names its own day or the words name none.
    public static func dayNamed(inWords words: String, timePhrase: String, time: Date, now: Date, calendar: Calendar) -> Date? {
        let phraseWords = Set(timePhrase.lowercased().split { !$0.isLetter }.map(String.init))
        guard phraseWords.isDisjoint(with: dayNaming) else { return nil }
        let said = words.lowercased().split { !$0.isLetter && $0 != "'" }.map { word -> String in
            var word = String(word)
            if word.hasSuffix("'s") { word.removeLast(2) } else if word.hasSuffix("s'") { word.removeLast(1) }
            return word
        }
        guard let day = said.first(where: { dayNaming.contains($0) }) else { return nil }
        let today = calendar.startOfDay(for: now)
        var target: Date?
        switch day {
        case "today", "tonight": target = today
        case "tomorrow": target = calendar.date(byAdding: .day, value: 1, to: today)
        default:
            guard let weekday = weekdays.firstIndex(of: day) else { return nil }
            let ahead = (weekday + 1 - calendar.component(.weekday, from: today) + 7) % 7
            target = calendar.date(byAdding: .day, value: ahead, to: today)
        }
        guard let target else { return nil }
        let clock = calendar.dateComponents([.hour, .minute], from: time)
        guard var moved = calendar.date(bySettingHour: clock.hour ?? 9, minute: clock.minute ?? 0, second: 0, of: target) else { return nil }
        if moved <= now, day != "today", day != "tonight" { moved = calendar.date(byAdding: .day, value: 7, to: moved) ?? moved }
        return moved
    }

    static let weekdays = TimeFormatter.weekdays.map { $0.lowercased() }  // Sunday first, as Calendar counts
    static let dayNaming: Set<String> = Set(weekdays + ["today", "tonight", "tomorrow"])

    // MARK: Permissions

    /// Whether `actor` may set a reminder for `recipients`.
    public static func denial(toRemind recipients: [MemberID], by actor: Member) -> String? {
        Permissions.check(actor: actor, action: recipients.contains { $0 != actor.id } ? .reminderForOthers : .reminderForSelf)?.text
    }

    /// Whether `actor` may see the reminders of `members` at all: a child or a viewer only their own.
    public static func denial(toSeeRemindersOf members: [MemberID], by actor: Member) -> String? {
        guard members.contains(where: { $0 != actor.id }) else { return nil }
        return Permissions.check(actor: actor, action: .reminderSeeOthers)?.text
    }

    /// Whether `member` may see `reminder` (see the type's rules).
    public static func canSee(_ reminder: Reminder, member: Member, roster: Roster) -> Bool {
        if reminder.createdBy == member.id || reminder.recipients.contains(member.id) { return true }
        return member.role.canManage && reminder.recipients.contains { roster[$0]?.kind == .child }
    }

    /// Whether `actor` may cancel `reminder`.
    public static func denial(toCancel reminder: Reminder, by actor: Member, roster: Roster) -> String? {
        if reminder.createdBy == actor.id { return nil }
        if actor.kind == .adult && reminder.recipients.contains(actor.id) && actor.role != .viewer { return nil }
        if actor.role.canManage && reminder.recipients.allSatisfy({ $0 == actor.id || roster[$0]?.kind == .child }) { return nil }
        let setter = reminder.createdBy.flatMap { roster[$0]?.name } ?? "someone else"
        return "\(setter) set that reminder, so only \(setter == "someone else" ? "they" : setter) or a parent can cancel it."
    }

    // MARK: Which reminder a request names

    /// Words that say nothing about which reminder is meant.
    static let fillerWords: Set<String> = ["the", "a", "an", "my", "our", "your", "his", "her", "their", "this", "that",
                                           "reminder", "to", "about", "of", "for", "me", "one", "all"]

    /// Whether what was said ("piano", "the reminder about grandma") names a reminder about `text`
    /// (its words, or its event's title): every meaningful word said is in it. Nothing said matches all.
    public static func matches(said: String?, text: String) -> Bool {
        let query = CalendarRules.words(said ?? "").filter { !fillerWords.contains($0) }
        guard !query.isEmpty else { return true }
        let words = Set(CalendarRules.words(text))
        return query.allSatisfy(words.contains)
    }

    // MARK: Delivery

    /// The one occurrence a tick delivers: the latest due in `(since, now]`. A tick that comes late
    /// (a cron that did not run) says a repeating reminder once, not once per missed occurrence.
    public static func dueToDeliver(_ dues: [Date], since: Date?, now: Date) -> Date? {
        dues.filter { due in due <= now && since.map { due > $0 } ?? true }.max()
    }

    /// The hour a reminder for a whole day ("remind me tomorrow to …") goes out.
    public static let defaultHour = 9

    /// What a recipient receives when a reminder is due: "Reminder" (or "Reminder from Lisa" when
    /// someone else set it) and the words — "Practise piano", "About the meeting", "Pack her kit
    /// (soccer practice at 3:30 PM)" — or, with no words, what was asked: "You asked for a reminder
    /// at 5:00 PM." `event`: the title and start of the occurrence an attached reminder counts back from.
    public static func notification(_ reminder: Reminder, to recipient: MemberID, setBy setter: String?, due: Date,
                                    event: (title: String, start: Date)?, formatter: TimeFormatter) -> (title: String, body: String) {
        let title = setter.map { "Reminder from \($0)" } ?? "Reminder"
        let words = reminder.body.map { told($0, by: setter) }
            .map { setter == nil ? $0 : addressed($0) }
            .map { reminder.link == .about ? "about \($0)" : $0 }
        if let event {
            let day = formatter.day(event.start)
            let when = "\(event.title) \(day == "today" ? "" : day + " ")at \(formatter.time(event.start))"
            return (title, words.map { "\(formatter.capitalized($0)) (\(lowercasedFirst(when)))" } ?? when)
        }
        if let words { return (title, formatter.capitalized(words)) }
        let at = formatter.time(due)
        return (title, setter.map { "\($0) asked me to remind you at \(at)." } ?? "You asked for a reminder at \(at).")
    }

    /// "Soccer practice …" → "soccer practice …"; "PTA meeting" stays as it is.
    public static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }

    // MARK: Words

    /// The connector said before the words ("to", "about", "of", "that", "sure" of "make sure"…) as a `Link`;
    /// with none, "that" when the words are a sentence ("I have a meeting"), "to" when they are an errand
    /// ("buy milk tomorrow", "pick up the dry cleaning on Friday"), else "about".
    public static func link(said connector: String?, body: String?) -> Reminder.Link {
        switch connector?.lowercased() {
        case "to", "sure", "make sure": return .to  // "make sure I call …": the words are something to do
        case "that": return .that
        case .some: return .about
        case nil:
            let first = body?.lowercased().split(separator: " ").first.map(String.init) ?? ""
            if ["i", "we", "you", "he", "she", "they", "it", "there", "i'm", "i've", "we're", "it's", "there's"].contains(first) { return .that }
            return errandVerbs.contains(first) ? .to : .about
        }
    }

    /// Words that start something to do, never a thing's name: "remind you to buy milk", not "about buy milk".
    static let errandVerbs: Set<String> = ["buy", "call", "phone", "ring", "email", "e-mail", "pay", "return", "post", "mail", "renew",
                                           "sign", "pick", "grab", "collect", "fetch", "bring", "take", "send", "book", "feed", "water",
                                           "walk", "wash", "clean", "pack", "practise", "practice", "finish", "check", "order", "cancel"]

    static let firstToSecondPerson: [String: String] = [
        "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "i'm": "you're", "i've": "you've",
        "i'll": "you'll", "i'd": "you'd", "we": "you", "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves",
        "we're": "you're", "we've": "you've",
    ]

    /// The speaker's words said back to them: "call my mom" → "call your mom", "I have a meeting"
    /// → "you have a meeting".
    public static func saidBack(_ text: String) -> String {
        var previous = ""
        return replacingWords(in: text) { word in
            defer { previous = word }
            return word == "am" && previous == "i" ? "are" : firstToSecondPerson[word]
        }
    }

    /// The words as the recipient reads them when someone else set the reminder: "call me" from
    /// Lisa → "call Lisa", "bring my keys" → "bring Lisa's keys".
    public static func told(_ text: String, by setter: String?) -> String {
        guard let setter else { return text }
        return replacingWords(in: text) { word in
            switch word {
            case "me", "myself": setter
            case "my", "mine": "\(setter)'s"
            default: nil
            }
        }
    }

    /// Words someone else set, turned to the one reminded: the possessive right after the first verb
    /// is theirs ("pack her kit" → "pack your kit", "bring their bags" → "bring your bags"), and so
    /// is "herself"; a later "her" may be someone else's ("help his sister with her homework" →
    /// "help your sister with her homework"), so it is left.
    public static func addressed(_ text: String) -> String {
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.count >= 3, ["his", "her", "their"].contains(words[1].lowercased()) { words[1] = "your" }
        return replacingWords(in: words.joined(separator: " ")) { word in
            switch word {
            case "himself", "herself", "themself": "yourself"
            case "themselves": "yourselves"
            default: nil
            }
        }
    }

    /// `text` with each whole word (compared lowercased) that `replacement` knows replaced.
    static func replacingWords(in text: String, _ replacement: (String) -> String?) -> String {
        var result = "", word = ""
        func flush() {
            guard !word.isEmpty else { return }
            if let replaced = replacement(word.lowercased()) {
                result += word.first?.isUppercase == true && word.count > 1 ? replaced.prefix(1).uppercased() + replaced.dropFirst() : replaced
            } else {
                result += word
            }
            word = ""
        }
        for character in text {
            if character.isLetter || character == "'" { word.append(character) } else { flush(); result.append(character) }
        }
        flush()
        return result
    }
}
