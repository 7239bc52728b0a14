import Foundation

/// The first answers to `Idempotency-Key` requests, kept beside the log so that every
/// replica of every service finds them: a retry that reaches another replica gets the first
/// answer, and a duplicate arriving while the first runs elsewhere is told so.
///
/// A record is *claimed* while its request runs, for a lease (a minute, say): a request
/// whose process died mid-way leaves a claim that lapses, after which a retry may run again
/// instead of being refused for as long as the record is kept.
public protocol IdempotencyRecords: Sendable {
    /// Claims `key` in `scope` for a request whose body hashes to `requestHash`, until
    /// `leaseUntil`; or says why not.
    func claim(scope: String, key: String, requestHash: String, now: Date, leaseUntil: Date) async throws -> IdempotencyClaim
    /// Stores the first answer of a claimed key.
    func finish(scope: String, key: String, response: Data) async throws
    /// Gives a claim up (the request failed without effect); a retry may run again.
    func release(scope: String, key: String) async throws
    /// Forgets records made before `cutoff`; returns how many.
    func purge(before cutoff: Date) async throws -> Int
    /// Forgets every record of `caller` in every service (a deleted account's): scopes are
    /// `<service> <caller> <method> <path>`. Returns how many.
    func forget(caller: String) async throws -> Int
}

/// What claiming an idempotency key found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// Not seen before (or its last claim lapsed): the request runs now.
    case claimed
    /// The same request runs elsewhere under a live claim.
    case inProgress
    /// The key was used with a different request body.
    case differentRequest
    /// The first answer, as stored by ``IdempotencyRecords/finish(scope:key:response:)``.
    case replay(Data)
}
