import CommonsClient
import Foundation
import Testing
import TopologyKit

extension EndToEndTests {
    @Test("post an item with a photo; another account finds it nearby, requests it, is promised it, sees the exact place; it is given")
    func givingAnItem() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch)
        let (ada, adaTokens, _) = try await E2E.person(topology, "Ada")
        let (bob, bobTokens, _) = try await E2E.person(topology, "Bob")
        let exact = E2E.place()

        let photo = try await ada.listings.uploadImage(E2E.photo, contentType: "image/png")
        #expect(photo.contentType == "image/png")
        let posted = try await ada.listings.post(
            NewListing(
                title: "Oak dining chair", description: "Sturdy, one small scratch", category: "Furniture", condition: "good",
                pickupTimes: PickupTimes(note: "Evenings after six"), pickupLocation: exact, streetAddress: "12 Harbour Lane", imageIds: [photo.id]))
        #expect(posted.ownerId == adaTokens.accountId)
        #expect(posted.status == "available")
        #expect(posted.free)
        #expect(posted.imageIds == [photo.id])
        #expect(posted.pickupLocation == exact, "the owner sees the exact place")
        let served = try await bob.listings.image(photo.id)
        #expect(served.starts(with: E2E.photo.prefix(8)) && served.count == photo.byteCount, "the cleaned PNG")
        #expect(posted.images.map(\.small) == ["/v1/images/\(photo.id.uuidString.lowercased())?size=small"])

        // Bob's phone learns of the post (a push, a shared link): its reads then see it on every service.
        E2E.carryPosition(from: ada, to: bob)
        let nearby = try await bob.geo.nearbyListings(lat: exact.lat, lon: exact.lon, radius: 2)
        let hit = try #require(nearby.items.first { $0.id == posted.id }, "geo-search finds the new listing nearby")
        #expect(hit.title == "Oak dining chair")
        #expect(hit.lat != exact.lat || hit.lon != exact.lon, "search shows the approximate point, not the pickup place")
        let seenByBob = try await bob.listings.get(posted.id).value
        #expect(seenByBob.pickupLocation == nil && seenByBob.streetAddress == nil, "the exact place is private before the promise")

        let request = try await bob.listings.request(posted.id, message: "Could I pick it up on Friday?")
        #expect(request.requesterId == bobTokens.accountId)
        E2E.carryPosition(from: bob, to: ada)
        let requests = try await ada.listings.requests(posted.id).items
        #expect(requests.map(\.id) == [request.id])
        #expect(requests.first?.message == "Could I pick it up on Friday?")

        let promised = try await ada.listings.promise(posted.id, to: request.id)
        #expect(promised.status == "promised")
        #expect(promised.promisedTo == bobTokens.accountId)
        E2E.carryPosition(from: ada, to: bob)
        let forBob = try await bob.listings.get(posted.id).value
        #expect(forBob.status == "promised")
        #expect(forBob.pickupLocation == exact, "the promised requester sees the exact place")
        #expect(forBob.streetAddress == "12 Harbour Lane")
        #expect(forBob.promisedTo == nil, "who it is promised to is the owner's to know")
        let stranger = E2E.app(topology)
        E2E.carryPosition(from: ada, to: stranger)
        #expect(try await stranger.listings.get(posted.id).value.pickupLocation == nil)

        // The request opened a conversation between the two.
        let conversation = try #require(
            try await bob.listings.conversations().items.first { $0.listingId.lowercased() == posted.id.uuidString.lowercased() })
        _ = try await bob.listings.send(conversation.id, text: "Thanks! Friday at seven?")
        E2E.carryPosition(from: bob, to: ada)
        #expect(try await ada.listings.messages(conversation.id).items.contains { $0.text == "Thanks! Friday at seven?" })

        // An edit needs the version read; a stale one is refused.
        let tagged = try await ada.listings.get(posted.id)
        let edited = try await ada.listings.edit(
            posted.id, ListingChange(description: .set("Sturdy oak, one small scratch")),
            ifMatch: try #require(tagged.etag))
        #expect(edited.value.description == "Sturdy oak, one small scratch")
        let stale = await #expect(throws: CommonsProblem.self) {
            _ = try await ada.listings.edit(posted.id, ListingChange(title: "Chair"), ifMatch: posted.etag)
        }
        #expect(stale?.status == 412)

        let comment = try await bob.listings.comment(posted.id, text: "Lovely chair")
        #expect(try await bob.listings.comments(posted.id).items.map(\.id) == [comment.id])
        #expect(try await ada.listings.history(posted.id).map(\.type).first == "ListingPosted")

        let given = try await ada.listings.markGiven(posted.id)
        #expect(given.status == "given")
        E2E.carryPosition(from: ada, to: bob)
        #expect(try await bob.listings.get(posted.id).value.status == "given")
        let after = try await bob.geo.nearbyListings(lat: exact.lat, lon: exact.lon, radius: 2)
        #expect(!after.items.contains { $0.id == posted.id }, "a given item is no longer offered")
        let illegal = await #expect(throws: CommonsProblem.self) { _ = try await ada.listings.setStatus(posted.id, "available") }
        #expect(illegal?.status == 409)
    }

    @Test("top up a wallet, donate to a verified charity, see the balance, the impact and the supporters")
    func donating() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .donations)
        let admin = try await E2E.admin(topology)
        let slug = E2E.marker("nets-")
        let organization = try await admin.donations.registerOrganization(
            OrganizationFields(
                name: "Nets for All", slug: slug, kind: "charity", mission: "Protect people from malaria with nets.",
                categories: ["global-health"], tags: ["malaria"], currency: "USD", minimumDonationMinor: 100, suggestedAmountsMinor: [500, 2_000]))
        #expect(organization.slug == slug)
        #expect(!organization.verified)
        _ = try await admin.donations.addImpactEstimate(
            organization.id,
            NewImpactEstimate(
                outcomeUnit: "net distributed", costPerOutcomeMinor: 500, currency: "USD", source: "End-to-end estimate", publishedOn: "2026-01"))
        #expect(try await admin.donations.setVerified(organization.id, true).verified)

        let (ada, adaTokens, _) = try await E2E.person(topology, "Ada")
        E2E.carryPosition(from: admin, to: ada)
        let declined = await #expect(throws: CommonsProblem.self) {
            _ = try await ada.donations.topUp(amountMinor: 5_000, currency: "USD", cardNumber: "4000 0000 0000 0002")
        }
        #expect(declined?.status == 402)
        let topUp = try await ada.donations.topUp(amountMinor: 5_000, currency: "USD", cardNumber: "4242 4242 4242 4242")
        #expect(topUp.balanceMinor == 5_000)

        let made = try await ada.donations.donate(NewDonation(organization: slug, amountMinor: 1_500, currency: "USD", message: "For the nets"))
        #expect(made.balanceMinor == 3_500)
        #expect(made.donation.organization.id == organization.id)
        let short = await #expect(throws: CommonsProblem.self) {
            _ = try await ada.donations.donate(NewDonation(organization: slug, amountMinor: 10_000, currency: "USD"))
        }
        #expect(short?.status == 409)

        let wallet = try await ada.donations.wallet().value
        #expect(wallet.balance("USD") == 3_500)
        #expect(wallet.entries.map(\.amountMinor) == [-1_500, 5_000])
        #expect(try await ada.donations.donations().items.map(\.id) == [made.donation.id])
        let receipt = try await ada.donations.receipt(made.donation.id)
        #expect(receipt.amountMinor == 1_500)
        #expect(receipt.simulated == true, "the topology runs the simulated processor, and its receipts say so")

        let impact = try #require(try await ada.donations.impact().first { $0.organization.id == organization.id })
        #expect(impact.donatedMinor == 1_500)
        #expect(impact.outcomeUnit == "net distributed")
        #expect(impact.today?.outcomes == 3)

        let post = try await ada.donations.share(made.donation.id, caption: "Nets save lives")
        #expect(post.accountId == adaTokens.accountId)
        #expect(try await ada.donations.posts().items.contains { $0.id == post.id })
        #expect(try await ada.donations.supporters(slug).items.map(\.accountId) == [adaTokens.accountId])
        let totals = try await ada.donations.totals()
        #expect(totals.totals.first { $0.currency == "USD" }?.amountMinor == 1_500)

        let monthly = try await ada.donations.startRecurring(organization: slug, amountMinor: 200, currency: "USD")
        #expect(try await ada.donations.recurring().map(\.id) == [monthly.id])
        #expect(try await ada.donations.changeRecurring(monthly.id, amountMinor: 300).amountMinor == 300)
        try await ada.donations.cancelRecurring(monthly.id)
        #expect(try await ada.donations.recurring().first?.status == "cancelled")
    }

    @Test("build a shopping list and share it; the other member changes it and the owner sees the edit live")
    func shoppingList() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .shoppingLists)
        let (ada, adaTokens, _) = try await E2E.person(topology, "Ada")
        let (bob, bobTokens, _) = try await E2E.person(topology, "Bob")

        let list = try await ada.lists.create(name: "Weekend groceries")
        #expect(list.role == "owner")
        let milk = try await ada.lists.addItem(list.id, text: "Oat milk", quantity: 2)
        let bread = try await ada.lists.addItem(list.id, text: "Rye bread", note: "sliced")
        #expect(milk.quantity == 2)
        E2E.carryPosition(from: bob, to: ada) // Bob's account must be known to shopping-lists before it is shared with him
        let members = try await ada.lists.share(list.id, with: bobTokens.accountId)
        #expect(Set(members) == [adaTokens.accountId, bobTokens.accountId])

        E2E.carryPosition(from: ada, to: bob)
        #expect(try await bob.lists.mine().items.contains { $0.id == list.id && $0.role == "member" })
        let seen = try await bob.lists.get(list.id).value
        #expect(seen.name == "Weekend groceries")
        #expect(Set(seen.items.compactMap(\.text)) == ["Oat milk", "Rye bread"])
        #expect(seen.items.first { $0.id == bread.id }?.note == "sliced")

        // Ada watches the list live (from the version Bob saw, so nothing is missed however
        // soon the stream connects) while Bob edits it.
        let live = Task { () -> ListChange? in
            for try await change in ada.lists.liveChanges(list.id, after: seen.version) where change.itemId == milk.id { return change }
            return nil
        }
        let patience = Task {
            try await Task.sleep(for: .seconds(30)); live.cancel()
        }
        _ = try await bob.lists.editItem(list.id, item: milk.id, ListItemChange(quantityDelta: 1, checked: true))
        let received = try await live.value
        patience.cancel()
        #expect(
            received?.by == bobTokens.accountId.uuidString.lowercased() || received?.by == bobTokens.accountId.uuidString,
            "Ada's live stream shows Bob's edit: \(String(describing: received))")
        let results = try await bob.lists.apply(
            list.id, [ListCommand(commandId: "bob-1", type: "addItem", itemId: UUID(), text: "Apples", quantity: 6)])
        #expect(results.results["bob-1"]?.status == "applied")
        let again = try await bob.lists.apply(
            list.id, [ListCommand(commandId: "bob-1", type: "addItem", itemId: UUID(), text: "Apples", quantity: 6)])
        #expect(again.results["bob-1"]?.replayed == true, "the same offline command twice changes nothing")

        E2E.carryPosition(from: bob, to: ada)
        let current = try await ada.lists.get(list.id)
        #expect(current.value.items.first { $0.id == milk.id }.map { ($0.quantity, $0.checked) } ?? (0, false) == (3, true))
        #expect(current.value.items.filter { $0.text == "Apples" }.count == 1)
        try await ada.lists.rename(list.id, to: "Groceries", ifMatch: current.etag)
        let stale = await #expect(throws: CommonsProblem.self) { try await ada.lists.rename(list.id, to: "Food", ifMatch: current.etag) }
        #expect(stale?.status == 412)
        let changes = try await ada.lists.changes(list.id, until: current.value.version)
        #expect(changes.last?.version == current.value.version)
    }
}
