import CommonsAPI
import Contracts
import EventLog
import Foundation
import GRDB
import Hummingbird
import ListingsDomain
import ReadModel
import ServiceKit

/// The HTTP face of the listings commands and read model.
package struct ListingsAPI: Sendable {
    let commands: ListingsCommands
    let runtime: ServiceRuntime
    let blobs: any BlobStore
    /// The process's bound on photo cleaning, shared by every request.
    let photoJobs: PhotoJobs
    /// Feed pages as sent, under the feed's version token and until the next listing expires:
    /// most readers ask for the same newest page, which changes only with a post or an expiry.
    let feedPages = VersionedAnswerCache<FeedPageKey>(capacity: 256, largestAnswer: 256 * 1024, byteBudget: 8 << 20)

    var clock: WallClock { commands.clock }

    func addRoutes(to router: Router<AppRequestContext>) {
        addListingRoutes(to: router)
        addFeedRoutes(to: router)
        addRequestRoutes(to: router)
        addImageRoutes(to: router)
        addModerationRoutes(to: router)
        addCommentRoutes(to: router)
        addConversationRoutes(to: router)
    }

    /// Whether the read model knows `account` as deleted: its listings are gone for everyone.
    /// One row looked up by key, on the request's thread (every post and every view asks).
    func isDeleted(_ account: UUID?) throws -> Bool {
        guard let account else { return false }
        return try runtime.readModel.readInPlace { db in
            try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM listings_deleted_accounts WHERE account_id = ?)")
                .map(binding: { $0.bind(account.lowercasedText) }) { $0.int64(0) != 0 }.first ?? false
        }
    }

    /// The listing as `reader` may see it; 404 when it does not exist or its owner is deleted.
    /// Also the gate of every route about one listing: a deleted owner's listing is not found
    /// by anyone, and one hidden pending review only by its owner and by `moderator`s, who
    /// must see what they review.
    func view(_ id: UUID, as reader: UUID?, moderator: Bool = false) async throws -> Listing {
        try await view(of: try await commands.read(id, as: reader), as: reader, moderator: moderator)
    }

    /// ``view(_:as:moderator:)`` of a listing already loaded.
    func view(of loaded: ListingsCommands.Loaded, as reader: UUID?, moderator: Bool = false) async throws -> Listing {
        guard try !isDeleted(loaded.state.ownerId) else { throw Problem.notFound("There is no such listing.") }
        guard loaded.state.storedStatus != .hidden || reader == loaded.state.ownerId || moderator else {
            throw Problem.notFound("There is no such listing.")
        }
        return Listing(loaded.state, place: loaded.place, showPromise: reader == loaded.state.ownerId, now: clock.now())
    }

    /// The answer to a write on a listing: the owner's view, with the new version and position.
    func written(_ result: (state: ListingState, position: Checkpoint?), owner: UUID, status: HTTPResponse.Status = .ok) async throws -> Response {
        try answer(try await view(result.state.id ?? UUID(), as: owner), version: result.state.version, position: result.position, status: status)
    }

    /// The answer to a post: the listing as posted, which its owner reads.
    func posted(_ result: (loaded: ListingsCommands.Loaded, position: Checkpoint), owner: UUID) async throws -> Response {
        try answer(try await view(of: result.loaded, as: owner), version: result.loaded.state.version, position: result.position, status: .created)
    }

    private func answer(_ view: Listing, version: Int64, position: Checkpoint?, status: HTTPResponse.Status) throws -> Response {
        try Response.json(
            view, status: status, version: version, position: position,
            location: status == .created ? "/v1/listings/\(view.id.lowercasedText)" : nil)
    }
}

extension ListingError: ProblemConvertible {
    /// The problem document for this error; domain errors know nothing of HTTP.
    public var problem: Problem {
        switch self {
        case .invalid(let errors): .validation(errors)
        case .notFound: .notFound("There is no such listing.")
        case .notOwner: .forbidden("Only the listing's owner may do this.")
        case let .illegalTransition(from, to):
            .conflict(
                "A \(from.rawValue) listing cannot become \(to.rawValue).", type: "illegal-status-transition",
                extensions: ["status": from.rawValue])
        case .notEditable(let status):
            .conflict("A \(status.rawValue) listing cannot be edited.", type: "not-editable", extensions: ["status": status.rawValue])
        case .renewedTooRecently(let next):
            Problem(
                .tooManyRequests, type: "renewed-too-recently", detail: "This listing was renewed recently; renew it again later.",
                extensions: ["nextRenewalAt": ISO8601DateFormatter().string(from: next)],
                headers: ["Retry-After": String(max(1, Int(next.timeIntervalSinceNow.rounded(.up))))])
        case .requestNotFound: .validation(["requestId": ["is not a request for this listing"]])
        case .ownListing: .conflict("You cannot do this to your own listing.", type: "own-listing")
        case .alreadyRequested:
            .conflict("You have asked for this listing already; write to its owner in your conversation instead.", type: "already-requested")
        case .commentNotFound: .notFound("There is no such comment.")
        }
    }
}
