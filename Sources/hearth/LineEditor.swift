import CEditLine
import Foundation

/// The REPL's line input at a terminal, through libedit: editing keys, the up arrow recalling
/// earlier lines (kept between sessions in the user's data directory) and Tab completion.
/// libedit is process-global state, so there is one editor per process.
final class LineEditor {
    struct Completions {
        /// Offered for the first word of a line (commands, request openers, names).
        var lineStart: [String]
        /// Offered for any later word (the family's names).
        var anywhere: [String]
    }

    /// `$XDG_DATA_HOME/hearth/history`, else `~/.local/share/hearth/history`; nil without a home.
    static var historyFile: URL? {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {  // the spec ignores relative values
            base = URL(fileURLWithPath: data)
        } else if let home = environment["HOME"], !home.isEmpty {
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/share")
        } else {
            return nil
        }
        return base.appendingPathComponent("hearth/history")
    }

    /// Lines kept; older ones fall off the history file.
    static let historyLimit: Int32 = 1000

    private let historyPath: String?
    private var lastAdded: String?

    /// What Tab offers from now on (the family changed).
    func update(completions: Completions) { LineEditorState.completions = completions }

    init(completions: Completions) {
        LineEditorState.completions = completions
        // The name is for `$if hearth` in ~/.editrc; libedit keeps the pointer, so it lives for the process.
        hearth_rl_configure(UnsafePointer(strdup("hearth")), hearthAttemptCompletion)
        using_history()
        stifle_history(Self.historyLimit)
        if let file = Self.historyFile {
            // The history holds what the family typed: private to the user, like a shell's.
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            historyPath = file.path
            _ = read_history(file.path)  // a first session has no file yet
        } else {
            historyPath = nil
        }
    }

    /// The next line, without its newline; nil at end of input (Ctrl-D).
    func readLine(prompt: String) -> String? {
        fflush(nil)  // Swift's print buffers; the prompt must follow what was printed before it
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// Adds a line to the history and saves the file at once, so that a killed session keeps it.
    /// Blank lines and a line repeated straight after itself are not kept.
    func remember(_ line: String) {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty, line != lastAdded else { return }
        lastAdded = line
        _ = add_history(line)
        guard let historyPath else { return }
        if write_history(historyPath) == 0 { _ = chmod(historyPath, 0o600) }
    }
}

/// What the C callbacks read: libedit calls plain C function pointers, which cannot capture.
private enum LineEditorState {
    nonisolated(unsafe) static var completions = LineEditor.Completions(lineStart: [], anywhere: [])
    nonisolated(unsafe) static var matches: [String] = []
    nonisolated(unsafe) static var next = 0
}

/// libedit asks for completions of the word before the cursor (`text`, starting at `start` in the line).
private func hearthAttemptCompletion(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    hearth_rl_no_default_completion()  // never fall back to file names
    let word = text.map { String(cString: $0) } ?? ""
    let line = hearth_rl_line().map { String(cString: $0) } ?? ""
    let before = String(decoding: line.utf8.prefix(Int(max(0, start))), as: UTF8.self)
    let candidates = before.trimmingCharacters(in: .whitespaces).isEmpty
        ? LineEditorState.completions.lineStart : LineEditorState.completions.anywhere
    // Case-insensitive: "em" and "Em" both become "Emma".
    let lowered = word.lowercased()
    var seen = Set<String>()
    LineEditorState.matches = candidates.filter { $0.lowercased().hasPrefix(lowered) && seen.insert($0).inserted }
    LineEditorState.next = 0
    guard !LineEditorState.matches.isEmpty else { return nil }
    return rl_completion_matches(text, hearthNextCompletion)
}

/// One candidate per call (libedit frees what it gets), nil when there are no more.
private func hearthNextCompletion(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    guard LineEditorState.next < LineEditorState.matches.count else { return nil }
    defer { LineEditorState.next += 1 }
    return strdup(LineEditorState.matches[LineEditorState.next])
}
