import ArgumentParser
import EventLog
import Foundation
import ServiceKit

/// `commons keys status`: how the personal-data keys are wrapped, and which destroyed keys
/// still have copies (in backups, WAL archives, dead rows) that open with a secret the
/// services hold, since when: the day by which to rotate the vault secret. `--check` makes
/// it a reminder a scheduler can run: it fails once a rotation is overdue.
struct KeysStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show which destroyed keys still open in backups with the secrets held, and when to rotate.")

    @Option(help: "The erasure horizon: days a destroyed key's copies may keep opening before the secret is rotated.")
    var horizonDays = 30

    @Flag(help: "Exit 1 when a destroyed key's copies have opened for longer than the horizon.")
    var check = false

    @OptionGroup var store: EventStoreOption

    func run() async throws {
        guard horizonDays > 0 else { throw ValidationError("--horizon-days must be at least 1") }
        let (horizonDays, check) = (horizonDays, check)
        try await store.withStore { log in
            let vault = try ServiceRuntime.vault(beside: log, environment: EnvironmentVariables())
            try await vault.checkSecrets()
            let status = try await vault.status()
            let now = Date()
            for line in Self.lines(status, now: now, horizonDays: horizonDays) { print(line) }
            if check, let oldest = status.oldestStillOpenable, now.timeIntervalSince(oldest) > Double(horizonDays) * 86_400 {
                throw CommandFailure("a rotation of COMMONS_KEY_VAULT_SECRET is overdue: run `commons keys rewrap` (docs/operations.md#key-rotation)")
            }
        }
    }

    static func lines(_ status: KeyVaultStatus, now: Date, horizonDays: Int) -> [String] {
        func day(_ date: Date) -> String { date.formatted(.iso8601.year().month().day()) }
        func destroyed(_ group: DestroyedKeys?, _ what: String) -> String? {
            guard let group else { return nil }
            let days = Int(now.timeIntervalSince(group.earliest) / 86_400)
            return "destroyed keys whose copies open with \(what): \(group.count), the first destroyed \(day(group.earliest)) (\(days) days ago)"
        }
        var lines = [
            "live keys: \(status.liveUnderCurrent) wrapped by the current secret, \(status.liveUnderPrevious) by the previous, "
                + "\(status.liveUnwrapped) unwrapped"
        ]
        lines += [destroyed(status.destroyedUnderCurrent, "the current secret"), destroyed(status.destroyedUnderPrevious, "the previous secret")]
            .compactMap { $0 }
        let retired = status.destroyedUnderRetired.map(\.count).reduce(0, +)
        if retired > 0 { lines.append("destroyed keys under secrets no longer given: \(retired) (gone once every copy of those secrets is)") }
        if let unrecorded = status.destroyedUnrecorded {
            lines.append("destroyed keys from before the wrapping secret was recorded: \(unrecorded.count)")
        }
        if let oldest = status.oldestStillOpenable {
            let due = oldest.addingTimeInterval(Double(horizonDays) * 86_400)
            lines.append(
                (due < now ? "overdue since \(day(due))" : "due by \(day(due))")
                    + ": rotate COMMONS_KEY_VAULT_SECRET and run `commons keys rewrap` to keep a \(horizonDays)-day erasure horizon")
        } else {
            lines.append("no destroyed key opens with a secret the services hold: no rotation is due")
        }
        return lines
    }
}
