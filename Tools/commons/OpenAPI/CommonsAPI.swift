import AccountsService
import DonationsService
import Foundation
import GeoSearchService
import ListingsService
import ServiceKit
import ShoppingListsService

/// The whole HTTP API of Commons as one OpenAPI document: what both gateways serve at
/// `/openapi.json` (nginx from the generated `deploy/docs/openapi.json`, which a test keeps
/// equal to this) and what the page at `/docs` shows.
enum CommonsAPI {
    /// The document, ending with a newline as a file does.
    static func document() throws -> Data {
        var document = try OpenAPIDocument.merged(
            title: "Commons",
            description: """
                Give away and trade things, find donation centres and charities nearby, donate to verified \
                organisations and keep shopping lists. Every service answers under one origin; errors are \
                RFC 9457 problem documents. Writes answer with Commons-Position: send it back as \
                Commons-Min-Position to read your own write from any service.
                """,
            services: [
                .init(service: AccountsService.name, document: AccountsService.openAPI),
                .init(service: ListingsService.name, document: ListingsService.openAPI),
                .init(service: GeoSearchService.name, document: GeoSearchService.openAPI),
                .init(service: DonationsService.name, document: DonationsService.openAPI),
                .init(service: ShoppingListsService.name, document: ShoppingListsService.openAPI),
            ])
        document.append(0x0A)
        return document
    }
}
