import Foundation
import NIOPosix
import ServiceKit
import Synchronization

/// Bounds the photo cleaning of one process: at most `slots` jobs run at once (each takes a
/// core for up to a second), at most `queue` more wait for one, and one account has at most
/// `perAccount` running or waiting. Past a bound an upload is refused at once, 503 when the
/// process is full and 429 when the account is, each with `Retry-After`, so that a burst of
/// uploads leaves the service's reads their cores. A job whose request is gone while it
/// waits never starts.
final class PhotoJobs: Sendable {
    private struct State {
        var running = 0
        var waiting: [(ticket: UUID, account: UUID, turn: CheckedContinuation<Void, any Error>)] = []
        var perAccount: [UUID: Int] = [:]

        /// One job of `account` fewer.
        mutating func forget(_ account: UUID) {
            let left = (perAccount[account] ?? 1) - 1
            perAccount[account] = left > 0 ? left : nil
        }
    }

    let slots: Int
    let queue: Int
    let perAccount: Int
    private let state = Mutex(State())

    init(slots: Int, queue: Int, perAccount: Int) {
        self.slots = slots
        self.queue = queue
        self.perAccount = perAccount
    }

    /// How many jobs wait for a slot now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `job` on NIO's thread pool for `account` once a slot is free.
    func run<T: Sendable>(for account: UUID, _ job: @escaping @Sendable () throws -> T) async throws -> T {
        try await admit(account)
        defer { leave(account) }
        try Task.checkCancellation()
        return try await NIOThreadPool.singleton.runIfActive(job)
    }

    /// Why an upload of `account` would be refused now (429 or 503), or nil: checked before
    /// its body is read, so that a full account or process does not take in megabytes only to
    /// refuse them. ``run(for:_:)`` checks again, under the lock.
    func refusal(for account: UUID) -> Problem? {
        state.withLock { refusal(for: account, in: $0) }
    }

    /// The one rule of admission: an account at its share is refused (429), and so is any job
    /// when every slot runs and the queue is full (503).
    private func refusal(for account: UUID, in state: State) -> Problem? {
        if state.perAccount[account, default: 0] >= perAccount { return accountFull }
        if state.running >= slots, state.waiting.count >= queue { return full }
        return nil
    }

    private enum Admission {
        case now, queued
        case refused(any Error)
    }

    /// Takes a slot for `account`, or a place in the queue and then a slot, or refuses.
    private func admit(_ account: UUID) async throws {
        let ticket = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (turn: CheckedContinuation<Void, any Error>) in
                // Decided and queued under one lock, so that no slot is freed in between.
                let admission = state.withLock { state -> Admission in
                    // Cancelled before it could queue: the handler below found nothing to take out.
                    if Task.isCancelled { return .refused(CancellationError()) }
                    if let refusal = refusal(for: account, in: state) { return .refused(refusal) }
                    state.perAccount[account, default: 0] += 1
                    if state.running < slots {
                        state.running += 1
                        return .now
                    }
                    state.waiting.append((ticket, account, turn))
                    return .queued
                }
                switch admission {
                case .now: turn.resume()
                case .queued: break
                case .refused(let error): turn.resume(throwing: error)
                }
            }
        } onCancel: {
            let turn = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                let waiter = state.waiting.remove(at: index)
                state.forget(waiter.account)
                return waiter.turn
            }
            turn?.resume(throwing: CancellationError())
        }
    }

    private var accountFull: Problem {
        Problem(
            .tooManyRequests, type: "too-many-uploads",
            detail: "You have \(perAccount) photos being processed already; send the next when one is done.", headers: ["Retry-After": "2"])
    }

    private var full: Problem {
        Problem(
            .serviceUnavailable, type: "photo-queue-full", detail: "Too many photos are being processed now; try again shortly.",
            headers: ["Retry-After": "5"])
    }

    /// Frees `account`'s place and hands the slot to the first waiting job, if any.
    private func leave(_ account: UUID) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.forget(account)
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst().turn
        }
        next?.resume()
    }
}
