import Codecs
import CommonsAPI
import Contracts
import Foundation
import Hummingbird
import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {

    func addOpinionRoutes(to router: Router<AppRequestContext>) {
        router.put("/v1/products/{id}/review") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: NewReview.self, context: context)
            try await requireProduct(id)
            let (review, position) = try await opinions.review(
                id, by: identity.accountId, rating: body.rating, text: body.text ?? "", metadata: context.eventMetadata)
            let view = Review(
                productId: id, authorId: identity.accountId, rating: review.rating,
                text: body.text?.trimmingWhitespaceAndNewlines() ?? "", at: review.at)
            return try Response.json(view, position: position)
        }
        router.get("/v1/products/{id}/reviews") { request, context in
            let id = try context.parameters.uuid("id")
            let queryKey = "reviews|\(id.lowercasedText)"
            let (limit, after) = try Self.page(request.queryValues, defaultLimit: 50, queryKey: queryKey)
            try await requireProduct(id)
            let (stored, next) = try await read { db in try ProductQueries.reviews(of: id, limit: limit, after: after, in: db) }
            let reader = sealer.reader()
            var reviews: [Review] = []
            for review in stored {
                // A review whose author's key is gone is not shown (the account was deleted).
                guard let text = try await reader.open(stored: review.sealed) else { continue }
                reviews.append(Review(productId: id, authorId: review.author, rating: review.rating, text: text, at: review.at))
            }
            return try Response.json(Page(items: reviews, nextCursor: next.map { SearchCursor.encode($0, queryKey: queryKey) }))
        }
        router.put("/v1/products/{id}/favorite") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            try await requireProduct(id)
            let position = try await opinions.setFavorite(id, of: identity.accountId, true, metadata: context.eventMetadata)
            return Response.empty(position: position)
        }
        router.delete("/v1/products/{id}/favorite") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            try await requireProduct(id)
            let position = try await opinions.setFavorite(id, of: identity.accountId, false, metadata: context.eventMetadata)
            return Response.empty(position: position)
        }
        router.get("/v1/me/favorites") { request, context in
            let identity = try context.requireIdentity()
            let queryKey = "favorites|\(identity.accountId.lowercasedText)"
            let (limit, after) = try Self.page(request.queryValues, defaultLimit: 100, queryKey: queryKey)
            let (items, next) = try await read { db in try ProductQueries.favorites(of: identity.accountId, limit: limit, after: after, in: db) }
            return try Response.json(Page(items: items, nextCursor: next.map { SearchCursor.encode($0, queryKey: queryKey) }))
        }
    }

    /// 404 unless the catalogue has this product.
    func requireProduct(_ id: UUID) async throws {
        guard try await read({ db in try ProductQueries.product(id, in: db) }) != nil else { throw Problem.notFound("There is no such product.") }
    }
}
