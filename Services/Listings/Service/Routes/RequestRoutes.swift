import Codecs
import CommonsAPI
import Contracts
import Foundation
import GRDB
import Hummingbird
import ListingsDomain
import ServiceKit

extension ListingsAPI {
    struct RequestBody: Decodable { var message: String? }
    struct PromiseBody: Decodable { var requestId: UUID }

    static let maximumRequestMessageLength = 1_000

    func addRequestRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/listings/{id}/requests") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: RequestBody.self, context: context)
            let message = body.message?.trimmingWhitespaceAndNewlines() ?? ""
            guard (1...Self.maximumRequestMessageLength).contains(message.count) else {
                throw Problem.validation(["message": ["must be 1 to \(Self.maximumRequestMessageLength) characters"]])
            }
            _ = try await view(id, as: identity.accountId) // what its reader may not see cannot be requested
            let (requestId, position) = try await commands.request(id, by: identity.accountId, message: message, metadata: context.eventMetadata)
            let view = ListingRequest(
                id: requestId, listingId: id, requesterId: identity.accountId, message: message, requestedAt: clock.now(),
                conversationId: conversationId(listing: id, requester: identity.accountId))
            return try Response.json(view, status: .created, position: position)
        }
        router.get("/v1/listings/{id}/requests") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            // Oldest first, by the row's arrival in the read model (its rowid).
            let paging = try SequencePaging(request, list: "requests|\(id.lowercasedText)")
            let (limit, after) = (paging.limit, paging.afterSequence)
            let state = try await commands.load(id)
            guard state.ownerId == identity.accountId else { throw ListingError.notOwner }
            let rows = try await runtime.readModel.pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT rowid, request_id, requester_id, message, requested_at FROM listing_requests
                        WHERE listing_id = ? AND rowid > ? ORDER BY rowid LIMIT ?
                        """, arguments: [id.lowercasedText, after, limit + 1]
                ).map { row -> (seq: Int64, request: String, requester: String, message: String, at: Double) in
                    (row["rowid"], row["request_id"], row["requester_id"], row["message"], row["requested_at"])
                }
            }
            var items: [ListingRequest] = []
            for row in rows.prefix(limit) {
                let sealed = try? JSONDecoder().decode(Sealed.self, from: Data(row.message.utf8))
                let message = try await sealed.asyncMap { try await commands.sealer.open($0, as: String.self) } ?? nil
                let requester = UUID(uuidString: row.requester) ?? UUID()
                items.append(
                    ListingRequest(
                        id: UUID(uuidString: row.request) ?? UUID(), listingId: id, requesterId: requester, message: message,
                        requestedAt: Date(timeIntervalSince1970: row.at),
                        conversationId: conversationId(listing: id, requester: requester)))
            }
            return try Response.json(Page(items: items, nextCursor: paging.nextCursor(lastShown: rows.count > limit ? rows[limit - 1].seq : nil)))
        }
        router.post("/v1/listings/{id}/promise") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: PromiseBody.self, context: context)
            let result = try await commands.promise(id, request: body.requestId, by: identity.accountId, metadata: context.eventMetadata)
            return try await written(result, owner: identity.accountId)
        }
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
