import Foundation
import HearthDomain
import HearthGrammar

/// Several requests in one message (issue 29, "two requests in one"): "Add milk to the shopping
/// list and remind me to call grandma at 5" adds the milk and sets the reminder, each as its own
/// turn through the one door and the machine, in the order said, with one reply. A part that asks
/// something back (a conflict, a read-back, "which one?") or fails ends the run there: what was not
/// done yet is said, never dropped in silence.
extension Assistant {
    /// The parts of `text` to run as separate requests, or nil when it is one request (or none).
    /// A way of splitting counts only when every part reads as a request by itself (a pattern of
    /// an intent that is no answer or dialog word matches it), and a split at "and" only when the
    /// whole, as said, does not read as one request ("tell Tom dinner is ready and remind Jake …"
    /// is one message).
    func separateRequests(in text: String) -> [String]? {
        let ways = RequestFinder.requestParts(of: text)
        guard !ways.isEmpty else { return nil }
        var whole: IntentMatch??
        for way in ways {
            if way.atJoiner {
                // Read as said, not one of its sentences or clauses (which the grammar also tries).
                if whole == nil {
                    if case .matched(let match, let reading) = grammar.match(text), reading.text == Normalizer.normalize(text).text { whole = .some(match) } else { whole = .some(nil) }
                }
                // A cue frame that passed over words ("what's on tomorrow and is Tom free on
                // Friday" read as the free-time question) did not read the whole either.
                if let match = whole ?? nil, match.passedOver == 0, !Self.wordsRunOn(match, into: way.parts.dropFirst()) { continue }
            }
            if way.parts.allSatisfy(readsAsRequest) { return way.parts }
        }
        return nil
    }

    /// Whether the whole read as one request only because a free-text slot ran on into the parts
    /// after a joiner: "remind me to call grandma at 5 and add milk to the shopping list" is no
    /// reminder "to call grandma at 5 and add milk to the shopping list" when "add milk to the
    /// shopping list" reads as a request by itself. A message's words are passed on as said
    /// ("tell Tom dinner is ready and remind Jake …" is one message).
    static func wordsRunOn(_ match: IntentMatch, into later: ArraySlice<String>) -> Bool {
        guard !match.intent.hasPrefix("message."), let next = later.first else { return false }
        let said = " " + Normalizer.normalize(next).text
        return match.captures.contains { $0.spec.type == .text && $0.normalized.contains(said) }
    }

    private func readsAsRequest(_ part: String) -> Bool {
        guard case .matched(let match, _) = grammar.match(part) else { return false }
        return !match.intent.hasPrefix("dialog.") && areas.role(of: match.intent) == .request
    }

    /// Runs `parts` in order as turns of `incoming`'s session for `speaker` (admitted once, by the
    /// door, for the message); one reply says them all.
    func handle(parts: [String], of incoming: Turn, speaker: Member, now: Date) -> Reply {
        var replies: [Reply] = []
        var left: [String] = []
        for (index, part) in parts.enumerated() {
            var turn = incoming
            turn.text = part
            turn.now = now
            let reply = run(turn, speaker: speaker, now: now)
            replies.append(reply)
            // A question back or a failure: the rest waits, and is said.
            if reply.error != nil || reply.state != CoordinationMachine.StateName.resultReady.rawValue {
                left = Array(parts[(index + 1)...])
                break
            }
        }
        return Self.combined(replies, notDone: left)
    }

    /// One reply for several: their words in order, the notifications of all, and the last one's
    /// intent, state, options and error (what a front end acts on next: a question waits on it).
    static func combined(_ replies: [Reply], notDone left: [String]) -> Reply {
        guard var last = replies.last else { return Reply(intent: nil, state: "error", reply: "", speak: "", options: [], notifications: [], trace: []) }
        var display = replies.map(\.reply), speak = replies.map(\.speak)
        if !left.isEmpty {
            let quoted = left.map { "\"\($0)\"" }.joined(separator: " and ")
            display.append("I haven't done \(quoted) yet: ask me again once this is settled.")
            speak.append("I haven't done \(left.joined(separator: " and ")) yet. Ask me again once this is settled.")
        }
        last.reply = display.joined(separator: "\n")
        last.speak = speak.joined(separator: " ")
        last.notifications = replies.flatMap(\.notifications)
        last.trace = replies.flatMap(\.trace)
        return last
    }
}
