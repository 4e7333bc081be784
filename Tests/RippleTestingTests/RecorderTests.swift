import Dispatch
import RippleTesting
import Testing

@Suite("Recorder")
struct RecorderTests {
    @Test func recordsInOrder() {
        let recorder = Recorder<Int>()
        recorder.record(1)
        recorder(2)
        #expect(recorder.values == [1, 2])
        #expect(recorder.last == 2)
        recorder.reset()
        #expect(recorder.count == 0)
    }

    @Test func recordsFromManyThreadsWithoutLoss() {
        let recorder = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<1_000 { recorder.record(thread * 1_000 + index) }
        }
        #expect(recorder.count == 8_000)
        #expect(Set(recorder.values).count == 8_000)
    }
}
