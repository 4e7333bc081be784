import Observation
import RippleCore
import RippleNodes
import RippleSignals

// The app developer's path (issue 30): the search screen of Getting Started and a sign-up form, each a `@MainActor
// @Observable` view model, run end to end. Both run on a virtual clock with main-actor delivery through its main-actor
// view (`TourClock`, a small copy of RippleTesting's `TestScheduler` and `TestScheduler.mainActor`), exactly as their
// tests do, so the section prints the same lines on every run and never sleeps; in an app the same models take `.main`.

/// The app section: a search screen and a form on main-actor view models, their state after each step, the form's
/// graph.
let appSection = TourSection(name: "app", summary: "an app's view models: a search screen and a form, on the main actor") { log in
    await MainActor.run { runAppSection(log) }
}

@MainActor
private func runAppSection(_ log: TourLog) {
    log.heading("App — a search screen on a @MainActor @Observable view model")
    log.code("debounce → flatMapLatest { request } → retry → timeout → catch → prepend(.loading) → subscribeOnMainActor")
    let scheduler = TourClock()
    let service = TourSearchService(scheduler: scheduler)
    let model = TourSearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
    func show(_ step: String) {
        log.print("\(clock(scheduler).padding(toLength: 10, withPad: " ", startingAt: 0)) \(step.padding(toLength: 34, withPad: " ", startingAt: 0)) state: \(model.state)")
    }
    log.code("typed \"r\", \"ri\", \"riv\" 100 ms apart: one request, for \"riv\", 300 ms after the last key")
    for text in ["r", "ri", "riv"] {
        model.query = text
        show("typed \"\(text)\"")
        scheduler.advance(by: .milliseconds(100))
    }
    scheduler.advance(by: .milliseconds(200))
    show("a pause: the request starts")
    scheduler.advance(by: .milliseconds(200))
    show("its answer")

    log.code("a new query while a request runs: the stale request is cancelled, not ignored")
    service.latency = .seconds(1)
    model.query = "ra"
    scheduler.advance(by: .milliseconds(500))
    show("typed \"ra\", its request runs")
    model.query = "rai"
    scheduler.advance(by: .milliseconds(300))
    show("typed \"rai\", settled")
    scheduler.advance(by: .seconds(1))
    show("its answer")

    log.code("a failing service: two retries, then the message; a silent one: the timeout")
    service.latency = .milliseconds(200)
    service.failuresLeft = 3
    model.query = "sw"
    scheduler.advance(by: .seconds(1))
    show("typed \"sw\", three attempts failed")
    service.latency = .seconds(60)
    model.query = "swi"
    scheduler.advance(by: .milliseconds(5_300))
    show("typed \"swi\", no answer in 5 s")
    for line in service.log.value { log.print("  service: \(line)") }

    log.heading("App — a form with derived state and Node.batch")
    log.code("name, email, agreed → combine → valid; the model hears `valid` on the main actor")
    let form = SignUpForm(delivery: scheduler.mainActor)
    scheduler.advance()
    log.print("canSubmit: \(form.canSubmit) (deliveries: \(form.deliveries))")
    form.name.value = "Ada"
    form.email.value = "ada@example.com"
    form.agreed.value = true
    scheduler.advance()
    log.print("three fields set one by one → canSubmit: \(form.canSubmit) (deliveries: \(form.deliveries))")
    form.clear()
    scheduler.advance()
    log.print("cleared in one batch → canSubmit: \(form.canSubmit) (deliveries: \(form.deliveries))")
    form.autofill()
    scheduler.advance()
    log.print("autofilled in one batch → canSubmit: \(form.canSubmit) (deliveries: \(form.deliveries))")
    log.code("form.name.graph(format: .text)")
    for line in form.name.graph(format: .text).split(separator: "\n") { log.print(String(line)) }
}

private func clock(_ scheduler: TourClock) -> String {
    let (seconds, attoseconds) = scheduler.now.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return "[\(milliseconds) ms]"
}

/// A search service on the virtual clock: answers after `latency`, fails while `failuresLeft` > 0, and logs each
/// request it starts and each one cancelled before it answered.
final class TourSearchService: @unchecked Sendable {
    // `latency` and `failuresLeft` are set by the section between steps, on the main actor, while no request runs
    // on another thread: everything here runs on the thread advancing the clock.
    var latency: Duration = .milliseconds(200)
    var failuresLeft = 0
    let log = Locked<[String]>([])
    private let scheduler: TourClock

