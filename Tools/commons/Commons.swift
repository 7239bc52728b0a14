import ArgumentParser

/// The `commons` command: runs the stack locally and operates the event log.
@main
struct Commons: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commons",
        abstract: "Run Commons locally and operate its event log.",
        subcommands: [
            Up.self, Seed.self, OpenAPICommand.self, Events.self, Replay.self, AccountsGroup.self, KeysGroup.self, CatalogGroup.self, Bench.self,
        ]
    )
}
