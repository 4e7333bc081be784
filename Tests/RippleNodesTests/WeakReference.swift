/// A weak reference a `@Sendable` closure can carry, for tests that watch an object be freed. `@unchecked Sendable`:
/// weak loads and stores are atomic.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?

    init(_ object: Object? = nil) {
        self.object = object
    }
}
