import Foundation
import XCTest
@testable import HearthDomain

/// Seed 000 §9 calendar tests 1–5 by name, plus the free-time and alternative-slot rules.
final class CalendarRulesTests: XCTestCase {
    let zone = TimeZone(identifier: "America/New_York")!
    lazy var calendar = Calendar.family(zone)
    let emma = MemberID("emma"), jake = MemberID("jake"), lisa = MemberID("lisa"), tom = MemberID("tom")

    func at(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    func event(_ title: String, _ start: String, _ end: String, _ attendees: [MemberID], location: String? = nil, allDay: Bool = false) -> CalendarOccurrence {
        CalendarOccurrence(CalendarEvent(id: EventID(title), title: title, start: at(start), end: at(end), isAllDay: allDay,
                                         location: location, attendees: attendees))
    }

    func testDetectDirectOverlapConflict() {
        let existing = event("Soccer practice", "2026-02-05 16:00", "2026-02-05 17:30", [emma])
        let new = event("Dentist", "2026-02-05 16:30", "2026-02-05 17:30", [emma])
        let conflicts = CalendarRules.detectConflicts(proposed: new, existing: [existing])
        XCTAssertEqual(conflicts.count, 1)
        XCTAssertEqual(conflicts.first?.conflictType, .directOverlap)
        XCTAssertEqual(conflicts.first?.severity, .high)
        XCTAssertEqual(conflicts.first?.affectedMembers, [emma])
    }

    func testNoConflictDifferentMembers() {
        let existing = event("Emma - Soccer", "2026-02-05 16:00", "2026-02-05 17:30", [emma])
        let new = event("Jake - Piano", "2026-02-05 16:00", "2026-02-05 17:00", [jake])
        XCTAssertEqual(CalendarRules.detectConflicts(proposed: new, existing: [existing]).count, 0)
    }

    func testBackToBackIsNotAnOverlap() {
        let existing = event("Soccer", "2026-02-05 15:30", "2026-02-05 17:00", [emma])
        let new = event("Dentist", "2026-02-05 17:00", "2026-02-05 18:00", [emma])
        XCTAssertTrue(CalendarRules.detectConflicts(proposed: new, existing: [existing]).isEmpty)
    }

    func testFindCommonFreeTime() {
        let busy = [DateInterval(start: at("2026-02-05 08:00"), end: at("2026-02-05 15:00"))]
        let window = DateInterval(start: at("2026-02-05 08:00"), end: at("2026-02-05 20:00"))
        let slots = CalendarRules.findCommonFreeTime(busy: busy, includesAdult: false, minimumMinutes: 60, window: window, calendar: calendar)
        XCTAssertGreaterThan(slots.count, 0)
        XCTAssertTrue(slots.contains { $0.start >= at("2026-02-05 15:00") })
        XCTAssertTrue(slots.allSatisfy { $0.start >= at("2026-02-05 15:00") && $0.durationMinutes == 60 })
    }

    /// "evenings next week": only those hours of each day are offered, on every day of the window.
    func testFreeTimeOnlyInTheHoursAskedOfEachDay() {
        let window = DateInterval(start: at("2026-02-09 00:00"), end: at("2026-02-16 00:00"))
        let busy = [DateInterval(start: at("2026-02-14 17:00"), end: at("2026-02-14 21:00"))]
        let slots = CalendarRules.findCommonFreeTime(busy: busy, includesAdult: true, minimumMinutes: 60, window: window,
                                                     calendar: calendar, dailyHours: 17..<21)
        XCTAssertFalse(slots.isEmpty)
        for slot in slots {
            let hour = calendar.component(.hour, from: slot.start)
            XCTAssertTrue((17..<21).contains(hour) && calendar.component(.hour, from: slot.end.addingTimeInterval(-1)) < 21, "\(slot.start)")
            XCTAssertFalse(calendar.isDate(slot.start, inSameDayAs: at("2026-02-14 12:00")), "Saturday evening is taken")
        }
        // Without the hours, the weekend's mornings come first.
        let any = CalendarRules.findCommonFreeTime(busy: busy, includesAdult: true, minimumMinutes: 60, window: window, calendar: calendar)
        XCTAssertTrue(any.contains { calendar.component(.hour, from: $0.start) < 17 })
    }

    func testTravelTimeConflict() {
        let meeting = event("Meeting downtown", "2026-02-05 14:00", "2026-02-05 15:00", [lisa], location: "123 Main St")
        let pickup = event("Pickup Emma", "2026-02-05 15:15", "2026-02-05 15:30", [lisa, emma], location: "456 School Rd")
        let conflicts = CalendarRules.detectConflicts(proposed: pickup, existing: [meeting]) { _, _ in 30 }
        XCTAssertEqual(conflicts.count, 1)
        XCTAssertEqual(conflicts.first?.conflictType, .travelTime)
        // Enough time to travel: no conflict.
        XCTAssertTrue(CalendarRules.detectConflicts(proposed: pickup, existing: [meeting]) { _, _ in 10 }.isEmpty)
    }

    /// "any clashes next week": each pair once, in order of time; a travel squeeze is one; a
    /// whole-day entry over the week's events and different people at the same time are none.
    func testClashesAmongTheWeeksEvents() {
        let soccer = event("Soccer practice", "2026-02-05 15:30", "2026-02-05 17:00", [emma])
        let dentist = event("Dentist", "2026-02-05 16:00", "2026-02-05 17:00", [emma, lisa])
        let piano = event("Piano", "2026-02-05 16:00", "2026-02-05 17:00", [jake])
        let meeting = event("Meeting downtown", "2026-02-06 14:00", "2026-02-06 15:00", [lisa], location: "123 Main St")
        let pickup = event("Pickup Emma", "2026-02-06 15:15", "2026-02-06 15:30", [lisa, emma], location: "456 School Rd")
        let away = event("Away", "2026-02-05 00:00", "2026-02-07 00:00", [lisa, tom, emma, jake], allDay: true)
        let clashes = CalendarRules.clashes(among: [pickup, piano, dentist, away, meeting, soccer]) { _, _ in 30 }
        XCTAssertEqual(clashes.map { [$0.earlier.event.title, $0.conflict.conflicting.event.title] },
                       [["Soccer practice", "Dentist"], ["Meeting downtown", "Pickup Emma"]])
        XCTAssertEqual(clashes.map(\.conflict.conflictType), [.directOverlap, .travelTime])
        XCTAssertEqual(clashes.first?.conflict.affectedMembers, [emma])
        // Time enough to travel, and nothing else overlapping: no clash.
        XCTAssertTrue(CalendarRules.clashes(among: [meeting, pickup, piano, away]) { _, _ in 10 }.isEmpty)
    }

    func testAllDayEvent() {
        let vacation = event("Family vacation", "2026-07-01 00:00", "2026-07-08 00:00", [lisa, tom, emma, jake], allDay: true)
        let doctor = event("Doctor appointment", "2026-07-03 10:00", "2026-07-03 11:00", [emma])
        let conflicts = CalendarRules.detectConflicts(proposed: doctor, existing: [vacation])
        XCTAssertEqual(conflicts.count, 1)
        XCTAssertEqual(conflicts.first?.severity, .medium)
    }

    func testFreeTimeExcludesSleepAndAdultWorkHours() {
        // Monday Feb 2 to Tuesday Feb 3, nobody busy, with an adult: only 07:00–09:00 and 17:00–22:00 remain.
        let window = DateInterval(start: at("2026-02-02 00:00"), end: at("2026-02-03 00:00"))
        let slots = CalendarRules.findCommonFreeTime(busy: [], includesAdult: true, minimumMinutes: 60, window: window, calendar: calendar, limit: 50)
        for slot in slots {
            let hour = calendar.component(.hour, from: slot.start)
            XCTAssertTrue((7..<9).contains(hour) || (17..<22).contains(hour), "slot at \(hour):00")
            XCTAssertLessThanOrEqual(slot.end, at("2026-02-02 22:00"))
        }
        XCTAssertEqual(slots.first?.score, 5, "evenings rank first on a weekday")
    }

    func testFreeTimeRanksWeekendsFirst() {
        let window = DateInterval(start: at("2026-02-06 00:00"), end: at("2026-02-09 00:00"))  // Fri–Sun
        let slots = CalendarRules.findCommonFreeTime(busy: [], includesAdult: true, minimumMinutes: 120, window: window, calendar: calendar)
        XCTAssertEqual(slots.count, 5)
        XCTAssertEqual(slots.first?.score, 15)  // weekend evening
        XCTAssertTrue(calendar.isDateInWeekend(slots[0].start))
        XCTAssertEqual(slots.map(\.score), slots.map(\.score).sorted(by: >))
    }

    func testAlternativesAreNearestFreeSlotsSameDayFirst() {
        let soccer = DateInterval(start: at("2026-02-05 15:30"), end: at("2026-02-05 17:00"))
        let requested = DateInterval(start: at("2026-02-05 16:00"), end: at("2026-02-05 17:00"))
        let slots = CalendarRules.nearestAlternatives(to: requested, busy: [soccer], calendar: calendar, notBefore: at("2026-02-02 09:00"))
        XCTAssertEqual(slots.map(\.start), [at("2026-02-05 17:00"), at("2026-02-05 14:30"), at("2026-02-06 16:00"), at("2026-02-07 16:00")])
    }

    func testOpenSlotsSpreadAcrossTheDay() {
        let slots = CalendarRules.openSlots(on: at("2026-02-06 00:00"), duration: 3600, busy: [], calendar: calendar, notBefore: at("2026-02-02 09:00"))
        XCTAssertEqual(slots.count, 5)
        XCTAssertEqual(slots.first?.start, at("2026-02-06 08:00"))
        XCTAssertTrue(slots.contains { $0.start == at("2026-02-06 10:00") })
        XCTAssertEqual(slots.last?.start, at("2026-02-06 19:00"))
    }

    func testSuggestedDurations() {
        XCTAssertEqual(CalendarRules.suggestedDurationMinutes(title: "dentist"), 60)
        XCTAssertEqual(CalendarRules.suggestedDurationMinutes(title: "Soccer practice"), 90)
        XCTAssertEqual(CalendarRules.suggestedDurationMinutes(title: "parent-teacher conference"), 30)
        XCTAssertEqual(CalendarRules.eventTitle(from: "dentist"), "Dentist appointment")
        XCTAssertEqual(CalendarRules.eventTitle(from: "piano lesson"), "Piano lesson")
    }

    /// An appointment is one day and time, never a stretch of days (issue 29: "book the kids in for
    /// flu jabs next month" made a month-long all-day event).
    func testAppointmentsAreAtATimeOnOneDay() {
        for title in ["dentist appointment", "flu jabs", "haircut", "car MOT", "parent teacher conference", "call with Grandma"] {
            XCTAssertTrue(CalendarRules.isAppointment(title: title), title)
        }
        for title in ["work trip", "away", "conference", "visiting", "soccer camp", "half term"] {
            XCTAssertFalse(CalendarRules.isAppointment(title: title), title)
        }
    }

    /// A placeholder's own name is the title (issue 29): what follows "called", or what a slot
    /// on the calendar is "for"; a real event's "for" stays part of its title.
    func testNamedTitle() {
        XCTAssertEqual(CalendarRules.namedTitle("meeting called budget review"), "budget review")
        XCTAssertEqual(CalendarRules.namedTitle("an event titled \"Sam's party\""), "Sam's party")
        // Going to it (issue 29: "can I go to Sam's party" booked "go to Sam's party").
        XCTAssertEqual(CalendarRules.namedTitle("go to Sam's party"), "Sam's party")
        XCTAssertEqual(CalendarRules.namedTitle("go to the school disco"), "school disco")
        XCTAssertEqual(CalendarRules.namedTitle("go to school"), "go to school")
        // Someone's event keeps its capital inside a sentence; a provider's or a parent's does not.
        XCTAssertTrue(CalendarRules.startsWithName("Sam's party"))
        XCTAssertFalse(CalendarRules.startsWithName("Doctor's appointment"))
        XCTAssertFalse(CalendarRules.startsWithName("Mom's birthday"))
        XCTAssertFalse(CalendarRules.startsWithName("Soccer practice"))
        // The name said after the time: only the name is left of the title.
        XCTAssertEqual(CalendarRules.namedTitle("titled book club"), "book club")
        XCTAssertEqual(CalendarRules.namedTitle("called the big game"), "big game")
        XCTAssertEqual(CalendarRules.namedTitle("called"), "called")
        XCTAssertEqual(CalendarRules.namedTitle("slot on my calendar for a haircut"), "haircut")
        XCTAssertEqual(CalendarRules.namedTitle("time in the diary for the school run"), "school run")
        XCTAssertEqual(CalendarRules.namedTitle("meeting for the school board"), "meeting for the school board")
        XCTAssertEqual(CalendarRules.namedTitle("appointment for Emma"), "appointment for Emma")
        XCTAssertEqual(CalendarRules.namedTitle("dinner called off"), "dinner called off", "only a placeholder is renamed")
        XCTAssertEqual(CalendarRules.namedTitle("event called"), "event called", "nothing after 'called'")
        XCTAssertEqual(CalendarRules.namedTitle("dentist"), "dentist")
        // A thing's own appointment said as news: the thing and what it needs or has.
        XCTAssertEqual(CalendarRules.namedTitle("car needs servicing"), "car servicing")
        XCTAssertEqual(CalendarRules.namedTitle("the car needs an oil change"), "car oil change")
        XCTAssertEqual(CalendarRules.namedTitle("dog has a vet appointment"), "dog's vet appointment")
        XCTAssertEqual(CalendarRules.namedTitle("our boiler is due for its service"), "boiler service")
        XCTAssertEqual(CalendarRules.namedTitle("dinner needs to be moved"), "dinner needs to be moved")
        XCTAssertEqual(CalendarRules.namedTitle("meeting has been moved"), "meeting has been moved")
        XCTAssertEqual(CalendarRules.namedTitle("birthday party"), "birthday party")
    }

    func testFormatTimeSlot() {
        let formatter = TimeFormatter(calendar: calendar, now: at("2026-02-02 09:00"))
        let slot = TimeSlot(start: at("2026-02-07 14:00"), end: at("2026-02-07 16:00"))
        XCTAssertEqual(formatter.slot(slot), "Saturday, Feb 7 from 2:00 PM to 4:00 PM")
        XCTAssertEqual(formatter.timeRange(at("2026-02-05 15:30"), at("2026-02-05 17:00")), "3:30 to 5:00 PM")
        XCTAssertEqual(formatter.dayAndTime(at("2026-02-05 16:00"), spoken: true), "Thursday, February 5th at 4 PM")
    }

    /// Display dates inside written text read aloud: "Feb 6" → "February 6th"; a clock time stays.
    func testSpokenDatesInText() {
        let formatter = TimeFormatter(calendar: calendar, now: at("2026-02-02 09:00"))
        XCTAssertEqual(formatter.spokenDates(in: "Lisa moved Dentist to Friday, Feb 6 at 2:00 PM"), "Lisa moved Dentist to Friday, February 6th at 2:00 PM")
        XCTAssertEqual(formatter.spokenDates(in: "away from Aug 1 to Aug 22"), "away from August 1st to August 22nd")
        XCTAssertEqual(formatter.spokenDates(in: "Febby 6"), "Febby 6")
    }

    /// A meal's open times are at its hours, on the half hour; otherwise the day's, on the hour.
    func testOpenSlotsAtAMealsHours() {
        let day = at("2026-02-08 00:00")
        let busy = [DateInterval(start: at("2026-02-08 18:30"), end: at("2026-02-08 19:00"))]
        let dinner = CalendarRules.openSlots(on: day, duration: 5400, busy: busy, calendar: calendar, notBefore: at("2026-02-02 09:00"),
                                             startHours: 18..<20)
        XCTAssertEqual(dinner.map(\.start), [at("2026-02-08 19:00"), at("2026-02-08 19:30")])
        let any = CalendarRules.openSlots(on: day, duration: 3600, busy: busy, calendar: calendar, notBefore: at("2026-02-02 09:00"))
        XCTAssertEqual(any.first?.start, at("2026-02-08 08:00"))
    }

    /// A school holiday asked about by name ("spring break", "the next school holiday"), not an event.
    func testSchoolHolidaysAreToldFromEvents() {
        XCTAssertTrue(CalendarRules.namesSchoolHoliday("school holiday"))
        XCTAssertTrue(CalendarRules.namesSchoolHoliday("spring break"))
        XCTAssertTrue(CalendarRules.namesSchoolHoliday("half term"))
        XCTAssertFalse(CalendarRules.namesSchoolHoliday("holiday party"))
        XCTAssertFalse(CalendarRules.namesSchoolHoliday("family holiday"))
        XCTAssertEqual(CalendarRules.schoolHolidayWords("the next school holiday"), [])
        XCTAssertEqual(CalendarRules.schoolHolidayWords("spring break"), ["spring"])
        XCTAssertEqual(CalendarRules.schoolHolidayWords("Christmas holidays"), ["christmas", "winter"])
    }

    /// A birthday, an anniversary, a holiday fills the day when no time is said; a party does not.
    func testWholeDayKinds() {
        XCTAssertTrue(CalendarRules.isWholeDay(title: "Birthday"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "Grandma's birthday"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "wedding anniversary"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "Tom's day off"))
        XCTAssertFalse(CalendarRules.isWholeDay(title: "birthday party"), "a party has a time")
        XCTAssertFalse(CalendarRules.isWholeDay(title: "dentist"))
        // A day of its own kind (issue 29: "the kids have a half day on Friday" offered times to book it).
        XCTAssertTrue(CalendarRules.isWholeDay(title: "half day"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "sports day"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "day off school"))
        XCTAssertFalse(CalendarRules.isWholeDay(title: "day trip planning meeting"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "sleeping over at Sam's"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "flying to Denver"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "science project due"))
        // Someone coming to stay (issue 29: "Grandma is visiting on Saturday" offered times to book it).
        XCTAssertTrue(CalendarRules.isWholeDay(title: "visiting"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "coming to stay"))
        XCTAssertFalse(CalendarRules.isWholeDay(title: "visiting hours at the hospital"))
        // Away for the day or the night (issue 29), and time held with no name.
        XCTAssertTrue(CalendarRules.isWholeDay(title: "field trip"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "soccer camp"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "sleepover"))
        XCTAssertTrue(CalendarRules.isWholeDay(title: "Busy"))
        XCTAssertFalse(CalendarRules.isWholeDay(title: "trip planning meeting"))
    }
}

final class ISO8601Tests: XCTestCase {
    func testMatchesFoundationAcrossZonesAndDates() {
        let reference = ISO8601DateFormatter()
        for zoneName in ["America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC", "America/St_Johns"] {
            let zone = TimeZone(identifier: zoneName)!
            reference.timeZone = zone
            for seconds in stride(from: 0.0, to: 4_000_000_000.0, by: 7_654_321.5) {  // 1970–2096
                let date = Date(timeIntervalSince1970: seconds)
                var expected = reference.string(from: date)
                if expected.hasSuffix("Z") { expected = String(expected.dropLast()) + "+00:00" }
                XCTAssertEqual(ISO8601.string(date, in: zone), expected, "\(zoneName) \(seconds)")
            }
        }
    }
}