    init(scheduler: TourClock) {
        self.scheduler = scheduler
    }

    struct Unreachable: Error {}

    func search(_ text: String) -> Signal<[String], any Error> {
        Signal { [self] subscriber in
            log.withLock { $0.append("start \"\(text)\" at \(clock(scheduler))") }
            let fails = failuresLeft > 0
            if fails { failuresLeft -= 1 }
            let answered = Locked(false)
            let timer = scheduler.schedule(after: latency) {
                answered.withLock { $0 = true }
                if fails {
                    subscriber.sendError(Unreachable())
                } else {
                    subscriber.send(["rain", "ripple", "river", "rivet", "swift"].filter { $0.hasPrefix(text) })
                    subscriber.sendComplete()
                }
            }
            return Disposer { [self] in
                guard !answered.value else { return }
                timer.cancel()
                log.withLock { $0.append("cancel \"\(text)\" at \(clock(scheduler))") }
            }
        }
    }
}

enum TourSearchFailure: Error, Equatable {
    case timedOut
}

/// The search screen's model of Getting Started (Ripple.docc), under the tour's name.
@MainActor @Observable
final class TourSearchModel {
    enum State: Equatable, Sendable, CustomStringConvertible {
        case idle
        case loading
        case loaded([String])
        case failed(String)

        nonisolated var description: String {
            switch self {
            case .idle: "idle"
            case .loading: "loading"
            case .loaded(let results): "loaded \(results)"
            case .failed(let message): "failed \"\(message)\""
            }
        }
    }

    var query = "" {
        didSet { typed.value = query }
    }
    private(set) var state = State.idle

    @ObservationIgnored private let typed = ObservableProperty("")
    @ObservationIgnored private var subscription: Disposer?

    init(search: @escaping @Sendable (String) -> Signal<[String], any Error>,
         clock: some Scheduling = .main,
         delivery: some MainActorScheduling = .main) {
        subscription = typed.signal
            .debounce(.milliseconds(300), on: clock)
            .flatMapLatest { text -> Signal<State, Never> in
                guard !text.isEmpty else { return .just(.idle) }
                return search(text)
                    .retry(2)
                    .timeout(.seconds(5), on: clock, customError: { TourSearchFailure.timedOut })
                    .map { State.loaded($0) }
                    .catch { error in .just(.failed(Self.message(for: error))) }
                    .prepend(.loading)
            }
            .subscribeOnMainActor(on: delivery, value: { [weak self] state in self?.state = state })
    }

    nonisolated static func message(for error: any Error) -> String {
        error as? TourSearchFailure == .timedOut ? "The search took too long." : "The search failed."
    }
}

/// A sign-up form: three field nodes and a derived `valid` node; the model shows `canSubmit` and counts how often
/// it heard `valid`.
@MainActor @Observable
final class SignUpForm {
    private(set) var canSubmit = false
    private(set) var deliveries = 0

    @ObservationIgnored let name = MutableNode("").named("name")
    @ObservationIgnored let email = MutableNode("").named("email")
    @ObservationIgnored let agreed = MutableNode(false).named("agreed")
    @ObservationIgnored let valid: Node<Bool>
    @ObservationIgnored private let bag = CancelBag()

    init(delivery: some MainActorScheduling = .main) {
        let emailLooksRight = email.map { $0.contains("@") }.named("emailLooksRight")
        valid = Node.combine(name, emailLooksRight, agreed).mapEach { !$0.isEmpty && $1 && $2 }.named("valid")
        valid.listened(by: bag).withBlock(on: delivery) { @MainActor [weak self] valid in
            self?.canSubmit = valid
            self?.deliveries += 1
        }
    }

    /// Every field at once: one transaction, so `valid` settles once.
    func autofill() {
        Node.batch {
            name.value = "Grace"
            email.value = "grace@example.com"
            agreed.value = true
        }
    }

    func clear() {
        Node.batch {
            name.value = ""
            email.value = ""
            agreed.value = false
        }
    }
}
