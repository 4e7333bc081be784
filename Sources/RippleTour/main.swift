import Foundation

switch Tour.parse(Array(CommandLine.arguments.dropFirst())) {
case .help:
    print(Tour.usage)
case .invalid(let message):
    FileHandle.standardError.write(Data("ripple-tour: \(message)\n\n\(Tour.usage)\n".utf8))
    exit(2)
case .run(let names):
    await Tour.run(names, echo: true)
}
