// Callgrind harness for the RippleSignals rows of BENCHMARKS.md, with the same workload shapes as
// Benchmarks/Benchmarks/RippleBenchmarks/SignalsBenchmarks.swift (and, built with -DOPENCOMBINE, OpenCombine's shapes
// from OpenCombineBenchmarks.swift, so a ratio is instructions against instructions). `SignalsCallgrind <workload>
// <units>` runs one workload's setup, then `units` units of it. Instructions per unit = (Ir at 2N − Ir at N) ÷ N, so
// setup cancels out. Build against release builds (see BENCHMARKS.md, "Signals: creating cost and freeing deep
// recipes"):
//   swift build -c release --target RippleSignals
//   swiftc -O -parse-as-library -I .build/release/Modules Benchmarks/callgrind/SignalsCallgrind.swift \
//     .build/release/{RippleSignals,RippleCore}.build/*.o -o /tmp/signals-cg
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/signals-cg MapFilterCreating 2000
// With OpenCombine (`swift build -c release --package-path Benchmarks --target OpenCombine` first), add
//   -DOPENCOMBINE -I Benchmarks/.build/release/Modules Benchmarks/.build/release/OpenCombine.build/*.o \
//   Benchmarks/.build/release/COpenCombineHelpers.build/*.o -lstdc++ \
//   -Xcc -fmodule-map-file=Benchmarks/.build/release/COpenCombineHelpers.build/module.modulemap \
//   -Xcc -I -Xcc Benchmarks/.build/checkouts/OpenCombine/Sources/COpenCombineHelpers/include
// and run `OpenCombine/MapFilterCreating` and so on. Valgrind cannot read that binary's debug information: run it on
// a copy made with `strip --strip-debug`.
#if canImport(Glibc)
import Glibc
#endif
import RippleSignals
#if OPENCOMBINE
import OpenCombine
#endif

final class Sum: @unchecked Sendable {
    // No dynamic exclusivity check (~80 instructions per access), which would swamp the pumping rows.
    @exclusivity(unchecked) var value = 0
}

/// The benchmarks' hand-rolled subject: the `SignalSubscriber` of each subscription, kept to send into.
final class SignalSubject: @unchecked Sendable {
    var subscribers: [SignalSubscriber<Int, Never>] = []

    var signal: Signal<Int, Never> {
        Signal { subscriber in
            self.subscribers.append(subscriber)
            return .empty
        }
    }
}

func mapFilterChain(_ source: Signal<Int, Never>) -> Signal<Int, Never> {
    source
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
}

func flatMapChain(_ source: Signal<Int, Never>) -> Signal<Int, Never> {
    source
        .flatMap { Signal.just($0) }
        .flatMap { Signal.just($0) }
        .flatMap { Signal.just($0) }
        .flatMap { Signal.just($0) }
        .flatMap { Signal.just($0) }
}

func flatMapLatestChain(_ source: Signal<Int, Never>) -> Signal<Int, Never> {
    source
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
}

func combineLatestChain(_ source: Signal<Int, Never>) -> Signal<Int, Never> {
    var last = source
    for _ in 0..<7 {
        last = Signal.just(1).combineLatest(Signal.just(1), Signal.just(1), last)
            .map { (values: (Int, Int, Int, Int)) in values.3 }
    }
    return last
}

/// `count` is 1 or 2.
func pump(_ n: Int, subscribers count: Int = 1, _ build: (Signal<Int, Never>) -> Signal<Int, Never>) -> Int {
    let sum = Sum()
    let subject = SignalSubject()
    let chain = build(subject.signal)
    let disposers = (0..<count).map { _ in chain.subscribe(value: { sum.value &+= $0 }) }
    if count == 1 {
        let subscriber = subject.subscribers[0]
        for _ in 0..<n { subscriber.send(1) }
    } else {
        let first = subject.subscribers[0]
        let second = subject.subscribers[1]
        for _ in 0..<n {
            first.send(1)
            second.send(1)
        }
    }
    for disposer in disposers { disposer.dispose() }
    return sum.value
}

func create(_ n: Int, _ build: (Signal<Int, Never>) -> Signal<Int, Never>) -> Int {
    let sum = Sum()
    for _ in 0..<n {
        let disposer = build(Signal.just(1)).subscribe(value: { sum.value &+= $0 })
        disposer.dispose()
    }
    return sum.value
}

/// `create` over a source made with an action (one value, then completion), out of line so the optimiser cannot see
/// through it: the Creating chains over `just` let it fold closures and keep fused states on the stack, which a
/// source in an app does not.
func createOverAction(_ n: Int, _ build: (Signal<Int, Never>) -> Signal<Int, Never>) -> Int {
    let sum = Sum()
    for _ in 0..<n {
        let disposer = build(oneValueSource()).subscribe(value: { sum.value &+= $0 })
        disposer.dispose()
    }
    return sum.value
}

@inline(never)
func oneValueSource() -> Signal<Int, Never> {
    Signal { subscriber in
        subscriber.send(1)
        subscriber.sendComplete()
        return .empty
    }
}

func subjectCreate(_ n: Int) -> Int {
    let sum = Sum()
    for _ in 0..<n {
        let subject = SignalSubject()
        let disposer = subject.signal.subscribe(value: { sum.value &+= $0 })
        subject.subscribers[0].send(1)
        disposer.dispose()
    }
    return sum.value
}

#if OPENCOMBINE
func ocMapFilterChain<Source: Publisher>(_ source: Source) -> some Publisher<Int, Never>
where Source.Output == Int, Source.Failure == Never {
    source
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
}

