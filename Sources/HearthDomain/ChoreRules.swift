import Foundation

/// Chores as pure rules (seed 000 §3.4 and §4 POINTS_ALGORITHM, seed 004 statistics and streaks):
/// what a completion earns, streaks and statistics, who does which occurrence and by when, which
/// chore or reward spoken words name, who may do what, and when an unfinished chore is closed.
/// No clock reads: every function takes the instants, days and calendar (with the family's time
/// zone) it needs. Each `denial` returns the refusal to say, or nil when the actor may go ahead.
///
/// "A parent" below is an adult who may run the household's chores: the owner, a co-parent, or an
/// adult with the plain member role (an au pair, a live-in grandparent). Viewers only look;
/// children check off their own chores and spend their own points.
public enum ChoreRules {
    // MARK: Points (seed 000 §4)

    public static let firstChoreBonus = 10
    public static let perfectWeekBonus = 50
    public static let earlyBonusPercent = 25
    /// How late a chore may be done and still earn half its points.
    public static let lateGrace: TimeInterval = 24 * 3600

    /// What one completion earns, split the way the ledger records it (each part is its own entry).
    public struct Award: Equatable, Sendable {
        public var base: Int
        public var earlyBonus: Int
        public var firstChoreBonus: Int
        public var wasOnTime: Bool
        public var total: Int { base + earlyBonus + firstChoreBonus }

        public init(base: Int, earlyBonus: Int, firstChoreBonus: Int, wasOnTime: Bool) {
            self.base = base; self.earlyBonus = earlyBonus; self.firstChoreBonus = firstChoreBonus; self.wasOnTime = wasOnTime
        }
    }

    /// On time (up to and including the due instant): full points, plus 25 % (rounded down) when
    /// done more than a day early. Up to a day late: half (rounded down). Later: nothing — but a
    /// member's very first completion earns its welcome bonus however late it is, so a child who
    /// starts badly still gets the encouragement.
    public static func award(points: Int, due: Date, completedAt: Date, isFirstCompletion: Bool) -> Award {
        let first = isFirstCompletion ? firstChoreBonus : 0
        if completedAt <= due {
            let early = due.timeIntervalSince(completedAt) > lateGrace ? points * earlyBonusPercent / 100 : 0
            return Award(base: points, earlyBonus: early, firstChoreBonus: first, wasOnTime: true)
        }
        let base = completedAt.timeIntervalSince(due) <= lateGrace ? points / 2 : 0
        return Award(base: base, earlyBonus: 0, firstChoreBonus: first, wasOnTime: false)
    }

    /// Whether one member's chores due in one Monday–Sunday week make a perfect week: every chore
    /// done on time. Skipped chores were excused, so they neither spoil nor make the week; a week
    /// with nothing to do earns no bonus.
    public static func isPerfectWeek(_ chores: [Chore]) -> Bool {
        let counted = chores.filter { $0.status != .skipped }
        return !counted.isEmpty && counted.allSatisfy { chore in
            chore.status == .completed && chore.completedAt.map { $0 <= chore.due } == true
        }
    }

    // MARK: Streaks and statistics (seed 004)

    /// One civil day of a member's chores: the daily goal is met when every chore due that day was
    /// done by the day's end.
    public struct DayRecord: Equatable, Sendable {
        /// "YYYY-MM-DD" in the family's time zone.
        public var day: String
        public var due: Int
        public var done: Int
        public var paused: Bool
        public var goalMet: Bool { !paused && due > 0 && done == due }

        public init(day: String, due: Int, done: Int, paused: Bool) {
            self.day = day; self.due = due; self.done = done; self.paused = paused
        }
    }

