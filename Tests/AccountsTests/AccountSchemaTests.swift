import CommonsAPI
import Foundation
import ServiceKit
import ServiceTestSupport
import Testing

@testable import AccountsService

/// The accounts API answers CommonsAPI's types and declares their OpenAPI schemas by hand;
/// each type, with every optional set and with none, must be what its schema says.
@Suite("the accounts API's schemas and CommonsAPI's types")
struct AccountSchemaTests {
    private static let at = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("every answer type, with every optional field and with none, has exactly the fields its schema names and requires")
    func typesMatchSchemas() throws {
        var found: [String] = []
        found += try schemaMismatches(
            Tokens(accountId: UUID(), sessionId: UUID(), accessToken: "a.b.c", refreshToken: "r", expiresIn: 900), AccountsAPI.tokens,
            fields: .all)
        found += try schemaMismatches(
            SessionInfo(id: UUID(), device: "Safari", createdAt: Self.at, lastUsedAt: Self.at, current: true), AccountsAPI.session, fields: .all)
        for fields in [SchemaFields.all, .required] {
            let all = fields == .all
            found += try schemaMismatches(
                Me(
                    id: UUID(), email: "ada@example.org", displayName: "Ada", phone: all ? "+49 30 1234567" : nil,
                    homeLocation: all ? Coordinate(lat: 52.5, lon: 13.4) : nil, avatarImageId: all ? UUID() : nil, role: "member",
                    memberSince: all ? Self.at : nil), AccountsAPI.me, fields: fields)
            found += try schemaMismatches(
                PublicProfile(id: UUID(), displayName: "Ada", avatarImageId: all ? UUID() : nil, memberSince: all ? Self.at : nil),
                AccountsAPI.publicProfile, fields: fields)
        }
        #expect(found.isEmpty, "\(found)")
    }
}
