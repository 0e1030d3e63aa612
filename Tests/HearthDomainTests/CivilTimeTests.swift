import Foundation
import XCTest
import HearthDomain

/// `CivilTime` (zone offset + civil-date arithmetic) against Foundation's Calendar, across DST
/// changes, leap days, negative offsets and half-hour zones, on a fixed spread of instants.
final class CivilTimeTests: XCTestCase {
    func testAgreesWithFoundationsCalendar() throws {
        let zones = ["America/New_York", "Europe/London", "Australia/Adelaide", "Asia/Kolkata", "Pacific/Chatham", "UTC"]
            .map { TimeZone(identifier: $0)! }
        var instants: [Date] = []
        // Every 433 minutes through 2024–2027 (a leap day, eight DST changes a zone), plus the
        // seconds either side of New York's 2026 changes and the epoch.
        var time = ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z")!.timeIntervalSince1970
        while time < ISO8601DateFormatter().date(from: "2028-01-01T00:00:00Z")!.timeIntervalSince1970 {
            instants.append(Date(timeIntervalSince1970: time))
            time += 433 * 60
        }
        instants += ["2026-03-08T06:59:59Z", "2026-03-08T07:00:00Z", "2026-11-01T05:59:59Z", "2026-11-01T06:00:00Z"]
            .map { ISO8601DateFormatter().date(from: $0)! }
        instants += [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: -86_400 * 365 * 30)]
        for zone in zones {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let epochDay = calendar.startOfDay(for: Date(timeIntervalSince1970: 0))
            for instant in instants {
                let civil = CivilTime(instant, in: zone)
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: instant)
                let expected = [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second, parts.weekday.map { $0 - 1 }]
                let actual: [Int?] = [civil.year, civil.month, civil.day, civil.hour, civil.minute, civil.second, civil.weekday]
                XCTAssertEqual(actual, expected, "\(instant) in \(zone.identifier)")
                let days = calendar.dateComponents([.day], from: epochDay, to: calendar.startOfDay(for: instant)).day
                XCTAssertEqual(civil.dayNumber - CivilTime(epochDay, in: zone).dayNumber, days, "\(instant) in \(zone.identifier)")
                if actual != expected { return }
            }
        }
    }
}