func ocFlatMapChain<Source: Publisher>(_ source: Source) -> some Publisher<Int, Never>
where Source.Output == Int, Source.Failure == Never {
    source
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
}

func ocFlatMapLatestChain<Source: Publisher>(_ source: Source) -> some Publisher<Int, Never>
where Source.Output == Int, Source.Failure == Never {
    source
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
}

func ocPump<P: Publisher>(_ n: Int, subscribers count: Int = 1, _ build: (PassthroughSubject<Int, Never>) -> P) -> Int
where P.Output == Int, P.Failure == Never {
    let sum = Sum()
    let subject = PassthroughSubject<Int, Never>()
    let chain = build(subject)
    let subscriptions = (0..<count).map { _ in chain.sink { sum.value &+= $0 } }
    for _ in 0..<n { subject.send(1) }
    for subscription in subscriptions { subscription.cancel() }
    return sum.value
}

func ocCreate<P: Publisher>(_ n: Int, _ build: (Just<Int>) -> P) -> Int where P.Output == Int, P.Failure == Never {
    let sum = Sum()
    for _ in 0..<n {
        let subscription = build(Just(1)).sink { sum.value &+= $0 }
        subscription.cancel()
    }
    return sum.value
}

func ocSubjectCreate(_ n: Int) -> Int {
    let sum = Sum()
    for _ in 0..<n {
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject.sink { sum.value &+= $0 }
        subject.send(1)
        subscription.cancel()
    }
    return sum.value
}
#endif

/// Builds the recipe of a Creating workload and drops it unsubscribed: that workload's share spent on the recipe.
func recipe(_ n: Int, _ build: (Signal<Int, Never>) -> Signal<Int, Never>) -> Int {
    var built = 0
    for _ in 0..<n {
        withExtendedLifetime(build(Signal.just(1))) { built &+= 1 }
    }
    return built
}

/// Builds a recipe of `depth` operators, then drops it (the unit is one operator built and freed).
func deepRecipe(_ n: Int) -> Int {
    var chain = Signal<Int, Never>.just(1)
    for _ in 0..<n { chain = chain.map { $0 &+ 1 } }
    return n
}

/// `zip` or `combineLatest` over `n` inputs (`just` signals), subscribed once: the unit is one input (its value and
/// completion), so the figure must not grow with N.
func wide(_ n: Int, _ combining: ([Signal<Int, Never>]) -> Signal<[Int], Never>) -> Int {
    let sum = Sum()
    let subscription = combining((0..<n).map { Signal.just($0) }).subscribe(value: { sum.value &+= $0.count })
    subscription.cancel()
    return sum.value
}

@main
struct SignalsCallgrind {
    static func main() {
        let arguments = CommandLine.arguments
        let name = arguments[1]
        let n = arguments.count > 2 ? Int(arguments[2])! : 1000
        let result: Int
        switch name {
        case "SubjectPumping": result = pump(n) { $0 }
        case "SubjectPumpingTwoSubscribers": result = pump(n, subscribers: 2) { $0 }
        case "SubjectCreating": result = subjectCreate(n)
        case "MapFilterPumping": result = pump(n, mapFilterChain)
        case "MapFilterCreating": result = create(n, mapFilterChain)
        case "FlatMapsPumping": result = pump(n, flatMapChain)
        case "FlatMapsCreating": result = create(n, flatMapChain)
        case "FlatMapLatestPumping": result = pump(n, flatMapLatestChain)
        case "FlatMapLatestCreating": result = create(n, flatMapLatestChain)
        case "CombineLatestPumping": result = pump(n, combineLatestChain)
        case "CombineLatestCreating": result = create(n, combineLatestChain)
        case "MapFilterCreatingOverAction": result = createOverAction(n, mapFilterChain)
        case "FlatMapsCreatingOverAction": result = createOverAction(n, flatMapChain)
        case "FlatMapLatestCreatingOverAction": result = createOverAction(n, flatMapLatestChain)
        case "DeepRecipe": result = deepRecipe(n)
        case "ZipArrayWide": result = wide(n) { Signal.zip($0) }
        case "CombineLatestArrayWide": result = wide(n) { Signal.combineLatest($0) }
        case "MapFilterRecipe": result = recipe(n, mapFilterChain)
        case "FlatMapsRecipe": result = recipe(n, flatMapChain)
        case "FlatMapLatestRecipe": result = recipe(n, flatMapLatestChain)
        #if OPENCOMBINE
        case "OpenCombine/SubjectPumping": result = ocPump(n) { $0 }
        case "OpenCombine/SubjectPumpingTwoSubscribers": result = ocPump(n, subscribers: 2) { $0 }
        case "OpenCombine/SubjectCreating": result = ocSubjectCreate(n)
        case "OpenCombine/MapFilterPumping": result = ocPump(n) { ocMapFilterChain($0) }
        case "OpenCombine/MapFilterCreating": result = ocCreate(n) { ocMapFilterChain($0) }
        case "OpenCombine/FlatMapsPumping": result = ocPump(n) { ocFlatMapChain($0) }
        case "OpenCombine/FlatMapsCreating": result = ocCreate(n) { ocFlatMapChain($0) }
        case "OpenCombine/FlatMapLatestPumping": result = ocPump(n) { ocFlatMapLatestChain($0) }
        case "OpenCombine/FlatMapLatestCreating": result = ocCreate(n) { ocFlatMapLatestChain($0) }
        #endif
        default: fatalError("unknown workload \(name)")
        }
        print(name, n, result)
    }
}
