#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation

/// For exit tests whose failure is a hang (a deadlock): ends the process with status 3 and a message on standard
/// error if it is still running after `seconds`. On a thread of its own, not Dispatch's pool, which the test's own
/// work may keep busy.
package func startDeadlockWatchdog(seconds: UInt32) {
    Thread {
        sleep(seconds)
        _ = "deadlock: the watchdog fired\n".withCString { write(2, $0, strlen($0)) }
        exit(3)
    }.start()
}
