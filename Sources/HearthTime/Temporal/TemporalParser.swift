import Foundation

struct TemporalParseError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }

    /// "except holidays": reported as `TemporalError.unclearHolidays`, not as "not understood".
    static let unclearHolidays = TemporalParseError("holidays without saying which")
}

/// Hand-written recursive-descent parser over `TemporalToken`s.
///
/// A phrase is a sequence of components in any order, separated by optional fillers:
///
///     phrase     := component (filler* component)*
///     component  := recurrence | relative | range | until | for | count | starting
///                 | day | span | partOfDay | clock | allDay | now
///     filler     := "on" | "at" | "by" | "around" | "about" | "and" | "the" | "of" | "in" | "from" ...
///                   (followed by a component; "ish", "please" may also end the phrase)
///     day        := "today" | "tomorrow" | "tonight" | "the day after tomorrow" | ...
///                 | ("this" | "next" | "last" | "coming")? weekday ("the" ordinal | date | "week")?
///                 | date
///     date       := month (ordinal | number) year? | (ordinal | number) "of"? month year?
///                 | "the" ordinal ("of" (month | "this month" | "next month"))? | iso | m/d[/y]
///     clock      := "noon" | "midnight" | ("half" | "quarter" | n) ("past" | "to") hour meridiem?
///                 | hour (":" minute | minute)? ("am" | "pm" | "oclock")?
///     range      := "from" clock ("to" | "-" | "until") clock | "between" clock "and" clock | clock "-" clock
///     recurrence := "every" ("other" | n | ordinal)? (weekday ("and" weekday)* | unit | "weekday" | "weekend" | ...)
///                 | "every" ordinals weekday (("of" | "in") month)?
///                 | weekday-plural | "daily" | "weekly" | ... | ("once" | "twice" | n "times") "a" unit
///                 | "the" ordinals (weekday | "day")? "of" ("the" | "every" | "each") "month"
///                 | "the" ordinals weekday-or-plural          (two or more ordinals)
///                 | "the" ("start" | "beginning" | "end") "of" ("every" | "each") ("other" | n)? "month"
///     ordinals   := ordinal (("and")? ("the")? ordinal)*
///     ordinal    := "8th" | "second" | "last" | "penultimate" | "next to last" | ordinal "to last"
///
/// Each component fills one field of `TemporalExpression`; a field filled twice is an error.
struct TemporalParser {
    let tokens: [TemporalToken]
    var pos = 0
    var expr = TemporalExpression()
    /// Position right after the last clock component, to join "4 pm 6 pm" into a range.
    private var lastClockEnd: Int? = nil

    /// What the token helpers ask about each token, worked out once: components are tried in turn,
    /// so every position is probed dozens of times, and a String comparison or dictionary lookup
    /// per probe was most of the parse.
    private let probes: [TokenProbe]

    init(tokens: [TemporalToken]) {
        self.tokens = tokens
        self.probes = tokens.map(TokenProbe.init)
    }

    mutating func parse() throws(TemporalParseError) -> TemporalExpression {
        if tokens.isEmpty { throw TemporalParseError("empty") }
        // A filler that leads to something ("at", "on the", "for") must be followed by a component
        // (hedges such as "like" may come between): "lunch in", "tomorrow for" lost their object.
        var dangling = false
        var components = 0
        while pos < tokens.count {
            filler = nil
            guard try parseComponent() else { throw TemporalParseError("unexpected token at \(pos)") }
            switch filler {
            case nil:
                dangling = false
                components += 1
            case "and"?:
                // "and" joins two components: not first, not after another connective.
                if components == 0 || dangling { throw TemporalParseError("and what") }
                dangling = true
            case let word? where !Self.trailingFillers.contains(word):
                dangling = true
            default:
                break
            }
        }
        if dangling { throw TemporalParseError("a filler leads nowhere") }
        // A number alone is not a time ("4", "one", "4 to 6"): it needs a lead ("at 4", "for 3"), a
        // marker ("4 pm", "4 oclock", "4:30", "4 30") or a day or part of day beside it ("thursday 4").
        if bareClockNeedsDay, expr.day == nil, expr.part == nil, expr.recurrence == nil, expr.weekdayList.isEmpty {
            throw TemporalParseError("a number alone")
        }
        return expr
    }

    /// Set when a clock time was read from a single number with no lead, marker or day yet.
    private var bareClockNeedsDay = false
    /// Words between a lead and its number: "at like 4".
    static let hedges: Set<String> = ["like", "just", "roughly", "about", "around", "approximately", "approx", "sometime"]
    /// Words that make a following number a time ("at 4", "for 3", "until 6").
    static let clockLeads: Set<String> = ["at", "around", "about", "by", "for", "from", "until", "till", "til", "before",
                                          "after", "between", "approximately", "roughly", "ish"]

    /// The filler just read by `parseComponent`, nil when it read a component.
    private var filler: String? = nil

    // MARK: - Token helpers

    func token(_ offset: Int = 0) -> TemporalToken? {
        let i = pos + offset
        return i < tokens.count && i >= 0 ? tokens[i] : nil
    }

    private func probe(_ offset: Int) -> TokenProbe? {
        let i = pos + offset
        return i < probes.count && i >= 0 ? probes[i] : nil
    }

    func word(_ offset: Int = 0) -> String? {
        probe(offset)?.word
    }

    @inline(__always)
    func isWord(_ w: String, _ offset: Int = 0) -> Bool {
        probe(offset)?.isWord(w) ?? false
    }

    @inline(__always)
    mutating func accept(_ w: String) -> Bool {
        if pos < probes.count, probes[pos].isWord(w) { pos += 1; return true }
        return false
    }

    @inline(__always)
    mutating func accept(_ words: [String]) -> Bool {
        let save = pos
        for w in words {
            if !accept(w) { pos = save; return false }
        }
        return true
    }

    mutating func acceptAny(_ set: Set<String>) -> String? {
        if let w = word(), set.contains(w) { pos += 1; return w }
        return nil
    }

    // MARK: - Lexicon

    static let weekdayNames: [String: TemporalWeekday] = [
        "monday": .monday, "mon": .monday, "tuesday": .tuesday, "tue": .tuesday, "tues": .tuesday,
        "wednesday": .wednesday, "wed": .wednesday, "weds": .wednesday, "thursday": .thursday,
        "thu": .thursday, "thur": .thursday, "thurs": .thursday, "friday": .friday, "fri": .friday,
        "saturday": .saturday, "sat": .saturday, "sunday": .sunday, "sun": .sunday,
    ]
    static let weekdayPlurals: [String: TemporalWeekday] = {
        var plurals: [String: TemporalWeekday] = [
            "mondays": .monday, "tuesdays": .tuesday, "wednesdays": .wednesday, "thursdays": .thursday,
            "fridays": .friday, "saturdays": .saturday, "sundays": .sunday,
        ]
        for (slip, wd) in weekdaySlips { plurals[slip + "s"] = wd }
        return plurals
    }()
    /// Common misspellings of weekday names, read as the day ("thrusday", "wendsday", "tuesdy"; their
    /// plurals too). A small closed list, not spelling correction: any other unknown word is not
    /// understood.
    static let weekdaySlips: [String: TemporalWeekday] = [
        "mondy": .monday, "tuesdy": .tuesday, "teusday": .tuesday, "tusday": .tuesday,
        "wendsday": .wednesday, "wensday": .wednesday, "wednsday": .wednesday, "wedensday": .wednesday,
        "thrusday": .thursday, "thurday": .thursday, "thursdy": .thursday, "firday": .friday, "fridy": .friday,
        "saterday": .saturday, "satuday": .saturday, "sundy": .sunday,
    ]
    static let monthNames: [String: Int] = [
        "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
        "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
        "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
        // Common misspellings (a closed list, like `weekdaySlips`).
        "janurary": 1, "febuary": 2, "feburary": 2, "febrary": 2, "agust": 8, "septmber": 9, "ocotber": 10,
    ]
    static let unitNames: [String: TemporalUnit] = [
        "minute": .minute, "minutes": .minute, "min": .minute, "mins": .minute,
        "hour": .hour, "hours": .hour, "hr": .hour, "hrs": .hour,
        "day": .day, "days": .day, "week": .week, "weeks": .week, "wk": .week, "wks": .week,
        "month": .month, "months": .month, "year": .year, "years": .year, "yr": .year, "yrs": .year,
    ]
    /// Larger amounts ("in 5000000 days") are not understood rather than overflowing.
    static let maxAmount = 100_000

    static let ofOrIn: Set<String> = ["of", "in"]
    static let windowLeads: Set<String> = ["in", "within", "over", "during", "for"]
    static let nextWords: Set<String> = ["next", "coming", "following"]
    /// Words that carry nothing for the resolver. Not "to" ("second to last", "2 to 4"), "or" (a
    /// choice is not a list) or "this" ("this friday", "this week" are read where they stand).
    static let fillers: Set<String> = ["ish", "approx", "roughly", "just", "like", "on", "at", "by", "around", "about", "approximately", "and",
                                       "the", "of", "in", "from", "sometime", "some", "time",
                                       "please", "for", "then", "later", "is", "it"]
    /// Fillers that may end a phrase ("4ish", "at 4 please"); every other filler leads to a component.
    static let trailingFillers: Set<String> = ["ish", "please", "approx", "approximately", "roughly"]

    func weekdayAt(_ offset: Int = 0) -> TemporalWeekday? {
        probe(offset)?.lexeme?.weekday
    }

    func monthAt(_ offset: Int = 0) -> Int? {
        probe(offset)?.lexeme?.month
    }

    func unitAt(_ offset: Int = 0) -> TemporalUnit? {
        probe(offset)?.lexeme?.unit
    }

    func weekdayPluralAt(_ offset: Int = 0) -> TemporalWeekday? {
        probe(offset)?.lexeme?.weekdayPlural
    }

    /// An ordinal counted from either end of the month at `offset`, and how many tokens it takes:
    /// "8th", "second" (n, 1); "last" (-1, 1), "penultimate" (-2, 1), "next to last" (-2, 3),
    /// "second to last" / "3rd to last" (-n, 3).
    func ordinalSpan(_ offset: Int = 0) -> (value: Int, width: Int)? {
        if isWord("last", offset) { return (-1, 1) }
        if isWord("penultimate", offset) { return (-2, 1) }
        if isWord("next", offset) {
            return isWord("to", offset + 1) && isWord("last", offset + 2) ? (-2, 3) : nil
        }
        guard let n = ordinalAt(offset) else { return nil }
        if n >= 2, isWord("to", offset + 1), isWord("last", offset + 2) { return (-n, 3) }
        return (n, 1)
    }

