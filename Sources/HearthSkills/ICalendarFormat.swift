import Foundation

// RFC 5545 syntax: content lines (folding, parameters, escaping) and the component tree, plus the
// DATE / DATE-TIME / DURATION value types. No calendar semantics here (see ICalendarSkill).

/// A malformed iCalendar file or a value Hearth cannot read. `line` is the 1-based physical line of
/// the file where the offending content line starts.
public enum ICalendarError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    case malformed(line: Int, message: String)

    public var line: Int { switch self { case .malformed(let line, _): line } }
    public var description: String {
        switch self { case .malformed(let line, let message): "line \(line): \(message)" }
    }
    public var errorDescription: String? { description }
}

/// One property parameter (`TZID=America/New_York`, `CN="Smith, Ann"`); a list parameter has several values.
public struct ICalendarParameter: Equatable, Sendable {
    public var name: String
    public var values: [String]
    public init(name: String, values: [String]) { self.name = name.uppercased(); self.values = values }
    public init(_ name: String, _ value: String) { self.init(name: name, values: [value]) }
}

/// One content line: `NAME;PARAM=VALUE:value`. `value` is the raw (still escaped) text.
public struct ICalendarProperty: Equatable, Sendable {
    public var name: String
    public var parameters: [ICalendarParameter]
    public var value: String
    public var line: Int

    public init(name: String, parameters: [ICalendarParameter] = [], value: String, line: Int = 0) {
        self.name = name.uppercased(); self.parameters = parameters; self.value = value; self.line = line
    }

    /// The first value of a parameter (names are case-insensitive).
    public func parameter(_ name: String) -> String? {
        let upper = name.uppercased()
        return parameters.first { $0.name == upper }?.values.first
    }

    /// The value read as TEXT (escapes removed).
    public var text: String { ICalendarText.unescape(value) }

    /// The content line, unfolded.
    public var contentLine: String {
        var line = name
        for parameter in parameters {
            line += ";" + parameter.name + "=" + parameter.values.map(ICalendarText.parameterValue).joined(separator: ",")
        }
        return line + ":" + value
    }
}

/// A component (`VCALENDAR`, `VEVENT`, `VALARM`, …) with its properties and sub-components in file order.
public struct ICalendarComponent: Equatable, Sendable {
    public var name: String
    public var properties: [ICalendarProperty]
    public var components: [ICalendarComponent]
    public var line: Int

    public init(name: String, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = [], line: Int = 0) {
        self.name = name.uppercased(); self.properties = properties; self.components = components; self.line = line
    }

    public func property(_ name: String) -> ICalendarProperty? {
        let upper = name.uppercased()
        return properties.first { $0.name == upper }
    }

    public func properties(_ name: String) -> [ICalendarProperty] {
        let upper = name.uppercased()
        return properties.filter { $0.name == upper }
    }

    /// Unfolded content lines, BEGIN to END.
    public var contentLines: [String] {
        ["BEGIN:" + name] + properties.map(\.contentLine) + components.flatMap(\.contentLines) + ["END:" + name]
    }

    /// The component as an iCalendar stream: folded lines, CRLF endings.
    public var serialized: String { ICalendarText.stream(contentLines) }
}

