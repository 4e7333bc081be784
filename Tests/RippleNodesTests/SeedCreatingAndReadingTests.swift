import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// The seed's "创建节点", "修改节点的值" and "获取节点的值" sections.
@Suite("Seed: creating, setting and reading nodes")
struct SeedCreatingAndReadingTests {
    @Test func creatingNodes() {
        let nodeA = Node(15)
        let nodeB = Node<Int>()
        let nodeC: Node<Int> = Node(33)
        #expect(nodeA.value == 15)
        #expect(nodeB.isEmpty)
        #expect(nodeC.value == 33)
        #expect(!nodeA.isMutable)

        let mutableA = MutableNode(15)
        let mutableB = MutableNode<Int>()
        #expect(mutableA.value == 15 && mutableA.isMutable)
        #expect(mutableB.isEmpty && mutableB.isMutable)
    }

    @Test func mutablifyIsTheSameObjectAndOneWay() {
        let nodeC = Node(33)
        #expect(nodeC.isMutable == false)
        let mutableNodeC = nodeC.mutablify()
        #expect(mutableNodeC === nodeC)
        #expect(nodeC.isMutable)
        #expect(mutableNodeC.isMutable)
        mutableNodeC.value = 34
        #expect(nodeC.value == 34)
    }

    @Test func settingCleaningAndContext() {
        let node = MutableNode(55)
        node.value = 82
        #expect(node.value == 82)
        node.clean()
        #expect(node.value == nil)
        #expect(node.isEmpty)
        let bag = CancelBag()
        let contexts = Recorder<String>()
        node.listened(by: bag).withContextBlock { value, context in
            contexts.record("\(value) \(context as? String ?? "nil")")
        }
        node.set(83, context: "看，是File1.m写的！")
        #expect(contexts.values == ["83 看，是File1.m写的！"])
    }

    @Test func optionalValuesCanHoldNil() {
        let node = MutableNode<Int?>()
        #expect(node.isEmpty)
        node.set(.some(nil), context: nil)
        #expect(!node.isEmpty)
        #expect(node.value == .some(nil))
        node.value = nil
        #expect(node.isEmpty)
    }

    @Test func readingInstantValues() {
        let node = MutableNode<Int>()
        #expect(node.value == nil)
        node.value = 33
        #expect(node.value == 33)
        node.clean()
        #expect(node.value == nil)

        #expect(node.value(or: 0) == 0)
        node.value = 33
        #expect(node.value(or: 0) == 33)

        let seen = Recorder<Int>()
        let empty = MutableNode<Int>()
        empty.withValue { seen.record($0) }
        #expect(seen.values.isEmpty)
        empty.value = 33
        empty.withValue { seen.record($0) }
        #expect(seen.values == [33])
    }

    @Test func namesAndDescription() {
        let node = MutableNode(1)
        #expect(node.description.contains("undefined"))
        #expect(node.named("search") === node)
        #expect(node.name == "search")
        #expect(node.description.contains("search"))
    }
}
