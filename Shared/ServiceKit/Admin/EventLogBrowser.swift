import Codecs
import Contracts
import EventLog
import Foundation
import Hummingbird

/// The event log as administrators browse it, under `/v1/admin/log` (served by `accounts`):
/// the log in order by category and type, one stream's history, and one event with its body
/// and metadata. Personal data stays as the log holds it, sealed with its owner's key: each
/// sealed value is listed with whether it can still be opened (`sealed`) or never again,
/// because the owner's key was destroyed with their account (`gone`). Nothing is opened.
public enum EventLogBrowser {
    /// The largest page, in events.
    public static let maximumLimit = 200

    struct EventView: Encodable {
        var event: ExportedEvent
        /// Each key that seals part of the body, and whether it still exists.
        var personalData: [SealedValue]
    }

    struct SealedValue: Encodable, Hashable {
        enum State: String, Encodable { case sealed, gone }
        var keyId: String
        var state: State
    }

    /// Which way a page of the log reads (`order`).
    enum Order: String, CaseIterable {
        /// Oldest first, after a checkpoint (`after`): the log as its readers read it.
        case oldest
        /// Newest first, before a checkpoint (`before`): the console's view, paging back.
        case newest
    }

    struct Page: Encodable {
        var events: [EventView]
        /// The checkpoint to go on from: oldest first, the next page's `after` (at the head,
        /// for what is appended later); newest first, the older page's `before`.
        var next: String
        /// Whether the page is full, so that more may follow at once.
        var more: Bool
    }

    struct History: Encodable {
        var stream: String
        var events: [EventView]
        /// The version to ask for the next page with (`from`); nil at the stream's end.
        var next: Int64?
    }

    /// Adds the routes, reading `runtime`'s log and asking its key vault which keys remain.
    public static func addRoutes(to router: Router<AppRequestContext>, runtime: ServiceRuntime) {
        router.get("/v1/admin/log/events") { request, context in
            _ = try context.requireAdmin()
            var errors: [String: [String]] = [:]
            var order = Order.oldest
            if let text = request.query("order") {
                if let value = Order(rawValue: text) { order = value } else { errors["order"] = ["must be oldest or newest"] }
            }
            let after = checkpoint(request, "after", &errors)
            let before = checkpoint(request, "before", &errors)
            if order == .oldest, before != nil { errors["before"] = ["goes with order=newest (oldest first pages on with after)"] }
            if order == .newest, after != nil { errors["after"] = ["goes with order=oldest (newest first pages back with before)"] }
            let limit = pageLimit(request, &errors)
            let filter = EventFilter(categories: names(request, "category", &errors), types: names(request, "type", &errors))
            guard errors.isEmpty else { throw Problem.malformed("The query has invalid fields.", errors: errors) }
            switch order {
            case .oldest:
                let page = try await runtime.store.readAll(after: after ?? .start, limit: limit, filter: filter)
                return try Response.json(
                    Page(events: try await views(page.events, runtime), next: page.checkpoint.description, more: page.events.count == limit))
            case .newest:
                let events = try await runtime.store.readAllBackwards(before: before, limit: limit, filter: filter)
                let next = events.last?.checkpoint ?? before ?? .start
                return try Response.json(Page(events: try await views(events, runtime), next: next.description, more: events.count == limit))
            }
        }

        router.get("/v1/admin/log/events/{id}") { _, context in
            _ = try context.requireAdmin()
            let id = try context.parameters.uuid("id")
            guard let event = try await runtime.store.event(id: id) else { throw Problem.notFound("No event \(id.lowercasedText).") }
            return try Response.json(try await views([event], runtime)[0])
        }

        router.get("/v1/admin/log/streams/{stream}") { request, context in
            _ = try context.requireAdmin()
            let stream = context.parameters.get("stream") ?? ""
            var errors: [String: [String]] = [:]
            let limit = pageLimit(request, &errors)
            var from: Int64 = 1
            if let text = request.query("from") {
                if let value = Int64(text), value >= 1 { from = value } else { errors["from"] = ["must be a version, 1 or more"] }
            }
            guard errors.isEmpty else { throw Problem.malformed("The query has invalid fields.", errors: errors) }
            // One more than asked tells whether there is a next page.
            let events = try await runtime.store.read(stream: stream, from: from, direction: .forwards, limit: limit + 1)
            guard !events.isEmpty || from > 1 else { throw Problem.notFound("No stream \(stream) in the log.") }
            let shown = Array(events.prefix(limit))
            return try Response.json(
                History(
                    stream: stream, events: try await views(shown, runtime), next: events.count > limit ? shown.last.map { $0.version + 1 } : nil))
        }
    }

    /// A checkpoint from a page's `next`; nil when absent.
    private static func checkpoint(_ request: Request, _ name: String, _ errors: inout [String: [String]]) -> Checkpoint? {
        guard let text = request.query(name) else { return nil }
        guard let checkpoint = Checkpoint(text) else {
            errors[name] = ["must be a checkpoint (transaction:position) from a page's next"]
            return nil
        }
        return checkpoint
    }

    /// `limit`: 1…``maximumLimit``, 50 when absent.
    private static func pageLimit(_ request: Request, _ errors: inout [String: [String]]) -> Int {
        guard let text = request.query("limit") else { return 50 }
        guard let limit = Int(text), (1...maximumLimit).contains(limit) else {
            errors["limit"] = ["must be a whole number from 1 to \(maximumLimit)"]
            return 50
        }
        return limit
    }

    /// A comma-separated list of at most 20 names of at most 100 characters; nil when absent.
    private static func names(_ request: Request, _ name: String, _ errors: inout [String: [String]]) -> Set<String>? {
        guard let text = request.query(name) else { return nil }
        let names = text.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        guard !names.isEmpty, names.count <= 20, names.allSatisfy({ $0.count <= 100 }) else {
            errors[name] = ["must be a comma-separated list of 1 to 20 names of at most 100 characters"]
            return nil
        }
        return Set(names)
    }

    /// Each event with its sealed values' states, asking the vault once per key.
    private static func views(_ events: [RecordedEvent], _ runtime: ServiceRuntime) async throws -> [EventView] {
        var states: [UUID: SealedValue.State] = [:]
        var views: [EventView] = []
        for event in events {
            var values: [SealedValue] = []
            for keyId in SealedValues.keyIds(in: event.data) {
                if states[keyId] == nil {
                    states[keyId] = try await runtime.keyVault.existingKey(for: keyId) == nil ? .gone : .sealed
                }
                values.append(SealedValue(keyId: keyId.lowercasedText, state: states[keyId] ?? .gone))
            }
            views.append(EventView(event: ExportedEvent(event), personalData: values))
        }
        return views
    }
}

/// Finds the values an event's body holds sealed (``Sealed``: an object of exactly `keyId`
/// and `box`), wherever they are nested.
enum SealedValues {
    /// The distinct keys that seal parts of `data`, in the order first met.
    static func keyIds(in data: Data) -> [UUID] {
        guard let body = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return [] }
        var found: [UUID] = []
        visit(body, &found)
        return found
    }

    private static func visit(_ value: Any, _ found: inout [UUID]) {
        if let object = value as? [String: Any] {
            if object.count == 2, let keyText = object["keyId"] as? String, object["box"] is String, let keyId = UUID(uuidString: keyText) {
                if !found.contains(keyId) { found.append(keyId) }
                return
            }
            for key in object.keys.sorted() { visit(object[key]!, &found) }
        } else if let array = value as? [Any] {
            for element in array { visit(element, &found) }
        }
    }
}
