import EventLog
import Foundation

/// What ``WrappedKeyVault/status()`` finds: how the live keys are wrapped, and which
/// destroyed keys still have copies that open (in backups, WAL archives and dead rows, taken
/// before they were destroyed) with a secret the services are given.
public struct KeyVaultStatus: Sendable, Equatable {
    public var liveUnderCurrent = 0
    public var liveUnderPrevious = 0
    /// Keys stored before keys were wrapped: `commons keys rewrap` wraps them.
    public var liveUnwrapped = 0
    /// Destroyed while the current secret wrapped them: their copies open until it is rotated.
    public var destroyedUnderCurrent: DestroyedKeys?
    /// Destroyed while the previous secret (still given, mid-rotation) wrapped them.
    public var destroyedUnderPrevious: DestroyedKeys?
    /// Destroyed under secrets the services are no longer given: their copies open only
    /// where a copy of such a secret survives.
    public var destroyedUnderRetired: [DestroyedKeys] = []
    /// Destroyed before the vault recorded the wrapping secret.
    public var destroyedUnrecorded: DestroyedKeys?

    public init() {}

    /// The earliest destruction whose copies still open with a secret the services hold:
    /// the erasure horizon runs from it until the secret is rotated.
    public var oldestStillOpenable: Date? {
        [destroyedUnderCurrent, destroyedUnderPrevious].compactMap { $0?.earliest }.min()
    }
}
