/// The last lines `commons up` prints once the stack is ready (and seeded, on a first
/// start): where to open it, who to sign in as, and how to stop it.
struct UpWelcome {
    /// The gateway's address, which serves the web app at `/`.
    let gatewayURL: String
    /// Whether this data directory holds the demo data, so that the demo accounts exist.
    let hasDemoData: Bool

    var lines: [String] {
        var lines = ["Commons is running: open \(gatewayURL)/ in a browser"]
        if hasDemoData {
            let people = DemoAccounts.people.map(\.email)
            lines.append(
                "  sign in as \(people.dropLast().joined(separator: ", ")) or \(people.last ?? "")"
                    + " (the administrator: \(DemoAdmin.email)), password \"\(DemoAccounts.password)\"")
        }
        lines.append("  the API's reference: \(gatewayURL)/docs/")
        lines.append("  Ctrl-C stops everything")
        return lines
    }
}
