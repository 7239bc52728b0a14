import Contracts
import Foundation

/// A validated `GET /v1/listings` query: filters, keyword search, order and page.
public struct FeedQuery: Sendable, Hashable {
    /// The key the feed is ordered by; ``order`` says which way.
    public enum Sort: String, Sendable, CaseIterable {
        /// By posted time; newest first unless `order=asc`.
        case recent
        /// By price, free items counting as 0; cheapest first unless `order=desc`.
        case price
        /// By title ignoring case; A to Z unless `order=desc`.
        case title
        /// Best keyword match first (the default when `q` is given); one way only.
        case relevance

        /// The way this key runs when the query names none: the meaning each `sort` value
        /// had before `order` existed.
        public var naturalOrder: Order {
            switch self {
            case .recent, .relevance: .desc
            case .price, .title: .asc
            }
        }
    }

    /// Which way the sort key runs: `asc` (smallest, oldest, A first) or `desc`. Relevance
    /// only runs best match first, which counts as `desc`.
    public enum Order: String, Sendable, CaseIterable {
        case asc
        case desc
    }

    public var category: String?
    public var freeOnly = false
    public var minPriceMinor: Int?
    public var maxPriceMinor: Int?
    public var currency: String?
    /// The statuses to show; by default only available listings.
    public var statuses: [ListingStatus] = [.available]
    /// Only the caller's own listings.
    public var mine = false
    /// The words to search for (the service reads them from `q`); nil without a search.
    public var terms: [String]?
    public var sort: Sort = .recent
    /// The direction of ``sort``; its ``Sort/naturalOrder`` unless `order` says otherwise.
    public var order: Order = Sort.recent.naturalOrder
    public var limit = 20
    public var cursor: FeedCursor?

    public static let maximumLimit = 100
    /// The most entries `status` lists: one of each status.
    public static let maximumStatuses = ListingStatus.allCases.count
    /// The longest `status`: ``maximumStatuses`` of the longest status name, comma-separated.
    public static let maximumStatusLength = maximumStatuses * ((ListingStatus.allCases.map(\.rawValue.count).max() ?? 0) + 1) - 1
    /// `status` as a regular expression (the OpenAPI document's `pattern`): statuses joined
    /// by commas, at most ``maximumStatuses`` of them, no empty entry.
    public static let statusPattern: String = {
        let one = "(" + ListingStatus.allCases.map(\.rawValue).joined(separator: "|") + ")"
        return "^\(one)(,\(one)){0,\(maximumStatuses - 1)}$"
    }()
    /// Statuses that only an owner's own view (`author=me`) shows; another view matches none of them.
    public static let ownerOnlyStatuses: Set<ListingStatus> = [.withdrawn, .hidden]

    /// Parses the query parameters but `q`, a full-text concern whose words the service
    /// passes in as `terms`; throws every bad one at once.
    public init(parameters: [String: String], terms: [String]?) throws(ListingError) {
        var problems: [String: [String]] = [:]
        func add(_ field: String, _ message: String) { problems[field, default: []].append(message) }
        let known: Set<String> = [
            "category", "free", "minPrice", "maxPrice", "currency", "status", "author", "q", "sort", "order", "limit", "cursor",
        ]
        for name in parameters.keys where !known.contains(name) { add(name, "is not a parameter of this query") }

        if let value = parameters["category"] {
            if ListingCategory(rawValue: value) == nil { add("category", "must be one of \(ListingCategory.names)") } else { category = value }
        }
        if let value = parameters["free"] {
            switch value {
            case "true": freeOnly = true
            case "false": freeOnly = false
            default: add("free", "must be true or false")
            }
        }
        for (name, keyPath) in [("minPrice", \FeedQuery.minPriceMinor), ("maxPrice", \FeedQuery.maxPriceMinor)] {
            guard let value = parameters[name] else { continue }
            if let number = Int(value), number >= 0 {
                self[keyPath: keyPath] = number
            } else {
                add(name, "must be a whole number of minor units, 0 or more")
            }
        }
        if let min = minPriceMinor, let max = maxPriceMinor, min > max { add("maxPrice", "must not be below minPrice") }
        if let value = parameters["currency"] {
            if ListingDraft.isCurrencyCode(value) { currency = value } else { add("currency", "must be an ISO 4217 code of three capital letters") }
        }
        if let value = parameters["author"] {
            if value == "me" { mine = true } else { add("author", "must be me") }
        }
        if let value = parameters["status"],
            value.count > Self.maximumStatusLength || value.split(separator: ",", omittingEmptySubsequences: false).count > Self.maximumStatuses
        {
            add("status", "must list at most \(Self.maximumStatuses) statuses in at most \(Self.maximumStatusLength) characters")
        } else if let value = parameters["status"] {
            let parsed = value.split(separator: ",", omittingEmptySubsequences: false).map { ListingStatus(rawValue: String($0)) }
            if parsed.contains(where: { $0 == nil }) {
                add("status", "must be a comma-separated list of \(ListingStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            } else {
                // Withdrawn and hidden listings are their owner's alone: another view asking
                // for them finds none, as it would find none of someone else's.
                statuses = parsed.compactMap { $0 }.filter { mine || !Self.ownerOnlyStatuses.contains($0) }
            }
        } else if mine {
            statuses = ListingStatus.allCases
        }
        if let terms, !terms.isEmpty {
            self.terms = terms
            sort = .relevance
        }
        if let value = parameters["sort"] {
            if let parsed = Sort(rawValue: value) {
                if parsed == .relevance, self.terms == nil { add("sort", "relevance needs q") } else { sort = parsed }
            } else {
                add("sort", "must be one of \(Sort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        order = sort.naturalOrder
        if let value = parameters["order"] {
            if let parsed = Order(rawValue: value) {
                if sort == .relevance, parsed != sort.naturalOrder {
                    add("order", "must be desc when sorting by relevance (best match first)")
                } else {
                    order = parsed
                }
            } else {
                add("order", "must be asc or desc")
            }
        }
        if let value = parameters["limit"] {
            if let number = Int(value), (1...Self.maximumLimit).contains(number) {
                limit = number
            } else {
                add("limit", "must be from 1 to \(Self.maximumLimit)")
            }
        }
        if let value = parameters["cursor"], problems.isEmpty {
            if let parsed = FeedCursor(value, queryHash: fingerprint) { cursor = parsed } else { add("cursor", "is not a cursor of this query") }
        }
        guard problems.isEmpty else { throw .invalid(problems) }
    }

    /// Whether the feed runs against its key's natural order (`sort=price&order=desc`, …).
    public var isReversed: Bool { order != sort.naturalOrder }

    /// A short hash of everything but the page, so that a cursor only continues its own query.
    /// The order counts only when reversed, so cursors made before `order` existed still
    /// continue their query.
    public var fingerprint: String {
        var parts: [String] = [
            category ?? "", "\(freeOnly)", minPriceMinor.map(String.init) ?? "", maxPriceMinor.map(String.init) ?? "",
            currency ?? "", statuses.map(\.rawValue).joined(separator: ","), "\(mine)", terms?.joined(separator: " ") ?? "", sort.rawValue,
        ]
        if isReversed { parts.append(order.rawValue) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "|").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 36)
    }
}
