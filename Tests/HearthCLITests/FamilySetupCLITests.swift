import Foundation
import XCTest

/// Issue 9's done-when, from an empty database file: `hearth init --owner --tz`, a family of four
/// (two parents, a child, a viewer), a home and a school, then using it: a booking, a where-is, a
/// refusal for the child and for the viewer, a co-parent allowed. Then bad input, removal and
/// deleting the family.
final class FamilySetupCLITests: XCTestCase {
    @discardableResult
    func run(_ arguments: [String], status expected: Int32 = 0, line: UInt = #line) throws -> (String, String) {
        try ICalendarCLITests.hearth(arguments, status: expected, line: line)
    }

    func testSetUpAFamilyOfFourAndUseIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-family-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        let at = ["--db", db, "--now", "2026-03-02T08:00:00+00:00"]

        // No terminal and no flags: a clear error, nothing created.
        let (_, noTTY) = try run(["init", "--db", db], status: 1)
        XCTAssertEqual(noTTY, "hearth: no terminal to ask on: give --owner NAME --tz ZONE (or --demo for the demo family)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        let (_, noZone) = try run(["init", "--owner", "Priya"] + at, status: 1)
        XCTAssertEqual(noZone, "hearth: --tz: the family's time zone is needed, e.g. --tz America/New_York\n")
        let (_, badZone) = try run(["init", "--owner", "Priya", "--tz", "Mars/Olympus"] + at, status: 64)
        XCTAssertTrue(badZone.contains("unknown time zone 'Mars/Olympus'"), badZone)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))

        let (created, _) = try run(["init", "--owner", "Priya", "--tz", "Europe/London"] + at)
        XCTAssertTrue(created.contains("owned by Priya"), created)
        // Every command names who is acting: a new family has no household device.
        var priya = ["--as", "Priya"]
        let (_, nobody) = try run(["member", "list"] + at, status: 1)
        XCTAssertTrue(nobody.hasPrefix("hearth: who is acting? Add --as NAME"), nobody)
        try run(["member", "add", "Sam", "--role", "co-parent", "--alias", "dad"] + at + priya)
        try run(["member", "add", "Leo", "--child", "--age", "9"] + at + priya)
        try run(["member", "add", "Grandma Rose", "--role", "viewer", "--alias", "grandma", "--word", "mum", "--for", "Sam"] + at + priya)
        let (list, _) = try run(["member", "list"] + at + priya)
        XCTAssertEqual(list, """
            Priya: the owner
            Sam: a co-parent (also dad)
            Leo: a child, age 9
            Grandma Rose: a viewer (also grandma) [mum for Sam], lives elsewhere

            """)
        try run(["place", "add", "Home", "51.5007", "-0.1246"] + at + priya)
        try run(["place", "add", "School", "51.5033", "-0.1196", "--radius", "200"] + at + priya)
        let (places, _) = try run(["place", "list"] + at + priya)
        XCTAssertEqual(places, "Home: 51.5007, -0.1246, radius 150 m\nSchool: 51.5033, -0.1196, radius 200 m\n")
        // A time phrase is read in this family's zone, not the demo family's New York.
        let (resolved, _) = try run(["resolve", "tomorrow at 4pm"] + at + priya)
        XCTAssertEqual(resolved, "instant  start 2026-03-03T16:00:00+00:00\n")

        // Bad input: clear errors, nothing changed.
        let (_, role) = try run(["member", "add", "Zed", "--role", "boss"] + at + priya, status: 1)
        XCTAssertEqual(role, "hearth: --role: unknown role 'boss' (use owner, co-parent, member, viewer or child)\n")
        let (_, duplicate) = try run(["member", "add", "leo", "--child"] + at + priya, status: 1)
        XCTAssertEqual(duplicate, "hearth: Leo is already in the family, and nothing of theirs was changed. To change them, use `hearth member edit \"Leo\"` (--role, --age, --alias, --word/--for, --tz, --lives-in, --rename).\n")
        let (_, coordinates) = try run(["place", "add", "Moon", "95", "0"] + at + priya, status: 1)
        XCTAssertEqual(coordinates, "hearth: latitude: '95' is not a latitude (use -90 to 90)\n")
        let (_, childAdds) = try run(["member", "add", "Kim", "--role", "viewer", "--as", "Leo"] + at, status: 1)
        XCTAssertEqual(childAdds, "hearth: Only a parent can add someone to the family.\n")

        // Using it: a booking by the owner, a where-is, refusals, a co-parent allowed.
        let (booked, _) = try run(["say", "--as", "Priya", "schedule Leo for the dentist on Thursday at 4pm"] + at)
        XCTAssertTrue(booked.contains("dentist"), booked)
        try run(["location", "update", "--member", "Leo", "--lat", "51.5033", "--lon", "-0.1196", "--battery", "80"] + at + priya)
        let (whereIs, _) = try run(["say", "--as", "Sam", "where is Leo"] + at)
        XCTAssertTrue(whereIs.hasPrefix("Leo is at school"), whereIs)
        // The child has a PIN, and this family's front ends require it.
        try run(["pin", "set", "Leo", "2468", "--as", "Priya"] + at)
        try run(["pin", "set", "Priya", "1357", "--as", "Priya"] + at)
        try run(["pin", "set", "Sam", "8642", "--as", "Sam"] + at)
        try run(["pin", "require", "on", "--as", "Priya", "--pin", "1357"] + at)
        priya += ["--pin", "1357"]  // managing the family now needs the owner's PIN
        let (noPIN, _) = try run(["say", "--as", "Leo", "give me 100 points"] + at)
        XCTAssertEqual(noPIN, "Leo needs to sign in with a PIN first.\n")
        let (childRefused, _) = try run(["say", "--as", "Leo", "--pin", "2468", "give me 100 points"] + at)
        XCTAssertEqual(childRefused, "Only a parent can give or take away points.\n")
        let (viewerRefused, _) = try run(["say", "--as", "Grandma Rose", "cancel Leo's dentist appointment"] + at)
        XCTAssertEqual(viewerRefused, "Grandma Rose can view the calendar but not change it.\n")
        let (coParent, _) = try run(["say", "--as", "dad", "--pin", "8642", "give Leo 5 points for tidying up"] + at)
        XCTAssertTrue(coParent.contains("5"), coParent)
        let (activity, _) = try run(["say", "--as", "Priya", "--pin", "1357", "what did Sam change today"] + at)
        XCTAssertTrue(activity.contains("Sam gave Leo 5 points"), activity)

        // Removing needs --yes; the owner can't be removed; deleting the family removes the file.
        let (_, unconfirmed) = try run(["member", "remove", "Grandma Rose"] + at + priya, status: 1)
        XCTAssertTrue(unconfirmed.contains("add --yes"), unconfirmed)
        let (_, owner) = try run(["member", "remove", "Priya", "--yes", "--as", "Sam", "--pin", "8642"] + at, status: 1)
        XCTAssertEqual(owner, "hearth: Priya owns the family and can't be removed.\n")
        try run(["member", "remove", "Grandma Rose", "--yes"] + at + priya)
        let (after, _) = try run(["member", "list"] + at + priya)
        XCTAssertFalse(after.contains("Rose"), after)
        let (_, coParentDeletes) = try run(["family", "delete", "--yes", "--as", "Sam", "--pin", "8642"] + at, status: 1)
        XCTAssertEqual(coParentDeletes, "hearth: Only the family's owner can delete the family.\n")
        try run(["family", "delete", "--yes"] + at + priya)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
    }

    /// Issue 32: a member's own place, added as "Ben's work" or `work --owner Ben`, is one place with
    /// its owner; a name with an apostrophe that names nobody stays the family's; the place follows a
    /// rename and goes with its owner.
    func testPlacesOfTheirOwn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-own-places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        let at = ["--db", db, "--now", "2026-03-02T08:00:00+00:00"], ada = ["--as", "Ada"]
        try run(["init", "--owner", "Ada", "--tz", "Europe/London"] + at)
        try run(["member", "add", "Ben", "--role", "co-parent"] + at + ada)
        try run(["member", "add", "Max", "--child", "--age", "8"] + at + ada)
        let (bens, _) = try run(["place", "add", "Ben's work", "51.5155", "-0.0922"] + at + ada)
        XCTAssertEqual(bens, "Added the place Ben's work.\n")
        let (_, again) = try run(["place", "add", "Work", "51.5", "-0.1", "--owner", "ben"] + at + ada, status: 1)
        XCTAssertEqual(again, "hearth: There's already a place called Ben's work.\n")
        let (adas, _) = try run(["place", "add", "Work", "51.5033", "-0.1196", "--owner", "Ada"] + at + ada)
        XCTAssertEqual(adas, "Added the place Ada's work.\n")
        let (_, nobody) = try run(["place", "add", "gym", "51.5", "-0.1", "--owner", "Zed"] + at + ada, status: 1)
        XCTAssertEqual(nobody, "hearth: There's no Zed in the family.\n")
        try run(["place", "add", "St. Mary's School", "51.49", "-0.14"] + at + ada)
        try run(["place", "add", "Max's school", "51.495", "-0.145"] + at + ada)
        try run(["member", "edit", "Ben", "--rename", "Benjamin"] + at + ada)
        let (list, _) = try run(["place", "list"] + at + ada)
        XCTAssertTrue(list.contains("Benjamin's work:"), list)
        XCTAssertFalse(list.contains("Ben's work"), list)
        let export = directory.appendingPathComponent("export.json").path
        try run(["export", "json", "--out", export] + at + ada)
        let json = try String(contentsOfFile: export, encoding: .utf8)
        XCTAssertTrue(json.contains("owner_id"), "the owner is in the export")
        try run(["member", "remove", "Max", "--yes"] + at + ada)
        let (after, _) = try run(["place", "list"] + at + ada)
        XCTAssertFalse(after.contains("Max"), after)
        XCTAssertTrue(after.contains("St. Mary's School:"), after)
    }

    /// Seed 001 "notify other parents": a parent's change to a member reaches the other parent
    /// (`hearth notifications`), and each parent turns it off for themself with
    /// `member edit --parent-updates off`; nobody sets it for someone else, a child not at all.
    func testOtherParentsAreToldAndMayTurnItOff() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-parent-updates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        let at = ["--db", db, "--now", "2026-03-02T08:00:00+00:00"]
        try run(["init", "--owner", "Ada", "--tz", "Europe/London"] + at)
        try run(["member", "add", "Ben", "--role", "co-parent"] + at + ["--as", "Ada"])
        try run(["member", "add", "Max", "--child", "--age", "8"] + at + ["--as", "Ada"])
        try run(["member", "edit", "Max", "--age", "9"] + at + ["--as", "Ada"])
        let (told, _) = try run(["notifications"] + at + ["--as", "Ben"])
        XCTAssertTrue(told.contains("Ada set Max's age to 9."), told)
        XCTAssertTrue(told.contains("Ada added Max as a child"), told)

        let (_, forSomeoneElse) = try run(["member", "edit", "Ben", "--parent-updates", "off"] + at + ["--as", "Ada"], status: 1)
        XCTAssertEqual(forSomeoneElse, "hearth: Whether Ben is told of the other parents' changes is Ben's own choice.\n")
        let (_, child) = try run(["member", "edit", "Max", "--parent-updates", "off"] + at + ["--as", "Max"], status: 1)
        XCTAssertEqual(child, "hearth: Only the parents are told of each other's changes.\n")
        let (_, notOnOff) = try run(["member", "edit", "Ben", "--parent-updates", "later"] + at + ["--as", "Ben"], status: 64)
        XCTAssertTrue(notOnOff.contains("--parent-updates: say on or off"), notOnOff)
        let (off, _) = try run(["member", "edit", "Ben", "--parent-updates", "off"] + at + ["--as", "Ben"])
        XCTAssertTrue(off.hasPrefix("OK. I won't tell you when another parent changes"), off)
        try run(["member", "edit", "Max", "--age", "10"] + at + ["--as", "Ada"])
        let (quiet, _) = try run(["notifications"] + at + ["--as", "Ben"])
        XCTAssertFalse(quiet.contains("age to 10"), quiet)
        // Ben's own changes still reach Ada.
        try run(["member", "edit", "Max", "--alias", "maxi"] + at + ["--as", "Ben"])
        let (ada, _) = try run(["notifications"] + at + ["--as", "Ada"])
        XCTAssertTrue(ada.contains("Ben added maxi as the family's word for Max."), ada)
    }

    /// Issue 32: a parent who books a child's lesson is reminded of it only after
    /// `member edit --booked-reminders on`, their own choice (the door refuses it for someone else).
    func testABookingParentIsRemindedOnlyWhenTheyChose() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-booked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        let at = ["--db", db, "--now", "2026-03-02T08:00:00+00:00"]
        try run(["init", "--owner", "Ada", "--tz", "Europe/London"] + at)
        try run(["member", "add", "Ben", "--role", "co-parent"] + at + ["--as", "Ada"])
        try run(["member", "add", "Max", "--child", "--age", "8"] + at + ["--as", "Ada"])
        let (before, _) = try run(["say", "Max has a swimming lesson on Wednesday at 5pm"] + at + ["--as", "Ada"])
        XCTAssertTrue(before.contains("Max will receive a reminder"), before)
        let (_, forSomeoneElse) = try run(["member", "edit", "Ada", "--booked-reminders", "on"] + at + ["--as", "Ben"], status: 1)
        XCTAssertEqual(forSomeoneElse, "hearth: Whether Ada is reminded of the events they book is Ada's own choice.\n")
        let (_, notOnOff) = try run(["member", "edit", "Ada", "--booked-reminders", "sometimes"] + at + ["--as", "Ada"], status: 64)
        XCTAssertTrue(notOnOff.contains("--booked-reminders: say on or off"), notOnOff)
        let (on, _) = try run(["member", "edit", "Ada", "--booked-reminders", "on"] + at + ["--as", "Ada"])
        XCTAssertTrue(on.hasPrefix("OK. I'll also remind you of the events you book for others"), on)
        let (after, _) = try run(["say", "Max has a guitar lesson on Thursday at 5pm"] + at + ["--as", "Ada"])
        XCTAssertTrue(after.contains("Both you and Max will receive a reminder"), after)
        // Ben did not choose it: his booking reminds Max alone.
        let (bens, _) = try run(["say", "Max has a piano lesson on Friday at 5pm"] + at + ["--as", "Ben"])
        XCTAssertTrue(bens.contains(" Max will receive a reminder"), bens)
    }

    /// Issue 32: every member field changed with `hearth member edit`, through the door and the table;
    /// `member add --tz` keeps the home zone (in the JSON export); adding someone again changes nothing.
    func testEditEveryMemberField() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-member-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        let at = ["--db", db, "--now", "2026-03-02T08:00:00+00:00"]
        let ada = ["--as", "Ada"]
        try run(["init", "--owner", "Ada", "--tz", "Europe/London"] + at)
        try run(["member", "add", "Ben", "--role", "co-parent"] + at + ada)
        try run(["member", "add", "Max", "--child", "--age", "8"] + at + ada)
        let (added, _) = try run(["member", "add", "Grandpa Joe", "--role", "viewer", "--tz", "America/Chicago"] + at + ada)
        XCTAssertEqual(added, "Added Grandpa Joe as a viewer, on America/Chicago time.\n")
        let export = directory.appendingPathComponent("export.json").path
        try run(["export", "json", "--out", export] + at + ada)
        XCTAssertTrue(try String(contentsOfFile: export, encoding: .utf8).contains("America/Chicago"), "the home zone is in the export")

        // Adding Max again is refused and Max keeps his age.
        try run(["member", "add", "max", "--child", "--age", "3"] + at + ada, status: 1)
        // A role is the owner's; details a parent's; a child's own word the child's.
        let (_, coParent) = try run(["member", "edit", "Max", "--role", "viewer", "--as", "Ben"] + at, status: 1)
        XCTAssertEqual(coParent, "hearth: Only the family's owner can change someone's role.\n")
        let (made, _) = try run(["member", "edit", "Ben", "--role", "viewer"] + at + ada)
        XCTAssertEqual(made, "Made Ben a viewer.\n")
        // "We" and "the family" are the household: a new role keeps Ben in it, a parent can say he lives elsewhere.
        let (away, _) = try run(["member", "edit", "Ben", "--lives-here", "no"] + at + ada)
        XCTAssertEqual(away, "Set Ben as living elsewhere.\n")
        let (_, notYesNo) = try run(["member", "edit", "Ben", "--lives-here", "sometimes"] + at + ada, status: 64)
        XCTAssertTrue(notYesNo.contains("--lives-here: say yes or no"), notYesNo)
        let (details, _) = try run(["member", "edit", "Max", "--age", "9", "--rename", "Maxwell", "--alias", "maxi"] + at + ada)
        XCTAssertEqual(details, "Renamed Max to Maxwell.\nSet Maxwell's age to 9.\nAdded maxi as the family's word for Maxwell.\n")
        let (moved, _) = try run(["member", "edit", "Grandpa Joe", "--lives-in", "Lisbon"] + at + ada)
        XCTAssertEqual(moved, "Set Grandpa Joe's time zone to Europe/Lisbon.\n")
        let (_, unknownPlace) = try run(["member", "edit", "Grandpa Joe", "--lives-in", "Springfield"] + at + ada, status: 1)
        XCTAssertTrue(unknownPlace.contains("no time zone known for 'Springfield'"), unknownPlace)
        let (word, _) = try run(["member", "edit", "Ada", "--word", "mum", "--for", "Maxwell", "--as", "Maxwell"] + at)
        XCTAssertEqual(word, "Added mum as Maxwell's word for Ada.\n")
        try run(["member", "edit", "Ada", "--word", "mum", "--for", "Ben", "--as", "Maxwell"] + at, status: 1)
        let (list, _) = try run(["member", "list"] + at + ada)
        XCTAssertEqual(list, """
            Ada: the owner [mum for Maxwell]
            Ben: a viewer, lives elsewhere
            Maxwell: a child, age 9 (also maxi)
            Grandpa Joe: a viewer, on Europe/Lisbon time, lives elsewhere

            """)
        // Maxwell's "mum" is Ada in his requests.
        let (sent, _) = try run(["say", "--as", "Maxwell", "tell mum I'm at my friend's house"] + at)
        XCTAssertTrue(sent.hasPrefix("I've sent your message to Ada"), sent)
    }
}
