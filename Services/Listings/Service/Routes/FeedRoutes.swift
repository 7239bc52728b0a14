import CommonsAPI
import Contracts
import Foundation
import GRDB
import Hummingbird
import ListingsDomain
import ServiceKit

extension ListingsAPI {
    /// What a kept feed page answers: the query, and for `mine` the caller it was mine to.
    struct FeedPageKey: Hashable, Sendable {
        var query: FeedQuery
        var caller: UUID?
    }

    /// How many words of `q` a feed search uses; later ones are ignored.
    static let maxSearchTerms = 20

    /// The feed query of `parameters`; 400 listing every bad field, `q` included.
    package static func feedQuery(_ parameters: [String: String]) throws -> FeedQuery {
        var problems: [String: [String]] = [:]
        var search: FullTextQuery?
        do throws(FullTextQuery.Invalid) { search = try FullTextQuery.parse(parameters["q"], maxTerms: maxSearchTerms) } catch {
            problems["q"] = [error.message]
        }
        do throws(ListingError) {
            let query = try FeedQuery(parameters: parameters, terms: search?.terms)
            if problems.isEmpty { return query }
        } catch {
            // A bad query string is a malformed request (400), as in geo-search, not invalid content.
            guard case .invalid(let more) = error else { throw error }
            problems.merge(more) { $0 + $1 }
        }
        throw Problem.malformed("The query has invalid fields.", errors: problems)
    }

    func addFeedRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/listings") { request, context in
            var parameters: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { parameters[String(name)] = String(value) }
            let query = try Self.feedQuery(parameters)
            let caller = query.mine ? try context.requireIdentity().accountId : context.identity?.accountId
            let now = clock.now()
            let key = FeedPageKey(query: query, caller: query.mine ? caller : nil)
            let (pages, fresh) = (feedPages, request.refusesKeptAnswers)
            if !fresh, let page = try FeedQueries.version.kept(in: runtime.readModel, { pages.answer(for: key, version: $0, at: now) }) {
                return Response.json(encoded: page)
            }
            return Response.json(
                encoded: try await runtime.readModel.pool.read { db in
                    let version = try FeedQueries.version.current(in: db)
                    if !fresh, let version, let page = pages.answer(for: key, version: version, at: now) { return page }
                    let (rows, next) = try FeedQueries.page(query, caller: caller, now: now, in: db)
                    let page = try ResponseJSON.encode(Page(items: rows.map { Listing(row: $0, now: now) }, nextCursor: next?.text))
                    if let version {
                        let until = try FeedQueries.nextExpiry(after: now, in: db) ?? .distantFuture
                        pages.store(page, for: key, version: version, valid: now..<until)
                    }
                    return page
                })
        }
        router.get("/v1/listings/changes") { request, context in
            var problems: [String: [String]] = [:]
            let since = request.query("since").map { Int64($0) } ?? 0
            if since == nil || since! < 0 { problems["since"] = ["must be a value of next from an earlier answer"] }
            let limit = request.query("limit").map { Int($0) } ?? 100
            if limit == nil || !(1...500).contains(limit!) { problems["limit"] = ["must be from 1 to 500"] }
            guard problems.isEmpty, let since, let limit else { throw Problem.malformed("The query has invalid fields.", errors: problems) }
            let items = try await runtime.readModel.pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT seq, listing_id, kind, status, changed_at FROM listing_changes WHERE seq > ? ORDER BY seq LIMIT ?",
                    arguments: [since, limit]
                ).map { row in
                    (
                        seq: row["seq"] as Int64,
                        change: ListingChangeEntry(
                            listingId: row["listing_id"], kind: row["kind"], status: (row["status"] as String?).map(CommonsAPI.ListingStatus.init),
                            changedAt: Date(timeIntervalSince1970: row["changed_at"]))
                    )
                }
            }
            return try Response.json(ListingChanges(items: items.map(\.change), next: String(items.last?.seq ?? since)))
        }
    }
}
