import Codecs
import Contracts
import Foundation
import Geo

/// Everything an administrator sets about an organisation, before it is checked.
/// ``validated()`` trims and normalises it and lists every bad field at once.
public struct OrganizationDraft: Sendable, Equatable {
    public var name: String
    public var slug: String
    public var kind: OrganizationKind
    public var mission: String
    public var description: String
    public var homepage: String?
    public var logoImageId: UUID?
    public var categories: [String]
    public var tags: [String]
    public var rating: OrganizationRating?
    public var currency: String
    public var minimumDonationMinor: Int
    public var suggestedAmountsMinor: [Int]
    public var address: String?
    public var location: Coordinate?
    public var openingHours: [OpeningHours]
    public var acceptedCategories: [String]

    public init(
        name: String, slug: String, kind: OrganizationKind, mission: String, description: String = "", homepage: String? = nil,
        logoImageId: UUID? = nil, categories: [String] = [], tags: [String] = [], rating: OrganizationRating? = nil,
        currency: String, minimumDonationMinor: Int, suggestedAmountsMinor: [Int] = [], address: String? = nil,
        location: Coordinate? = nil, openingHours: [OpeningHours] = [], acceptedCategories: [String] = []
    ) {
        self.name = name
        self.slug = slug
        self.kind = kind
        self.mission = mission
        self.description = description
        self.homepage = homepage
        self.logoImageId = logoImageId
        self.categories = categories
        self.tags = tags
        self.rating = rating
        self.currency = currency
        self.minimumDonationMinor = minimumDonationMinor
        self.suggestedAmountsMinor = suggestedAmountsMinor
        self.address = address
        self.location = location
        self.openingHours = openingHours
        self.acceptedCategories = acceptedCategories
    }

    /// The draft trimmed and normalised (tags and categories lower-case, deduplicated), or
    /// ``DonationsError/invalid(_:)`` listing every bad field.
    public func validated() throws(DonationsError) -> OrganizationDraft {
        var problems = FieldProblems()
        var draft = self
        draft.name = problems.text(name, field: "name", length: 1...120)
        draft.slug = slug.trimmingWhitespace().lowercased()
        problems.require(Self.isSlug(draft.slug), "must be 2–80 lower-case letters, digits and single dashes, e.g. against-malaria", for: "slug")
        draft.mission = problems.text(mission, field: "mission", length: 1...500)
        draft.description = problems.text(description, field: "description", length: 0...5_000)
        if let homepage {
            let trimmed = homepage.trimmingWhitespace()
            if problems.url(homepage, field: "homepage") {
                let url = URL(string: trimmed)
                problems.require(url?.scheme == "https" || url?.scheme == "http", "must be an http(s) URL", for: "homepage")
                problems.require(url?.host?.isEmpty == false, "must name a host", for: "homepage")
            }
            draft.homepage = trimmed
        }
        draft.categories = Self.labels(categories, field: "categories", problems: &problems)
        draft.tags = Self.labels(tags, field: "tags", problems: &problems)
        draft.acceptedCategories = acceptedCategories.map { $0.trimmingWhitespace() }
        // Past the most entries, only the first ones are checked one by one: the answer stays short.
        problems.count(acceptedCategories, atMost: Self.maximumAcceptedCategories, for: "acceptedCategories")
        let accepted = draft.acceptedCategories.prefix(Self.maximumAcceptedCategories)
        for (index, category) in accepted.enumerated() where category.isEmpty || category.count > 60 {
            problems.add("must be 1–60 characters", to: "acceptedCategories[\(index)]")
        }
        if let rating {
            problems.require(
                rating.scale > 0 && rating.scale <= Self.maximumRatingScale, "must be positive, at most \(Int(Self.maximumRatingScale))",
                for: "rating.scale")
            problems.require(rating.value >= 0 && rating.value <= rating.scale, "must be between 0 and the scale", for: "rating.value")
            problems.text(rating.source, field: "rating.source", length: 1...120)
            problems.require(Self.isPublicationDate(rating.date), "must be YYYY-MM-DD", for: "rating.date")
        }
        problems.currency(currency)
        problems.require(
            (1...Amounts.largestMinor).contains(minimumDonationMinor), "must be a positive number of minor units", for: "minimumDonationMinor")
        for (index, amount) in suggestedAmountsMinor.enumerated() where !(minimumDonationMinor...Amounts.largestMinor).contains(amount) {
            problems.add("must be at least the minimum donation", to: "suggestedAmountsMinor[\(index)]")
        }
        problems.require(suggestedAmountsMinor.count <= 10, "must have at most 10 amounts", for: "suggestedAmountsMinor")
        if let address { draft.address = problems.text(address, field: "address", length: 1...300) }
        if let location {
            if let problem = GeoCoordinate.latitudeProblem(location.lat) { problems.add(problem, to: "location.lat") }
            if let problem = GeoCoordinate.longitudeProblem(location.lon) { problems.add(problem, to: "location.lon") }
        }
        if kind != .charity {
            problems.require(location != nil, "is required for a donation centre", for: "location")
            problems.require(address != nil, "is required for a donation centre", for: "address")
        }
        problems.count(openingHours, atMost: Self.maximumOpeningHours, for: "openingHours")
        for (index, hours) in openingHours.prefix(Self.maximumOpeningHours).enumerated() {
            problems.require(Self.days.contains(hours.day), "must be one of \(Self.days.joined(separator: ", "))", for: "openingHours[\(index)].day")
            let opens = Self.minutes(hours.opens), closes = Self.minutes(hours.closes)
            problems.require(opens != nil, "must be HH:mm", for: "openingHours[\(index)].opens")
            problems.require(closes != nil, "must be HH:mm", for: "openingHours[\(index)].closes")
            if let opens, let closes { problems.require(opens < closes, "must be after opens", for: "openingHours[\(index)].closes") }
        }
        try problems.check()
        return draft
    }

    /// The most `openingHours` entries: two opening times a day.
    public static let maximumOpeningHours = 14
    /// The most `acceptedCategories`, each 1–60 characters.
    public static let maximumAcceptedCategories = 50
    /// The largest `rating.scale` (and so `rating.value`): no evaluator rates out of more.
    public static let maximumRatingScale = 1_000.0

    /// The days of `OpeningHours.day`, Monday first.
    public static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    static func isSlug(_ text: String) -> Bool {
        guard (2...80).contains(text.count), !text.hasPrefix("-"), !text.hasSuffix("-"), !text.contains("--") else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY`: how precisely a source dates what it published.
    public static func isPublicationDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, let year = Int(parts[0]), (1900...2100).contains(year) else { return false }
        if parts.count >= 2 { guard parts[1].count == 2, let month = Int(parts[1]), (1...12).contains(month) else { return false } }
        if parts.count == 3 { guard parts[2].count == 2, let day = Int(parts[2]), (1...31).contains(day) else { return false } }
        return true
    }

    private static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
            (0...24).contains(hours), (0...59).contains(minutes), hours * 60 + minutes <= 24 * 60
        else { return nil }
        return hours * 60 + minutes
    }

    private static func labels(_ values: [String], field: String, problems: inout FieldProblems) -> [String] {
        var seen: [String] = []
        for (index, value) in values.enumerated() {
            let label = value.trimmingWhitespace().lowercased()
            if label.isEmpty || label.count > 40 { problems.add("must be 1–40 characters", to: "\(field)[\(index)]") }
            if !seen.contains(label) { seen.append(label) }
        }
        problems.require(values.count <= 20, "must have at most 20 entries", for: field)
        return seen
    }
}