    /// One record per civil day from `first` through `last` ("YYYY-MM-DD", both included) in
    /// `calendar`'s time zone. A chore counts on the day it is due; skipped chores don't count.
    /// A chore done (or waiting for review) counts as done only when it was done before that day
    /// ended, so finishing it days later does not rebuild an old streak.
    ///
    /// "Emma or Jake" chores (`.anyOf`): once someone has done one it belongs to whoever did it;
    /// while it is still undone (open or missed) it counts for every member it was offered to, since
    /// any of them could have done it.
    public static func dayRecords(for member: MemberID, chores: [Chore], pauses: [ChorePause], from first: String,
                                  through last: String, calendar: Calendar) -> [DayRecord] {
        guard let start = startOfDay(first, calendar: calendar), let end = startOfDay(last, calendar: calendar), start <= end else {
            return []
        }
        let mine = chores.filter { $0.status != .skipped && belongs($0, to: member) }
        var byDay: [String: [Chore]] = [:]
        for chore in mine { byDay[dayString(chore.due, calendar: calendar), default: []].append(chore) }

        var records: [DayRecord] = []
        var dayStart = start
        while dayStart <= end {
            guard let nextDay = calendar.date(byAdding: .day, value: 1, to: dayStart) else { break }
            let day = dayString(dayStart, calendar: calendar)
            let due = byDay[day] ?? []
            let done = due.filter { chore in
                (chore.status == .completed || chore.status == .pendingReview) && chore.completedAt.map { $0 < nextDay } == true
            }
            records.append(DayRecord(day: day, due: due.count, done: done.count,
                                     paused: pauses.contains { $0.covers(day, member: member) }))
            dayStart = nextDay
        }
        return records
    }

    public struct Streak: Equatable, Sendable {
        /// Goal days in a row up to now.
        public var current: Int
        /// The longest such run in the days looked at.
        public var longest: Int

        public init(current: Int, longest: Int) { self.current = current; self.longest = longest }
    }

    /// Consecutive days whose goal was met. A paused day, or a day with nothing due, neither counts
    /// nor breaks the run (a holiday should not cost a child their streak). A day with chores left
    /// undone starts it again from zero — except `today`, which is not over yet: it counts once its
    /// goal is met and does not break the run before then. Days after `today` have not happened and
    /// are ignored.
    public static func streak(_ days: [DayRecord], today: String) -> Streak {
        var current = 0, longest = 0
        for record in days where record.day <= today {
            if record.paused || record.due == 0 { continue }
            if record.goalMet {
                current += 1
                longest = max(longest, current)
            } else if record.day != today {
                current = 0
            }
        }
        return Streak(current: current, longest: longest)
    }

    /// seed 004's chore category (indoor, outdoor …), for a chore that has no template to give it
    /// one: read from its title's words ("Feed the cat" → pets, "Mow the lawn" → outdoor), else
    /// "other". The first group any word belongs to wins, in this order.
    public static func category(ofTitle title: String) -> String {
        let lower = title.lowercased()
        if lower.contains("washing up") || lower.contains("wash up") || lower.contains("washing-up") { return "dishes" }
        // The words as said and their lemmas ("recycling" → "recycle"): a cue may be either.
        let words = significantWords(title).union(lower.split { !$0.isLetter }.map(String.init))
        for (category, cues) in categoryCues where !words.isDisjoint(with: cues) { return category }
        return "other"
    }

    static let categoryCues: [(String, Set<String>)] = [
        ("dishes", ["dish", "dishes", "dishwasher", "washing-up"]),
        ("trash", ["trash", "garbage", "rubbish", "bin", "bins", "recycling", "compost"]),
        ("pets", ["cat", "dog", "dogs", "fish", "hamster", "rabbit", "pet", "pets", "litter", "feed", "walk"]),
        ("laundry", ["laundry", "washing", "clothes", "ironing", "iron", "fold", "socks"]),
        ("outdoor", ["lawn", "mow", "grass", "weeds", "weed", "garden", "leaves", "rake", "plants", "yard", "gutters", "driveway", "porch",
                     "garage", "car", "snow", "water"]),
        ("cleaning", ["room", "bedroom", "bed", "beds", "toys", "vacuum", "hoover", "sweep", "mop", "dust", "tidy", "clean", "bathroom",
                      "toilet", "toilets", "kitchen", "counters", "floors", "floor", "windows", "sink", "fridge", "scrub", "wipe", "polish"]),
        ("meals", ["table", "groceries", "cook", "dinner", "lunch", "breakfast", "unload", "shopping"]),
    ]

    /// Per category, the chores done (`completed`) of those counted as due (`due`), as `stats` counts them.
    public struct CategoryCount: Equatable, Sendable {
        public var category: String
        public var completed: Int
        public var due: Int
        public init(category: String, completed: Int, due: Int) { self.category = category; self.completed = completed; self.due = due }
    }

