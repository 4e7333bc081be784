import Dispatch
#if canImport(Darwin)
import Foundation
#endif

/// Whether the caller runs on the main queue, the main actor's executor: for Ripple's own main-actor tests.
///
/// Under `swift test` on Linux the main queue is drained by Swift concurrency's main executor, which need not be the
/// process's first thread (as after `dispatchMain()`), so `Thread.isMainThread` alone is not the check; the main queue
/// is marked with a dispatch-specific key instead. On Apple platforms the main queue runs on the main thread, and
/// that is checked too.
package enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    package static var isCurrent: Bool {
        #if canImport(Darwin)
        guard Thread.isMainThread else { return false }
        #endif
        return DispatchQueue.getSpecific(key: key) == true
    }
}