    /// An ordinal at the cursor: "8th", "second", "last" (→ -1 when `allowLast`).
    func ordinalAt(_ offset: Int = 0, allowLast: Bool = false) -> Int? {
        switch token(offset) {
        case .ordinal(let n)?: return n
        case .word("second")?: return 2
        case .word("last")? where allowLast: return -1
        default: return nil
        }
    }

    func numberAt(_ offset: Int = 0) -> Int? {
        if case .number(let n, _)? = token(offset) { return n }
        return nil
    }

    // MARK: - Components

    mutating func parseComponent() throws(TemporalParseError) -> Bool {
        let start = pos
        if try parseRecurrence() { return true }
        pos = start
        if try parseWindow() { return true }
        pos = start
        if try parseRelative() { return true }
        pos = start
        if try parseRange() { return true }
        pos = start
        if try parseUntil() { return true }
        pos = start
        if try parseBeforeAfter() { return true }
        pos = start
        if try parseFor() { return true }
        pos = start
        if try parseStarting() { return true }
        pos = start
        if try parseAllDay() { return true }
        pos = start
        if try parseExcept() { return true }
        pos = start
        if parseTermTime() { return true }
        pos = start
        if try parseDayComponent() { return true }
        pos = start
        if try parseSpanComponent() { return true }
        pos = start
        if try parsePartComponent() { return true }
        pos = start
        if try parseClockComponent() { return true }
        pos = start
        if try parseCount() { return true }
        pos = start
        if try parseBareDuration() { return true }
        pos = start
        if accept(["this", "time"]) || accept(["same", "time"]) || accept(["at", "the", "same", "time"]) {
            if expr.sameTime { throw TemporalParseError("two same times") }
            expr.sameTime = true
            return true
        }
        pos = start
        if accept("now") || accept(["right", "now"]) {
            try Self.put(&expr.relativeMinutes, 0)
            return true
        }
        pos = start
        if let word = acceptAny(Self.fillers) {
            filler = word
            return true
        }
        pos = start
        return false
    }

    static func put<T>(_ field: inout T?, _ value: T) throws(TemporalParseError) {
        if field != nil { throw TemporalParseError("repeated component") }
        field = value
    }

    // MARK: Day

    mutating func parseDayComponent() throws(TemporalParseError) -> Bool {
        if accept("tonight") || accept("tonite") {
            try Self.put(&expr.day, .today)
            try Self.put(&expr.part, .night)
            expr.partIsToday = true
            return true
        }
        // A list of weekdays: "monday and thursday", "monday, wednesday and friday".
        let listStart = pos
        _ = accept("on")
        if let first = weekdayAt() {
            let save = listStart
            pos += 1
            var list = [first]
            while true {
                let before = pos
                _ = accept("and")
                _ = accept("on")
                // A day said twice ("monday and monday") is not a list.
                if let next = weekdayAt(), !list.contains(next) {
                    pos += 1
                    list.append(next)
                } else {
                    pos = before
                    break
                }
            }
            if list.count >= 2 {
                if !expr.weekdayList.isEmpty { throw TemporalParseError("two weekday lists") }
                expr.weekdayList = list
                return true
            }
            pos = save
        }
        pos = listStart
        guard let day = parseDay() else { return false }
        // "feb 14 friday": a date and a weekday said apart must agree.
        switch (expr.day, day) {
        case (.weekday(let wd, .nearest)?, .date):
            expr.day = .weekdayAndDate(wd, day)
        case (.date?, .weekday(let wd, .nearest)):
            expr.day = .weekdayAndDate(wd, expr.day!)
        default:
            try Self.put(&expr.day, day)
        }
        return true
    }

    /// Parses a day expression at the cursor, or returns nil with the cursor unchanged.
    mutating func parseDay() -> TemporalDay? {
        let start = pos
        if accept("today") || accept(["to", "day"]) { return .today }
        if accept("tomorrow") || accept("tmrw") || accept("tomorow") || accept("tmr") || accept(["to", "morrow"]) {
            return .tomorrow
        }
        if accept("yesterday") { return .yesterday }
        // "this date", "today's date" ("today's" reaches the parser as "today"), "todays date".
        if isWord("date", 1), isWord("this") || isWord("today") || isWord("todays") {
            pos += 2
            return .thisDate
        }
        _ = accept("the")
        // "the end of this month", "end of next month", "the end of march": that month's last day.
        if accept(["end", "of"]) {
            _ = accept("the")
            // Not "the end of the month": alone that is neither a day nor a rule (docs/using.md, "Time phrases").
            if accept(["this", "month"]) { return .lastDayOfRelativeMonth(monthOffset: 0) }
            if accept(["next", "month"]) { return .lastDayOfRelativeMonth(monthOffset: 1) }
            if let m = monthAt() {
                pos += 1
                return .lastDayOfMonth(month: m, year: parseYear())
            }
            pos = start
            return nil
        }
        pos = start
        _ = accept("the")
        if accept(["day", "after", "tomorrow"]) { return .dayAfterTomorrow }
        if accept(["day", "before", "yesterday"]) { return .dayBeforeYesterday }
        // "the day before thanksgiving", "the day after the 14th", "day after Christmas": one day off
        // any day said.
        let dayOffWhat = pos
        if isWord("day"), isWord("before", 1) || isWord("after", 1) {
            let sign = isWord("before", 1) ? -1 : 1
            pos += 2
            if let base = parseDay() { return .offset(base, amount: sign, unit: .day) }
        }
        pos = dayOffWhat
        pos = start
        if let d = parseHoliday() { return d }
        pos = start
        // Before a plain weekday: "last sunday in august" is not last Sunday.
        if let d = parseNthWeekdayOfNamedMonth() { return d }
        pos = start
        if let d = parseWeekdayDay() { return d }
        pos = start
        if let d = parseDate() { return d }
        pos = start
        return nil
    }

    /// US family holidays: fixed dates and "n-th weekday of a month" ones, plus Easter.
    /// First words of every holiday name below: a cheap guard, since most phrases name none.
    static let holidayFirstWords: Set<String> = [
        "christmas", "xmas", "new", "halloween", "valentine", "valentine's", "valentines", "independence", "thanksgiving",
        "mother", "mother's", "mothers", "father", "father's", "fathers", "memorial", "labor", "labour", "easter",
        "martin", "mlk", "presidents", "president's", "presidents'", "columbus", "veterans", "veteran's", "juneteenth",
        "good", "boxing", "st", "saint",
    ]

    mutating func parseHoliday() -> TemporalDay? {
        guard let first = word(), Self.holidayFirstWords.contains(first) else { return nil }
        func possessive(_ w: String) -> Bool { accept(w + "'s") || accept(w + "s") || accept(w) }
        if accept("christmas") || accept("xmas") {
            if accept("eve") { return .date(month: 12, day: 24, year: nil) }
            _ = accept("day")
            return .date(month: 12, day: 25, year: nil)
        }
        if accept("new") {
            guard possessive("year") else { return nil }
            if accept("eve") { return .date(month: 12, day: 31, year: nil) }
            _ = accept("day")
            return .date(month: 1, day: 1, year: nil)
        }
        if accept("halloween") { return .date(month: 10, day: 31, year: nil) }
        if possessive("valentine") {
            _ = accept("day")
            return .date(month: 2, day: 14, year: nil)
        }
        if accept(["independence", "day"]) { return .date(month: 7, day: 4, year: nil) }
        if accept("thanksgiving") {
            _ = accept("day")
            return .nthWeekdayOfMonth(n: 4, .thursday, month: 11, year: nil)
        }
        if possessive("mother"), accept("day") { return .nthWeekdayOfMonth(n: 2, .sunday, month: 5, year: nil) }
        if possessive("father"), accept("day") { return .nthWeekdayOfMonth(n: 3, .sunday, month: 6, year: nil) }
        if accept(["memorial", "day"]) { return .nthWeekdayOfMonth(n: -1, .monday, month: 5, year: nil) }
        if accept(["labor", "day"]) || accept(["labour", "day"]) {
            return .nthWeekdayOfMonth(n: 1, .monday, month: 9, year: nil)
        }
        if accept("easter") {
            _ = accept("sunday") || accept("day")
            return .easter
        }
        return nil
    }

    mutating func parseWeekdayDay() -> TemporalDay? {
        var modifier = TemporalWeekdayModifier.nearest
        if accept(["this", "coming"]) || accept("coming") || accept("this") {
            modifier = .nearest
        } else if accept("next") {
            modifier = .next
        } else if accept("last") || accept("past") || accept("previous") {
            modifier = .last
        } else {
            _ = accept("on")
        }
        guard let wd = weekdayAt() else { return nil }
        pos += 1
        let base = TemporalDay.weekday(wd, modifier)
        // "friday the 13th", "friday feb 13", "friday 13th"
        let save = pos
        if let date = parseDate() {
            return .weekdayAndDate(wd, date)
        }
        pos = save
        // "friday week": a week after friday.
        if isWord("week"), !isWord("day", 1) {
            // "friday week" but not "friday week day"; "friday next week" is handled by span.
            pos += 1
            return .offset(base, amount: 7, unit: .day)
        }
        // "the sunday after next": the one after the coming one, as "sunday week".
        if modifier == .nearest, accept(["after", "next"]) {
            return .offset(base, amount: 7, unit: .day)
        }
        return base
    }

    /// "the first monday of march", "the last day of february", "the 2nd tuesday in june".
    mutating func parseNthWeekdayOfNamedMonth() -> TemporalDay? {
        _ = accept("the")
        guard let (n, width) = ordinalSpan() else { return nil }
        pos += width
        var weekday: TemporalWeekday? = nil
        if let wd = weekdayAt() {
            weekday = wd
            pos += 1
        } else if !accept("day") {
            return nil
        }
        guard acceptAny(Self.ofOrIn) != nil, let month = monthAt() else { return nil }
        pos += 1
        let year = parseYear()
        if let wd = weekday {
            guard (1...5).contains(abs(n)) else { return nil }
            return .nthWeekdayOfMonth(n: n, wd, month: month, year: year)
        }
        if n == -1 { return .lastDayOfMonth(month: month, year: year) }
        guard n > 0 else { return nil }
        return .date(month: month, day: n, year: year)
    }

