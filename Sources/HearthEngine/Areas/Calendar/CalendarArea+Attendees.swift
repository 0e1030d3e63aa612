import Foundation
import HearthDomain
import HearthGrammar

/// Someone named for a new event who is not in the family: "add dentist for Bob thursday at 3",
/// "schedule Bob for the dentist". Hearth says so and asks who it is for, the members as options,
/// rather than booking nobody or making "dentist for Bob" the title of an event for no one.
struct UnknownAttendee: Equatable {
    /// As said, capitalised: "Bob".
    var name: String
    /// The title without "for Bob" ("dentist"); with "with Bob" it stays ("lunch with Bob").
    var title: String

    /// "There's no Bob in the family."
    var sentence: String { "There's no \(name) in the family." }

    /// Finds a person named after "for" or "with" at the end of a title that names no member.
    /// Typed words are name-like when capitalised in a sentence that is not all capitals or all
    /// title case ("dinner for Two" is no one); spoken words (all lowercase) only when they are one
    /// letter away from a member's name ("for jak"), since "lunch with clients" and "dinner for
    /// two" must stay titles.
    static func find(inTitle said: String, utterance: String, roster: Roster) -> UnknownAttendee? {
        let words = said.split(separator: " ").map(String.init)
        guard words.count >= 3 else { return nil }
        let sentenceCase = utterance.split(separator: " ").contains { $0.first?.isLowercase == true }
            && utterance.split(separator: " ").contains { $0.first?.isUppercase == true }
        for link in [words.count - 2, words.count - 3] where link >= 1 {
            let connector = words[link].lowercased()
            guard connector == "for" || connector == "with" else { continue }
            let person = Array(words[(link + 1)...])
            let letters = person.allSatisfy { $0.allSatisfy { $0.isLetter || $0 == "'" || $0 == "-" } }
            guard letters, person.allSatisfy({ roster.member(named: $0) == nil }),
                  !Normalizer.normalize(person.joined(separator: " ")).text.contains(where: \.isNumber) else { continue }
            let capitalised = sentenceCase && person.allSatisfy { $0.first?.isUppercase == true }
            let misheard = person.count == 1 && nearMember(person[0].lowercased(), roster: roster)
            guard capitalised || misheard else { continue }
            let name = person.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
            let title = connector == "for" ? words[..<link].joined(separator: " ") : said
            return UnknownAttendee(name: name, title: SlotResolver.cleanText(title))
        }
        return nil
    }

    /// One letter off a member's name or alias of four letters or more ("jak", "emmma", "grandmaa").
    static func nearMember(_ word: String, roster: Roster) -> Bool {
        guard word.count >= 3 else { return false }
        return roster.nameVocabulary.contains { $0.count >= 4 && !$0.contains(" ") && $0 != word && editDistance($0, word) <= 1 }
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
