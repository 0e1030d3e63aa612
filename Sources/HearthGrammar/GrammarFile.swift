import Foundation
import Yams

/// One `Intents/<area>.yaml` file as written by grammar authors. The format is documented in
/// docs/grammar.md ("Grammar format"); this type is its single source of truth.
public struct GrammarFile: Decodable, Sendable {
    /// Named sub-patterns, global across all files, referenced in patterns as `{name}`.
    public var definitions: [String: String]?
    /// Only in common.yaml: text every intent pattern may be wrapped in ("please", "hey hearth").
    public var wrap: Wrap?
    public var intents: [IntentSpec]?
    /// Requests Hearth does not serve ("order a pizza", "turn off the porch light", "play some
    /// jazz"): no pattern may match them, and the nearest-intent back-off learns from them what
    /// is no request of any intent (`NearestIntent`). Kept in one file, `Intents/scope.yaml`.
    public var outOfScope: [String]?

    enum CodingKeys: String, CodingKey { case definitions, wrap, intents, outOfScope = "out_of_scope" }

    public struct Wrap: Decodable, Sendable {
        public var prefix: String?
        public var suffix: String?
    }

    public struct IntentSpec: Decodable, Sendable {
        public var name: String
        public var priority: Int?
        /// Capture group name → slot spec. A group named in a pattern must be declared here.
        public var slots: [String: SlotSpec]?
        public var patterns: [String]
        public var examples: [Example]?
        /// What to ask when no pattern matches but this intent's cue words and typed slots are
        /// found (docs/grammar.md, "Back-off"). Optional.
        public var backoff: BackoffSpec?
        /// Sentences of this intent the nearest-intent back-off may put a request into
        /// (`NearestIntent`): `{when}` and `{people}` are what was said; the first whose
        /// placeholders were all found is used. Only intents that change nothing have them.
        public var nearest: [String]?

        enum CodingKeys: String, CodingKey { case name, priority, slots, patterns, examples, backoff, nearest }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            priority = try container.decodeIfPresent(Int.self, forKey: .priority)
            slots = try container.decodeIfPresent([String: SlotSpec].self, forKey: .slots)
            patterns = try container.decode([String].self, forKey: .patterns)
            let skip = decoder.userInfo[.skipExamples] as? Bool ?? false
            // Skipped, the examples' texts and intents are still read: the nearest-intent back-off
            // is trained on them (`NearestIntent`).
            examples = skip ? try container.decodeIfPresent([ExampleText].self, forKey: .examples)?.map { Example(text: $0.text, intent: $0.intent) }
                : try container.decodeIfPresent([Example].self, forKey: .examples)
            backoff = try container.decodeIfPresent(BackoffSpec.self, forKey: .backoff)
            nearest = try container.decodeIfPresent([String].self, forKey: .nearest)
        }
    }

    /// An example's text and intent alone.
    struct ExampleText: Decodable { var text: String; var intent: String? }

    public struct Example: Decodable, Sendable {
        public var text: String
        /// Expected intent when it differs from the enclosing one (negative examples); "none" = no match.
        public var intent: String?
        /// Expected slots after resolution against the demo family, in SPEC §3 JSON form.
        public var slots: [String: ExampleValue]?
        /// Reference time for resolution; defaults to 2026-02-02T09:00:00-05:00.
        public var now: String?
        /// Speaker; defaults to Lisa.
        public var speaker: String?

        public init(text: String, intent: String? = nil, slots: [String: ExampleValue]? = nil, now: String? = nil, speaker: String? = nil) {
            self.text = text; self.intent = intent; self.slots = slots; self.now = now; self.speaker = speaker
        }
    }

    /// Composed with Yams' basic resolver: the default one runs a regular expression over every
    /// scalar to guess its type (a third of Hearth's start-up time); these files only need strings,
    /// and the Decodable types convert numbers and booleans themselves.
    public static func parse(_ yaml: String, examples: Bool = true) throws -> GrammarFile {
        guard let node = try Parser(yaml: yaml, resolver: .basic, encoding: .utf8).singleRoot() else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the file is empty"))
        }
        return try YAMLDecoder().decode(GrammarFile.self, from: node, userInfo: [.skipExamples: !examples])
    }
}

extension CodingUserInfoKey {
    /// Set to true to leave intents' examples undecoded.
    static let skipExamples = CodingUserInfoKey(rawValue: "hearth.skipExamples")!
}

/// How a captured group becomes a typed slot. Written in YAML either as a bare type name
/// (`title: text`) or as a map naming the output keys (`when: {type: datetime, start: start, end: end}`).
public struct SlotSpec: Decodable, Sendable, Equatable {
    public var type: SlotType
    /// Output slot key; defaults to the group name.
    public var key: String?
    /// For datetime captures: the keys receiving the start and (for intervals) the end.
    public var start: String?
    public var end: String?
    /// For referent captures ("it", "that"): what they may stand for (event, reminder, chore,
    /// member, message, place); empty means anything the conversation mentioned.
    public var kinds: [String]

    public init(type: SlotType, key: String? = nil, start: String? = nil, end: String? = nil, kinds: [String] = []) {
        self.type = type; self.key = key; self.start = start; self.end = end; self.kinds = kinds
    }

    enum CodingKeys: String, CodingKey { case type, key, start, end, kinds }

    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            guard let type = SlotType(rawValue: name) else {
                throw DecodingError.dataCorruptedError(in: single, debugDescription: "unknown slot type '\(name)' (known: \(SlotType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            self.init(type: type)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(type: try container.decode(SlotType.self, forKey: .type),
                  key: try container.decodeIfPresent(String.self, forKey: .key),
                  start: try container.decodeIfPresent(String.self, forKey: .start),
                  end: try container.decodeIfPresent(String.self, forKey: .end),
                  kinds: try container.decodeIfPresent([String].self, forKey: .kinds) ?? [])
    }
}

public enum SlotType: String, Decodable, Sendable, CaseIterable {
    case member        // one family member → display name
    case members       // a list or a group word → [display name]
    case text          // words as said, leading articles dropped
    case datetime      // a temporal phrase → start (and end)
    case duration      // "2 hours" → minutes
    case number        // integer
    case ordinal       // "1st", "2", "last" → 1-based index
    case place         // a saved place name
    case literal       // a fixed word whose normalised text is the value (e.g. "am"/"pm")
    case referent      // "it", "that", "them": something the conversation just mentioned (docs/using.md "Follow-ups")
}

/// An expected slot value in an example: a string, a number, a bool or a list of strings.
public enum ExampleValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    case string(String), int(Int), bool(Bool), list([String]), null

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else { self = .list(try container.decode([String].self)) }
    }

    public var description: String {
        switch self {
        case .string(let value): return "\"\(value)\""
        case .int(let value): return "\(value)"
        case .bool(let value): return "\(value)"
        case .list(let values): return "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        case .null: return "null"
        }
    }
}
