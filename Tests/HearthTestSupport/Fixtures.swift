import Foundation

/// Test data more than one test target reads.
public enum SharedFixtures {
    /// The repository root (this file is Tests/HearthTestSupport/Fixtures.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// Every request in Tests/Paraphrases/*.jsonl, as written.
    public static func paraphraseTexts() throws -> [String] {
        let directory = root.appendingPathComponent("Tests/Paraphrases")
        var texts: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where file.hasSuffix(".jsonl") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("{") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if let text = object?["text"] as? String { texts.append(text) }
            }
        }
        return texts
    }

    /// Seed 002's sample rows: one Monday of week 1, seven lessons.
    public static let timetableSample = """
        Week,Day,Period,Subject,Teacher,Room
        1,Monday,AM Registration,KCO,,Room 512
        1,Monday,1,English Lang,BBR,Room 053
        1,Monday,2,History,ERE,Room 417
        1,Monday,3,PE,MRO,Room 7
        1,Monday,4,Computer Sc,ALW,Room 247
        1,Monday,PM Registration,KCO,,Room 512
        1,Monday,5,Mathematics,KDN,Room 113

        """
}
