import Foundation
import Dispatch
import RippleCore
import RippleNodes

/// EasyReact's basic operators (the seed `EasyReact-BasicOperators.md`), with RippleNodes.
let nodesSection = TourSection(name: "nodes", summary: "EasyReact's node graph: nodes, listeners, transforms (RippleNodes)") { log in
    let bag = CancelBag()

    log.heading("RippleNodes — creating, setting and reading nodes")
    log.code("let c = Node(33); let m = c.mutablify()   // m === c")
    let nodeC = Node(33)
    log.print("mutable: \(nodeC.isMutable)")
    let mutableNodeC = nodeC.mutablify()
    log.print("mutable: \(nodeC.isMutable), same object: \(mutableNodeC === nodeC)")
    let reading = MutableNode<Int>()
    log.print("value: \(String(describing: reading.value)), valueWithDefault: \(reading.value(or: 0))")
    reading.value = 33
    log.print("value: \(String(describing: reading.value)), valueWithDefault: \(reading.value(or: 0))")

    log.heading("listening")
    log.code("node.listened(by: listener).withBlock { print(\"下一个值是 \\($0)\") }")
    let listened = MutableNode(1)
    do {
        let listener = CancelBag()
        listened.listened(by: listener).withBlock { log.print("下一个值是 \($0)") }
        listened.value = 2
        listened.clean()
        listened.value = 3
    }
    listened.value = 4  // the listener is gone: nothing printed
    log.code("withContextBlock { next, context in … }")
    let withContext = MutableNode(1)
    withContext.listened(by: bag).withContextBlock { next, context in
        log.print("下一个值是 \(next)，上下文是 \(context.map { "\($0)" } ?? "(null)")")
    }
    withContext.set(2, context: "嘿，是我")

    log.heading("linking two nodes")
    log.code("nodeB.link(to: nodeA, transform: transform); transform.to = nil")
    let nodeA = MutableNode(1)
    let nodeB = Node<Int>()
    let transform = Transform<Int, Int>()
    nodeB.link(to: nodeA, transform: transform)
    log.print("\(nodeB.value!)")
    nodeA.value = 2
    log.print("\(nodeB.value!)")
    transform.to = nil
    nodeA.value = 3
    log.print("\(nodeB.value!)")

    log.heading("basic transforms")
    log.code("nodeA.mapReplace(\"叮铃，有值啦！\")")
    let replaced = MutableNode(1)
    replaced.mapReplace("叮铃，有值啦！").listened(by: bag).withBlock { log.print($0) }
    replaced.value = 2
    replaced.value = 3
    log.code("nodeA.ignore(1) / nodeA.select(1)")
    let selecting = MutableNode(1)
    selecting.ignore(1).listened(by: bag).withBlock { log.print("NodeB 收到 \($0)") }
    selecting.select(1).listened(by: bag).withBlock { log.print("NodeC 收到 \($0)") }
    for value in [12, 1, 7] { selecting.value = value }
    log.code("nodeA.distinctUntilChanged()")
    let distinct = MutableNode(1)
    distinct.distinctUntilChanged().listened(by: bag).withBlock { log.print("收到 \($0)") }
    for value in [1, 2, 2, 1, 2] { distinct.value = value }

    log.code("inputNode.debounce(.milliseconds(300), on: .queue(q))   // the seed's throttle:, 1 s")
    let debounceQueue = DispatchQueue(label: "ripple.tour.debounce")
    let inputNode = MutableNode<String>()
    let searchNode = inputNode.debounce(.milliseconds(300), on: .queue(debounceQueue))
    searchNode.listened(by: bag).withBlock { log.print("想要搜索的是 \($0)") }
    for text in ["h", "he", "hel", "hell", "hello"] { inputNode.value = text }
    try? await Task.sleep(for: .milliseconds(400))
    for text in ["hello ", "hello w", "hello wo", "hello wor", "hello worl", "hello world"] { inputNode.value = text }
    try? await Task.sleep(for: .milliseconds(400))

    log.code("nodeA.skip(2) / nodeA.take(2)")
    let counted = MutableNode<Int>()
    let skipped = counted.skip(2)
    let taken = counted.take(2)
    for value in [1, 2, 3] {
        counted.value = value
        log.print("set \(value): skip → \(skipped.value.map(String.init) ?? "empty"), take → \(taken.value.map(String.init) ?? "empty")")
    }
    log.code("nodeA.scan(start: []) { $0 + [$1] }")
    let scanned = MutableNode<Int>()
    scanned.scan(start: [Int]()) { $0 + [$1] }.listened(by: bag).withBlock { log.print("接收到 \($0)") }
    for value in 1...5 { scanned.value = value }

    log.heading("combine, merge, zip")
    log.code("Node.combine(nodeA, nodeB).mapEach { a, b in a + b }")
    let left = MutableNode(1)
    let right = MutableNode(2)
    let sum = Node.combine(left, right).mapEach { a, b in a + b }
    log.print("\(sum.value!)")
    left.value = 4
    log.print("\(sum.value!)")
    right.value = 6
    log.print("\(sum.value!)")
    log.code("nodeA.merge(nodeB)")
    let mergeA = MutableNode(1)
    let mergeB = MutableNode(2)
    let merged = mergeA.merge(mergeB)
    log.print("\(merged.value!)")
    mergeA.value = 3
    log.print("\(merged.value!)")
    mergeB.value = 4
    log.print("\(merged.value!)")
    log.code("nodeA.zip(nodeB)")
    let zipA = MutableNode(1)
    let zipB = MutableNode(2)
    zipA.zip(zipB).listened(by: bag).withBlock { log.print("接收到 (first = \($0.0); second = \($0.1))") }
    zipA.value = 3
    zipA.value = 4
    zipB.value = 5
    zipA.value = 6
    zipB.value = 7

    log.heading("switch-case-default, if-then-else")
    log.code("let nodes = node.switchMap { … }; nodes.case(\"李雷\"); nodes.default")
    let script = MutableNode<String>()
    let nodes = script.switchMap { next -> (String?, String) in
        let parts = next.split(separator: "：", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count > 1 ? (String(parts[0]), String(parts[1])) : (nil, next)
    }
    nodes.case("李雷").listened(by: bag).withBlock { log.print("李雷节点接到台词： \($0)") }
    nodes.case("韩梅梅").listened(by: bag).withBlock { log.print("韩梅梅节点接到台词： \($0)") }
    nodes.default.listened(by: bag).withBlock { log.print("旁白节点接到台词： \($0)") }
    for line in ["在一个宁静的下午", "李雷：大家好，我叫李雷。", "韩梅梅：大家好，我叫韩梅梅。", "李雷：你好韩梅梅。", "韩梅梅：你好李雷。",
                 "于是他们幸福的在一起了"] {
        script.value = line
    }
    log.code("node.if { $0 > 0 }.then { … }.else { … }")
    let signed = MutableNode<Int>()
    signed.if { $0 > 0 }.then { node in
        node.listened(by: bag).withBlock { log.print("符合条件的有：\($0)") }
    }.else { node in
        node.listened(by: bag).withBlock { log.print("不符合条件的有：\($0)") }
    }
    for value in [1, -1, 2, 0, -3] { signed.value = value }

    log.heading("sync")
    log.code("let cancelable = nodeA.syncWith(nodeB)")
    let syncA = MutableNode<Int>()
    let syncB = MutableNode<Int>()
    let cancelable = syncA.syncWith(syncB)
    syncA.value = 1
    log.print("nodeB: \(syncB.value!)")
    syncB.value = 2
    log.print("nodeA: \(syncA.value!)")
    cancelable.cancel()
    syncA.value = 3
    log.print("nodeB after cancel: \(syncB.value!)")

    log.heading("flatten, flattenMap")
    log.code("node.flattenMap { next in insideNode.deliver(on: .queue(q)) }")
    let deliveryQueue = DispatchQueue(label: "ripple.tour.deliver")
    let digits = MutableNode<Int>()
    let flattened = digits.flattenMap { next -> Node<Int> in
        var value = next
        let insideNode = MutableNode<Int>()
        let returnNode = insideNode.deliver(on: .queue(deliveryQueue))
        while value != 0 {
            insideNode.value = value % 10
            value /= 10
        }
        return returnNode
    }
    flattened.listened(by: bag).withBlock { log.print("FlattenMappedNode 收到了 \($0)") }
    for value in [12, 0, 27, 9527] {
        // Like the seed's main queue, deliveries run after the set that caused them has returned.
        deliveryQueue.suspend()
        digits.value = value
        deliveryQueue.resume()
        await withCheckedContinuation { continuation in deliveryQueue.async { continuation.resume() } }
    }

    log.heading("graph")
    log.code("input.graph()   // Graphviz DOT; graph(format: .mermaid) for GitHub")
    let input = MutableNode<String>().named("input")
    let search = input.filter { !$0.isEmpty }.named("search")
    let length = search.map(\.count).named("length")
    let dot = input.graph()
    for line in dot.split(separator: "\n") { log.print(String(line)) }
    writeGraph(dot, named: "ripple-graph.dot", log: log)
    writeGraph(input.graph(format: .mermaid), named: "ripple-graph.mmd", log: log)
    _ = length
    bag.cancel()
}

/// Saves one rendering of the section's graph next to where the tour runs, and says where.
private func writeGraph(_ text: String, named fileName: String, log: TourLog) {
    let path = URL(fileURLWithPath: log.outputDirectory).appendingPathComponent(fileName).path
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        log.print("wrote \(fileName) to \(path)")
    } catch {
        log.print("could not write \(fileName) to \(path): \(error)")
    }
}
