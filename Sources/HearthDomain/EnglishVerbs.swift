/// English verb forms the rules share (chores matched in any tense, questions passed on in
/// messages): one table, not a list per area.
public enum EnglishVerbs {
    /// Irregular past tenses and participles → base form ("took" → "take", "eaten" → "eat").
    static let irregularPast: [String: String] = [
        "swept": "sweep", "kept": "keep", "slept": "sleep", "wept": "weep", "crept": "creep", "felt": "feel", "knelt": "kneel",
        "dealt": "deal", "meant": "mean", "hung": "hang", "took": "take", "taken": "take", "threw": "throw", "thrown": "throw",
        "fed": "feed", "bled": "bleed", "led": "lead", "made": "make", "brought": "bring", "bought": "buy", "caught": "catch",
        "taught": "teach", "fought": "fight", "sought": "seek", "thought": "think", "did": "do", "done": "do", "gave": "give",
        "given": "give", "got": "get", "gotten": "get", "went": "go", "gone": "go", "left": "leave", "ran": "run", "sat": "sit",
        "shook": "shake", "shaken": "shake", "spun": "spin", "swung": "swing", "wrung": "wring", "wound": "wind", "wrote": "write",
        "written": "write", "drew": "draw", "drawn": "draw", "drove": "drive", "driven": "drive", "rode": "ride", "ridden": "ride",
        "built": "build", "bent": "bend", "sent": "send", "spent": "spend", "lent": "lend", "lit": "light", "dug": "dig",
        "stuck": "stick", "hid": "hide", "hidden": "hide", "ate": "eat", "eaten": "eat", "froze": "freeze", "frozen": "freeze",
        "chose": "choose", "chosen": "choose", "broke": "break", "broken": "break", "woke": "wake", "woken": "wake", "wore": "wear",
        "worn": "wear", "tore": "tear", "torn": "tear", "began": "begin", "begun": "begin", "sold": "sell", "told": "tell",
        "found": "find", "held": "hold", "stood": "stand", "met": "meet", "fell": "fall", "fallen": "fall", "grew": "grow",
        "grown": "grow", "knew": "know", "known": "know", "blew": "blow", "blown": "blow", "flew": "fly", "flown": "fly",
        "saw": "see", "seen": "see", "came": "come", "became": "become", "rang": "ring", "rung": "ring", "drank": "drink",
        "drunk": "drink", "ground": "grind", "laid": "lay", "paid": "pay", "said": "say", "hit": "hit", "put": "put", "set": "set",
        "cut": "cut", "shut": "shut", "split": "split", "spread": "spread", "let": "let", "had": "have", "forgot": "forget",
        "forgotten": "forget", "swam": "swim", "swum": "swim", "won": "win", "lost": "lose", "spoke": "speak", "spoken": "speak",
        "heard": "hear", "understood": "understand", "sang": "sing", "sung": "sing",
    ]


    /// Irregular past participles, as after "has" ("has eaten", "has gone").
    static let participles: Set<String> = [
        "been", "done", "gone", "eaten", "taken", "seen", "given", "written", "fed", "got", "gotten", "made", "bought", "brought",
        "left", "sent", "paid", "told", "said", "found", "forgotten", "run", "come", "slept", "kept", "caught", "drunk", "swum",
        "begun", "won", "lost", "spoken", "heard", "known", "thought", "fallen", "felt", "met", "sat", "stood", "taught",
        "woken", "built", "broken", "chosen", "driven", "flown", "grown", "ridden", "rung", "sung", "sold", "spent", "thrown", "worn",
    ]

    /// A past participle: irregular ("eaten", "gone") or regular ("finished").
    static func isParticiple(_ word: String) -> Bool {
        participles.contains(word) || isRegularPast(word)
    }

    /// A regular past tense or participle: "finished", "tidied"; not "need", "feed" or "bed".
    static func isRegularPast(_ word: String) -> Bool {
        word.count > 4 && word.hasSuffix("ed") && !["need", "feed", "bleed", "speed"].contains(word)
    }

    /// "finished" → "finish", "stopped" → "stop", "liked" → "like", "tried" → "try".
    static func baseOfPast(_ verb: String) -> String {
        if verb.hasSuffix("ied") { return verb.dropLast(3) + "y" }
        var stem = String(verb.dropLast(2))
        if let last = stem.last, stem.count > 2, stem.dropLast().last == last, !"lsz".contains(last) { stem.removeLast() }
        else if ["at", "iz", "v", "c", "us", "ak", "ik", "ok", "ar", "om", "in", "ag", "ut"].contains(where: stem.hasSuffix) { stem += "e" }
        return stem
    }

    /// Words said about something done, as the thing to do: "took out the trash" → "take out the
    /// trash", "emptied the dishwasher" → "empty the dishwasher"; other words as they are.
    public static func asToDo(_ said: String) -> String {
        let end = said.firstIndex(of: " ") ?? said.endIndex
        let first = said[..<end].lowercased()
        guard let base = irregularPast[first] ?? (isParticiple(first) ? baseOfPast(first) : nil) else { return said }
        return base + said[end...]
    }
}
