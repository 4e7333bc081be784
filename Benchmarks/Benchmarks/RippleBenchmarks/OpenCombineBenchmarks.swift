import Benchmark
import OpenCombine

/// The peer: OpenCombine 0.14 (Combine's API on Linux). It has no combineLatest, so that workload is Ripple-only.
func registerOpenCombineBenchmarks() {
    Benchmark("SubjectPumping/OpenCombine", configuration: configuration(.mega)) { benchmark in
        let sum = Sum()
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject.sink { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subject.send(1) }
        benchmark.stopMeasurement()
        subscription.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "SubjectPumping/OpenCombine")
    }

    Benchmark("SubjectPumpingTwoSubscribers/OpenCombine", configuration: configuration(.mega)) { benchmark in
        let sum = Sum()
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.sink { sum.value &+= $0 }
        let second = subject.sink { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subject.send(1) }
        benchmark.stopMeasurement()
        first.cancel()
        second.cancel()
        check(sum, equals: 2 * benchmark.scaledIterations.count, "SubjectPumpingTwoSubscribers/OpenCombine")
    }

    Benchmark("SubjectCreating/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let subject = PassthroughSubject<Int, Never>()
            let subscription = subject.sink { sum.value &+= $0 }
            subject.send(1)
            subscription.cancel()
        }
        check(sum, equals: benchmark.scaledIterations.count, "SubjectCreating/OpenCombine")
    }

    Benchmark("MapFilterPumping/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let subject = PassthroughSubject<Int, Never>()
        let subscription = mapFilterChain(subject).sink { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subject.send(1) }
        benchmark.stopMeasurement()
        subscription.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "MapFilterPumping/OpenCombine")
    }

    Benchmark("MapFilterCreating/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let subscription = mapFilterChain(Just(1)).sink { sum.value &+= $0 }
            subscription.cancel()
        }
        check(sum, equals: benchmark.scaledIterations.count, "MapFilterCreating/OpenCombine")
    }

    Benchmark("FlatMapsPumping/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let subject = PassthroughSubject<Int, Never>()
        let subscription = flatMapChain(subject).sink { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subject.send(1) }
        benchmark.stopMeasurement()
        subscription.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapsPumping/OpenCombine")
    }

    Benchmark("FlatMapsCreating/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let subscription = flatMapChain(Just(1)).sink { sum.value &+= $0 }
            subscription.cancel()
        }
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapsCreating/OpenCombine")
    }

    Benchmark("FlatMapLatestPumping/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let subject = PassthroughSubject<Int, Never>()
        let subscription = flatMapLatestChain(subject).sink { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subject.send(1) }
        benchmark.stopMeasurement()
        subscription.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapLatestPumping/OpenCombine")
    }

    Benchmark("FlatMapLatestCreating/OpenCombine", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let subscription = flatMapLatestChain(Just(1)).sink { sum.value &+= $0 }
            subscription.cancel()
        }
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapLatestCreating/OpenCombine")
    }
}

// The chains are spelled out with concrete types, as Combine code is written; erasing at each step would add a box
// per hop and handicap the peer.
private func mapFilterChain<Source: Publisher>(_ source: Source) -> some Publisher<Int, Never>
where Source.Output == Int, Source.Failure == Never {
    source
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
}

private func flatMapChain<Source: Publisher>(_ source: Source) -> some Publisher<Int, Never>
where Source.Output == Int, Source.Failure == Never {
    source
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
}

private func flatMapLatestChain<Source: Publisher>(_ source: Source) -> some Publisher<Int, Never>
where Source.Output == Int, Source.Failure == Never {
    source
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
}
