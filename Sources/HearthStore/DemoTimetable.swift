import Foundation
import HearthDomain

// Emma's two-week school timetable for the demo family (SPEC §5), in seed 002's CSV format. The
// demo loads it through the same reader as `hearth timetable import` (`TimetableRules.parseCSV`),
// so the demo exercises the importer. The timetable starts with week 1 on Monday, Feb 9, 2026 (a new
// timetable for the second half of the term), so the demo stories of the week before it (seed 000's
// dentist on Friday at 10 AM) keep their open school-day times; from Feb 9 on, Emma's lessons are
// busy time. The bells are the default ones (`TimetableRules.defaultBells`).
extension DemoFamily {
    public static let timetableWeek1Start = "2026-02-09"

    public static let emmaTimetableCSV = """
Week,Day,Period,Subject,Teacher,Room
1,Monday,AM Registration,KCO,,Room 512
1,Monday,1,English Lang,BBR,Room 053
1,Monday,2,History,ERE,Room 417
1,Monday,3,PE,MRO,Room 7
1,Monday,4,Computer Sc,ALW,Room 247
1,Monday,PM Registration,KCO,,Room 512
1,Monday,5,Mathematics,KDN,Room 113
1,Tuesday,AM Registration,KCO,,Room 512
1,Tuesday,1,Science,HPT,Lab 2
1,Tuesday,2,Mathematics,KDN,Room 113
1,Tuesday,3,French,CDU,Room 318
1,Tuesday,4,Geography,SMA,Room 415
1,Tuesday,PM Registration,KCO,,Room 512
1,Tuesday,5,English Lit,BBR,Room 053
1,Wednesday,AM Registration,KCO,,Room 512
1,Wednesday,1,Mathematics,KDN,Room 113
1,Wednesday,2,English Lang,BBR,Room 053
1,Wednesday,3,Art,LGR,Art Studio
1,Wednesday,4,Art,LGR,Art Studio
1,Wednesday,PM Registration,KCO,,Room 512
1,Wednesday,5,Science,HPT,Lab 2
1,Thursday,AM Registration,KCO,,Room 512
1,Thursday,1,French,CDU,Room 318
1,Thursday,2,Science,HPT,Lab 2
1,Thursday,3,History,ERE,Room 417
1,Thursday,4,Mathematics,KDN,Room 113
1,Thursday,PM Registration,KCO,,Room 512
1,Thursday,5,Music,JWE,Music Room
1,Friday,AM Registration,KCO,,Room 512
1,Friday,1,Geography,SMA,Room 415
1,Friday,2,English Lang,BBR,Room 053
1,Friday,3,Mathematics,KDN,Room 113
1,Friday,4,Drama,NPA,Drama Studio
1,Friday,PM Registration,KCO,,Room 512
1,Friday,5,PE,MRO,Room 7
2,Monday,AM Registration,KCO,,Room 512
2,Monday,1,Mathematics,KDN,Room 113
2,Monday,2,Science,HPT,Lab 2
2,Monday,3,English Lang,BBR,Room 053
2,Monday,4,History,ERE,Room 417
2,Monday,PM Registration,KCO,,Room 512
2,Monday,5,French,CDU,Room 318
2,Tuesday,AM Registration,KCO,,Room 512
2,Tuesday,1,English Lit,BBR,Room 053
2,Tuesday,2,Mathematics,KDN,Room 113
2,Tuesday,3,PE,MRO,Room 7
2,Tuesday,4,PE,MRO,Room 7
2,Tuesday,PM Registration,KCO,,Room 512
2,Tuesday,5,Computer Sc,ALW,Room 247
2,Wednesday,AM Registration,KCO,,Room 512
2,Wednesday,1,Science,HPT,Lab 2
2,Wednesday,2,Geography,SMA,Room 415
2,Wednesday,3,Mathematics,KDN,Room 113
2,Wednesday,4,English Lang,BBR,Room 053
2,Wednesday,PM Registration,KCO,,Room 512
2,Wednesday,5,Music,JWE,Music Room
2,Thursday,AM Registration,KCO,,Room 512
2,Thursday,1,History,ERE,Room 417
2,Thursday,2,French,CDU,Room 318
2,Thursday,3,Science,HPT,Lab 2
2,Thursday,4,Drama,NPA,Drama Studio
2,Thursday,PM Registration,KCO,,Room 512
2,Thursday,5,Mathematics,KDN,Room 113
2,Friday,AM Registration,KCO,,Room 512
2,Friday,1,Art,LGR,Art Studio
2,Friday,2,Art,LGR,Art Studio
2,Friday,3,English Lang,BBR,Room 053
2,Friday,4,Mathematics,KDN,Room 113
2,Friday,PM Registration,KCO,,Room 512
2,Friday,5,Geography,SMA,Room 415
"""

    static func installTimetable(_ writer: StoreWriter, now: Date) throws {
        let csv = try TimetableRules.parseCSV(Data(emmaTimetableCSV.utf8))
        try writer.ensureTimetableSchool("School", week1Start: timetableWeek1Start, replaceStart: false, at: now)
        try writer.replaceTimetable(of: MemberID("emma"), school: "School", entries: csv.entries, at: now, by: MemberID("lisa"))
    }
}
