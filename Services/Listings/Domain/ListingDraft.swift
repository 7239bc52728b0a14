import Codecs
import CommonsAPI
import Contracts
import Foundation
import Geo

/// Everything an owner says about a listing, as a `POST` sends it or a `PATCH` leaves it;
/// a field a client left out is nil here, so that every missing one can be reported at once.
public struct ListingDraft: Sendable, Equatable {
    public var title: String?
    public var description: String?
    public var category: String?
    public var condition: String?
    /// Nil: free.
    public var price: Contracts.Money?
    public var pickupTimes: PickupTimes
    public var pickupLocation: Coordinate?
    public var streetAddress: String?
    public var imageIds: [UUID]

    public init(
        title: String?, description: String?, category: String?, condition: String?, price: Contracts.Money?,
        pickupTimes: PickupTimes = PickupTimes(), pickupLocation: Coordinate?, streetAddress: String? = nil, imageIds: [UUID] = []
    ) {
        self.title = title
        self.description = description
        self.category = category
        self.condition = condition
        self.price = price
        self.pickupTimes = pickupTimes
        self.pickupLocation = pickupLocation
        self.streetAddress = streetAddress
        self.imageIds = imageIds
    }

    public static let maximumTitleLength = 120
    public static let maximumDescriptionLength = 5_000
    public static let maximumImages = 8
    public static let maximumAddressLength = 200
    public static let maximumPickupNoteLength = 500
    public static let maximumPickupWindows = 14
    /// A price above this (in minor units) is taken as a typo.
    public static let maximumPriceMinor = 100_000_000

    /// Every rule the draft breaks, by JSON path (e.g. `price.currency`, `imageIds[3]`); empty when valid.
    public func problems() -> [String: [String]] {
        var problems: [String: [String]] = [:]
        func add(_ field: String, _ message: String) { problems[field, default: []].append(message) }

        let trimmedTitle = title?.trimmingWhitespaceAndNewlines()
        switch trimmedTitle?.count {
        case nil: add("title", "is required")
        case 0: add("title", "must not be empty")
        case let count? where count > Self.maximumTitleLength: add("title", "must be at most \(Self.maximumTitleLength) characters")
        default: break
        }
        if let description, description.count > Self.maximumDescriptionLength {
            add("description", "must be at most \(Self.maximumDescriptionLength) characters")
        }
        if let category {
            if ListingCategory(rawValue: category) == nil { add("category", "must be one of \(ListingCategory.names)") }
        } else {
            add("category", "is required")
        }
        if let condition {
            if ItemCondition(rawValue: condition) == nil { add("condition", "must be one of \(ItemCondition.names)") }
        } else {
            add("condition", "is required")
        }
        if let price {
            if price.amountMinor <= 0 { add("price.amountMinor", "must be more than 0 (leave price out for a free item)") }
            if price.amountMinor > Self.maximumPriceMinor { add("price.amountMinor", "must be at most \(Self.maximumPriceMinor)") }
            if !Self.isCurrencyCode(price.currency) { add("price.currency", "must be an ISO 4217 code of three capital letters") }
        }
        if let note = pickupTimes.note, note.count > Self.maximumPickupNoteLength {
            add("pickupTimes.note", "must be at most \(Self.maximumPickupNoteLength) characters")
        }
        if pickupTimes.windows.count > Self.maximumPickupWindows {
            add("pickupTimes.windows", "must have at most \(Self.maximumPickupWindows) windows")
        }
        for (index, window) in pickupTimes.windows.enumerated() where window.endsAt <= window.startsAt {
            add("pickupTimes.windows[\(index)].endsAt", "must be after startsAt")
        }
        if let location = pickupLocation {
            if let problem = GeoCoordinate.latitudeProblem(location.lat) { add("pickupLocation.lat", problem) }
            if let problem = GeoCoordinate.longitudeProblem(location.lon) { add("pickupLocation.lon", problem) }
        } else {
            add("pickupLocation", "is required")
        }
        if let streetAddress, streetAddress.count > Self.maximumAddressLength {
            add("streetAddress", "must be at most \(Self.maximumAddressLength) characters")
        }
        if imageIds.count > Self.maximumImages { add("imageIds", "must have at most \(Self.maximumImages) images") }
        if Set(imageIds).count != imageIds.count { add("imageIds", "must not repeat an image") }
        return problems
    }

    /// The draft with its text trimmed, as it is stored.
    public var normalized: ListingDraft {
        var draft = self
        draft.title = title?.trimmingWhitespaceAndNewlines()
        draft.description = description?.trimmingWhitespaceAndNewlines()
        draft.streetAddress = streetAddress?.trimmingWhitespaceAndNewlines()
        if draft.streetAddress?.isEmpty == true { draft.streetAddress = nil }
        return draft
    }

    static func isCurrencyCode(_ code: String) -> Bool {
        code.count == 3 && code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }
}