    mutating func parseYear() -> Int? {
        if case .number(let y, let digits)? = token(), digits == 4, (1900...2200).contains(y) {
            pos += 1
            return y
        }
        return nil
    }

    mutating func parseDate() -> TemporalDay? {
        let start = pos
        switch token() {
        case .isoDate(let y, let m, let d)?:
            pos += 1
            return .date(month: m, day: d, year: y)
        case .slashDate(let m, let d, let y)?:
            pos += 1
            return .date(month: m, day: d, year: y)
        default: break
        }
        // month [the] (ordinal | number) [year]
        if let m = monthAt() {
            pos += 1
            _ = accept("the")
            if let d = dayNumberAt() {
                pos += 1
                return .date(month: m, day: d, year: parseYear())
            }
            pos = start
            return nil
        }
        // (ordinal | number) [of] month [year]
        if let d = dayNumberAt() {
            let save = pos
            pos += 1
            _ = accept("of")
            if let m = monthAt() {
                pos += 1
                return .date(month: m, day: d, year: parseYear())
            }
            pos = save
        }
        // "next month on the 3rd", "this month the 15th": a day of that month.
        for (words, offset) in Self.relativeMonths {
            let save = pos
            if accept(words) {
                _ = accept("on")
                _ = accept("the")
                if let d = ordinalAt(), (1...31).contains(d) {
                    pos += 1
                    return .dayOfRelativeMonth(day: d, monthOffset: offset)
                }
            }
            pos = save
        }
        // [the] ordinal [of (month | this month | next month)]
        _ = accept("the")
        if let d = ordinalAt(), (1...31).contains(d), !isWord("week", 1), !isWord("quarter", 1) {
            pos += 1
            let save = pos
            if accept("of") || accept("in") {
                if let m = monthAt() {
                    pos += 1
                    return .date(month: m, day: d, year: parseYear())
                }
                if accept(["the", "month"]) { return .date(month: nil, day: d, year: nil) }
                if accept(["this", "month"]) { return .dayOfRelativeMonth(day: d, monthOffset: 0) }
                if accept(["next", "month"]) { return .dayOfRelativeMonth(day: d, monthOffset: 1) }
                if accept(["last", "month"]) { return .dayOfRelativeMonth(day: d, monthOffset: -1) }
            }
            pos = save
            return .date(month: nil, day: d, year: nil)
        }
        pos = start
        return nil
    }

    /// Built once: as a literal in `parseDate` the table was allocated on every call.
    static let relativeMonths: [([String], Int)] = [(["this", "month"], 0), (["next", "month"], 1), (["last", "month"], -1)]

    /// A day-of-month number: an ordinal or a 1–2 digit cardinal 1–31 not followed by a
    /// time word (so "8 feb" and "feb 8" but not "feb 8 pm").
    func dayNumberAt() -> Int? {
        switch token() {
        case .ordinal(let n)? where (1...31).contains(n): return n
        case .word("second")?: return 2
        case .number(let n, let digits)? where digits <= 2 && (1...31).contains(n):
            if let w = word(1), ["am", "pm", "oclock"].contains(w) { return nil }
            if case .clock? = token(1) { return n }
            return n
        default: return nil
        }
    }

    // MARK: Span

    mutating func parseSpanComponent() throws(TemporalParseError) -> Bool {
        guard let span = parseSpan() else { return false }
        try Self.put(&expr.span, span)
        return true
    }

    mutating func parseSpan() -> TemporalSpan? {
        let start = pos
        // "early next week", "mid-april", "late 2027", "the middle of may".
        let portion: TemporalPortion?
        if accept("early") || accept(["the", "beginning", "of"]) || accept(["the", "start", "of"]) {
            portion = .early
        } else if accept("mid") || accept(["the", "middle", "of"]) || accept(["middle", "of"]) {
            portion = .mid
        } else if accept("late") {
            portion = .late
        } else {
            portion = nil
        }
        if let portion {
            _ = accept("in")
            if parseYearLookahead(), let y = parseYear() { return .portion(portion, .namedYear(y)) }
            guard let inner = parseSpan() else { pos = start; return nil }
            return .portion(portion, inner)
        }
        // "Q2", "q2 2027".
        if accept("q"), let n = numberAt(), (1...4).contains(n) {
            pos += 1
            return .quarter(n, year: parseYear())
        }
        pos = start
        // "in 2027", "during 2027".
        if pos > 0, case .word(let lead) = tokens[pos - 1], lead == "in" || lead == "during", parseYearLookahead(),
           let y = parseYear() {
            return .namedYear(y)
        }
        if case .monthYear(let m, let y)? = token(), (1...12).contains(m), (1900...2200).contains(y) {
            pos += 1
            return .namedMonth(m, year: y)
        }
        // "on the weekend of the 14th", "during the week of the 20th".
        let beforeLead = pos
        if !(accept("on") || accept("over") || accept("during") || accept("in")) || !(isWord("the") || isWord("week") || isWord("weekend")) {
            pos = beforeLead
        }
        _ = accept("the")
        // "the week of the 20th".
        if accept(["week", "of"]) {
            if let day = parseDay() { return .weekOf(day) }
            pos = start
            return nil
        }
        // "the weekend of the 14th": the Saturday and Sunday of that day's week.
        if accept(["weekend", "of"]) {
            if let day = parseDay() { return .weekendOf(day) }
            pos = start
            return nil
        }
        // "the second week of may", "the last week of june", "the first quarter (of 2027)".
        if let (n, width) = ordinalSpan() {
            let save = pos
            pos += width
            if accept("week"), acceptAny(Self.ofOrIn) != nil, let m = monthAt(), (1...5).contains(abs(n)), n != -2 {
                pos += 1
                return .nthWeekOfMonth(n: n, month: m, year: parseYear())
            }
            pos = save + width
            if (1...4).contains(n), accept("quarter") {
                let afterQuarter = pos
                if accept("of") || accept("in"), let y = parseYear() { return .quarter(n, year: y) }
                pos = afterQuarter
                return .quarter(n, year: nil)
            }
        }
        pos = start
        var offset = 0
        var explicit = false
        var coming = false
        // "the rest of the week", "rest of this month": read as the period said ("this week"); a
        // free-time search starts no earlier than now, but a list still shows the whole period.
        if accept(["the", "rest", "of"]) || accept(["rest", "of"]) {
            if accept("the"), isWord("week") || isWord("month") || isWord("weekend") { explicit = true }
        }
        if accept(["this", "coming"]) || accept(["the", "coming"]) || accept(["the", "upcoming"]) || accept("coming")
            || accept("upcoming") {
            // The next such period that has not begun: "the coming week" is next week.
            coming = true; offset = 1; explicit = true
        } else if accept("this") || accept("current") {
            explicit = true
        } else if accept("next") || accept("following") {
            offset = 1; explicit = true
        } else if accept("last") || accept("past") || accept("previous") {
            offset = -1; explicit = true
        } else {
            _ = accept(["over", "the"]) || accept(["on", "the"]) || accept("the") || accept("over")
                || accept("all")
        }
        if explicit, accept("quarter") { return coming ? .quarterOffset(1) : .quarterOffset(offset) }
        if accept("weekend") || accept(["week", "end"]) {
            if coming { return .comingWeekend }
            if !explicit, accept(["after", "next"]) { return .weekend(offset: 2) }
            return .weekend(offset: offset)
        }
        if accept("week") {
            if !explicit, accept(["after", "next"]) { return .week(offset: 2) }
            if !explicit, !(pos > start) { pos = start; return nil }
            return .week(offset: offset)
        }
        if accept("month") {
            if !explicit, accept(["after", "next"]) { return .month(offset: 2) }
            if !explicit { pos = start; return nil }
            return .month(offset: offset)
        }
        if accept("year") {
            if !explicit { pos = start; return nil }
            return .year(offset: offset)
        }
        if !explicit || offset == 0 || coming, let m = monthAt() {
            // A month on its own: "march", "in june", "march 2027" (not "march 3").
            pos += 1
            if dayNumberAt() != nil, parseYearLookahead() == false { pos = start; return nil }
            return .namedMonth(m, year: parseYear())
        }
        pos = start
        return nil
    }

    /// True when the token at the cursor is a 4-digit year.
    func parseYearLookahead() -> Bool {
        if case .number(let y, let digits)? = token(), digits == 4, (1900...2200).contains(y) { return true }
        return false
    }

    // MARK: Part of day

    mutating func parsePartComponent() throws(TemporalParseError) -> Bool {
        let start = pos
        var isToday = false
        if accept("this") {
            isToday = true
        } else {
            _ = accept(["in", "the"]) || accept(["at"]) || accept(["around"]) || accept("the")
                || accept(["during", "the"])
        }
        guard let part = parsePartWord() else { pos = start; return false }
        try Self.put(&expr.part, part)
        if isToday { expr.partIsToday = true }
        return true
    }

    mutating func parsePartWord() -> TemporalPartOfDay? {
        // "before school" (7:30 AM), also after "morning": "tomorrow morning before school".
        if accept(["before", "school"]) || accept(["morning", "before", "school"]) { return .beforeSchool }
        if accept("morning") || accept("mornin") { return .morning }
        if accept("afternoon") { return .afternoon }
        if accept("evening") { return .evening }
        if accept("night") { return .night }
        if accept("lunchtime") || accept(["lunch", "time"]) || accept("lunch") { return .lunch }
        if accept(["after", "school"]) { return .afterSchool }
        if accept(["after", "work"]) { return .afterWork }
        if accept(["before", "dinner"]) { return .beforeDinner }
        if accept(["after", "dinner"]) { return .afterDinner }
        if accept(["before", "bed"]) || accept(["before", "bedtime"]) || accept("bedtime") || accept(["bed", "time"]) { return .beforeBed }
        if accept(["after", "lunch"]) { return .afterLunch }
        if accept("dinnertime") || accept(["dinner", "time"]) || accept("dinner") || accept("supper") { return .dinner }
        if accept("breakfast") { return .breakfast }
        if accept(["end", "of", "the", "day"]) || accept(["end", "of", "day"]) || accept("eod") { return .endOfDay }
        return nil
    }

