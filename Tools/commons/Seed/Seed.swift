import ArgumentParser
import AsyncHTTPClient
import Foundation

/// `commons seed`: demo data through the public API of a running stack.
struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create demo data through the public API of a running stack.",
        discussion: """
            Goes through the gateway like any client. Services that are not running are skipped, \
            and what exists already is left as it is, so running it again is harmless. \
            `commons up` runs it by itself on the first start in a data directory.
            """)

    @Option(help: ArgumentHelp("The gateway of the stack.", valueName: "url"))
    var gateway = "http://127.0.0.1:8080"

    /// Where a step that needs an operator command (the demo admin) finds the log.
    @OptionGroup var store: EventStoreOption

    @Flag(help: "Required: yes, make demo accounts and a demo admin with the published demo password (never on a deployment people use).")
    var demo = false

    func validate() throws {
        guard demo else {
            throw ValidationError(
                """
                commons seed makes demo accounts and an admin whose password is published in the README; \
                pass --demo to mean it (commons up does, for its development stack)
                """)
        }
        guard let url = URL(string: gateway), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--gateway must be an http(s) URL, e.g. http://127.0.0.1:8080")
        }
    }

    func run() async throws {
        var configuration = HTTPClient.Configuration()
        // The client keeps retrying a refused connection until this, and nothing listening should fail fast.
        configuration.timeout = .init(connect: .seconds(2))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let seeder = Seeder(api: SeedClient(gateway: gateway, client: client), eventStore: store.location, password: DemoAccounts.password)
        do {
            let running = try await seeder.runningServices()
            try await seeder.run(running: running) { print($0) }
        } catch {
            try? await client.shutdown()
            throw CommandFailure(error)
        }
        try? await client.shutdown()
    }
}
