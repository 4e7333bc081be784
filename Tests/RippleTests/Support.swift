import Ripple
import RippleTesting

/// A hand-driven signal source: it keeps the subscriber of its latest subscription, as a timer or a request would.
///
/// `@unchecked Sendable`: `subscriber` and `disposals` are guarded by `lock`.
final class ManualSource<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var subscriber: SignalSubscriber<Value, Failure>?
    private var disposals = 0
    private(set) weak var lastSubscriber: SignalSubscriber<Value, Failure>?

    var signal: Signal<Value, Failure> {
        Signal { [self] subscriber in
            lock.withLock {
                self.subscriber = subscriber
                lastSubscriber = subscriber
            }
            return Disposer { [weak self] in
                guard let self else { return }
                let released = lock.withLock { () -> SignalSubscriber<Value, Failure>? in
                    disposals += 1
                    defer { self.subscriber = nil }
                    return self.subscriber
                }
                withExtendedLifetime(released) {}
            }
        }
    }

    var disposalCount: Int { lock.withLock { disposals } }
    var isSubscribed: Bool { lock.withLock { subscriber != nil } }

    func send(_ value: Value) { lock.withLock { subscriber }?.send(value) }
    func fail(_ error: Failure) { lock.withLock { subscriber }?.sendError(error) }
    func complete() { lock.withLock { subscriber }?.sendComplete() }
}

enum TestError: Error, Equatable {
    case boom
}

struct SharePacket: Packet {
    var portNumber = 0
    var docId: String
    var link: String?
}

final class SharePort: PacketPort<SharePacket>, @unchecked Sendable {
    func share(_ docId: String) {
        emit(SharePacket(docId: docId), portNumber: 100)
    }
}

/// A stage that gives every packet a link, or blocks documents whose id starts with "secret".
struct RequestLink: PipelineStage {
    func receive(_ packet: SharePacket, next: Next<SharePacket>) {
        guard !packet.docId.hasPrefix("secret") else { return }
        var linked = packet
        linked.link = "https://ripple.example/\(packet.docId)"
        next(linked)
    }
}

/// Records a signal's events: values in order, and how it ended.
final class EventLog<Value: Sendable>: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = Lock()
    private var recorded: [Value] = []
    private var ending: String?
    /// The handles of the subscriptions feeding this log: they run while the log lives, or until disposed.
    private var handles: [Disposer] = []

    var values: [Value] { lock.withLock { recorded } }
    func keep(_ handle: Disposer) { lock.withLock { handles.append(handle) } }
    var end: String? { lock.withLock { ending } }

    func record(_ value: Value) { lock.withLock { recorded.append(value) } }
    func finish(_ how: String) { lock.withLock { ending = how } }
}

extension Signal where Failure == Never {
    /// Subscribes `log` to every event.
    @discardableResult
    func subscribe(into log: EventLog<Value>) -> Disposer {
        let handle = subscribe(value: { log.record($0) }, complete: { log.finish("completed") })
        log.keep(handle)
        return handle
    }
}

extension Signal {
    @discardableResult
    func subscribe(logging log: EventLog<Value>) -> Disposer {
        let handle = subscribe(value: { log.record($0) }, error: { log.finish("failed: \($0)") },
                               complete: { log.finish("completed") })
        log.keep(handle)
        return handle
    }
}
