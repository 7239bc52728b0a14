import Contracts
import DonationsDomain
import Foundation
import Testing

@Suite("organisation drafts")
struct OrganizationDraftTests {
    @Test("every bad field is listed at once")
    func everyBadField() {
        let draft = OrganizationDraft(
            name: " ", slug: "Not A Slug", kind: .centre, mission: "", homepage: "ftp://x", tags: [""],
            rating: OrganizationRating(value: 5, scale: 4, source: "X", date: "yesterday"), currency: "usd",
            minimumDonationMinor: 0, suggestedAmountsMinor: [-1], location: Coordinate(lat: 91, lon: 0),
            openingHours: [OpeningHours(day: "funday", opens: "18:00", closes: "09:00")])
        do {
            _ = try draft.validated()
            Issue.record("a bad draft was accepted")
        } catch let error {
            guard case .invalid(let errors) = error else { Issue.record("\(error)"); return }
            #expect(
                Set(errors.keys) == [
                    "name", "slug", "mission", "homepage", "tags[0]", "rating.value", "rating.date", "currency",
                    "minimumDonationMinor", "suggestedAmountsMinor[0]", "location.lat", "address",
                    "openingHours[0].day", "openingHours[0].closes",
                ])
        }
    }

    @Test("a good draft is trimmed, its slug, tags and categories lower-cased and deduplicated")
    func normalised() throws {
        let draft = try OrganizationDraft(
            name: "  GiveDirectly ", slug: "GiveDirectly", kind: .charity, mission: "Cash transfers",
            categories: ["Poverty", "poverty"], tags: ["Cash"], currency: "USD", minimumDonationMinor: 100
        ).validated()
        #expect(draft.name == "GiveDirectly")
        #expect(draft.slug == "givedirectly")
        #expect(draft.categories == ["poverty"])
        #expect(draft.tags == ["cash"])
    }

    @Test("an update changes only what changed, and never the slug")
    func update() throws {
        let id = UUID()
        let draft = try OrganizationDraft(
            name: "Helpers", slug: "helpers", kind: .charity, mission: "Help", currency: "USD", minimumDonationMinor: 100
        ).validated()
        let state = OrganizationState.replay(OrganizationState.register(draft, id: id), version: 2)
        var renamed = draft
        renamed.name = "Helpers International"
        renamed.slug = "other"
        let events = try state.update(to: renamed)
        #expect(events.count == 1)
        #expect((events.first as? OrganizationUpdated)?.slug == "helpers")
        #expect(try state.update(to: draft).isEmpty)
        var missioned = draft
        missioned.mission = "Help more"
        #expect(try state.update(to: missioned).first is OrganizationProfileChanged)
    }
}
