import CPCRE2

/// Handing a discarded grammar's memory back to the system (issue 26, finding 9).
///
/// A long-running process rebuilds its grammar whenever the family's words change (a member or a
/// place added by voice or from another process). The old grammar is freed once no turn uses it,
/// but its memory stayed with the process: PCRE2's JIT allocator keeps freed executable chunks for
/// reuse, and glibc's malloc keeps freed heap pages that sit below live allocations (made by turns
/// in between). Each rebuild to a larger grammar left megabytes resident, so a server fed mixed
/// traffic (which adds members by voice) held 130 MB after 200,000 lines where a fresh one on the
/// same family needs 82, although its live heap stayed near 22 MB (heaptrack; docs/performance.md, "Performance").
/// `release()` returns both; it costs a few milliseconds and runs only after a rebuilt grammar's
/// predecessor is gone.
public enum FreedMemory {
    /// Whether a grammar is still alive anywhere: holds its patterns weakly.
    public struct Probe: Sendable {
        private weak var pattern: CompiledPattern?
        init(_ pattern: CompiledPattern?) { self.pattern = pattern }
        /// The grammar's patterns have all been freed (or it had none).
        public var isGone: Bool { pattern == nil }
    }

    /// Returns unused JIT memory and free heap pages to the operating system.
    public static func release() {
        pcre2_jit_free_unused_memory_8(nil)
        #if os(Linux)
        _ = malloc_trim(0)
        #endif
    }
}

extension Grammar {
    /// A probe that tells when this grammar (its compiled patterns) has been freed.
    public var freedProbe: FreedMemory.Probe { FreedMemory.Probe(index.entries.first?.pattern) }
}
