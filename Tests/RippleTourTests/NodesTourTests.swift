import Foundation
import Testing

@Suite("ripple-tour: EasyReact's basic operators")
struct NodesTourTests {
    @Test func printsEverySeedSequenceInOrder() async throws {
        let directory = temporaryTourDirectory()
        let lines = await tourLines("nodes", outputDirectory: directory)
        expectInOrder(["下一个值是 1", "下一个值是 2", "下一个值是 3"], in: lines)
        expectInOrder(["下一个值是 1，上下文是 (null)", "下一个值是 2，上下文是 嘿，是我"], in: lines)
        expectInOrder(Array(repeating: "叮铃，有值啦！", count: 3), in: lines)
        expectInOrder(["NodeC 收到 1", "NodeB 收到 12", "NodeC 收到 1", "NodeB 收到 7"], in: lines)
        expectInOrder(["收到 1", "收到 2", "收到 1", "收到 2"], in: lines)
        expectInOrder(["想要搜索的是 hello", "想要搜索的是 hello world"], in: lines)
        #expect(lines.filter { $0.hasPrefix("想要搜索的是") }.count == 2, "the throttle lets exactly two searches through")
        expectInOrder(["接收到 [1]", "接收到 [1, 2]", "接收到 [1, 2, 3]", "接收到 [1, 2, 3, 4]", "接收到 [1, 2, 3, 4, 5]"],
                      in: lines)
        expectInOrder(["接收到 (first = 1; second = 2)", "接收到 (first = 3; second = 5)", "接收到 (first = 4; second = 7)"],
                      in: lines)
        expectInOrder([
            "旁白节点接到台词： 在一个宁静的下午",
            "李雷节点接到台词： 大家好，我叫李雷。",
            "韩梅梅节点接到台词： 大家好，我叫韩梅梅。",
            "李雷节点接到台词： 你好韩梅梅。",
            "韩梅梅节点接到台词： 你好李雷。",
            "旁白节点接到台词： 于是他们幸福的在一起了",
        ], in: lines)
        expectInOrder(["符合条件的有：1", "不符合条件的有：-1", "符合条件的有：2", "不符合条件的有：0", "不符合条件的有：-3"],
                      in: lines)
        expectInOrder(["2", "1", "7", "2", "7", "2", "5", "9"].map { "FlattenMappedNode 收到了 \($0)" }, in: lines)

        let dot = try String(contentsOfFile: directory + "/ripple-graph.dot", encoding: .utf8)
        let mermaid = try String(contentsOfFile: directory + "/ripple-graph.mmd", encoding: .utf8)
        #expect(dot.hasPrefix("digraph"))
        #expect(mermaid.hasPrefix("flowchart"))
        #expect(lines.contains("wrote ripple-graph.mmd to \(directory)/ripple-graph.mmd"))
    }

    @Test func readmeEmbedsTheTourGraph() async throws {
        let directory = temporaryTourDirectory()
        _ = await tourLines("nodes", outputDirectory: directory)
        let mermaid = try String(contentsOfFile: directory + "/ripple-graph.mmd", encoding: .utf8)
        let readme = try String(contentsOfFile: #filePath.replacingOccurrences(
            of: "Tests/RippleTourTests/NodesTourTests.swift", with: "README.md"), encoding: .utf8)
        #expect(readme.contains("```mermaid\n" + mermaid.trimmingCharacters(in: .newlines) + "\n```"))
    }
}
