/// A value that is only ever touched under a lock.
///
/// `@unchecked Sendable`: `state` is read and written only inside `withLock`, under `lock`. The lock is a
/// ``RawLock`` stored inline, so a `Locked` costs one object rather than two.
package final class Locked<State>: @unchecked Sendable {
    @usableFromInline let lock = RawLock()
    @usableFromInline @exclusivity(unchecked) var state: State

    package init(_ state: State) {
        self.state = state
    }

    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// A snapshot of the state, taken under the lock.
    @inlinable
    package var value: State {
        withLock { $0 }
    }
}
