import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// The seed's "组合", "分支", "同步" and "高阶变换" sections.
@Suite("Seed: combine, merge, zip, switch, if, sync, flatten")
struct SeedCombiningTests {
    @Test func combineMapEach() {
        let nodeA = MutableNode(1)
        let nodeB = MutableNode(2)
        let nodeC = Node.combine(nodeA, nodeB).mapEach { a, b in a + b }
        #expect(nodeC.value == 3)
        nodeA.value = 4
        #expect(nodeC.value == 6)
        nodeB.value = 6
        #expect(nodeC.value == 10)
    }

    @Test func combineThreeAndMethodForm() {
        let a = MutableNode(1)
        let b = MutableNode("x")
        let c = MutableNode<Double>()
        let all = Node.combine(a, b, c)
        #expect(all.isEmpty)
        c.value = 0.5
        #expect(all.value.map { "\($0.0)\($0.1)\($0.2)" } == "1x0.5")
        let pair = a.combine(b).mapEach { number, text in "\(text)\(number)" }
        #expect(pair.value == "x1")
    }

    @Test func merge() {
        let nodeA = MutableNode(1)
        let nodeB = MutableNode(2)
        let nodeC = nodeA.merge(nodeB)
        #expect(nodeC.value == 2)
        nodeA.value = 3
        #expect(nodeC.value == 3)
        nodeB.value = 4
        #expect(nodeC.value == 4)
        let many = Node.merge(nodeA, MutableNode<Int>(), nodeB)
        #expect(many.value == 4)
    }

