import Codecs
import CommonsAPI
import Contracts
import EventLog
import Foundation
import GRDB
import Hummingbird
import ListingsDomain
import ServiceKit

extension ListingsAPI {
    struct MessageBody: Decodable { var text: String? }

    static let maximumMessageLength = 2_000

    /// The conversation's row when `caller` takes part in it; 404 otherwise, so that others
    /// learn nothing, not even that it exists.
    func participation(_ conversation: UUID, caller: UUID) async throws -> UUID {
        let listing = try await runtime.readModel.pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT listing_id FROM conversations WHERE conversation_id = ? AND (owner_id = ? OR requester_id = ?)",
                arguments: [conversation.lowercasedText, caller.lowercasedText, caller.lowercasedText])
        }
        guard let listing, let id = UUID(uuidString: listing) else { throw Problem.notFound("There is no such conversation.") }
        return id
    }

    /// The column `unread` of a row `c` of `conversations`: the other participant's messages
    /// after the caller's last read. Binds the caller's id twice.
    static let unreadColumn = """
        (SELECT COUNT(*) FROM conversation_messages m WHERE m.conversation_id = c.conversation_id AND m.sender_id != ?
         AND m.seq > COALESCE((SELECT read_seq FROM conversation_reads r WHERE r.conversation_id = c.conversation_id AND r.reader_id = ?), 0)) AS unread
        """

    /// A row of `conversations` with its `unread` count, as the caller's list shows it.
    static func conversationView(_ row: Row) -> Conversation {
        Conversation(
            id: row["conversation_id"], listingId: row["listing_id"], ownerId: row["owner_id"],
            requesterId: row["requester_id"], lastMessageAt: Date(timeIntervalSince1970: row["last_message_at"]),
            unreadCount: row["unread"])
    }

    /// `listing`: only the conversations about that listing (its id as the read model keeps it); 400 when it is no id.
    static func listingFilter(_ request: Request) throws -> String? {
        guard let text = request.query("listing") else { return nil }
        guard let id = UUID(uuidString: text) else {
            throw Problem.malformed("The query has invalid fields.", errors: ["listing": ["must be a listing id"]])
        }
        return id.lowercasedText
    }

    func addConversationRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/conversations") { request, context in
            let me = try context.requireIdentity().accountId.lowercasedText
            let listing = try Self.listingFilter(request)
            let paging = try ListPaging<ConversationAfter>(request, list: "conversations|\(me)|\(listing ?? "")")
            let (after, limit) = (paging.after, paging.limit)
            let (items, unread) = try await runtime.readModel.pool.read { db in
                var conditions = "(c.owner_id = ? OR c.requester_id = ?)"
                var arguments: [any DatabaseValueConvertible] = [me, me]
                if let listing {
                    conditions += " AND c.listing_id = ?"
                    arguments.append(listing)
                }
                // Across every page: what a badge says waits, not what this page shows.
                let unread =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COALESCE(SUM(unread), 0) FROM (SELECT \(Self.unreadColumn) FROM conversations c WHERE \(conditions))
                            """, arguments: StatementArguments([me, me] + arguments)) ?? 0
                var pageConditions = conditions
                var pageArguments = arguments
                if let after {
                    pageConditions += " AND (c.last_message_at < ? OR (c.last_message_at = ? AND c.conversation_id < ?))"
                    pageArguments += [after.lastMessageAt, after.lastMessageAt, after.conversation]
                }
                let items = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT c.*, \(Self.unreadColumn) FROM conversations c WHERE \(pageConditions)
                        ORDER BY c.last_message_at DESC, c.conversation_id DESC LIMIT ?
                        """, arguments: StatementArguments([me, me] + pageArguments + [limit + 1])
                ).map { row in
                    // The cursor keeps the stored time itself: through a `Date` it could come back a bit off.
                    (
                        view: Self.conversationView(row),
                        after: ConversationAfter(lastMessageAt: row["last_message_at"], conversation: row["conversation_id"])
                    )
                }
                return (items, unread)
            }
            let shown = items.prefix(limit)
            let next = items.count > limit ? paging.nextCursor(lastShown: shown.last?.after) : nil
            return try Response.json(Conversations(items: shown.map(\.view), unreadCount: unread, nextCursor: next))
        }
        router.get("/v1/conversations/{id}") { _, context in
            let me = try context.requireIdentity().accountId
            let id = try context.parameters.uuid("id")
            _ = try await participation(id, caller: me)
            let view = try await runtime.readModel.pool.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT c.*, \(Self.unreadColumn) FROM conversations c WHERE c.conversation_id = ?
                        """, arguments: [me.lowercasedText, me.lowercasedText, id.lowercasedText]
                ).map(Self.conversationView)
            }
            guard let view else { throw Problem.notFound("There is no such conversation.") }
            return try Response.json(view)
        }
        router.get("/v1/conversations/{id}/messages") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let paging = try SequencePaging(request, list: "messages|\(id.lowercasedText)")
            let (limit, after) = (paging.limit, paging.afterSequence)
            _ = try await participation(id, caller: identity.accountId)
            let rows = try await runtime.readModel.pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM conversation_messages WHERE conversation_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                    arguments: [id.lowercasedText, after, limit + 1]
                ).map { row -> (seq: Int64, id: String, sender: String, text: String, at: Double) in
                    (row["seq"], row["message_id"], row["sender_id"], row["text"], row["sent_at"])
                }
            }
            var items: [Message] = []
            for row in rows.prefix(limit) {
                let sealed = try? JSONDecoder().decode(Sealed.self, from: Data(row.text.utf8))
                let text = try await sealed.asyncMap { try await commands.sealer.open($0, as: String.self) } ?? nil
                items.append(Message(id: row.id, senderId: row.sender, text: text, sentAt: Date(timeIntervalSince1970: row.at)))
            }
            return try Response.json(Page(items: items, nextCursor: paging.nextCursor(lastShown: rows.count > limit ? rows[limit - 1].seq : nil)))
        }
        router.post("/v1/conversations/{id}/messages") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: MessageBody.self, context: context)
            let text = body.text?.trimmingWhitespaceAndNewlines() ?? ""
            guard (1...Self.maximumMessageLength).contains(text.count) else {
                throw Problem.validation(["text": ["must be 1 to \(Self.maximumMessageLength) characters"]])
            }
            let listing = try await participation(id, caller: identity.accountId)
            let sent = ConversationMessageSent(
                conversationId: id, messageId: .random(), listingId: listing, senderId: identity.accountId,
                text: try await commands.sealer.seal(text, for: identity.accountId), sentAt: clock.now())
            let result = try await commands.handler.record(
                [try EventCatalog.encode(sent, metadata: context.eventMetadata)],
                to: ListingStreams.conversation(id))
            let view = Message(id: sent.messageId.lowercasedText, senderId: identity.accountId.lowercasedText, text: text, sentAt: sent.sentAt)
            return try Response.json(view, status: .created, position: result.checkpoint)
        }
        router.post("/v1/conversations/{id}/read") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            _ = try await participation(id, caller: identity.accountId)
            let last = try await runtime.readModel.pool.read { db in
                try String.fetchOne(
                    db, sql: "SELECT message_id FROM conversation_messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1",
                    arguments: [id.lowercasedText])
            }
            guard let last, let lastId = UUID(uuidString: last) else { return Response.empty() }
            let read = ConversationRead(conversationId: id, readerId: identity.accountId, upToMessageId: lastId)
            let result = try await commands.handler.record(
                [try EventCatalog.encode(read, metadata: context.eventMetadata)],
                to: ListingStreams.conversation(id))
            return Response.empty(position: result.checkpoint)
        }
    }
}
