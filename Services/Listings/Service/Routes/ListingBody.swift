import Contracts
import Foundation
import ListingsDomain

/// `POST /v1/listings` and `PATCH /v1/listings/{id}`: every field optional in the JSON, so
/// that all missing and invalid ones are reported together. In a patch a field that is
/// absent is kept and `null` clears `description`, `price` (free) or `streetAddress`.
struct ListingBody: Decodable, Sendable {
    var title: String?
    var description: Field<String>
    var category: String?
    var condition: String?
    var price: Field<Money>
    var pickupTimes: PickupTimesBody?
    var pickupLocation: Coordinate?
    var streetAddress: Field<String>
    var imageIds: [UUID]?

    /// A field that may be absent, `null`, or a value.
    enum Field<Value: Decodable & Sendable>: Sendable {
        case absent, null, value(Value)

        var value: Value? { if case .value(let value) = self { value } else { nil } }

        func apply(to target: inout Value?) {
            switch self {
            case .absent: break
            case .null: target = nil
            case .value(let value): target = value
            }
        }
    }

    struct PickupTimesBody: Decodable, Sendable {
        var note: String?
        var windows: [PickupWindow]?

        var times: PickupTimes { PickupTimes(note: note, windows: windows ?? []) }
    }

    enum CodingKeys: String, CodingKey {
        case title, description, category, condition, price, pickupTimes, pickupLocation, streetAddress, imageIds
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field<V: Decodable>(_ key: CodingKeys) throws -> Field<V> {
            guard container.contains(key) else { return .absent }
            return try container.decodeNil(forKey: key) ? .null : .value(try container.decode(V.self, forKey: key))
        }
        title = try container.decodeIfPresent(String.self, forKey: .title)
        description = try field(.description)
        category = try container.decodeIfPresent(String.self, forKey: .category)
        condition = try container.decodeIfPresent(String.self, forKey: .condition)
        price = try field(.price)
        pickupTimes = try container.decodeIfPresent(PickupTimesBody.self, forKey: .pickupTimes)
        pickupLocation = try container.decodeIfPresent(Coordinate.self, forKey: .pickupLocation)
        streetAddress = try field(.streetAddress)
        imageIds = try container.decodeIfPresent([UUID].self, forKey: .imageIds)
    }

    /// The draft of a new listing.
    var draft: ListingDraft {
        ListingDraft(
            title: title, description: description.value, category: category, condition: condition, price: price.value,
            pickupTimes: pickupTimes?.times ?? PickupTimes(), pickupLocation: pickupLocation,
            streetAddress: streetAddress.value, imageIds: imageIds ?? [])
    }

    /// Applies the fields present to an existing draft.
    func patch(_ draft: inout ListingDraft) {
        if let title { draft.title = title }
        description.apply(to: &draft.description)
        if let category { draft.category = category }
        if let condition { draft.condition = condition }
        price.apply(to: &draft.price)
        if let pickupTimes { draft.pickupTimes = pickupTimes.times }
        if let pickupLocation { draft.pickupLocation = pickupLocation }
        streetAddress.apply(to: &draft.streetAddress)
        if let imageIds { draft.imageIds = imageIds }
    }
}
