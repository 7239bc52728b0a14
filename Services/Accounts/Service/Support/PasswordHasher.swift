import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt at a configurable cost, run on NIO's thread pool so it never blocks an event loop.
package struct PasswordHasher: Sendable {
    /// `COMMONS_BCRYPT_COST`, default 11: about 0.1–0.2 s per hash on one core here, slow
    /// enough to make offline guessing costly and fast enough for sign-in bursts on 2 cores.
    let cost: UInt8
    private let dummyHash: String

    package init(cost: UInt8) {
        self.cost = cost
        dummyHash = Bcrypt.hash("no account has this password", cost: cost)
    }

    package func hash(_ password: String) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    package func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// Spends the same time as a real check, for unknown emails, so timing does not tell.
    func verifyAgainstNothing(_ password: String) async throws {
        _ = try await verify(password, hash: dummyHash)
    }
}