    /// A member's chore statistics over a range of days (seed 004).
    public struct Stats: Equatable, Sendable {
        public var completed: Int
        public var onTime: Int
        public var minutesSpent: Int
        public var due: Int
        /// `completed / due`; nil when nothing was due.
        public var completionRate: Double?
        public var streak: Streak
        /// Done, and waiting for a parent's review (not in `completed`: it has earned nothing yet).
        public var awaitingReview: Int
        /// The time said per chore done, on average, over those whose time was said (seed 004
        /// "average completion time"); nil when no time was said.
        public var averageMinutes: Int?
        /// Per category (seed 004 "per category statistics"), most done first, then by name.
        public var categories: [CategoryCount] = []
        /// seed 004 "most skipped chore": the title skipped most often in the range, and how often
        /// (ties: the first by title); nil when none was skipped.
        public var mostSkipped: (title: String, count: Int)? {
            get { mostSkippedTitle.map { ($0, mostSkippedCount) } }
            set { mostSkippedTitle = newValue?.title; mostSkippedCount = newValue?.count ?? 0 }
        }
        var mostSkippedTitle: String?
        var mostSkippedCount = 0

        public init(completed: Int, onTime: Int, minutesSpent: Int, due: Int, completionRate: Double?, streak: Streak, awaitingReview: Int = 0) {
            self.completed = completed; self.onTime = onTime; self.minutesSpent = minutesSpent; self.due = due
            self.completionRate = completionRate; self.streak = streak; self.awaitingReview = awaitingReview
        }
    }

    /// `due` counts the member's chores (not skipped) in the range whose due time has come by `now`:
    /// one due at 6 PM is not yet owed at 5 PM, as the streak does not count today as missed before
    /// it is over. One due later but already done counts both as due and completed, so the rate
    /// never goes above 1. `completed` and `onTime` count approved completions only; a completion
    /// waiting for review has earned nothing yet. The streak's "today" is `now`'s day.
    public static func stats(for member: MemberID, chores: [Chore], pauses: [ChorePause], from first: String,
                             through last: String, now: Date, calendar: Calendar,
                             category: (Chore) -> String = { ChoreRules.category(ofTitle: $0.title) }) -> Stats {
        let today = dayString(now, calendar: calendar)
        let counted = chores.filter { chore in
            guard chore.status != .skipped, belongs(chore, to: member) else { return false }
            let day = dayString(chore.due, calendar: calendar)
            return first <= day && day <= last && (chore.due <= now || chore.status == .completed)
        }
        let completed = counted.filter { $0.status == .completed }
        let onTime = completed.filter { chore in chore.completedAt.map { $0 <= chore.due } == true }
        let waiting = chores.filter { chore in
            let day = dayString(chore.due, calendar: calendar)
            return chore.status == .pendingReview && belongs(chore, to: member) && first <= day && day <= last
        }
        let records = dayRecords(for: member, chores: chores, pauses: pauses, from: first, through: last, calendar: calendar)
        var stats = Stats(completed: completed.count, onTime: onTime.count, minutesSpent: completed.reduce(0) { $0 + ($1.minutesSpent ?? 0) },
                          due: counted.count, completionRate: counted.isEmpty ? nil : Double(completed.count) / Double(counted.count),
                          streak: streak(records, today: today), awaitingReview: waiting.count)
        let timed = completed.compactMap(\.minutesSpent)
        if !timed.isEmpty { stats.averageMinutes = Int((Double(timed.reduce(0, +)) / Double(timed.count)).rounded()) }
        var byCategory: [String: CategoryCount] = [:]
        for chore in counted {
            let name = category(chore)
            byCategory[name, default: CategoryCount(category: name, completed: 0, due: 0)].due += 1
            if chore.status == .completed { byCategory[name]!.completed += 1 }
        }
        stats.categories = byCategory.values.sorted { ($1.completed, $0.category) < ($0.completed, $1.category) }
        var skipped: [String: Int] = [:]
        for chore in chores where chore.status == .skipped && belongs(chore, to: member) {
            let day = dayString(chore.due, calendar: calendar)
            if first <= day && day <= last { skipped[chore.title, default: 0] += 1 }
        }
        if let most = skipped.min(by: { ($1.value, $0.key) < ($0.value, $1.key) }) { stats.mostSkipped = (most.key, most.value) }
        return stats
    }

