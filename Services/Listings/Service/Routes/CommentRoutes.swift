import Codecs
import CommonsAPI
import Contracts
import Foundation
import GRDB
import Hummingbird
import ListingsDomain
import ServiceKit

extension ListingsAPI {
    struct CommentBody: Decodable { var text: String? }

    static let maximumCommentLength = 2_000

    func addCommentRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/listings/{id}/comments") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: CommentBody.self, context: context)
            let text = body.text?.trimmingWhitespaceAndNewlines() ?? ""
            guard (1...Self.maximumCommentLength).contains(text.count) else {
                throw Problem.validation(["text": ["must be 1 to \(Self.maximumCommentLength) characters"]])
            }
            _ = try await view(id, as: identity.accountId)
            let (posted, position) = try await commands.comment(id, by: identity.accountId, text: text, metadata: context.eventMetadata)
            let view = Comment(
                id: posted.commentId.lowercasedText, listingId: id.lowercasedText, authorId: identity.accountId.lowercasedText, text: text,
                postedAt: posted.postedAt)
            return try Response.json(
                view, status: .created, position: position, location: "/v1/listings/\(id.lowercasedText)/comments/\(posted.commentId.lowercasedText)")
        }
        router.get("/v1/listings/{id}/comments") { request, context in
            let id = try context.parameters.uuid("id")
            let paging = try SequencePaging(request, list: "comments|\(id.lowercasedText)")
            let (limit, after) = (paging.limit, paging.afterSequence)
            _ = try await view(id, as: context.identity?.accountId, moderator: context.identity?.role == .admin)
            let rows = try await runtime.readModel.pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT seq, comment_id, author_id, text, posted_at FROM listing_comments WHERE listing_id = ? AND seq > ? ORDER BY seq LIMIT ?
                        """, arguments: [id.lowercasedText, after, limit + 1]
                ).map { row -> (seq: Int64, id: String, author: String, text: String, at: Double) in
                    (row["seq"], row["comment_id"], row["author_id"], row["text"], row["posted_at"])
                }
            }
            var items: [Comment] = []
            for row in rows.prefix(limit) {
                guard let sealed = try? JSONDecoder().decode(Sealed.self, from: Data(row.text.utf8)),
                    let text = try await commands.sealer.open(sealed, as: String.self)
                else { continue }
                items.append(
                    Comment(
                        id: row.id, listingId: id.lowercasedText, authorId: row.author, text: text, postedAt: Date(timeIntervalSince1970: row.at)))
            }
            return try Response.json(Page(items: items, nextCursor: paging.nextCursor(lastShown: rows.count > limit ? rows[limit - 1].seq : nil)))
        }
        router.delete("/v1/listings/{id}/comments/{commentId}") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let commentId = try context.parameters.uuid("commentId")
            let position = try await commands.deleteComment(commentId, on: id, by: identity.accountId, metadata: context.eventMetadata)
            return Response.empty(position: position)
        }
    }
}
