/// Word lists that the grammar and the Swift code both read, kept here once: the grammar gets each
/// as a built-in definition (an alternation of its escaped entries, like the family's vocabulary),
/// and the code that reads the slots uses the same list.
public enum GroupWords {
    /// Two people said as one (`{pair}`): the speaker and their fellow parent, or a child's one
    /// brother or sister (`Roster.pair`).
    public static let pair = ["both of us", "the two of us", "the 2 of us", "the both of us", "we both", "us both", "we two",
                              "we 2", "us two", "us 2", "either of us", "neither of us"]

    /// The built-in lists by definition name.
    static let definitions = ["pair": pair]

    /// `vocabulary` with the built-in lists added (a name given in `vocabulary` is kept as given).
    static func adding(to vocabulary: [String: [String]]) -> [String: [String]] {
        vocabulary.merging(definitions) { given, _ in given }
    }
}