    // MARK: Clock

    mutating func parseClockComponent() throws(TemporalParseError) -> Bool {
        let start = pos
        let previousToken = pos > 0 ? tokens[pos - 1] : nil
        var led = accept("at") || accept("around") || accept("about")
        // A lead before hedges counts: "at like 4", "for about 3".
        var back = start - 1
        while !led, back >= 0, case .word(let w) = tokens[back] {
            if Self.clockLeads.contains(w) { led = true } else if !Self.hedges.contains(w) { break }
            back -= 1
        }
        // "4 hundred"? A 4-digit 24-hour time after "at": "at 0815", "at 1630".
        if led, case .number(let n, 4)? = token(), n / 100 <= 23, n % 100 <= 59 {
            pos += 1
            try Self.put(&expr.clock, Self.twentyFourHour(n / 100, n % 100))
            return true
        }
        let clockStart = pos
        guard let clock = parseClock(allowMinutesTo: true) else { pos = start; return false }
        // A single number with no marker: "the one", "the first one" use it as a pronoun; alone it
        // is not a time ("4", "four five").
        var bare = false
        if pos == clockStart + 1, case .number = tokens[clockStart], !led, !isWord("ish") {
            switch previousToken {
            case .word("the")?, .word("second")?, .ordinal?, .number?, .clock?, .clockSeconds?:
                throw TemporalParseError("a number as a pronoun")
            default: bare = true
            }
            // "2 tuesdays" counts days.
            if weekdayPluralAt() != nil { throw TemporalParseError("a count of days") }
        }
        // "4 pm 6 pm" right after a clock with its am/pm: a range ("four five" is not one).
        if let previous = expr.clock, lastClockEnd == start, expr.range == nil, Self.saysHalf(previous) || Self.saysHalf(clock) {
            expr.clock = nil
            expr.range = (previous, clock)
            lastClockEnd = nil
            bareClockNeedsDay = false
            return true
        }
        try Self.put(&expr.clock, clock)
        lastClockEnd = pos
        // "4 to 6", "4 till 6", "4-6"
        let save = pos
        if acceptDash() || accept("to") || accept("till") || accept("til") || accept("until") || accept("through") || accept("thru") {
            if let end = parseClock(allowMinutesTo: false) {
                expr.clock = nil
                expr.range = (clock, end)
                lastClockEnd = nil
                // "2-4", "2 to 4": two numbers joined as a range are read as one (docs/using.md, "Time phrases").
                return true
            }
        }
        pos = save
        if bare { bareClockNeedsDay = true }
        return true
    }

    /// True when a clock says am or pm ("4 5 pm" is a range, "four five" is nothing).
    static func saysHalf(_ clock: TemporalClock) -> Bool {
        if case .time(_, _, _?) = clock { return true }
        return false
    }

    /// A 24-hour time said with four digits ("0815", "1630 hours"): never moved to p.m.
    static func twentyFourHour(_ h: Int, _ m: Int) -> TemporalClock {
        .time(hour: h, minute: m, meridiem: h < 12 ? .am : (h == 12 ? .pm : nil))
    }

    mutating func acceptDash() -> Bool {
        if token() == .dash { pos += 1; return true }
        return false
    }

    /// Parses a clock time. `allowMinutesTo` enables "10 to 5" (= 4:50), which a range start
    /// must not use ("from 10 to 5").
    mutating func parseClock(allowMinutesTo: Bool) -> TemporalClock? {
        let start = pos
        if accept("noon") || accept("midday") || accept(["mid", "day"]) { return .noon }
        if accept("midnight") { return .midnight }
        if case .number(12, _)? = token() {
            if isWord("noon", 1) { pos += 2; return .noon }
            if isWord("midnight", 1) { pos += 2; return .midnight }
        }
        // "half past four", "quarter to five", "20 past 4", "10 to 5", "a quarter past 3"
        if let c = parseMinutesPastTo(allowMinutesTo: allowMinutesTo) { return c }
        pos = start
        var hour: Int
        var minute = 0
        var twentyFour = false
        switch token() {
        case .clock(let h, let m, let padded)?:
            guard (0...24).contains(h), (0...59).contains(m) else { return nil }
            hour = h; minute = m
            twentyFour = padded
            pos += 1
        case .clockSeconds(let h, let m, let s)?:
            guard (0...24).contains(h), (0...59).contains(m), expr.second == nil else { return nil }
            if s != 0 { expr.second = s }
            pos += 1
            // Written with seconds: a 24-hour time.
            guard h < 24 else { return nil }
            return Self.twentyFourHour(h, m)
        case .number(let h, let digits)? where digits <= 2:
            guard (0...24).contains(h) else { return nil }
            // Not a quantity ("2 hours"), a date ("8 feb") or a count ("3 times").
            if unitAt(1) != nil || monthAt(1) != nil || isWord("times", 1) || isWord("time", 1) { return nil }
            if isWord("of", 1), monthAt(2) != nil { return nil }
            hour = h
            pos += 1
            // "4 30", "4 05", "4 oh 5"
            if case .number(let m, let mdigits)? = token(), mdigits == 2, (0...59).contains(m), unitAt(1) == nil,
               h <= 23 {
                minute = m
                pos += 1
            } else if isWord("oh") || isWord("o"), case .number(let m, 1)? = token(1), unitAt(2) == nil {
                minute = m
                pos += 2
            } else if isWord("h"), case .number(let m, 2)? = token(1), (0...59).contains(m), h <= 23 {
                // "9h45", "18h30": a 24-hour time.
                pos += 2
                return Self.twentyFourHour(h, m)
            }
        case .number(let n, 4)? where n % 100 < 60 && n / 100 < 24 && (isWord("hours", 1) || isWord("hrs", 1)):
            // military style "1630 hours"
            pos += 2
            return Self.twentyFourHour(n / 100, n % 100)
        default:
            return nil
        }
        var meridiem: TemporalMeridiem? = nil
        _ = accept("oclock")
        if accept("am") || accept("a.m") { meridiem = .am } else if accept("pm") { meridiem = .pm }
        _ = accept("oclock")
        // "7 in the am", "4 in the pm".
        if meridiem == nil, isWord("in"), isWord("the", 1) {
            if isWord("am", 2) || isWord("a.m", 2) { meridiem = .am; pos += 3 } else if isWord("pm", 2) { meridiem = .pm; pos += 3 }
        }
        if hour > 12, meridiem == .am { pos = start; return nil }
        // "08:30" is written on the 24-hour clock: morning, unless "pm" is said.
        if twentyFour, meridiem == nil, hour < 12 { meridiem = .am }
        if hour == 24 { hour = 0; if minute == 0, meridiem == nil { return .midnight } }
        return .time(hour: hour, minute: minute, meridiem: meridiem)
    }

    mutating func parseMinutesPastTo(allowMinutesTo: Bool) -> TemporalClock? {
        let start = pos
        var minutes: Int
        let saidA = accept("a")
        if accept("half") {
            minutes = 30
            // "half five" (British): 5:30.
            if !saidA, case .number(let h, let digits)? = token(), digits <= 2, (1...12).contains(h), unitAt(1) == nil,
               !isWord("past", 1), !isWord("to", 1) {
                pos += 1
                var meridiem: TemporalMeridiem? = nil
                _ = accept("oclock")
                if accept("am") { meridiem = .am } else if accept("pm") { meridiem = .pm }
                return .time(hour: h, minute: 30, meridiem: meridiem)
            }
        } else if accept("quarter") {
            minutes = 15
        } else if case .number(let m, _)? = token(), (1...59).contains(m) {
            minutes = m
            pos += 1
            _ = accept("minutes") || accept("minute") || accept("mins")
        } else {
            pos = start
            return nil
        }
        var before: Bool
        if accept("past") || accept("after") {
            before = false
        } else if allowMinutesTo, accept("to") || accept("before") || accept("of") || accept("till") || accept("til") {
            before = true
        } else {
            pos = start
            return nil
        }
        // "5 to noon" 11:55, "10 past midnight" 00:10.
        if accept("noon") || accept("midday") {
            return before ? .time(hour: 11, minute: 60 - minutes, meridiem: .am) : .time(hour: 12, minute: minutes, meridiem: .pm)
        }
        if accept("midnight") {
            return before ? .time(hour: 23, minute: 60 - minutes, meridiem: nil) : .time(hour: 0, minute: minutes, meridiem: nil)
        }
        guard case .number(let h, _)? = token(), (0...23).contains(h) else { pos = start; return nil }
        pos += 1
        // "10 to 5" is a clock only for round numbers of minutes; "2 to 4" is a range.
        if before, case .number = tokens[start], minutes % 5 != 0 {
            pos = start
            return nil
        }
        var meridiem: TemporalMeridiem? = nil
        _ = accept("oclock")
        if accept("am") { meridiem = .am } else if accept("pm") { meridiem = .pm }
        if before {
            let total = ((h == 0 ? 24 : h) * 60 - minutes)
            let hh = total / 60
            return .time(hour: hh, minute: total % 60, meridiem: meridiem)
        }
        return .time(hour: h, minute: minutes, meridiem: meridiem)
    }

    // MARK: Range, until, for

    mutating func parseRange() throws(TemporalParseError) -> Bool {
        let start = pos
        if try parseDayRange() { return true }
        pos = start
        if accept("from") || accept("between") {
            let isBetween = tokens[start] == .word("between")
            if let a = parseClock(allowMinutesTo: false) {
                let joined = isBetween ? (accept("and") || accept("to") || acceptDash())
                    : (accept("to") || accept("till") || accept("til") || accept("until")
                        || accept("through") || accept("thru") || acceptDash())
                if joined {
                    _ = accept("at")
                    if let b = parseClock(allowMinutesTo: false) {
                        if expr.range != nil { throw TemporalParseError("two ranges") }
                        expr.range = (a, b)
                        return true
                    }
                }
            }
            pos = start
            return false
        }
        pos = start
        return false
    }

