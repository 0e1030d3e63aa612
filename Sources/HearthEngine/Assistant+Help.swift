import Foundation

/// One skill area's help as a terminal front end lists it.
public struct AreaSuggestions: Sendable, Equatable {
    /// "the family calendar".
    public let topic: String
    /// Requests to try, as typed ("Schedule Emma for dentist on Thursday at 4pm").
    public let examples: [String]
}

extension Assistant {
    /// What can be said, area by area: the same suggestions "help" gives, for the REPL's `:help`
    /// and its tab completion. Areas without suggestions of their own (points) are left out.
    public var suggestionsByArea: [AreaSuggestions] {
        areas.areas.map(\.help).filter { !$0.examples.isEmpty }.map { help in
            // A help line may offer several quoted requests: "What's on tomorrow?" / "What does Jake have…?"
            let requests = help.examples.flatMap { $0.components(separatedBy: "\" / \"") }
            return AreaSuggestions(topic: help.topic, examples: requests.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) })
        }
    }
}
