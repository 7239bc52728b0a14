import Contracts
import DonationsDomain
import Foundation
import Logging
import ServiceLifecycle

/// Makes each month's donation of every active monthly donation, inside the service.
///
/// Each tick asks the read model which monthly donations have not run this month (by the
/// injected clock) and runs each through ``DonationsCommands/runRecurring(_:month:)``, which
/// makes the donation at most once however many replicas tick at the same time, or however
/// often the service restarts. A month missed entirely (the service was down all of it) is
/// not made up later: nobody is charged for a month after it has passed.
public struct RecurringScheduler: Service {
    let commands: DonationsCommands
    let queries: DonationQueries
    let interval: Duration
    let logger: Logger

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    _ = try await tick()
                } catch {
                    logger.warning("monthly donations: tick failed", metadata: ["error": "\(String(reflecting: error))"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// One pass over what is due this month; returns the runs it recorded.
    @discardableResult
    public func tick() async throws -> [RecurringDonationRun] {
        let month = Month(containing: commands.clock.now())
        var runs: [RecurringDonationRun] = []
        for id in try await queries.due(in: month) {
            if let run = try await commands.runRecurring(id, month: month) {
                logger.info(
                    "monthly donation run",
                    metadata: ["recurringId": "\(id.lowercasedText)", "month": "\(month)", "outcome": "\(run.outcome.rawValue)"])
                runs.append(run)
            }
        }
        return runs
    }
}
