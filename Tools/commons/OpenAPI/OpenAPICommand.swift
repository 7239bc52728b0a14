import ArgumentParser
import Foundation

/// `commons openapi`: the merged API document, as the gateway serves it.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the OpenAPI document of every service merged, as the gateway serves it at /openapi.json.",
        discussion: "deploy/docs/openapi.json, which nginx serves, is this command's output: `commons openapi --output deploy/docs/openapi.json`.")

    @Option(help: ArgumentHelp("Write the document here instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let document = try CommonsAPI.document()
        if let output {
            try document.write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            FileHandle.standardOutput.write(document)
        }
    }
}
