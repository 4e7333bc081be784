import RippleCore

/// The registrations of one pipe, by key slot, and the plan its calls run, published so that a call reads it with
/// neither the graph lock nor a retain (a call is counted as a reader of `plan` while it runs; see
/// `PublishedSnapshot`).
///
/// `@unchecked Sendable`: `registrations` is only touched under `pipeGraphLock`; `plan` is thread-safe. The plan is
/// replaced only under `pipeGraphLock` too, so a call that builds it and the edits that take it down are ordered.
@usableFromInline
final class PipeCore: @unchecked Sendable {
    /// Guarded by `pipeGraphLock`. A bundle may hold several registrations under one slot.
    @exclusivity(unchecked) var registrations: [Int: ContiguousArray<AnyObject>] = [:]
    /// The plan of this pipe's chain, or nil until the next call builds it.
    @usableFromInline let plan = PublishedSnapshot<CallPlan>()

    init() {}

    /// Takes the published plan down after a change to the chain. Call with `pipeGraphLock` held; what lands in
    /// `garbage` is to be released after unlocking.
    func unpublish(into garbage: inout [AnyObject]) {
        for old in plan.replace({ nil }) {
            garbage.append(old)
        }
    }
}
