import Foundation

/// OwnTracks (the open-source location app for iOS and Android) in HTTP mode, as pure rules
/// (issue 36): what a posted payload means for Hearth, the tracker IDs the app shows on its map, and
/// the "friends" reply — each member the poster may see, as a `location` and a `card` object.
///
/// The app POSTs one JSON object per message (https://owntracks.org/booklet/tech/json):
/// `_type: location` (`lat`, `lon`, `acc`, `batt`, `tst`, `tid`) and `_type: transition` (`event`
/// enter or leave, `desc` the region's name, `lat`, `lon`, `acc`, `tst`) are read; every other type
/// (`lwt`, `waypoint`, `waypoints`, `status`, `card`, `steps`, `beacon`, an empty body after a friend
/// was deleted) is accepted and ignored, so the app does not retry it forever.
public enum OwnTracks {
    /// A message as Hearth reads it.
    public enum Message: Sendable, Equatable {
        case location(Fix)
        case transition(Transition)
        /// A type Hearth does not use (its `_type`, or "" for an empty body).
        case ignored(String)
    }

    /// A position as the app reported it.
    public struct Fix: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var accuracyMeters: Double
        public var battery: Int?
        public var recordedAt: Date
        public init(latitude: Double, longitude: Double, accuracyMeters: Double, battery: Int?, recordedAt: Date) {
            self.latitude = latitude; self.longitude = longitude; self.accuracyMeters = accuracyMeters
            self.battery = battery; self.recordedAt = recordedAt
        }
    }

    /// Entering or leaving a region the user drew in the app.
    public struct Transition: Sendable, Equatable {
        public enum Event: String, Sendable { case enter, leave }
        public var event: Event
        /// The region's name in the app (`desc`), matched to a saved place by name.
        public var region: String
        public var fix: Fix
    }

    /// Why a payload was refused (HTTP 400): the words say which field.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The fields Hearth reads, each as the JSON it must be (a wrong type names the field).
    struct Payload: Decodable {
        var type: String?
        var lat, lon, acc, batt, tst: Double?
        var event, desc: String?
        /// The first field whose JSON type was wrong.
        var wrongType: String?

        enum CodingKeys: String, CodingKey { case type = "_type", lat, lon, acc, batt, tst, event, desc }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func field<T: Decodable>(_ key: CodingKeys, _: T.Type, into wrong: inout String?) -> T? {
                do { return try container.decodeIfPresent(T.self, forKey: key) } catch {
                    if wrong == nil { wrong = key.rawValue }
                    return nil
                }
            }
            var wrong: String?
            type = field(.type, String.self, into: &wrong)
            lat = field(.lat, Double.self, into: &wrong); lon = field(.lon, Double.self, into: &wrong)
            acc = field(.acc, Double.self, into: &wrong); batt = field(.batt, Double.self, into: &wrong)
            tst = field(.tst, Double.self, into: &wrong)
            event = field(.event, String.self, into: &wrong); desc = field(.desc, String.self, into: &wrong)
            wrongType = wrong
        }
    }

    /// Reads one posted body. `now` dates a fix that carries no `tst`.
    public static func message(_ body: Data, now: Date) throws -> Message {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .ignored("") }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: body) else {
            throw Invalid("the body must be one OwnTracks JSON object")
        }
        guard let type = payload.type else { throw Invalid("'_type' must be a string") }
        switch type {
        case "location":
            return .location(try fix(payload, now: now))
        case "transition":
            guard let said = payload.event, let event = Transition.Event(rawValue: said) else {
                throw Invalid("a transition's 'event' must be \"enter\" or \"leave\"")
            }
            let region = payload.desc?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return .transition(Transition(event: event, region: region, fix: try fix(payload, now: now)))
        default:
            return .ignored(type)
        }
    }

    static func fix(_ payload: Payload, now: Date) throws -> Fix {
        if let wrong = payload.wrongType { throw Invalid("'\(wrong)' has the wrong type") }
        guard let latitude = payload.lat, let longitude = payload.lon else { throw Invalid("'lat' and 'lon' must be numbers") }
        guard Geo.isValid(latitude: latitude, longitude: longitude) else {
            throw Invalid("'lat' must be from -90 to 90 and 'lon' from -180 to 180")
        }
        let accuracy = payload.acc ?? 0
        guard accuracy.isFinite, accuracy >= 0 else { throw Invalid("'acc' must be a distance in metres, 0 or more") }
        var battery: Int?
        if let level = payload.batt {
            guard level == level.rounded(), (0...100).contains(level) else { throw Invalid("'batt' must be a percentage from 0 to 100") }
            battery = Int(level)
        }
        var recordedAt = now
        if let seconds = payload.tst {
            guard seconds > 0, seconds < 1e11 else { throw Invalid("'tst' must be a Unix time in seconds") }
            recordedAt = Date(timeIntervalSince1970: seconds)
        }
        return Fix(latitude: latitude, longitude: longitude, accuracyMeters: accuracy, battery: battery, recordedAt: recordedAt)
    }

    /// Where Hearth puts a member for `message` (nil: nothing to report). A location is where it
    /// says. Entering a region named like a saved place is the place's centre, so Hearth's own
    /// geofence sees the arrival even when the app's region is drawn smaller or larger; leaving, and
    /// a region Hearth does not know, is the position the app sent.
    public static func location(of message: Message, member: MemberID, places: [Place]) -> MemberLocation? {
        switch message {
        case .ignored:
            return nil
        case .location(let fix):
            return MemberLocation(member: member, latitude: fix.latitude, longitude: fix.longitude, accuracyMeters: fix.accuracyMeters,
                                  battery: fix.battery, recordedAt: fix.recordedAt)
        case .transition(let transition):
            let fix = transition.fix
            if transition.event == .enter, let place = place(named: transition.region, among: places, for: member) {
                return MemberLocation(member: member, latitude: place.latitude, longitude: place.longitude, accuracyMeters: 0,
                                      battery: fix.battery, recordedAt: fix.recordedAt)
            }
            return MemberLocation(member: member, latitude: fix.latitude, longitude: fix.longitude, accuracyMeters: fix.accuracyMeters,
                                  battery: fix.battery, recordedAt: fix.recordedAt)
        }
    }

    /// The saved place a region's name names: same name, case and spacing aside ("school", "Home ");
    /// on `member`'s phone, "Work" is their own work when they have one ("Ben's work").
    public static func place(named region: String, among places: [Place], for member: MemberID? = nil) -> Place? {
        let key = folded(region)
        guard !key.isEmpty else { return nil }
        if let member, let own = places.first(where: { $0.owner == member && folded($0.baseName) == key }) { return own }
        return places.first { folded($0.name) == key }
    }

    static func folded(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    // MARK: Tracker IDs

    /// The two-character tracker ID the app shows for each member on its map: the initials of a
    /// name of several words ("Grandma Sue" → GS), else its first two letters (Emma → EM); a
    /// clash takes the first letter and the next letter or digit that makes it unique, in roster order.
    public static func trackerIDs(for members: [Member]) -> [MemberID: String] {
        var taken = Set<String>(), result: [MemberID: String] = [:]
        for member in members {
            let letters = member.name.uppercased().filter { $0.isLetter || $0.isNumber }.map(String.init)
            let words = member.name.uppercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            var candidates: [String] = []
            if words.count >= 2, let first = words[0].first, let second = words[1].first { candidates.append("\(first)\(second)") }
            if letters.count >= 2 { candidates.append(letters[0] + letters[1]) }
            if let first = letters.first { candidates += letters.dropFirst(2).map { first + $0 } }
            candidates += (0...9).map { "\(letters.first ?? "X")\($0)" }
            candidates += (0..<100).map { String(format: "%02d", $0) }
            let chosen = candidates.first { !taken.contains($0) } ?? member.id.rawValue
            taken.insert(chosen)
            result[member.id] = chosen
        }
        return result
    }

    // MARK: The friends reply

    /// One object of the reply array, encoded as OwnTracks expects.
    public struct Friend: Sendable, Equatable, Encodable {
        public var type: String
        public var tid: String
        public var topic: String
        public var name: String?
        public var lat: Double?
        public var lon: Double?
        public var acc: Int?
        public var batt: Int?
        public var tst: Int?

        enum CodingKeys: String, CodingKey { case type = "_type", tid, topic, name, lat, lon, acc, batt, tst }

        public init(type: String, tid: String, topic: String, name: String? = nil, lat: Double? = nil, lon: Double? = nil,
                    acc: Int? = nil, batt: Int? = nil, tst: Int? = nil) {
            self.type = type; self.tid = tid; self.topic = topic; self.name = name
            self.lat = lat; self.lon = lon; self.acc = acc; self.batt = batt; self.tst = tst
        }
    }

    /// The reply to a member's post: for every other member whose location `visible` holds (the
    /// caller filtered it by the sharing rules for this viewer), a `card` (their name) and their last
    /// `location`, in roster order. The topic ties the two together on iOS.
    public static func friends(visible: [MemberID: MemberLocation], viewer: MemberID, members: [Member]) -> [Friend] {
        let ids = trackerIDs(for: members)
        var reply: [Friend] = []
        for member in members where member.id != viewer {
            guard let location = visible[member.id], let tid = ids[member.id] else { continue }
            let topic = "owntracks/hearth/\(member.id.rawValue)"
            reply.append(Friend(type: "card", tid: tid, topic: topic, name: member.name))
            reply.append(Friend(type: "location", tid: tid, topic: topic, lat: location.latitude, lon: location.longitude,
                                acc: Int(location.accuracyMeters.rounded()), batt: location.battery,
                                tst: Int(location.recordedAt.timeIntervalSince1970)))
        }
        return reply
    }
}