public enum ICalendarText {
    /// RFC 5545 §3.3.11 TEXT escaping: backslash, semicolon, comma, newline.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r": result += "\\n"
            case "\n": if !previousCR { result += "\\n" }
            default: result.unicodeScalars.append(scalar)
            }
            previousCR = scalar == "\r"
        }
        return result
    }

    /// Reverses `escape`; `\N` is read as a newline too, and an unknown escape keeps its character.
    public static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                switch scalar {
                case "n", "N": result += "\n"
                default: result.unicodeScalars.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        if escaping { result += "\\" }
        return result
    }

    /// Splits a TEXT list value (`a,b\,c`) on unescaped commas, unescaping each item.
    public static func splitList(_ value: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping { current += "\\"; current.unicodeScalars.append(scalar); escaping = false }
            else if scalar == "\\" { escaping = true }
            else if scalar == "," { items.append(unescape(current)); current = "" }
            else { current.unicodeScalars.append(scalar) }
        }
        items.append(unescape(current))
        return items
    }

    /// A parameter value, quoted when it holds `:`, `;` or `,` (DQUOTE cannot be represented and is dropped,
    /// as are control characters).
    public static func parameterValue(_ value: String) -> String {
        let cleaned = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0 != "\"" && !($0.value < 0x20 && $0 != "\t") && $0.value != 0x7f }))
        return cleaned.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"" + cleaned + "\"" : cleaned
    }

    /// Folds one content line at 75 octets (RFC 5545 §3.1) without splitting a UTF-8 sequence;
    /// continuation lines start with one space. Lines are joined with CRLF.
    public static func fold(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > 75 else { return line }
        var pieces: [String] = []
        var start = 0
        var limit = 75
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            // Never end a piece in the middle of a UTF-8 sequence: back up to a lead byte.
            while end < bytes.count && end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            pieces.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = end
            limit = 74   // the leading space counts towards the 75 octets
        }
        return pieces.joined(separator: "\r\n ")
    }

    /// Folded content lines, each ended by CRLF.
    public static func stream(_ lines: [String]) -> String {
        var result = ""
        for line in lines { result += fold(line); result += "\r\n" }
        return result
    }

    /// Physical lines → logical (unfolded) lines with the physical line number each starts on.
    /// Accepts CRLF or bare LF; a line starting with a space or tab continues the previous one.
    /// Invalid UTF-8 is an error naming the line.
    public static func unfold(_ data: Data) throws(ICalendarError) -> [(line: Int, text: String)] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var result: [(line: Int, text: String)] = []
        var lineNumber = 0
        for var raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if raw.last == 0x0D { raw = raw.dropLast() }
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw .malformed(line: lineNumber, message: "the file is not valid UTF-8")
            }
            if let first = raw.first, first == 0x20 || first == 0x09 {
                guard !result.isEmpty else {
                    throw .malformed(line: lineNumber, message: "a continuation line (starting with a space) has no line to continue")
                }
                result[result.count - 1].text += text.dropFirst()
            } else if !raw.isEmpty {
                result.append((lineNumber, text))
            }
        }
        return result
    }

    /// Parses one unfolded content line.
    public static func parseContentLine(_ text: String, line: Int) throws(ICalendarError) -> ICalendarProperty {
        let bytes = Array(text.utf8)
        var index = 0
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
        }
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        let preview = text.count > 40 ? String(text.prefix(40)) + "…" : text

        while index < bytes.count && isNameByte(bytes[index]) { index += 1 }
        guard index > 0 else {
            throw .malformed(line: line, message: "expected a property name (letters, digits, '-') at the start of '\(preview)'")
        }
        let name = string(0..<index)
        var parameters: [ICalendarParameter] = []
        while index < bytes.count && bytes[index] == 0x3B {   // ;
            index += 1
            let nameStart = index
            while index < bytes.count && isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart, index < bytes.count, bytes[index] == 0x3D else {   // =
                throw .malformed(line: line, message: "malformed parameter in \(name) (expected NAME=VALUE)")
            }
            let parameterName = string(nameStart..<index)
            index += 1
            var values: [String] = []
            while true {
                if index < bytes.count && bytes[index] == 0x22 {   // "
                    let valueStart = index + 1
                    guard let close = bytes[valueStart...].firstIndex(of: 0x22) else {
                        throw .malformed(line: line, message: "unterminated quoted value of parameter \(parameterName) in \(name)")
                    }
                    values.append(string(valueStart..<close))
                    index = close + 1
                } else {
                    let valueStart = index
                    while index < bytes.count && bytes[index] != 0x2C && bytes[index] != 0x3B && bytes[index] != 0x3A { index += 1 }
                    values.append(string(valueStart..<index))
                }
                if index < bytes.count && bytes[index] == 0x2C { index += 1; continue }   // ,
                break
            }
            parameters.append(ICalendarParameter(name: parameterName, values: values))
        }
        guard index < bytes.count, bytes[index] == 0x3A else {   // :
            throw .malformed(line: line, message: parameters.isEmpty
                             ? "'\(preview)' is not a content line (expected NAME:value)"
                             : "expected ':' after the parameters of \(name)")
        }
        return ICalendarProperty(name: name, parameters: parameters, value: string((index + 1)..<bytes.count), line: line)
    }

    /// Parses a whole stream into its top-level components (normally one VCALENDAR).
    public static func parse(_ data: Data) throws(ICalendarError) -> [ICalendarComponent] {
        var reader = ICalendarReader(handingOutDepth: nil)
        var result: [ICalendarComponent] = []
        do {
            try reader.feed(data) { component, _ in result.append(component) }
            try reader.finish { component, _ in result.append(component) }
        } catch let error as ICalendarError {
            throw error
        } catch {
            preconditionFailure("only the reader throws here: \(error)")
        }
        return result
    }
}