    @Test func zip() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let nodeA = MutableNode(1)
        let nodeB = MutableNode(2)
        let nodeC = nodeA.zip(nodeB)
        nodeC.listened(by: bag).withBlock { lines.record("接收到 (\($0.0), \($0.1))") }
        nodeA.value = 3
        nodeA.value = 4
        nodeB.value = 5
        nodeA.value = 6
        nodeB.value = 7
        #expect(lines.values == ["接收到 (1, 2)", "接收到 (3, 5)", "接收到 (4, 7)"])
        let three = Node.zip(nodeA, nodeB, MutableNode("z"))
        #expect(three.value.map { "\($0.0)\($0.1)\($0.2)" } == "67z")
    }

    static let script = ["在一个宁静的下午", "李雷：大家好，我叫李雷。", "韩梅梅：大家好，我叫韩梅梅。", "李雷：你好韩梅梅。",
                         "韩梅梅：你好李雷。", "于是他们幸福的在一起了"]

    @Test func switchCaseDefault() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let node = MutableNode<String>()
        let nodes = node.switch { next -> String? in
            let components = next.split(separator: "：", omittingEmptySubsequences: false)
            return components.count > 1 ? String(components[0]) : nil
        }
        let liLeiSaid = nodes.case("李雷")
        let hanMeimeiSaid = nodes.case("韩梅梅")
        let aside = nodes.default
        liLeiSaid.listened(by: bag).withBlock { lines.record("李雷节点接到台词： \($0)") }
        hanMeimeiSaid.listened(by: bag).withBlock { lines.record("韩梅梅节点接到台词： \($0)") }
        aside.listened(by: bag).withBlock { lines.record("旁白节点接到台词： \($0)") }
        for line in Self.script { node.value = line }
        #expect(lines.values == [
            "旁白节点接到台词： 在一个宁静的下午", "李雷节点接到台词： 李雷：大家好，我叫李雷。",
            "韩梅梅节点接到台词： 韩梅梅：大家好，我叫韩梅梅。", "李雷节点接到台词： 李雷：你好韩梅梅。",
            "韩梅梅节点接到台词： 韩梅梅：你好李雷。", "旁白节点接到台词： 于是他们幸福的在一起了",
        ])
    }

    @Test func switchMapCaseDefault() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let node = MutableNode<String>()
        let nodes = node.switchMap { next -> (String?, String) in
            let components = next.split(separator: "：", maxSplits: 1, omittingEmptySubsequences: false)
            return components.count > 1 ? (String(components[0]), String(components[1])) : (nil, next)
        }
        nodes.case("李雷").listened(by: bag).withBlock { lines.record("李雷节点接到台词： \($0)") }
        nodes.case("韩梅梅").listened(by: bag).withBlock { lines.record("韩梅梅节点接到台词： \($0)") }
        nodes.default.listened(by: bag).withBlock { lines.record("旁白节点接到台词： \($0)") }
        for line in Self.script { node.value = line }
        #expect(lines.values == [
            "旁白节点接到台词： 在一个宁静的下午", "李雷节点接到台词： 大家好，我叫李雷。", "韩梅梅节点接到台词： 大家好，我叫韩梅梅。",
            "李雷节点接到台词： 你好韩梅梅。", "韩梅梅节点接到台词： 你好李雷。", "旁白节点接到台词： 于是他们幸福的在一起了",
        ])
    }

    @Test func ifThenElse() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let node = MutableNode<Int>()
        node.if { $0 > 0 }.then { node in
            node.listened(by: bag).withBlock { lines.record("符合条件的有：\($0)") }
        }.else { node in
            node.listened(by: bag).withBlock { lines.record("不符合条件的有：\($0)") }
        }
        for value in [1, -1, 2, 0, -3] { node.value = value }
        #expect(lines.values == ["符合条件的有：1", "不符合条件的有：-1", "符合条件的有：2", "不符合条件的有：0", "不符合条件的有：-3"])
    }

    @Test func ifResultThenNode() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let node = MutableNode<Int>()
        let result = node.if { $0 > 0 }
        let positiveNode = result.thenNode
        positiveNode.listened(by: bag).withBlock { lines.record("正数的有：\($0)") }
        for value in [1, -1, 2, 0, -3] { node.value = value }
        #expect(lines.values == ["正数的有：1", "正数的有：2"])
    }

    @Test func syncWith() {
        let nodeA = MutableNode<Int>()
        let nodeB = MutableNode<Int>()
        let cancelable = nodeA.syncWith(nodeB)
        nodeA.value = 1
        #expect(nodeB.value == 1)
        nodeB.value = 2
        #expect(nodeA.value == 2)
        cancelable.cancel()
        nodeA.value = 3
        #expect(nodeB.value == 2)
    }

    @Test func syncWithTransformRevert() {
        let nodeA = MutableNode<Int>()
        let nodeB = MutableNode<Int>()
        let cancelable = nodeA.syncWith(nodeB, transform: { $0 / 2 }, revert: { $0 * 2 })
        nodeA.value = 1
        #expect(nodeB.value == 2)
        nodeB.value = 4
        #expect(nodeA.value == 2)
        cancelable.cancel()
    }

    @Test func syncWithTakesTheOthersValueFirst() {
        let nodeA = MutableNode(1)
        let nodeB = MutableNode(2)
        let cancelable = nodeA.syncWith(nodeB)
        #expect(nodeA.value == 2 && nodeB.value == 2)
        cancelable.cancel()
    }

    @Test func manualThreeNodeSync() {
        let nodeA = MutableNode<Int>()
        let nodeB = MutableNode<Int>()
        let nodeC = MutableNode<Int>()
        nodeB.link(to: nodeA)
        nodeC.link(to: nodeB)
        nodeA.link(to: nodeC)
        nodeA.value = 1
        #expect(nodeB.value == 1 && nodeC.value == 1)
        nodeB.value = 2
        #expect(nodeC.value == 2 && nodeA.value == 2)
        nodeC.value = 3
        #expect(nodeA.value == 3 && nodeB.value == 3)
        nodeA.removeUpstreams()
        nodeB.removeUpstreams()
        nodeC.removeUpstreams()
    }

    @Test func flatten() {
        let nodeA = MutableNode<Int>()
        let nodeB = MutableNode<Int>()
        let nodeC = MutableNode<Int>()
        let highOrderNode = MutableNode<Node<Int>>()
        let flattenedNode = highOrderNode.flatten()
        highOrderNode.value = nodeA
        nodeA.value = 1
        #expect(flattenedNode.value == 1)
        highOrderNode.value = nodeB
        nodeB.value = 2
        #expect(flattenedNode.value == 2)
        nodeA.value = 3
        #expect(flattenedNode.value == 2)
        highOrderNode.value = nodeC
        nodeC.value = 4
        #expect(flattenedNode.value == 4)
    }

    @Test func flattenMap() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let main = TestScheduler()
        let node = MutableNode<Int>()
        let flattenMappedNode = node.flattenMap { next -> Node<Int> in
            var value = next
            let insideNode = MutableNode<Int>()
            let returnNode = insideNode.deliver(on: main)
            while value != 0 {
                insideNode.value = value % 10
                value /= 10
            }
            return returnNode
        }
        flattenMappedNode.listened(by: bag).withBlock { lines.record("FlattenMappedNode 收到了 \($0)") }
        for value in [12, 0, 27, 9527] {
            node.value = value
            main.run()
        }
        #expect(lines.values == ["2", "1", "7", "2", "7", "2", "5", "9"].map { "FlattenMappedNode 收到了 \($0)" })
    }
}
