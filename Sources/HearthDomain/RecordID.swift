import Foundation

/// The id of one kind of stored record (`EventID`, `ReminderID`): a string, typed by what it names
/// so that one kind can't be passed for another. Encoded as the plain string.
public struct RecordID<Record>: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}