    /// Ranges of whole days: "monday to friday", "aug 3 to 7", "3-7 august", "from the 21st to the
    /// 24th of june", "between the 3rd and the 10th". A bare number is a day only with a month on
    /// the other end ("from 3 to 7" is a clock range); it takes that month (the evaluator's job).
    mutating func parseDayRange() throws(TemporalParseError) -> Bool {
        let start = pos
        let isBetween = accept("between")
        if !isBetween { _ = accept("from") }
        // "the second to last friday" is an ordinal, not a range.
        if let (_, width) = ordinalSpan(isWord("the") ? 1 : 0), width == 3 { pos = start; return false }
        guard let a = parseRangeEnd() else { pos = start; return false }
        // After a rule, "until" ends the rule: "every month on the 6th until october 28" is not a
        // range from the 6th to October 28.
        if expr.recurrence != nil, isWord("until") || isWord("till") || isWord("til") { pos = start; return false }
        let joined = isBetween ? (accept("and") || accept("to") || acceptDash())
            : (accept("to") || accept("till") || accept("til") || accept("until") || accept("through") || accept("thru")
                || acceptDash())
        guard joined, let b = parseRangeEnd() else { pos = start; return false }
        if a.bare || b.bare {
            guard !(a.bare && b.bare), case .date(let ma, _, _) = a.day, case .date(let mb, _, _) = b.day,
                  a.bare ? mb != nil : ma != nil else { pos = start; return false }
        }
        if expr.dayRange != nil { throw TemporalParseError("two day ranges") }
        expr.dayRange = (a.day, b.day)
        return true
    }

    /// One end of a day range: a day, or a bare day number ("7" in "aug 3 to 7").
    mutating func parseRangeEnd() -> (day: TemporalDay, bare: Bool)? {
        let save = pos
        if let d = parseDay() { return (d, false) }
        pos = save
        _ = accept("the")
        if case .number(let n, let digits)? = token(), digits <= 2, (1...31).contains(n), dayNumberAt() != nil,
           unitAt(1) == nil, !isWord("times", 1) {
            pos += 1
            return (.date(month: nil, day: n, year: nil), true)
        }
        pos = save
        return nil
    }

    /// "before 5" reads like "until 5"; "after 3" is from 3:00 to the end of that day.
    mutating func parseBeforeAfter() throws(TemporalParseError) -> Bool {
        let start = pos
        if accept("before") {
            if let clock = parseClock(allowMinutesTo: true) {
                try Self.put(&expr.untilClock, clock)
                return true
            }
        } else if accept("after") {
            let save = pos
            // "after a month", "after 2 weeks": a time that far from now, like "in a month".
            if let (amount, unit) = parseQuantity() {
                try applyRelative(amount: amount, unit: unit, from: .today, sign: 1, isNow: true)
                return true
            }
            pos = save
            if let clock = parseClock(allowMinutesTo: true) {
                try Self.put(&expr.afterClock, clock)
                return true
            }
        }
        pos = start
        return false
    }

    mutating func parseUntil() throws(TemporalParseError) -> Bool {
        // "up to 7 times" is a count (`parseCountPhrase`), not an end.
        if isWord("up"), isWord("to", 1),
           isWord("twice", 2) || isWord("thrice", 2) || numberAt(2) != nil && Self.countNouns.contains(word(3) ?? "") {
            return false
        }
        guard accept("until") || accept("till") || accept("til") || accept("through") || accept("thru")
            || accept(["up", "to"]) || accept(["ending"]) || accept(["ends"]) else { return false }
        _ = accept("the") || accept("on") || accept("at")
        let save = pos
        if let clock = parseClock(allowMinutesTo: true) {
            try Self.put(&expr.untilClock, clock)
            return true
        }
        pos = save
        if let day = parseDay() {
            try Self.put(&expr.untilDay, day)
            return true
        }
        pos = save
        _ = accept("the")
        // "until the end of june": June included, to its last day.
        if accept(["end", "of"]) {
            _ = accept("the")
            if let m = monthAt() {
                pos += 1
                try Self.put(&expr.untilDay, .lastDayOfMonth(month: m, year: parseYear()))
                return true
            }
            throw TemporalParseError("until the end of what")
        }
        if let span = parseSpan() {
            switch span {
            case .namedMonth(let m, let y):
                if expr.untilMonth != nil { throw TemporalParseError("two untils") }
                expr.untilMonth = (m, y)
                return true
            default:
                break
            }
        }
        throw TemporalParseError("until what")
    }

    /// "in the next 2 hours", "within an hour", "over the next 3 days", "for the next week".
    mutating func parseWindow() throws(TemporalParseError) -> Bool {
        let start = pos
        let lead = acceptAny(Self.windowLeads)
        _ = accept("the")
        let hasNext = acceptAny(Self.nextWords) != nil
        guard hasNext || lead == "within" else { pos = start; return false }
        var quantity = parseQuantity()
        // "the next hour" (but "next week" stays the calendar week).
        if quantity == nil, hasNext, let u = unitAt(), u == .hour || u == .minute {
            pos += 1
            quantity = (1, u)
        }
        guard let q = quantity else { pos = start; return false }
        if expr.window != nil { throw TemporalParseError("two windows") }
        expr.window = q
        return true
    }

    /// "for 90 minutes", "for an hour", "for 10 weeks", "for 10 times".
    mutating func parseFor() throws(TemporalParseError) -> Bool {
        guard accept("for") else { return false }
        let save = pos
        if let n = parseCountPhrase() {
            try Self.put(&expr.count, n)
            return true
        }
        pos = save
        guard let q = parseQuantity() else { return false }
        if expr.forAmount != nil { throw TemporalParseError("two durations") }
        expr.forAmount = q
        return true
    }

    mutating func parseBareDuration() throws(TemporalParseError) -> Bool {
        guard let q = parseQuantity() else { return false }
        // "2 hours from now" is relative, handled before; a bare quantity is a duration.
        if expr.forAmount != nil { throw TemporalParseError("two durations") }
        expr.forAmount = q
        return true
    }

    mutating func parseCount() throws(TemporalParseError) -> Bool {
        guard let n = parseCountPhrase() else { return false }
        try Self.put(&expr.count, n)
        return true
    }

    /// "10 times", "10 occurrences", "10 sessions", "3x" (tokenized as "3 times"), "twice",
    /// "thrice", each after an optional cap: "up to 7 times", "at most 7 times", "no more than 7
    /// times" (a limit like any other count).
    mutating func parseCountPhrase() -> Int? {
        let save = pos
        // Word probes, not `accept([...])`: this runs at every position no other component took.
        if isWord("up") && isWord("to", 1) || isWord("at") && isWord("most", 1) {
            pos += 2
        } else if isWord("no") && isWord("more", 1) && isWord("than", 2) || isWord("a") && isWord("maximum", 1) && isWord("of", 2) {
            pos += 3
        }
        let n: Int
        let width: Int
        if isWord("twice") {
            n = 2; width = 1
        } else if isWord("thrice") {
            n = 3; width = 1
        } else if let number = numberAt(), let w = word(1), Self.countNouns.contains(w) {
            n = number; width = 2
        } else {
            pos = save
            return nil
        }
        // "3 times a week", "twice a month" are frequencies, not counts.
        if isWord("a", width) || isWord("an", width) || isWord("per", width) || isWord("every", width) || isWord("each", width) {
            pos = save
            return nil
        }
        pos += width
        return n
    }

    static let countNouns: Set<String> = ["times", "occurrences", "sessions", "lessons", "classes"]

    mutating func parseStarting() throws(TemporalParseError) -> Bool {
        guard accept("starting") || accept("beginning") || accept("begins") || accept("starts")
            || accept(["from"]) else { return false }
        _ = accept("on") || accept("from")
        if let day = parseDay() {
            try Self.put(&expr.startingDay, day)
            return true
        }
        if let span = parseSpan() {
            try Self.put(&expr.startingSpan, span)
            return true
        }
        return false
    }

    mutating func parseAllDay() throws(TemporalParseError) -> Bool {
        if accept(["all", "day"]) || accept(["the", "whole", "day"]) || accept(["whole", "day"])
            || accept(["all", "day", "long"]) || accept("allday") {
            _ = accept("long")
            expr.allDay = true
            return true
        }
        return false
    }

    // MARK: Quantities and relative times

    /// A single amount: "20", "1.5", "a", "an", "a couple of", "a few", "half a".
    mutating func parseAmount() -> Double? {
        let start = pos
        switch token() {
        case .number(let n, _)? where n <= Self.maxAmount:
            pos += 1
            if accept(["and", "a", "half"]) { return Double(n) + 0.5 }
            // "three quarters of an hour".
            if (1...3).contains(n), accept(["quarters", "of", "an"]) || accept(["quarters", "of", "a"]) {
                return Double(n) / 4
            }
            return Double(n)
        case .slashDate(let num, let den, nil)? where (2...4).contains(den) && num >= 1 && num < den:
            // "3/4 of an hour", "1/2 hour".
            pos += 1
            _ = accept(["of", "an"]) || accept(["of", "a"]) || accept("an") || accept("a")
            return Double(num) / Double(den)
        case .decimal(let d)? where d <= Double(Self.maxAmount):
            pos += 1
            return d
        default: break
        }
        if accept(["a", "couple", "of"]) || accept(["couple", "of"]) || accept(["a", "couple"]) { return 2 }
        if accept(["a", "few"]) || accept("few") { return 3 }
        if accept(["half", "an"]) || accept(["half", "a"]) || accept(["a", "half"]) { return 0.5 }
        if accept(["a", "quarter", "of", "an"]) || accept(["quarter", "of", "an"]) || accept(["a", "quarter"]) {
            return 0.25
        }
        if accept("a") || accept("an") || accept("one") { return 1 }
        pos = start
        return nil
    }

    /// "20 minutes", "an hour and a half", "1 hour 30 minutes", "2 and a half hours", "a fortnight".
    mutating func parseQuantity() -> (Double, TemporalUnit)? {
        let start = pos
        guard case (var amount, let unit)? = parseSingleQuantity() else { pos = start; return nil }
        if accept(["and", "a", "half"]) { amount += 0.5 }
        // "1 hour 30 minutes", "an hour and 15 minutes", "1 hour 30"
        let save = pos
        _ = accept("and")
        if let (a2, u2) = parseSingleQuantity(), let m1 = unit.minutes, let m2 = u2.minutes, m2 < m1 {
            return (amount * Double(m1) + a2 * Double(m2), .minute)
        }
        pos = save
        if unit == .hour, case .number(let m, 2)? = token(), (1...59).contains(m), word(1) == nil || Self.fillers.contains(word(1)!) {
            pos += 1
            return (amount * 60 + Double(m), .minute)
        }
        pos = save
        return (amount, unit)
    }

