import Foundation
import HearthDomain
import HearthGrammar
import HearthStore
import Logging

/// The family as one turn sees it: the roster and the grammar whose vocabulary (every word naming
/// a member, every place name, every reward title) was built from it, read together at one `revision` of the family
/// tables (`StoreReader.familyRevision`). A turn never mixes two snapshots.
struct FamilySnapshot: Sendable {
    let revision: Int
    let roster: Roster
    /// `member_name`, `place_name` and `reward_name`, as given to `Grammar.load`.
    let vocabulary: [String: [String]]
    let grammar: Grammar

    /// The family tables at one revision, read in one transaction.
    struct Read {
        let revision: Int
        let roster: Roster
        let vocabulary: [String: [String]]
    }

    static func read(_ reader: StoreReader) throws -> Read {
        let roster = Roster(members: try reader.members(), speakerAliases: try reader.speakerAliases())
        return Read(revision: try reader.familyRevision(), roster: roster,
                    vocabulary: ["member_name": roster.nameVocabulary, "place_name": placeVocabulary(try reader.places()),
                                 "reward_name": rewardVocabulary(try reader.rewards())])
    }

    /// The saved places as said: each by its name, and a member's own also by its short name and
    /// with "my" ("ben's work", "work", "my work"; issue 32). Which one is meant is `PlaceRules`'.
    static func placeVocabulary(_ places: [Place]) -> [String] {
        var words: [String] = []
        for place in places {
            var said = [place.name.lowercased(), Normalizer.normalize(place.name).text]
            if place.owner != nil {
                let short = Normalizer.normalize(place.baseName).text
                said += [short, "my " + short]
            }
            for word in said where !word.isEmpty && !words.contains(word) { words.append(word) }
        }
        return words
    }

    /// The family's own reward titles and their other words, as the grammar reads text (normalised:
    /// "Bike ride to the park" → "bike ride to the park"), so "can I have a bike ride to the park"
    /// is a redemption without "bike ride" being a reward word every family has (issue 33).
    static func rewardVocabulary(_ rewards: [Reward]) -> [String] {
        rewards.filter(\.active).flatMap { [$0.title] + $0.aliases }.map { Normalizer.normalize($0).text }.filter { !$0.isEmpty }
    }

    /// Whether two vocabularies make the same grammar (the words, not their order or repeats).
    static func sameWords(_ a: [String: [String]], _ b: [String: [String]]) -> Bool {
        a.mapValues { Set($0.map { $0.lowercased() }) } == b.mapValues { Set($0.map { $0.lowercased() }) }
    }
}

