import CommonsAPI

/// The demo people, all with one published password, so that anyone trying Commons can
/// sign in as them: which is why `commons seed` runs only with `--demo`.
enum DemoAccounts {
    static let password = "share-and-care-42"

    static let people: [(email: String, displayName: String)] = [
        ("ada@commons.local", "Ada Lovelace"),
        ("grace@commons.local", "Grace Hopper"),
        ("alan@commons.local", "Alan Turing"),
    ]
}

/// Registers the demo accounts (`409`: it exists already, which is fine) and prints their credentials.
func seedAccounts(_ api: SeedClient, _ state: inout SeedState, _ report: (String) -> Void) async throws {
    report("accounts: \(DemoAccounts.people.count) demo accounts and the demo admin \(DemoAdmin.email), each with the password \"\(state.password)\"")
    let emailWidth = DemoAccounts.people.map(\.email.count).max() ?? 0
    let nameWidth = DemoAccounts.people.map(\.displayName.count).max() ?? 0
    for person in DemoAccounts.people {
        let answer = try await api.post(
            "/v1/accounts", Registration(email: person.email, password: state.password, displayName: person.displayName))
        let outcome: String
        switch answer.status {
        case 201:
            state.remember(accessToken: try answer.decode(Tokens.self).accessToken, of: person.email)
            outcome = "created"
        case 409:
            outcome = "exists already"
        default:
            throw CommandFailure("accounts: registering \(person.email) answered \(answer.status): \(answer.detail)")
        }
        report("  \(padded(person.email, to: emailWidth))  \(padded(person.displayName, to: nameWidth))  \(outcome)")
    }
}

private func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}