    mutating func parseSingleQuantity() -> (Double, TemporalUnit)? {
        let start = pos
        if accept("fortnight") || accept(["a", "fortnight"]) { return (2, .week) }
        if accept(["quarter", "hour"]) || accept(["a", "quarter", "hour"]) { return (15, .minute) }
        if accept(["half", "hour"]) || accept(["a", "half", "hour"]) { return (30, .minute) }
        guard let amount = parseAmount() else { return nil }
        if accept("fortnight") || accept("fortnights") { return (amount * 2, .week) }
        guard let unit = unitAt() else { pos = start; return nil }
        pos += 1
        return (amount, unit)
    }

    /// "in 20 minutes", "20 minutes from now", "a week from friday", "3 days ago", "in 3 days".
    mutating func parseRelative() throws(TemporalParseError) -> Bool {
        let start = pos
        if accept("in") {
            // "in roughly 20 minutes", "in about an hour": the hedge changes nothing.
            _ = accept("roughly") || accept("about") || accept("around") || accept("approximately") || accept("approx")
                || accept("like") || accept("just")
            guard let (amount, unit) = parseQuantity() else { pos = start; return false }
            _ = accept("time") || accept("s") || accept(["from", "now"]) || accept("hence")
            // "in 2 weeks on tuesday": that weekday, so many weeks on (as "2 weeks on tuesday").
            if unit == .week, isWord("on") {
                let save = pos
                pos += 1
                if let base = parseDay() {
                    try applyRelative(amount: amount, unit: unit, from: base, sign: 1, isNow: false)
                    return true
                }
                pos = save
            }
            try applyRelative(amount: amount, unit: unit, from: .today, sign: 1, isNow: true)
            return true
        }
        // "2 tuesdays from now": the second Tuesday after today.
        if case .number(let n, _)? = token(), (1...52).contains(n), let wd = weekdayPluralAt(1) ?? (n == 1 ? weekdayAt(1) : nil) {
            pos += 2
            if accept(["from", "now"]) || accept(["from", "today"]) || accept("hence") {
                try Self.put(&expr.day, .weekdaysFromNow(n, wd))
                return true
            }
            pos = start
        }
        guard let (amount, unit) = parseQuantity() else { pos = start; return false }
        if accept(["from", "now"]) || accept("hence") || accept("later") || accept(["after", "now"]) || accept(["from", "right", "now"]) {
            try applyRelative(amount: amount, unit: unit, from: .today, sign: 1, isNow: true)
            return true
        }
        if accept("ago") || accept(["before", "now"]) {
            try applyRelative(amount: amount, unit: unit, from: .today, sign: -1, isNow: true)
            return true
        }
        if accept("from") || accept("after") || (unit == .day || unit == .week) && accept("on") {
            _ = accept("on")
            if let base = parseDay() {
                try applyRelative(amount: amount, unit: unit, from: base, sign: 1, isNow: false)
                return true
            }
        }
        pos = start
        if let (a, u) = parseQuantity(), accept("before"), let base = parseDay() {
            try applyRelative(amount: a, unit: u, from: base, sign: -1, isNow: false)
            return true
        }
        pos = start
        return false
    }

    mutating func applyRelative(amount: Double, unit: TemporalUnit, from base: TemporalDay, sign: Int,
                                isNow: Bool) throws(TemporalParseError) {
        switch unit {
        case .minute, .hour:
            guard isNow else { throw TemporalParseError("hours from a day") }
            let minutes = Int((amount * Double(unit.minutes!)).rounded())
            try Self.put(&expr.relativeMinutes, sign * minutes)
        case .day, .week, .month, .year:
            if amount != amount.rounded() {
                guard let m = unit.minutes, isNow else { throw TemporalParseError("fractional days") }
                try Self.put(&expr.relativeMinutes, sign * Int((amount * Double(m)).rounded()))
                return
            }
            let n = Int(amount) * sign
            let day: TemporalDay
            switch unit {
            case .week: day = .offset(base, amount: n * 7, unit: .day)
            default: day = .offset(base, amount: n, unit: unit)
            }
            try Self.put(&expr.day, day)
        }
    }

    // MARK: Recurrence

    /// Seed 004's "the 30th, or the last day in shorter months": after a day of the month N (29–31),
    /// "or the last day [in|of|for] [shorter|short] [months]" — month day N, or the month's last day
    /// when it has fewer days: RFC 5545 `BYMONTHDAY=28,…,N;BYSETPOS=-1`.
    mutating func acceptLastDayFallback() -> Bool {
        let save = pos
        _ = accept("or")
        _ = accept("the")
        guard accept(["last", "day"]) else { pos = save; return false }
        _ = accept("in") || accept("of") || accept("for") || accept("on")
        _ = accept("the")
        _ = accept("shorter") || accept("short") || accept("shortest")
        _ = accept("months") || accept("month") || accept("ones")
        return true
    }

    static func monthDayWithFallback(_ day: Int) -> TemporalRecurrence {
        TemporalRecurrence(frequency: .monthly, byMonthDay: Array(28...day), bySetPos: -1)
    }

    /// "every tuesday except in july and august": a skip by month is an RFC 5545 limit, the
    /// complement as BYMONTH. "except (during) (the) school holidays" / "except when school is out"
    /// is a skip pattern resolved later against the family's school holidays. Both may be listed:
    /// "except school holidays and august".
    mutating func parseExcept() throws(TemporalParseError) -> Bool {
        let start = pos
        guard accept("except") || accept("excluding") || accept(["but", "not"]) || accept(["apart", "from"])
                || accept(["other", "than"]) else { return false }
        var months: [Int] = []
        var schoolHolidays = false
        while true {
            let save = pos
            if !months.isEmpty || schoolHolidays {
                guard accept("and") || accept("or") || accept("nor") else { break }
            }
            _ = accept("in") || accept("during") || accept("over") || accept("on") || accept("for")
            if let month = monthAt() {
                pos += 1
                months.append(month)
            } else if acceptSchoolHolidays() {
                schoolHolidays = true
            } else if accept("holidays") || accept(["the", "holidays"]) || accept(["public", "holidays"])
                        || accept(["bank", "holidays"]) || accept(["federal", "holidays"]) || accept(["national", "holidays"]) {
                throw .unclearHolidays
            } else {
                pos = save
                break
            }
        }
        guard !months.isEmpty || schoolHolidays else { pos = start; return false }
        if !months.isEmpty {
            guard var rule = expr.recurrence else { pos = start; return false }
            rule.byMonth = (rule.byMonth.isEmpty ? Array(1...12) : rule.byMonth).filter { !months.contains($0) }
            guard !rule.byMonth.isEmpty else { throw TemporalParseError("every month is excluded") }
            expr.recurrence = rule
        }
        if schoolHolidays { expr.skipsSchoolHolidays = true }
        return true
    }

    /// "(the) school holidays", "school vacation(s)", "school breaks", "when school is out|closed|off",
    /// "when there is no school". "holidays" without "school" is not taken: it could mean public
    /// holidays, and a guess would silently drop the wrong days.
    mutating func acceptSchoolHolidays() -> Bool {
        let save = pos
        _ = accept("the")
        if accept("school") || accept(["the", "school"]) {
            if accept("holidays") || accept("holiday") || accept("vacations") || accept("vacation")
                || accept("breaks") || accept("break") || accept("recess") || accept("closures") { return true }
        }
        pos = save
        if accept("when") || accept("while") {
            if accept("school") || accept(["the", "school"]) {
                if accept(["is", "out"]) || accept(["is", "closed"]) || accept(["is", "off"]) || accept(["isnt", "on"])
                    || accept(["is", "not", "on"]) || accept(["isn't", "on"]) || accept(["s", "out"]) { return true }
            } else if accept(["there", "is", "no", "school"]) || accept(["there's", "no", "school"])
                        || accept(["theres", "no", "school"]) {
                return true
            }
        }
        pos = save
        return false
    }

    /// The positive ways of saying the same skip: "in term time (only)", "during term time",
    /// "term time only", "when school is in (session)", "during the school term", and "on school
    /// days" after a rule ("every monday on school days"; alone it is the rule "every school day").
    mutating func parseTermTime() -> Bool {
        let start = pos
        _ = accept("only")
        _ = accept("in") || accept("during") || accept("on") || accept("over")
        _ = accept("the")
        if accept(["term", "time"]) || accept(["school", "term"]) || accept(["term", "times"]) || accept(["school", "terms"])
            || (expr.recurrence != nil && accept(["school", "days"])) {
            _ = accept("only")
            expr.skipsSchoolHolidays = true
            return true
        }
        pos = start
        if (accept("when") || accept("while")) && (accept("school") || accept(["the", "school"]))
            && (accept(["is", "in", "session"]) || accept(["is", "in"]) || accept(["is", "on"]) || accept(["is", "open"])
                || accept(["s", "in"])) {
            expr.skipsSchoolHolidays = true
            return true
        }
        pos = start
        return false
    }

    mutating func parseRecurrence() throws(TemporalParseError) -> Bool {
        let start = pos
        // "[on] the 30th[,] or the last day in shorter months" (no "every": the fallback makes it monthly).
        _ = accept("on")
        _ = accept("the")
        if let d = ordinalAt(), (29...31).contains(d) {
            pos += 1
            _ = accept(["of", "every", "month"]) || accept(["of", "each", "month"]) || accept(["of", "the", "month"])
            if acceptLastDayFallback() {
                var rule = Self.monthDayWithFallback(d)
                if let existing = expr.recurrence {
                    // "every (other) month on the 30th or the last day…"
                    guard existing.frequency == .monthly, existing.byDay.isEmpty, existing.byMonthDay.isEmpty else {
                        throw TemporalParseError("two rules")
                    }
                    rule.interval = existing.interval
                }
                expr.recurrence = rule
                return true
            }
        }
        pos = start
        if var rec = try parseRecurrenceCore() {
            if rec.frequency == .monthly, rec.byMonthDay.count == 1, let d = rec.byMonthDay.first, (29...31).contains(d),
               rec.bySetPos == nil, acceptLastDayFallback() {
                rec = Self.monthDayWithFallback(d)
            }
            if let existing = expr.recurrence {
                guard let merged = Self.merge(existing, rec) else { throw TemporalParseError("two rules") }
                expr.recurrence = merged
            } else {
                expr.recurrence = rec
            }
            return true
        }
        pos = start
        return false
    }

