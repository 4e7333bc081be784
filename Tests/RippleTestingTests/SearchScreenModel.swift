import Observation
import RippleCore
import RippleSignals

// The search screen of Getting Started and of "Testing a main-actor view model" (Ripple.docc), as written there
// (the article imports `Ripple`; this target sees the rooms it uses). Keep the three in step.

/// Why a search failed, for the message on screen.
enum SearchFailure: Error, Equatable {
    case timedOut
}

@MainActor @Observable
final class SearchModel {
    enum State: Equatable, Sendable {
        case idle
        case loading
        case loaded([String])
        case failed(String)
    }

    /// What the user types (a text field binds to it).
    var query = "" {
        didSet { typed.value = query }
    }
    /// What the screen shows.
    private(set) var state = State.idle

    @ObservationIgnored private let typed = ObservableProperty("")
    @ObservationIgnored private var subscription: Disposer?

    /// - Parameters:
    ///   - search: one request per settled query; disposing it cancels the request.
    ///   - clock: where `debounce` and `timeout` wait (`.main` in the app, a `TestScheduler` in a test).
    ///   - delivery: where the state changes arrive, on the main actor (`.main`, or `TestScheduler.mainActor`).
    init(search: @escaping @Sendable (String) -> Signal<[String], any Error>,
         clock: some Scheduling = .main,
         delivery: some MainActorScheduling = .main) {
        subscription = typed.signal
            .debounce(.milliseconds(300), on: clock)               // a pause in typing
            .flatMapLatest { text -> Signal<State, Never> in        // a new query cancels the stale request
                guard !text.isEmpty else { return .just(.idle) }
                return search(text)
                    .retry(2)                                        // up to two more attempts
                    .timeout(.seconds(5), on: clock, customError: { SearchFailure.timedOut })
                    .map { State.loaded($0) }
                    .catch { error in .just(.failed(Self.message(for: error))) }
                    .prepend(.loading)                               // the loading state, first
            }
            .subscribeOnMainActor(on: delivery, value: { [weak self] state in self?.state = state })
    }

    nonisolated static func message(for error: any Error) -> String {
        error as? SearchFailure == .timedOut ? "The search took too long." : "The search failed."
    }
}