/// An iCalendar stream read piece by piece (`feed` as often as needed, then `finish`), with the
/// rules and errors of `ICalendarText.unfold` and `parse`, so that a large file never sits in memory
/// whole or as one tree: each component at `handingOutDepth` (1: the VEVENTs of a VCALENDAR) goes to
/// the caller when it closes and is not kept in its parent; top-level components (depth 0) go out
/// when they close, without those. Memory follows the largest component, not the file.
public struct ICalendarReader {
    public typealias Emit = (_ component: ICalendarComponent, _ depth: Int) throws -> Void

    let handingOutDepth: Int?
    /// The bytes of a physical line not ended yet (its newline is in a later piece).
    private var carry: [UInt8] = []
    private var physicalLine = 0
    /// The logical line being unfolded, with the physical line it starts on.
    private var logical: (line: Int, text: String)?
    private var lastLogicalLine = 0
    private var stack: [ICalendarComponent] = []
    private var closedTopLevel = 0

    public init(handingOutDepth: Int? = 1) { self.handingOutDepth = handingOutDepth }

    /// Reads the next piece of the stream; components that close in it go to `emit`.
    public mutating func feed(_ data: Data, emit: Emit) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var start = 0
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                if carry.isEmpty {
                    try physical(buffer[start..<newline], emit: emit)
                } else {
                    carry += buffer[start..<newline]
                    let line = carry
                    carry.removeAll(keepingCapacity: true)
                    try physical(line[...], emit: emit)
                }
                start = newline + 1
            }
            carry += buffer[start...]
        }
    }

    /// Ends the stream: its last line, then the checks that the file was whole.
    public mutating func finish(emit: Emit) throws {
        let line = carry
        carry = []
        try physical(line[...], emit: emit)
        if let done = logical { logical = nil; try logicalLine(done.line, done.text, emit: emit) }
        if let open = stack.last {
            throw ICalendarError.malformed(line: lastLogicalLine + 1, message: "the file ends before END:\(open.name) (BEGIN on line \(open.line))")
        }
        guard closedTopLevel > 0 else { throw ICalendarError.malformed(line: 1, message: "not an iCalendar file (no BEGIN:VCALENDAR)") }
    }

    /// One physical line (without its LF): unfolded into the logical line it continues or starts.
    private mutating func physical<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes, emit: Emit) throws {
        physicalLine += 1
        var raw = bytes[...]
        if physicalLine == 1 && raw.starts(with: [0xEF, 0xBB, 0xBF]) { raw = raw.dropFirst(3) }
        if raw.last == 0x0D { raw = raw.dropLast() }
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw ICalendarError.malformed(line: physicalLine, message: "the file is not valid UTF-8")
        }
        if let first = raw.first, first == 0x20 || first == 0x09 {
            guard logical != nil else {
                throw ICalendarError.malformed(line: physicalLine, message: "a continuation line (starting with a space) has no line to continue")
            }
            logical!.text += text.dropFirst()
        } else if !raw.isEmpty {
            if let done = logical { try logicalLine(done.line, done.text, emit: emit) }
            logical = (physicalLine, text)
        }
    }

    /// One unfolded content line, into the component tree.
    private mutating func logicalLine(_ number: Int, _ text: String, emit: Emit) throws {
        lastLogicalLine = number
        let property: ICalendarProperty
        do {
            property = try ICalendarText.parseContentLine(text, line: number)
        } catch {
            if stack.isEmpty && closedTopLevel == 0 {
                throw ICalendarError.malformed(line: number, message: "not an iCalendar file (expected BEGIN:VCALENDAR)")
            }
            throw error
        }
        switch property.name {
        case "BEGIN":
            let componentName = property.value.trimmingCharacters(in: .whitespaces).uppercased()
            guard !componentName.isEmpty, componentName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw ICalendarError.malformed(line: number, message: "BEGIN needs a component name")
            }
            if stack.isEmpty && componentName != "VCALENDAR" {
                throw ICalendarError.malformed(line: number, message: "expected BEGIN:VCALENDAR, found BEGIN:\(componentName)")
            }
            stack.append(ICalendarComponent(name: componentName, line: number))
        case "END":
            let componentName = property.value.trimmingCharacters(in: .whitespaces).uppercased()
            guard let open = stack.popLast() else {
                throw ICalendarError.malformed(line: number, message: "END:\(componentName) without a matching BEGIN")
            }
            guard open.name == componentName else {
                throw ICalendarError.malformed(line: number, message: "END:\(componentName) does not close BEGIN:\(open.name) (line \(open.line))")
            }
            if stack.isEmpty {
                closedTopLevel += 1
                try emit(open, 0)
            } else if stack.count == handingOutDepth {
                try emit(open, stack.count)
            } else {
                stack[stack.count - 1].components.append(open)
            }
        default:
            guard !stack.isEmpty else {
                throw ICalendarError.malformed(line: number, message: closedTopLevel == 0
                                               ? "not an iCalendar file (expected BEGIN:VCALENDAR, found \(property.name))"
                                               : "\(property.name) after END:VCALENDAR")
            }
            stack[stack.count - 1].properties.append(property)
        }
    }
}