    /// A second rule in one phrase only adds days to the first: "every week on mondays", "every
    /// monday and every thursday", "mondays and thursdays twice a week". Anything else — an interval,
    /// a month limit or a set position in the second, or a day said twice — is two rules.
    static func merge(_ first: TemporalRecurrence, _ second: TemporalRecurrence) -> TemporalRecurrence? {
        guard first.frequency == second.frequency || second.frequency == .weekly,
              second.byMonth.isEmpty, second.bySetPos == nil, first.bySetPos == nil else { return nil }
        // "mondays and thursdays twice a week": the count comes second.
        if let times = second.timesPerPeriod, first.timesPerPeriod == nil, first.frequency == second.frequency,
           first.interval == 1, second.byDay.isEmpty, second.byMonthDay.isEmpty {
            var merged = first
            merged.interval = second.interval
            merged.timesPerPeriod = times
            return merged
        }
        guard second.interval == 1, second.timesPerPeriod == nil, !second.byDay.isEmpty || !second.byMonthDay.isEmpty,
              !second.byDay.contains(where: { d in first.byDay.contains(d) }),
              !second.byMonthDay.contains(where: { first.byMonthDay.contains($0) }) else { return nil }
        var merged = first
        merged.byDay += second.byDay
        merged.byMonthDay += second.byMonthDay
        return merged
    }

    mutating func parseWeekdayList(plural: Bool) -> [TemporalWeekday]? {
        var list: [TemporalWeekday] = []
        while true {
            let save = pos
            // "or" is a choice, not a list: "every tuesday or thursday" is not understood.
            if !list.isEmpty {
                _ = accept("and")
                _ = accept("on")
            }
            if let wd = plural ? weekdayPluralAt() ?? weekdayAt() : weekdayAt(), !list.contains(wd) {
                pos += 1
                list.append(wd)
            } else {
                pos = save
                break
            }
        }
        return list.isEmpty ? nil : list
    }

    mutating func parseRecurrenceCore() throws(TemporalParseError) -> TemporalRecurrence? {
        let start = pos
        // The days of a weekly rule said after it: "every other week on the weekend", "every 3
        // weeks at the weekend" (alone, "on the weekend" is this weekend).
        if let rule = expr.recurrence, rule.frequency == .weekly, rule.byDay.isEmpty {
            _ = accept("on") || accept("at") || accept("over")
            _ = accept("the")
            if accept("weekend") || accept(["week", "end"]) {
                return TemporalRecurrence(frequency: .weekly, byDay: TemporalWeekday.weekend.map { .init(ordinal: nil, weekday: $0) })
            }
            pos = start
        }
        // Plural weekdays: "mondays", "on mondays and thursdays".
        _ = accept("on")
        if weekdayPluralAt() != nil, let list = parseWeekdayList(plural: true) {
            return TemporalRecurrence(frequency: .weekly, byDay: list.map { .init(ordinal: nil, weekday: $0) })
        }
        if accept("weekdays") || accept(["week", "days"]) {
            return TemporalRecurrence(frequency: .weekly, byDay: TemporalWeekday.weekdays.map { .init(ordinal: nil, weekday: $0) })
        }
        // "every school day", "on school days": Monday to Friday, skipping the school holidays.
        if accept(["every", "school", "day"]) || accept(["each", "school", "day"])
            || (expr.recurrence == nil && accept(["school", "days"])) {
            expr.skipsSchoolHolidays = true
            return TemporalRecurrence(frequency: .weekly, byDay: TemporalWeekday.weekdays.map { .init(ordinal: nil, weekday: $0) })
        }
        if accept("weekends") {
            return TemporalRecurrence(frequency: .weekly, byDay: TemporalWeekday.weekend.map { .init(ordinal: nil, weekday: $0) })
        }
        pos = start
        if accept("daily") || accept(["every", "single", "day"]) { return TemporalRecurrence(frequency: .daily) }
        if accept("nightly") {
            try Self.put(&expr.part, .night)
            return TemporalRecurrence(frequency: .daily)
        }
        if accept("hourly") { return TemporalRecurrence(frequency: .hourly) }
        if accept("weekly") { return TemporalRecurrence(frequency: .weekly) }
        if accept("biweekly") || accept("fortnightly") { return TemporalRecurrence(frequency: .weekly, interval: 2) }
        if accept("monthly") { return TemporalRecurrence(frequency: .monthly) }
        if accept("yearly") || accept("annually") { return TemporalRecurrence(frequency: .yearly) }
        // "once a week", "twice a month", "3 times a week"
        if let times = parseTimesPer() {
            return times
        }
        pos = start
        // "the 15th of every month", "the last friday of the month", "the last day of the month"
        if let monthly = parseMonthlyOrdinal() { return monthly }
        pos = start
        if let edge = parseMonthEdge() { return edge }
        pos = start
        guard accept("every") || accept("each") || accept("evry") else { return nil }
        var interval = 1
        if accept("other") || accept("alternate") {
            interval = 2
        } else if case .number(let n, _)? = token(), unitAt(1) != nil || isWord("weekdays", 1) || isWord("weekends", 1) {
            interval = n
            pos += 1
        } else if let ordinals = acceptOrdinalList() {
            // "every 3rd monday", "every first and third tuesday" (monthly; yearly with a month:
            // "every 2nd sunday in may"), "every 2nd week" (interval), "every 15th" (monthly day).
            if let byDay = acceptOrdinalWeekdays(ordinals) {
                let save = pos
                if accept("of") || accept("in"), let m = monthAt() {
                    pos += 1
                    return TemporalRecurrence(frequency: .yearly, byDay: byDay, byMonth: [m])
                }
                pos = save
                return TemporalRecurrence(frequency: .monthly, interval: acceptOfMonths() ?? 1, byDay: byDay)
            }
            // The ordinal rule (docs/using.md, "Ambiguous ordinals"): one ordinal counted from the start
            // before a unit is an interval — "every 3rd day", "every fifth day" are every 3 (5)
            // days, "every 2nd week" every 2 weeks — unless "of the month" follows ("every 3rd day
            // of the month" is the 3rd). An ordinal counted from the end ("every last day"), several
            // ordinals ("every 1st and 15th day") or an ordinal with "of" and no unit ("every 3rd
            // of the month") name days of the month.
            if ordinals.count == 1, ordinals[0] > 0, isWord("day") || isWord("days"), !saysOfTheMonth(at: 1) {
                // "every 3rd day of the week" names a day, not an interval, and none Hearth keeps;
                // "every first day" could be either (every day, or the 1st): neither is guessed.
                if isWord("of", 1) || ordinals[0] == 1 { throw TemporalParseError("every nth day of what") }
                interval = ordinals[0]
            } else if accept("day") || ordinals.count > 1 && accept("days") {
                // "every last day of the month", "every second to last day", "every 1st and 15th day".
                guard ordinals.allSatisfy({ (1...31).contains(abs($0)) }) else { throw TemporalParseError("bad day") }
                return TemporalRecurrence(frequency: .monthly, interval: acceptOfMonths() ?? 1, byMonthDay: ordinals)
            }
            let n = ordinals[0]
            if interval > 1 {
                // "every 3rd day": read below as a unit with an interval.
            } else if ordinals.count == 1, n > 0, unitAt() != nil || isWord("weekend") || isWord("week") && isWord("end", 1) {
                // "every 2nd week", "every third weekend".
                interval = n
            } else if ordinals.allSatisfy({ (1...31).contains($0) }) {
                // "every second" alone is a unit of time, not the 2nd of the month; "every 2nd" is
                // the same words spoken.
                let saidSecond = ordinals == [2]
                if accept("of") || accept("in") {
                    if ordinals.count == 1, let m = monthAt() {
                        pos += 1
                        return TemporalRecurrence(frequency: .yearly, byMonthDay: [n], byMonth: [m])
                    }
                    var months = 1
                    if accept("every") || accept("each") {
                        guard let n = acceptMonthInterval() else { throw TemporalParseError("every nth of what") }
                        months = n
                    } else {
                        _ = accept("the")
                        guard accept("month") else { throw TemporalParseError("every nth of what") }
                    }
                    return TemporalRecurrence(frequency: .monthly, interval: months, byMonthDay: ordinals)
                } else if saidSecond {
                    throw TemporalParseError("every second")
                }
                return TemporalRecurrence(frequency: .monthly, byMonthDay: ordinals)
            } else {
                return nil
            }
        }
        // What repeats.
        if let list = parseWeekdayList(plural: true) {
            return TemporalRecurrence(frequency: .weekly, interval: interval, byDay: list.map { .init(ordinal: nil, weekday: $0) })
        }
        if accept("weekday") || accept("weekdays") || accept(["week", "day"]) || accept(["work", "day"]) || accept("workday")
            || accept(["school", "day"]) {
            return TemporalRecurrence(frequency: .weekly, interval: interval,
                                      byDay: TemporalWeekday.weekdays.map { .init(ordinal: nil, weekday: $0) })
        }
        if accept("weekend") || accept("weekends") || accept(["week", "end"]) {
            return TemporalRecurrence(frequency: .weekly, interval: interval,
                                      byDay: TemporalWeekday.weekend.map { .init(ordinal: nil, weekday: $0) })
        }
        if accept("fortnight") { return TemporalRecurrence(frequency: .weekly, interval: 2 * interval) }
        if let part = parsePartWord() {
            try Self.put(&expr.part, part)
            return TemporalRecurrence(frequency: .daily, interval: interval)
        }
        if let unit = unitAt() {
            pos += 1
            switch unit {
            case .minute: return TemporalRecurrence(frequency: .minutely, interval: interval)
            case .hour: return TemporalRecurrence(frequency: .hourly, interval: interval)
            case .day: return TemporalRecurrence(frequency: .daily, interval: interval)
            case .week: return TemporalRecurrence(frequency: .weekly, interval: interval)
            case .month: return TemporalRecurrence(frequency: .monthly, interval: interval)
            case .year: return TemporalRecurrence(frequency: .yearly, interval: interval)
            }
        }
        // "every feb 8", "every 8th of february": yearly.
        if case .date(let m?, let d, nil)? = parseDate() {
            return TemporalRecurrence(frequency: .yearly, interval: interval, byMonthDay: [d], byMonth: [m])
        }
        throw TemporalParseError("every what")
    }

