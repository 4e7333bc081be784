import RippleCore
import RippleSignals
import RippleTesting
import Testing

@Suite("ObservableProperty: delivery in registration order")
struct ObservablePropertyOrderTests {
    /// 64 subscribers, a third of them disposed from the middle: every value reaches the rest in the order they
    /// subscribed, every time (a dictionary of subscribers changed that order from run to run).
    @Test func everyValueReachesSubscribersInRegistrationOrder() {
        let property = ObservableProperty(0)
        let heard = Recorder<Int>()
        var disposers: [Disposer] = []
        for index in 0..<64 {
            disposers.append(property.signal.subscribe(value: { value in
                if value > 0 { heard.record(index) }
            }))
        }
        for index in stride(from: 1, to: 64, by: 3) { disposers[index].dispose() }
        let remaining = (0..<64).filter { $0 % 3 != 1 }
        for round in 1...3 {
            heard.reset()
            property.value = round
            #expect(heard.values == remaining)
        }
        // A subscriber added after removals still comes last.
        let late = property.signal.subscribe(value: { value in if value > 0 { heard.record(100) } })
        heard.reset()
        property.value = 9
        #expect(heard.values == remaining + [100])
        late.dispose()
        disposers.forEach { $0.dispose() }
    }
}