// MARK: - Values

/// A DATE (`20260214`) or DATE-TIME (`20260205T153000`, `…Z` for UTC) value.
public struct ICalendarDateValue: Equatable, Sendable {
    public var year: Int, month: Int, day: Int
    /// nil for a DATE.
    public var time: (hour: Int, minute: Int, second: Int)?
    public var isUTC: Bool

    public var isDate: Bool { time == nil }

    public static func == (a: Self, b: Self) -> Bool {
        a.year == b.year && a.month == b.month && a.day == b.day && a.isUTC == b.isUTC
            && a.time?.hour == b.time?.hour && a.time?.minute == b.time?.minute && a.time?.second == b.time?.second
    }

    /// Parses `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]`; nil when malformed or out of range.
    public init?(_ text: String) {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard bytes.count == 8 || bytes.count == 15 || bytes.count == 16,
              let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        self.year = year; self.month = month; self.day = day
        self.isUTC = false
        self.time = nil
        if bytes.count > 8 {
            guard bytes[8] == 0x54 || bytes[8] == 0x74, let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
                  hour < 24, minute < 60, second <= 60 else { return nil }
            if bytes.count == 16 {
                guard bytes[15] == 0x5A || bytes[15] == 0x7A else { return nil }
                isUTC = true
            }
            time = (hour, minute, min(second, 59))
        }
    }

    public init(year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)? = nil, isUTC: Bool = false) {
        self.year = year; self.month = month; self.day = day; self.time = time; self.isUTC = isUTC
    }

    /// The instant: UTC values as UTC, others as wall time in `zone` (a DATE at its 00:00). A wall
    /// time skipped by a DST change moves forward by the gap; nil for a date that does not exist.
    public func instant(in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = isUTC ? TimeZone(identifier: "UTC")! : zone
        let components = DateComponents(year: year, month: month, day: day,
                                        hour: time?.hour ?? 0, minute: time?.minute ?? 0, second: time?.second ?? 0)
        guard let date = calendar.date(from: components) else { return nil }
        // Reject dates Foundation silently normalises (February 30th).
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        if back.year != year || back.month != month || back.day != day {
            // A skipped wall time can land on the same day only; a different day means a bad date.
            return nil
        }
        return date
    }

    /// The local date / date-time of `date` in `zone`.
    public static func local(_ date: Date, in zone: TimeZone, dateOnly: Bool) -> ICalendarDateValue {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return ICalendarDateValue(year: c.year!, month: c.month!, day: c.day!,
                                  time: dateOnly ? nil : (c.hour!, c.minute!, c.second!), isUTC: false)
    }

    public static func utc(_ date: Date) -> ICalendarDateValue {
        var value = local(date, in: TimeZone(identifier: "UTC")!, dateOnly: false)
        value.isUTC = true
        return value
    }

    public var text: String {
        var result = String(format: "%04d%02d%02d", year, month, day)
        if let time { result += String(format: "T%02d%02d%02d", time.hour, time.minute, time.second) + (isUTC ? "Z" : "") }
        return result
    }
}

/// A DURATION value (`P1D`, `PT1H30M`, `-P2W`): nominal days/weeks and exact seconds kept apart.
public struct ICalendarDuration: Equatable, Sendable {
    public var days: Int
    public var seconds: Int

    public init?(_ text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        var sign = 1
        if rest.first == "+" { rest = rest.dropFirst() } else if rest.first == "-" { sign = -1; rest = rest.dropFirst() }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var days = 0, seconds = 0, inTime = false, digits = "", sawUnit = false
        for character in rest {
            if character.isASCII && character.isNumber { digits.append(character); continue }
            if character == "T" { guard !inTime, digits.isEmpty else { return nil }; inTime = true; continue }
            guard let n = Int(digits) else { return nil }
            digits = ""
            sawUnit = true
            switch (character, inTime) {
            case ("W", false): days += 7 * n
            case ("D", false): days += n
            case ("H", true): seconds += 3600 * n
            case ("M", true): seconds += 60 * n
            case ("S", true): seconds += n
            default: return nil
            }
        }
        guard digits.isEmpty, sawUnit else { return nil }
        self.days = sign * days
        self.seconds = sign * seconds
    }
}