    /// Whether `chore` is `member`'s (see `dayRecords` for "Emma or Jake" chores).
    private static func belongs(_ chore: Chore, to member: MemberID) -> Bool {
        if chore.sharing == .anyOf, let doer = chore.completedBy { return doer == member }
        return chore.assignees.contains(member)
    }

    /// "YYYY-MM-DD" of the civil day `date` falls on in `calendar`'s time zone.
    public static func dayString(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The first instant of the civil day "YYYY-MM-DD" in `calendar`'s time zone.
    public static func startOfDay(_ day: String, calendar: Calendar) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3,
              let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)) else { return nil }
        // Noon first: a zone whose clocks skip midnight still has that day's noon.
        return calendar.startOfDay(for: date)
    }

    // MARK: Assignment

    /// Who does occurrence `index` (0-based) of a rotating chore: the assignees take turns in order.
    public static func assignee(forOccurrence index: Int, of assignees: [MemberID]) -> MemberID {
        precondition(!assignees.isEmpty, "a rotating chore needs someone to rotate between")
        let count = assignees.count
        return assignees[((index % count) + count) % count]
    }

    /// "for this week": the next weekly deadline (demo Thursday 18:00) strictly after `now`. At the
    /// deadline itself this week's has passed, so it is next week's.
    public static func weeklyDeadline(after now: Date, settings: ChoreSettings, calendar: Calendar) -> Date {
        let (hour, minute) = clock(settings.weeklyDeadlineTime, default: (18, 0))
        let today = calendar.startOfDay(for: now)
        for ahead in 0...14 {
            guard let day = calendar.date(byAdding: .day, value: ahead, to: today),
                  calendar.component(.weekday, from: day) == settings.weeklyDeadlineWeekday,
                  let deadline = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day),
                  deadline > now else { continue }
            return deadline
        }
        // Only an impossible weekday setting gets here; a week from now is the least surprising answer.
        return now.addingTimeInterval(7 * 24 * 3600)
    }

    /// The due instant of a chore said for a day without a time ("by Saturday"): that day at the
    /// family's default due time.
    public static func dueTime(onDay day: Date, settings: ChoreSettings, calendar: Calendar) -> Date {
        let (hour, minute) = clock(settings.defaultDueTime, default: (18, 0))
        let start = calendar.startOfDay(for: day)
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: start) ?? start
    }

    /// When a chore said for a part of the day without a clock time ("tonight", "this evening")
    /// is due at the latest: the end of that part of `day` — morning noon, afternoon 5 PM, evening
    /// 9 PM, night 11 PM. nil when `phrase` names no part of the day or says a clock time. A chore
    /// asked for at 6 PM "this evening" is due by 9 PM, not at 6 PM and late from the start.
    public static func partOfDayEnd(_ phrase: String, on day: Date, calendar: Calendar) -> Date? {
        let words = phrase.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard !words.contains(where: { $0.contains(where: \.isNumber) || ["noon", "midnight", "oclock", "o'clock"].contains($0) }) else { return nil }
        let ends: [(words: Set<String>, hour: Int)] = [(["morning"], 12), (["afternoon", "lunchtime"], 17), (["evening"], 21),
                                                       (["tonight", "night"], 23)]
        guard let hour = ends.first(where: { !$0.words.isDisjoint(with: words) })?.hour else { return nil }
        return calendar.date(bySettingHour: hour, minute: 0, second: 0, of: calendar.startOfDay(for: day))
    }

    /// "HH:MM" as hour and minute; `fallback` when it is not a valid clock time.
    private static func clock(_ text: String, default fallback: (Int, Int)) -> (Int, Int) {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]) else { return fallback }
        return (parts[0], parts[1])
    }

    public static func defaultPoints(for difficulty: ChoreDifficulty) -> Int { difficulty.defaultPoints }

    /// How often a template's chore usually comes round, from the words a template is made with
    /// ("daily", "every week", "fortnightly"): an RRULE, nil when none was said.
    public static func templateRecurrence(said: String?) -> String? {
        switch said?.lowercased() {
        case "daily", "every day": "FREQ=DAILY"
        case "weekly", "every week": "FREQ=WEEKLY"
        case "fortnightly", "every other week", "every two weeks": "FREQ=WEEKLY;INTERVAL=2"
        case "monthly", "every month": "FREQ=MONTHLY"
        default: nil
        }
    }

    /// The words for a template's RRULE ("every week"), nil for a rule not made from words.
    public static func templateRecurrenceWords(_ rule: String) -> String? {
        switch rule {
        case "FREQ=DAILY": "every day"
        case "FREQ=WEEKLY": "every week"
        case "FREQ=WEEKLY;INTERVAL=2": "every other week"
        case "FREQ=MONTHLY": "every month"
        default: nil
        }
    }

    /// The difficulty of a chore from how long it takes (seed 000: easy up to 10 minutes, medium up
    /// to 30, hard beyond).
    public static func difficulty(forMinutes minutes: Int) -> ChoreDifficulty {
        minutes <= 10 ? .easy : minutes <= 30 ? .medium : .hard
    }

    // MARK: Finding chores and rewards by spoken words

    /// Words that say nothing about which chore or reward is meant. Chore verbs are among them, so
    /// "took out the trash", "take out trash" and "trash duty" all come down to "trash"; units of
    /// time too, so "30 minutes screen time" meets "30 min extra screen time" on its other words.
    private static let stopWords: Set<String> = [
        "a", "an", "the", "my", "his", "her", "their", "our", "your", "its", "this", "that", "these", "those",
        "i", "im", "ive", "me", "we", "you", "he", "she", "they", "it", "is", "are", "was", "and", "or", "just", "all",
        "chore", "chores", "duty", "job", "jobs", "task", "tasks", "please",
        "to", "of", "for", "up", "out", "off", "with", "in", "on",
        "take", "taking", "took", "do", "doing", "did", "done", "clean", "cleaned", "cleaning", "tidy", "tidied",
        "make", "made", "empty", "emptied", "put", "finish", "finished", "wash", "washed",
        "min", "mins", "minute", "minutes",
    ]

    /// The words of a spoken title that tell chores and rewards apart: lowercased, possessives and
    /// apostrophes dropped ("jake's" → "jake"), stop words removed (see `stopWords`), plurals made
    /// singular ("bins" → "bin", "dishes" → "dish"). A "$" stays on its amount ("$5").
    public static func significantWords(_ said: String) -> Set<String> {
        let tokens = said.lowercased().replacingOccurrences(of: "’", with: "'")
            .split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "$") }
        var words: Set<String> = []
        for token in tokens {
            var word = String(token)
            if word.hasSuffix("'s") { word.removeLast(2) }
            word.removeAll { $0 == "'" }
            guard word.contains(where: { $0.isLetter || $0.isNumber }), !stopWords.contains(word) else { continue }
            word = singular(word)
            guard !stopWords.contains(word) else { continue }
            // A lemma that is a stop word ("washing" → "wash") keeps the word as said: the noun
            // ("the washing") still tells chores apart.
            let base = lemma(word)
            words.insert(stopWords.contains(base) ? word : base)
        }
        return words
    }

    /// A word's dictionary form as chores compare it, the same for a title and for what was said,
    /// so every tense of a verb meets its title ("swept" and "sweeping" → "sweep", "hung" → "hang",
    /// "tidied" → "tidy", "mopped" → "mop"): English's irregular past forms from a table, then the
    /// regular endings ("-ied", "-ed", "-ing") and a final silent "e" ("raked" and "rake" → "rak").
    /// A comparison key, never shown.
    public static func lemma(_ word: String) -> String {
        if let base = EnglishVerbs.irregularPast[word] { return silentE(base) }
        var stem = word
        if stem.count > 4, stem.hasSuffix("ied") {
            stem = String(stem.dropLast(3)) + "y"
        } else if stem.count > 4, stem.hasSuffix("ed"), !stem.hasSuffix("eed") {
            stem = undoubled(String(stem.dropLast(2)))
        } else if stem.count > 5, stem.hasSuffix("ing") {
            stem = undoubled(String(stem.dropLast(3)))
        }
        return silentE(stem)
    }

    /// "mopp" → "mop", "stirr" → "stir"; "fill", "press" and "buzz" keep theirs (English doubles
    /// them in the base form too).
    private static func undoubled(_ stem: String) -> String {
        guard stem.count > 2, let last = stem.last, stem.dropLast().last == last, !"lsz".contains(last),
              !"aeiou".contains(last) else { return stem }
        return String(stem.dropLast())
    }

    /// "rake" → "rak", so the base form and the stem of "raked" and "raking" meet.
    private static func silentE(_ word: String) -> String {
        word.count > 3 && word.hasSuffix("e") && !word.hasSuffix("ee") ? String(word.dropLast()) : word
    }


    /// The verbs among `stopWords` that say what is done to a chore's thing, as lemmas.
    private static let choreVerbs: Set<String> = Set(["take", "do", "clean", "tidy", "make", "empty", "put", "finish", "wash"].map(lemma))

    /// The chore verbs of `said`, in any tense, as lemmas ("tidied" → "tidy", "took" → "tak").
    static func verbLemmas(_ said: String) -> Set<String> {
        Set(said.lowercased().split { !$0.isLetter }.map { lemma(String($0)) }.filter(choreVerbs.contains))
    }

    /// "dishes" → "dish", "boxes" → "box", "bins" → "bin"; short words ("bus") and "-ss" words
    /// ("glass") are left alone.
    private static func singular(_ word: String) -> String {
        if word.hasSuffix("es"), ["sh", "ch", "x", "s"].contains(where: { word.dropLast(2).hasSuffix($0) }) {
            return String(word.dropLast(2))
        }
        if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") { return String(word.dropLast()) }
        return word
    }

    /// How many of the said words a title and its aliases share; 0 unless one of the shared words
    /// is more than a number, so "30" alone does not pick "30 min extra screen time".
    private static func overlap(_ said: Set<String>, phrases: [String]) -> Int {
        let shared = said.intersection(phrases.reduce(into: Set<String>()) { $0.formUnion(significantWords($1)) })
        return shared.contains(where: { word in !word.allSatisfy(\.isNumber) }) ? shared.count : 0
    }

    /// The element sharing the most words with what was said; the first of equals; nil when none
    /// shares any. `whole`: only an element whose words hold every word said.
    private static func best<T>(_ said: String, in items: [T], whole: Bool = false, phrases: (T) -> [String]) -> T? {
        let words = significantWords(said)
        var winner: (item: T, score: Int)?
        for item in items {
            let score = overlap(words, phrases: phrases(item))
            if whole, score < words.count { continue }
            if score > 0 && score > (winner?.score ?? 0) { winner = (item, score) }
        }
        return winner?.item
    }

    /// The template a spoken chore names ("the bins" → Take out trash), by its title and aliases:
    /// every word said must be one of its words, so "hang up the washing" is a chore of its own,
    /// not "washing up" (Do dishes).
    public static func template(matching said: String, in templates: [ChoreTemplate]) -> ChoreTemplate? {
        best(said, in: templates, whole: true) { [$0.title] + $0.aliases }
    }

    /// The active reward a spoken request names ("extra screen time", "cash"), by its title and aliases.
    /// A reward's name as said, without "the" before or "reward" after: "the ice cream reward" → "ice cream".
    public static func rewardName(said: String) -> String {
        var words = said.split(separator: " ").map(String.init)
        if let first = words.first, ["the", "a", "an", "my"].contains(first.lowercased()), words.count > 1 { words.removeFirst() }
        if let last = words.last, ["reward", "treat", "prize"].contains(last.lowercased()), words.count > 1 { words.removeLast() }
        return words.joined(separator: " ")
    }

    public static func reward(matching said: String, in rewards: [Reward]) -> Reward? {
        best(said, in: rewards.filter(\.active)) { [$0.title] + $0.aliases }
    }

    /// Whether every word of the name said is one of `reward`'s (title or aliases): "screen time",
    /// "the movie", "five dollars" name theirs wholly; "movie night" only shares a word with "Pick
    /// the movie" — a guess, which spends no points until it is said again.
    /// The words a request for a reward may add that name no reward: how it is had ("choose the
    /// movie") and a unit said in full ("30 minutes screen time").
    static let rewardFillers = significantWords("choose pick get have watch use spend min mins minute minutes hour hours")

    /// A number said as a word or in digits ("thirty", "30").
    static func isNumber(_ word: String) -> Bool {
        word.allSatisfy(\.isNumber) || numberWords.contains(word)
    }
    static let numberWords: Set<String> = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                                           "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "ninety", "hundred"]

    public static func namesWholly(_ said: String, _ reward: Reward) -> Bool {
        let own = ([reward.title] + reward.aliases).reduce(into: Set<String>()) { $0.formUnion(significantWords($1)) }
        // A number said for a reward with one ("thirty minutes screen time" for "30 min …") is its
        // amount, however it was said.
        let counted = own.contains { isNumber($0) || $0.hasPrefix("$") }
        let words = significantWords(rewardName(said: said)).subtracting(rewardFillers).filter { !(counted && isNumber($0)) }
        return words.isSubset(of: own)
    }

    /// The chores a spoken title names best (equals keep their order). Nothing said —
    /// or nothing but filler, as in "my chores" — names them all.
    public static func chores(matching said: String?, in chores: [Chore]) -> [Chore] {
        let words = significantWords(said ?? "")
        guard !words.isEmpty else { return chores }
        let verbs = verbLemmas(said ?? "")
        var scored: [(index: Int, chore: Chore, score: Int)] = []
        for (index, chore) in chores.enumerated() {
            let score = overlap(words, phrases: [chore.title])
            // The common chore verbs name no chore on their own ("took out" alone is nothing), but
            // between two chores of the same thing they tell which: "I tidied the playroom" is
            // "Tidy the playroom", not "Vacuum the playroom".
            if score > 0 { scored.append((index, chore, score * 16 + verbs.intersection(verbLemmas(chore.title)).count)) }
        }
        // Only the best: "I swept the porch" names "Sweep the porch", not "Paint the porch" too.
        let top = scored.map(\.score).max() ?? 0
        return scored.filter { $0.score == top }.map(\.chore)
    }

    // MARK: Permissions

    /// Each asks the permission table (`Permissions`) first; a parent there is an adult who may run
    /// the chores: owner, co-parent, or an adult member such as an au pair.
    public static func denial(toAssignChoresTo assignees: [MemberID], by actor: Member) -> String? {
        Permissions.check(actor: actor, action: .choreAssign)?.text
    }

    /// Whether `actor` may rename, re-point, hand on or delete a chore or a template: parents only
    /// (seed 004: children cannot delete chores or templates, nor change repeats).
    public static func denial(toEditChoresBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .choreEdit)?.text
    }

    /// Whether `actor` may check off `chore` as done by `member`: a child only their own chore, as
    /// themselves; a parent for whichever assignee did it; a viewer never.
    public static func denial(toComplete chore: Chore, as member: MemberID, by actor: Member) -> String? {
        if let refusal = Permissions.check(actor: actor, action: member == actor.id ? .choreCompleteOwn : .choreCompleteOthers) {
            return refusal.text
        }
        if !chore.assignees.contains(member) { return "That chore isn't assigned to them." }
        return nil
    }

    /// Reviewing at all (the queue, "approve Jake's dishes") is a parent's.
    public static func denial(toReviewChoresBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .choreReview)?.text
    }

    /// A completion is approved by a parent other than whoever did it: nobody marks their own work.
    public static func denial(toReview chore: Chore, by actor: Member) -> String? {
        if let refusal = Permissions.check(actor: actor, action: .choreReview) { return refusal.text }
        if chore.completedBy == actor.id { return "Someone else has to review a chore you did yourself." }
        return nil
    }

    public static func denial(toAdjustPointsOf member: MemberID, by actor: Member) -> String? {
        Permissions.check(actor: actor, action: .pointsAdjust)?.text
    }

    /// Children see their own points only, so a balance never becomes a comparison they didn't ask for.
    public static func denial(toSeePointsOf members: [MemberID], by actor: Member) -> String? {
        Permissions.check(actor: actor, action: members.contains { $0 != actor.id } ? .pointsSeeOthers : .pointsSeeOwn)?.text
    }

    public static func denial(toRedeemFor member: MemberID, by actor: Member) -> String? {
        Permissions.check(actor: actor, action: member == actor.id ? .rewardRedeemOwn : .rewardRedeemForOthers)?.text
    }

    public static func denial(toManageRewardsBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .rewardManage)?.text
    }

    public static func denial(toDecideRedemptionBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .rewardApprove)?.text
    }

    public static func denial(toSkipChoresBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .choreSkip)?.text
    }

    public static func denial(toPauseChoresBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .chorePause)?.text
    }

    /// Whether a completion waits for a parent before it earns points: the chore asks for review,
    /// or the family reviews everything its supervised members (and children) check off (seed
    /// 004's default) — unless a parent relaxed it for that member or for that chore.
    public static func needsReview(_ chore: Chore, completer: Member, settings: ChoreSettings) -> Bool {
        if chore.requiresReview { return true }
        guard settings.reviewAllCompletions, completer.supervised || completer.kind == .child else { return false }
        return !settings.reviewRelaxedMembers.contains(completer.id) && !settings.reviewRelaxedChores.contains(chore.title.lowercased())
    }

    /// Who may say whose chores need checking: a parent.
    public static func denial(toSetReviewPolicyBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .choreReviewPolicy)?.text
    }

    // MARK: Redemption and balances

    /// The points still missing to afford `cost`; nil when the balance covers it.
    public static func shortfall(balance: Int, cost: Int) -> Int? {
        balance >= cost ? nil : cost - balance
    }

    /// Seed 000 §10's words for a reward the balance does not cover.
    public static func insufficientPoints(need: Int) -> String {
        "You need \(counted(need, "more point", plural: "more points")) to redeem this reward. Complete more chores to earn points!"
    }

    /// How much of a requested deduction can be taken: a balance never goes below zero.
    public static func deduction(requested: Int, balance: Int) -> Int {
        min(requested, max(balance, 0))
    }

    /// A leaderboard: most points first (equals keep their order) with competition ranking — two
    /// members tied for second are both 2nd, and the next is 4th.
    public static func ranks(_ totals: [(member: MemberID, points: Int)]) -> [(member: MemberID, points: Int, rank: Int)] {
        let ordered = totals.enumerated().sorted { first, second in
            first.element.points != second.element.points ? first.element.points > second.element.points : first.offset < second.offset
        }.map(\.element)
        var result: [(member: MemberID, points: Int, rank: Int)] = []
        for (position, entry) in ordered.enumerated() {
            let rank = position > 0 && result[position - 1].points == entry.points ? result[position - 1].rank : position + 1
            result.append((entry.member, entry.points, rank))
        }
        return result
    }

    // MARK: Pauses

    /// What a pause does to an open chore due on `day` (civil "YYYY-MM-DD"): nil when no pause
    /// covers anyone who could do it; skipped when every assignee is paused; and for "Emma or Jake"
    /// with only Emma paused, the chore stays open for Jake alone (issue 33: it was skipped, and
    /// Jake could no longer check it off).
    public static func paused(_ chore: Chore, by pauses: [ChorePause], day: String) -> Chore? {
        let away = chore.assignees.filter { member in pauses.contains { $0.covers(day, member: member) } }
        guard chore.status.isOpen, !away.isEmpty else { return nil }
        var changed = chore
        if away.count == chore.assignees.count {
            changed.status = .skipped
        } else if chore.sharing == .anyOf {
            changed.assignees = chore.assignees.filter { !away.contains($0) }
            if changed.assignees.count == 1 { changed.sharing = .single }
        } else {
            changed.status = .skipped
        }
        return changed
    }

    // MARK: Missed chores

    /// Whether an open chore past its due time is now closed as missed (see `MissedChorePolicy`).
    /// `nextDue`: when its series' next occurrence is due, nil for a one-off or an ended series —
    /// which, under `.stayOverdue`, stays open until someone does or skips it.
    public static func closesAsMissed(_ chore: Chore, nextDue: Date?, now: Date) -> Bool {
        guard chore.status.isOpen, now > chore.due else { return false }
        switch chore.missedPolicy {
        case .stayOverdue: return nextDue.map { $0 <= now } ?? false
        case .rollOver: return now >= chore.due.addingTimeInterval(lateGrace)
        }
    }
}
