import Contracts
import DonationsDomain
import EventLog
import Foundation
import Synchronization

/// The wallets this process has read, kept up to date from their streams: loading a wallet
/// reads only the events appended since it was last seen, and work on one wallet runs one
/// at a time here (``KeyedLock``). The log stays the authority: every append still names
/// the version it decided on.
final class WalletBook: Sendable {
    private let store: any EventStore
    private let lock = KeyedLock()
    private let wallets = Mutex<[UUID: WalletState]>([:])
    /// Beyond this many wallets the cache starts again, to bound memory.
    private let capacity = 50_000

    init(store: any EventStore) {
        self.store = store
    }

    /// Runs `body` alone for this wallet, with its state as the log has it now.
    func withWallet<T>(_ account: UUID, _ body: (WalletState) async throws -> T) async throws -> T {
        try await lock.withLock(account.lowercasedText) {
            try await body(try await current(account))
        }
    }

    /// The wallet as the log has it now.
    func current(_ account: UUID) async throws -> WalletState {
        var state = wallets.withLock { $0[account] } ?? WalletState()
        let (events, _) = try await Streams.load(Streams.wallet(account), from: state.version + 1, store: store)
        guard !events.isEmpty else { return state }
        for event in events { state.evolve(event) }
        remember(state, of: account)
        return state
    }

    /// Keeps a state this process has just appended to, so that the next load starts from it.
    func remember(_ state: WalletState, of account: UUID) {
        wallets.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            if (table[account]?.version ?? -1) < state.version { table[account] = state }
        }
    }
}
