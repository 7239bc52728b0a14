import EventLog
import Foundation

/// What a person writes on a listing (title, description, pickup-time note) goes into the
/// log sealed with their key, like everything else they wrote; it is opened where it is
/// used: by the listings service to decide on an edit, and by the projections that show and
/// index listings. The read models keep it in clear while the listing is up (it is public),
/// and forget it with the account.
extension PersonalDataSealing {
    /// `event` with the listing text it carries in clear sealed with `owner`'s key
    /// (``CarriesListingText``, and the note of a `ListingDetailsSet`); any other event as it is.
    public func sealingListingText(_ event: any EventContract, owner: UUID) async throws -> any EventContract {
        if var details = event as? ListingDetailsSet {
            guard let note = details.pickupTimes.note else { return details }
            details.pickupNote = try await seal(note, for: owner)
            details.pickupTimes.note = nil
            return details
        }
        guard var carrier = event as? any CarriesListingText, let title = carrier.title, let description = carrier.description else {
            return event
        }
        carrier.text = try await seal(ListingText(title: title, description: description), for: owner)
        (carrier.title, carrier.description) = (nil, nil)
        return carrier
    }

    /// `event` with its sealed listing text opened (title and description empty, no note,
    /// when the owner's key is gone: the account was deleted, and with it the listing a few
    /// events on); any other event, or one in clear, as it is.
    public func openingListingText(_ event: any EventContract) async throws -> any EventContract {
        if var details = event as? ListingDetailsSet {
            guard let sealed = details.pickupNote else { return details }
            details.pickupTimes.note = try await open(sealed, as: String.self)
            details.pickupNote = nil
            return details
        }
        guard var carrier = event as? any CarriesListingText, let sealed = carrier.text else { return event }
        let text = try await open(sealed, as: ListingText.self)
        (carrier.title, carrier.description, carrier.text) = (text?.title ?? "", text?.description ?? "", nil)
        return carrier
    }

}

/// For projections that show listings: events decoded with the listing text opened.
public enum ListingTextOpening {
    /// `event` decoded (nil for a type the catalogue does not know), its listing text opened
    /// with `sealer` when sealed (see ``PersonalDataSealing/openingListingText(_:)``). For a
    /// projection's `prepare(_:keys:)`.
    public static func decode(_ event: RecordedEvent, sealer: (any PersonalDataSealing)?) async throws -> (any EventContract)? {
        guard let decoded = try CommonsEvents.catalog.decode(event) else { return nil }
        guard holdsSealedText(decoded) else { return decoded }
        guard let sealer else { throw MissingKeyVault(event: event.type) }
        return try await sealer.openingListingText(decoded)
    }

    /// Whether `event` holds listing text sealed for ``PersonalDataSealing/openingListingText(_:)`` to open.
    static func holdsSealedText(_ event: any EventContract) -> Bool {
        (event as? any CarriesListingText)?.text != nil || (event as? ListingDetailsSet)?.pickupNote != nil
    }

    /// The owners whose keys ``decode(_:sealer:)`` opens `event`'s listing text with: for
    /// a projection's `sealedKeyOwners(of:)`.
    public static func keyOwners(of event: RecordedEvent) -> [UUID] {
        textTypes.contains(event.type) ? SealedKeyOwners.named(in: event.data) : []
    }

    /// The events that may carry sealed listing text: for a projection's `keyTypes`.
    public static let textTypes: Set<String> = [ListingPosted.eventType, ListingEdited.eventType, ListingDetailsSet.eventType]

    /// A sealed listing text reached a projection run without the key vault.
    public struct MissingKeyVault: Error, CustomStringConvertible {
        public let event: String
        public var description: String { "\(event) carries sealed listing text, and this projection was run without the key vault" }
    }
}