    /// One ordinal or several: "second", "second and fourth", "1st 3rd and 5th" (the comma is gone),
    /// "first and last", "the 1st and the 15th". Nil, with the cursor unchanged, when there is none;
    /// an ordinal said twice ends the list.
    mutating func acceptOrdinalList() -> [Int]? {
        guard let (first, width) = ordinalSpan() else { return nil }
        pos += width
        var list = [first]
        while true {
            let save = pos
            _ = accept("and")
            _ = accept("the")
            if let (n, w) = ordinalSpan(), !list.contains(n) {
                pos += w
                list.append(n)
            } else {
                pos = save
                break
            }
        }
        return list
    }

    /// The weekday after ordinals ("second and fourth monday", "1st and 3rd tuesdays"; the plural
    /// only after several), as BYDAY entries; nil with the cursor unchanged when no weekday follows.
    /// Ordinals beyond ±5 are not in any month: not understood.
    mutating func acceptOrdinalWeekdays(_ ordinals: [Int]) -> [TemporalRecurrence.ByDay]? {
        guard let wd = weekdayAt() ?? (ordinals.count > 1 ? weekdayPluralAt() : nil),
              ordinals.allSatisfy({ (1...5).contains(abs($0)) }) else { return nil }
        pos += 1
        return ordinals.map { .init(ordinal: $0, weekday: wd) }
    }

    /// Whether "of/in … month(s)" starts at `offset`: "of the month", "of every other month", "in
    /// each month", "of every 2 months" (at most two words between).
    func saysOfTheMonth(at offset: Int) -> Bool {
        guard isWord("of", offset) || isWord("in", offset) else { return false }
        for k in 1...3 where isWord("month", offset + k) || isWord("months", offset + k) { return true }
        return false
    }

    /// "of the month", "of every month", "of each month", "in the month", "of month".
    mutating func acceptOfTheMonth() -> Bool {
        accept(["of", "the", "month"]) || accept(["of", "every", "month"]) || accept(["of", "each", "month"])
            || accept(["in", "the", "month"]) || accept(["in", "every", "month"]) || accept(["of", "month"])
    }

    /// After "every"/"each": "month" (1), "other month" (2), "3 months", "third month" (3); nil with
    /// the cursor unchanged otherwise.
    mutating func acceptMonthInterval() -> Int? {
        let save = pos
        if accept("month") { return 1 }
        if accept("other") || accept("alternate") {
            if accept("month") { return 2 }
        } else if let n = numberAt(), n >= 1, isWord("months", 1) {
            pos += 2
            return n
        } else if let n = ordinalAt(), n >= 1, isWord("month", 1) {
            pos += 2
            return n
        }
        pos = save
        return nil
    }

    /// `acceptOfTheMonth`, or "of every other month" / "of every 3 months": the month interval, or
    /// nil with the cursor unchanged.
    mutating func acceptOfMonths() -> Int? {
        if acceptOfTheMonth() { return 1 }
        let save = pos
        if accept("of") || accept("in"), accept("every") || accept("each"), let n = acceptMonthInterval() { return n }
        pos = save
        return nil
    }

    /// "[at] the start of every month" BYMONTHDAY=1, "the beginning of each month", "the end of
    /// every other month" BYMONTHDAY=-1 (with an interval). Only with "every"/"each": "the end of
    /// the month" alone is not said to repeat.
    mutating func parseMonthEdge() -> TemporalRecurrence? {
        _ = accept("at")
        _ = accept("the")
        let day: Int
        if accept("start") || accept("beginning") {
            day = 1
        } else if accept("end") {
            day = -1
        } else {
            return nil
        }
        guard accept("of"), accept("every") || accept("each") else { return nil }
        var interval = 1
        if accept("other") {
            interval = 2
        } else if let n = numberAt(), isWord("months", 1) {
            interval = n
            pos += 1
        }
        guard accept("month") || interval != 1 && accept("months") else { return nil }
        return TemporalRecurrence(frequency: .monthly, interval: interval, byMonthDay: [day])
    }

    /// "once a week", "twice a month", "3 times per week", "once every 2 weeks".
    mutating func parseTimesPer() -> TemporalRecurrence? {
        var times: Int
        if accept("once") {
            times = 1
        } else if accept("twice") {
            times = 2
        } else if accept("thrice") {
            times = 3
        } else if let n = numberAt(), isWord("times", 1) {
            times = n
            pos += 2
        } else {
            return nil
        }
        guard accept("a") || accept("per") || accept("every") || accept("each") || accept("an") else { return nil }
        var interval = 1
        if let n = numberAt() { interval = n; pos += 1 } else if accept("other") { interval = 2 }
        guard let unit = unitAt() else { return nil }
        pos += 1
        let frequency: TemporalRecurrence.Frequency
        switch unit {
        case .minute: frequency = .minutely
        case .hour: frequency = .hourly
        case .day: frequency = .daily
        case .week: frequency = .weekly
        case .month: frequency = .monthly
        case .year: frequency = .yearly
        }
        return TemporalRecurrence(frequency: frequency, interval: interval, timesPerPeriod: times)
    }

    /// "[on] the 15th of every month", "the last friday of the month", "the last day of every month",
    /// "the first weekday of the month", "the 1st and 15th of every month".
    mutating func parseMonthlyOrdinal() -> TemporalRecurrence? {
        _ = accept("on")
        _ = accept("the") || accept("every") || accept("each")
        guard let ordinals = acceptOrdinalList() else { return nil }
        let n = ordinals[0]
        var rec: TemporalRecurrence
        var sawDayWord = false
        // After "every month" / "monthly" the month is already said: "every month on the last friday".
        let monthSaid: Bool
        if let rule = expr.recurrence, rule.frequency == .monthly, rule.byDay.isEmpty, rule.byMonthDay.isEmpty {
            monthSaid = true
        } else {
            monthSaid = false
        }
        if let byDay = acceptOrdinalWeekdays(ordinals) {
            rec = TemporalRecurrence(frequency: .monthly, byDay: byDay)
            // "the first and third tuesday": several ordinals of a weekday repeat without "of the month".
            if ordinals.count > 1 || monthSaid, !isWord("of"), !isWord("in") { return rec }
        } else if ordinals.count == 1,
                  accept("weekday") || accept(["week", "day"]) || accept(["working", "day"]) || accept(["business", "day"]) {
            rec = TemporalRecurrence(frequency: .monthly,
                                     byDay: TemporalWeekday.weekdays.map { .init(ordinal: nil, weekday: $0) },
                                     bySetPos: n)
        } else if accept("day") || ordinals.count > 1 && accept("days") {
            guard ordinals.allSatisfy({ (1...31).contains(abs($0)) }) else { return nil }
            sawDayWord = true
            rec = TemporalRecurrence(frequency: .monthly, byMonthDay: ordinals)
            if monthSaid, !isWord("of"), !isWord("in") { return rec }
        } else {
            // "the 1st and 15th of every month"
            guard ordinals.allSatisfy({ (1...31).contains($0) }) else { return nil }
            rec = TemporalRecurrence(frequency: .monthly, byMonthDay: ordinals)
            // "twice a month on the 1st and 15th": the month is already said.
            if monthSaid, ordinals.count > 1, !isWord("of"), !isWord("in") { return rec }
        }
        guard accept("of") || accept("in") else { return nil }
        if accept("every") || accept("each") {
            // "of every month", "of every other month", "of every 3 months", "of every third month".
            guard let interval = acceptMonthInterval() else { return nil }
            rec.interval = interval
            return rec
        }
        _ = accept("the")
        guard accept("month") else { return nil }
        // "the 8th of the month" is a single date (parsed by `parseDate`); "the last day of the
        // month", "the 1st monday of the month" and "the 1st and 15th of the month" repeat.
        if !sawDayWord, rec.byDay.isEmpty, rec.byMonthDay.count == 1, rec.byMonthDay[0] > 0 { return nil }
        return rec
    }
}

/// One token as the parser's helpers see it (see `TemporalParser.probes`).
private struct TokenProbe {
    /// The word, nil for numbers, dates and other non-word tokens.
    let word: String?
    /// The UTF-8 length of an ASCII word, else -1. Comparing it with a literal's length (a constant
    /// once inlined) settles most mismatches without a String comparison, which is a library call.
    /// The words the parser looks for are ASCII, and two ASCII strings are equal only if their
    /// bytes are.
    let asciiLength: Int
    let lexeme: TemporalLexeme?

    init(_ token: TemporalToken) {
        if case .word(let w) = token {
            word = w
            asciiLength = w.utf8.allSatisfy { $0 < 0x80 } ? w.utf8.count : -1
            lexeme = TemporalLexeme.table[w]
        } else {
            word = nil
            asciiLength = -1
            lexeme = nil
        }
    }

    @inline(__always)
    func isWord(_ w: String) -> Bool {
        guard let word else { return false }
        if asciiLength >= 0, asciiLength != w.utf8.count { return false }
        return word == w
    }
}

/// What the parser's word tables say about one word, so that a single lookup per token answers
/// every `weekdayAt`/`monthAt`/`unitAt` probe.
struct TemporalLexeme: Sendable {
    var weekday: TemporalWeekday?
    var weekdayPlural: TemporalWeekday?
    var month: Int?
    var unit: TemporalUnit?

    static let table: [String: TemporalLexeme] = {
        var table: [String: TemporalLexeme] = [:]
        for (w, wd) in TemporalParser.weekdayNames { table[w, default: .init()].weekday = wd }
        for (w, wd) in TemporalParser.weekdaySlips { table[w, default: .init()].weekday = wd }
        for (w, wd) in TemporalParser.weekdayPlurals { table[w, default: .init()].weekdayPlural = wd }
        for (w, m) in TemporalParser.monthNames { table[w, default: .init()].month = m }
        for (w, u) in TemporalParser.unitNames { table[w, default: .init()].unit = u }
        return table
    }()
}