/// The current family snapshot of a long-running assistant, swapped whole when the family changes
/// (a member added or removed by voice, `hearth member add` or an import from another process, an
/// alias, a place). Checking costs one small query; a reload re-reads the family and, only when the
/// words changed, rebuilds the grammar with the same settings — then swaps both at once.
final class FamilyState: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var snapshot: FamilySnapshot
    /// A revision whose reload failed: not retried (each try could cost a grammar build) until the family moves again.
    private var failedRevision: Int?
    /// Grammars replaced by a rebuild whose memory has not been handed back yet (`FreedMemory`):
    /// a turn that pinned the old snapshot may still be using one. Guarded by `lock`.
    private var retired: [FreedMemory.Probe] = []
    /// One reload at a time; turns that find one under way wait for it and use its result.
    private let reloading = NSLock()
    private let store: FamilyStore
    private let buildGrammar: @Sendable ([String: [String]]) throws -> Grammar
    private let logger: Logger

    init(store: FamilyStore, initial: FamilySnapshot, logger: Logger,
         buildGrammar: @escaping @Sendable ([String: [String]]) throws -> Grammar) {
        self.store = store; self.snapshot = initial; self.logger = logger; self.buildGrammar = buildGrammar
    }

    var current: FamilySnapshot { lock.withLock { snapshot } }

    /// The snapshot of the family's latest revision, reloading first if the family changed since
    /// the current one. When the reload fails the current snapshot stays (and it is logged).
    func refreshed() -> FamilySnapshot {
        let known = current
        let revision: Int
        do {
            revision = try store.familyRevision()
        } catch {
            logger.error("family revision unreadable; keeping the family as it was", metadata: ["error": "\(type(of: error))"])
            return known
        }
        guard revision != known.revision, revision != lock.withLock({ failedRevision }) else { return known }
        return reloading.withLock { reload(seen: revision) }
    }

    /// Once a grammar a rebuild replaced has been freed (no turn pins its snapshot any more),
    /// hands their memory back to the system: without this each rebuild left the old grammar's JIT
    /// code and heap pages resident, and a server whose family kept changing grew without end
    /// (issue 26, finding 9). Called after each request; costs one lock when nothing was rebuilt.
    func releaseRetiredGrammars() {
        let release: Bool = lock.withLock {
            guard !retired.isEmpty else { return false }
            let count = retired.count
            retired.removeAll(where: \.isGone)
            return retired.count < count
        }
        if release { FreedMemory.release() }
    }

    /// Under `reloading`: reads the family (again: another turn may have reloaded meanwhile) and swaps.
    private func reload(seen revision: Int) -> FamilySnapshot {
        let old = current
        let started = DispatchTime.now()
        do {
            let read = try store.read(FamilySnapshot.read)
            if read.revision == old.revision { return old }
            let rebuild = !FamilySnapshot.sameWords(read.vocabulary, old.vocabulary)
            let grammar = rebuild ? try buildGrammar(read.vocabulary) : old.grammar
            let next = FamilySnapshot(revision: read.revision, roster: read.roster, vocabulary: read.vocabulary, grammar: grammar)
            lock.withLock {
                snapshot = next
                failedRevision = nil
                if rebuild { retired.append(old.grammar.freedProbe) }
            }
            let millis = (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
            // Privacy: counts and timing only, never a name.
            logger.info("family reloaded", metadata: ["revision": "\(read.revision)", "members": "\(read.roster.members.count)",
                                                      "grammar_rebuilt": "\(rebuild)", "ms": "\(millis)"])
            return next
        } catch {
            lock.withLock { failedRevision = revision }
            logger.error("family reload failed; keeping the family as it was", metadata: ["error": "\(type(of: error))"])
            return old
        }
    }
}

extension Assistant {
    /// The snapshot a turn of this assistant pinned (`withCurrentFamily`), on this task or thread.
    struct PinnedFamily: Sendable {
        let owner: ObjectIdentifier
        let snapshot: FamilySnapshot
    }

    @TaskLocal static var pinnedFamily: PinnedFamily?

    /// The snapshot in use: the one pinned by the turn under way, else the latest one loaded.
    var family: FamilySnapshot {
        if let pinned = Self.pinnedFamily, pinned.owner == ObjectIdentifier(self) { return pinned.snapshot }
        return familyState.current
    }

    /// Runs `body` on the family as it is now: checks the family's revision (one small query),
    /// reloads the roster and grammar if the family changed — by this assistant's earlier turn,
    /// the CLI or another process — and pins that snapshot, so `roster` and `grammar` read inside
    /// `body` come from the same revision however long it runs. Nested calls reuse the outer pin.
    /// `handle` and `parse` do this themselves; a front end wraps a whole request in it when it
    /// reads `roster` before or besides a turn (the line protocol's `hello`, a location report).
    public func withCurrentFamily<T>(_ body: () throws -> T) rethrows -> T {
        if let pinned = Self.pinnedFamily, pinned.owner == ObjectIdentifier(self) { return try body() }
        // The old snapshot (and a grammar it may hold) is released when the pin ends, not before.
        defer { familyState.releaseRetiredGrammars() }
        return try Self.$pinnedFamily.withValue(PinnedFamily(owner: ObjectIdentifier(self), snapshot: familyState.refreshed()), operation: body)
    }

    /// Reloads the family now if it changed (for a front end that reads `roster` outside a turn,
    /// such as the REPL's `:as NAME`). Returns the revision now in use.
    @discardableResult
    public func refreshFamily() -> Int { familyState.refreshed().revision }
}
