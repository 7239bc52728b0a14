import CommonsAPI
import Foundation
import ServiceKit
import ServiceTestSupport
import Testing

@testable import ListingsService

/// The listings API answers CommonsAPI's types and declares their OpenAPI schemas by hand;
/// each type, with every optional set and with none, must be what its schema says. (The
/// listing itself is checked in `ListingJSONTests`.)
@Suite("the listings API's schemas and CommonsAPI's types")
struct ListingSchemaTests {
    private static let at = Date(timeIntervalSince1970: 1_800_000_000)
    private static let id = UUID().uuidString.lowercased()

    @Test("every answer type, with every optional field and with none, has exactly the fields its schema names and requires")
    func typesMatchSchemas() throws {
        var found: [String] = []
        for fields in [SchemaFields.all, .required] {
            let all = fields == .all
            found += try schemaMismatches(
                ListingChanges(
                    items: [ListingChangeEntry(listingId: Self.id, kind: "statusChanged", status: all ? .given : nil, changedAt: Self.at)], next: "42"
                ),
                ListingsAPI.changePage, fields: fields)
            found += try schemaMismatches(
                Items(items: [
                    ListingHistoryEntry(
                        version: 3, type: "ListingPromised", recordedAt: Self.at, actorId: all ? Self.id : nil, status: all ? .promised : nil,
                        requesterId: all ? UUID() : nil)
                ]), ListingsAPI.history, fields: fields)
            found += try schemaMismatches(
                ListingRequest(
                    id: UUID(), listingId: UUID(), requesterId: UUID(), message: all ? "Still there?" : nil, requestedAt: Self.at,
                    conversationId: UUID()), ListingsAPI.requestView, fields: fields)
            found += try schemaMismatches(
                ReportedListing(
                    listingId: Self.id, title: "Lamp", status: .hidden,
                    reports: [.init(reporterId: Self.id, reason: all ? "spam" : nil, reportedAt: Self.at)]), ListingsAPI.reportedListing,
                fields: fields)
            found += try schemaMismatches(
                Comment(id: Self.id, listingId: Self.id, authorId: Self.id, text: "Lovely", postedAt: Self.at), ListingsAPI.commentView, fields: .all)
            found += try schemaMismatches(
                Conversations(
                    items: [
                        Conversation(id: Self.id, listingId: Self.id, ownerId: Self.id, requesterId: Self.id, lastMessageAt: Self.at, unreadCount: 1)
                    ], unreadCount: 1, nextCursor: all ? "next" : nil), ListingsAPI.conversations, fields: fields)
            found += try schemaMismatches(
                Message(id: Self.id, senderId: Self.id, text: all ? "Hello" : nil, sentAt: Self.at), ListingsAPI.messageView, fields: fields)
            found += try schemaMismatches(
                UploadedImage(
                    id: UUID(), contentType: "image/jpeg", byteCount: 1_024, sha256: "ab", width: all ? 640 : nil, height: all ? 480 : nil,
                    links: ImageLinks(id: UUID(), small: "/s", medium: "/m", original: "/o")), ListingsAPI.imageView, fields: fields)
        }
        #expect(found.isEmpty, "\(found)")
    }
}
