import CommonsAPI
import Foundation

/// `Data/listings.json` (or `COMMONS_LISTINGS_FILE`): the demo listings, their photos and
/// what the demo accounts say about them. Its `about` describes each field.
struct DemoListingFile: Decodable, Sendable {
    var listings: [Listing]

    struct Listing: Decodable, Sendable {
        /// The email of the demo account that posts it.
        var owner: String
        var title: String
        var description: String
        var category: String
        var condition: String
        /// Euro cents; nil: free.
        var priceMinor: Int?
        var place: Coordinate
        /// The pickup spot in words, sent as the street address.
        var spot: String
        var pickup: Pickup
        /// The drawing, `pictures/<picture>.svg` next to the file.
        var picture: String
        /// How many photos of the drawing to post.
        var photos: Int
        var colours: [String: String]?
        var requests: [Request]?
        /// The email of the requester the owner promises the item to.
        var promisedTo: String?
        var comments: [Comment]?
    }

    struct Pickup: Decodable, Sendable {
        var note: String
        var windows: [Window]
    }

    /// A pickup window `inDays` after the seeding day, from `from` to `to` (HH:mm) in Amsterdam.
    struct Window: Decodable, Sendable {
        var inDays: Int
        var from: String
        var to: String
    }

    struct Request: Decodable, Sendable {
        var from: String
        var message: String
        /// What the owner answers in the conversation the request opens.
        var reply: String?
    }

    struct Comment: Decodable, Sendable {
        var from: String
        var text: String
    }
}

extension DemoListingFile.Window {
    /// The window's start and end on the day `inDays` after `now` in `timeZone`, moved a day
    /// on when it would have ended already (a demo shows times still to come).
    func dates(after now: Date, in timeZone: TimeZone) -> (startsAt: Date, endsAt: Date)? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func time(_ text: String) -> (hour: Int, minute: Int)? {
            let parts = text.split(separator: ":").compactMap { Int($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        guard let from = time(from), let to = time(to), let day = calendar.date(byAdding: .day, value: inDays, to: calendar.startOfDay(for: now)),
            var start = calendar.date(bySettingHour: from.hour, minute: from.minute, second: 0, of: day),
            var end = calendar.date(bySettingHour: to.hour, minute: to.minute, second: 0, of: day)
        else { return nil }
        if end <= now {
            start = calendar.date(byAdding: .day, value: 1, to: start) ?? start
            end = calendar.date(byAdding: .day, value: 1, to: end) ?? end
        }
        return (start, end)
    }
}
